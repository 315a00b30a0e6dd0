/* A small unit-test framework: TEST(name) { CHECK(...); } registers itself;
 * tests/run.c runs them all and prints the `N passed, N failed` line. */
#ifndef PT2FUZZ_TEST_H
#define PT2FUZZ_TEST_H
#include <stdint.h>

struct test_case {
	const char *name;
	void (*fn)(void);
	struct test_case *next;
};
void test_register(struct test_case *t);
int test_check(int ok, const char *expr, const char *file, int line);
int test_check_int(int64_t a, int64_t b, const char *ea, const char *eb, const char *file, int line);

#define TEST(nm)                                                                  \
	static void nm(void);                                                     \
	static struct test_case nm##_tc = {#nm, nm, 0};                           \
	__attribute__((constructor)) static void nm##_reg(void) { test_register(&nm##_tc); } \
	static void nm(void)

#define CHECK(cond) test_check(!!(cond), #cond, __FILE__, __LINE__)
#define CHECK_EQ(a, b) test_check_int((int64_t)(a), (int64_t)(b), #a, #b, __FILE__, __LINE__)

#endif
