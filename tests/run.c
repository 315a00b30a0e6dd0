/* Runs every registered test (optionally only those whose name contains
 * argv[1]); one line per test, then `N passed, N failed`. */
#include <stdio.h>
#include <string.h>
#include "test.h"

static struct test_case *head, **tail = &head;
static int failures_in_test;

void test_register(struct test_case *t)
{
	*tail = t;
	tail = &t->next;
}

int test_check(int ok, const char *expr, const char *file, int line)
{
	if (!ok) {
		if (failures_in_test < 5)
			fprintf(stderr, "  %s:%d: CHECK(%s) failed\n", file, line, expr);
		failures_in_test++;
	}
	return ok;
}

int test_check_int(int64_t a, int64_t b, const char *ea, const char *eb, const char *file, int line)
{
	if (a != b) {
		if (failures_in_test < 5)
			fprintf(stderr, "  %s:%d: %s == %lld, expected %s == %lld\n", file, line, ea, (long long)a,
				eb, (long long)b);
		failures_in_test++;
	}
	return a == b;
}

int main(int argc, char **argv)
{
	int passed = 0, failed = 0;
	for (struct test_case *t = head; t; t = t->next) {
		if (argc > 1 && !strstr(t->name, argv[1]))
			continue;
		failures_in_test = 0;
		t->fn();
		printf("%s %s\n", failures_in_test ? "FAIL" : "ok  ", t->name);
		if (failures_in_test)
			failed++;
		else
			passed++;
	}
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
