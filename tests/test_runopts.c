/* The run options' defaults (pipeline/runopts.h): how many compile threads a
 * worker gets when --compile-threads is not given. */
#include "test.h"
#include "../pipeline/runopts.h"

TEST(one_job_keeps_inductors_own_compile_threads)
{
	CHECK_EQ(compile_threads_for(1, 16), 0);
	CHECK_EQ(compile_threads_for(0, 2), 0);
}

TEST(several_jobs_share_the_cores_between_their_compile_threads)
{
	CHECK_EQ(compile_threads_for(8, 16), 2);  /* 8 jobs on 16 cores: 2 threads each */
	CHECK_EQ(compile_threads_for(5, 16), 3);  /* what is left over is not split */
	CHECK_EQ(compile_threads_for(16, 16), 1); /* one job per core: one thread each */
}

TEST(more_jobs_than_cores_still_get_one_compile_thread_each)
{
	CHECK_EQ(compile_threads_for(8, 2), 1);
	CHECK_EQ(compile_threads_for(2, 2), 1);
	CHECK_EQ(compile_threads_for(4, -1), 1); /* sysconf could not tell */
}
