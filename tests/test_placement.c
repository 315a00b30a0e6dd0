/* Slot placement by free GPU memory (fuzz/placement.h): the choice among
 * GPUs, and nvidia-smi's lines read in CUDA's order. */
#include "test.h"
#include "../fuzz/placement.h"
#include <string.h>

#define NEED PLACEMENT_WORKER_MIB

TEST(placement_picks_the_gpu_with_most_free_memory)
{
	struct gpu_load g[3] = {{40000, 80000, 0}, {10000, 80000, 3}, {30000, 80000, 0}};
	CHECK_EQ(placement_pick(g, 3, NEED), 1); /* most free, though it holds the most slots */
	g[1].used_mib = 50000;
	CHECK_EQ(placement_pick(g, 3, NEED), 2);
	struct gpu_load sizes[2] = {{20000, 40000, 0}, {60000, 140000, 0}}; /* free memory, not a share */
	CHECK_EQ(placement_pick(sizes, 2, NEED), 1);
}

TEST(placement_breaks_ties_by_fewer_slots)
{
	/* free memory within one worker's need of each other: a tie */
	struct gpu_load g[3] = {{10000, 80000, 2}, {10100, 80000, 1}, {10050, 80000, 2}};
	CHECK_EQ(placement_pick(g, 3, NEED), 1);
	g[1].slots = 2; /* all equal: the lowest index */
	CHECK_EQ(placement_pick(g, 3, NEED), 0);
	/* a slot just started counts its need before its memory shows */
	struct gpu_load young[2] = {{0, 80000, 4}, {1000, 80000, 0}};
	CHECK_EQ(placement_pick(young, 2, NEED), 1);
}

TEST(placement_never_pushes_a_gpu_past_its_limit)
{
	unsigned long total = 80000, limit = total * PLACEMENT_FULL_PCT / 100;
	struct gpu_load at90[2] = {{limit, total, 0}, {60000, total, 5}};
	CHECK_EQ(placement_pick(at90, 2, NEED), 1); /* the emptier one is full */
	CHECK_EQ(placement_pick(at90, 1, NEED), -1);
	struct gpu_load edge[1] = {{limit - NEED, total, 0}}; /* the worker fills it to the limit exactly */
	CHECK_EQ(placement_pick(edge, 1, NEED), 0);
	edge[0].used_mib++;
	CHECK_EQ(placement_pick(edge, 1, NEED), -1);
}

TEST(placement_finds_no_room_on_full_gpus)
{
	struct gpu_load g[2] = {{76000, 80000, 1}, {75000, 80000, 0}};
	CHECK_EQ(placement_pick(g, 2, NEED), -1);
	struct gpu_load slots_only[1] = {{0, 8000, 3}}; /* 3 starting workers and one more: past 90% of 8 GB */
	CHECK_EQ(placement_pick(slots_only, 1, NEED), -1);
	CHECK_EQ(placement_pick(g, 0, NEED), -1);
}

TEST(placement_reads_nvidia_smi_lines_in_cuda_order)
{
	struct gpu_load g[4];
	char why[300];
	const char *text = "0, 1200, 81559\n1, 50000, 81559\n\n2, 300, 81559\n";
	CHECK_EQ(placement_parse(text, NULL, g, 4, why, sizeof why), 3);
	CHECK(g[1].used_mib == 50000 && g[1].total_mib == 81559 && g[2].used_mib == 300 && g[0].slots == 0);
	CHECK_EQ(placement_parse(text, "2,0", g, 4, why, sizeof why), 2); /* cuda:0 is GPU 2 */
	CHECK(g[0].used_mib == 300 && g[1].used_mib == 1200);
	CHECK_EQ(placement_parse(text, "", g, 4, why, sizeof why), 0); /* every GPU hidden */
	CHECK_EQ(placement_parse(text, "-1", g, 4, why, sizeof why), 0);
	CHECK_EQ(placement_parse(text, "1,-1,0", g, 4, why, sizeof why), 1);
	CHECK_EQ(placement_parse(text, "5", g, 4, why, sizeof why), -1);
	CHECK(strstr(why, "does not"));
	CHECK_EQ(placement_parse(text, "GPU-8f3e", g, 4, why, sizeof why), -1);
	CHECK(strstr(why, "index"));
	CHECK_EQ(placement_parse("0, [N/A], 81559\n", NULL, g, 4, why, sizeof why), -1);
	CHECK(strstr(why, "memory.used"));
	CHECK_EQ(placement_parse(text, NULL, g, 2, why, sizeof why), 2); /* at most max */
}
