/* Blame confirmation. A kernel that corrupts memory may not crash its own
 * run: the crash, or an eager failure, lands on a later program of the same
 * worker and would be filed against the wrong graph. So a worker crash, or
 * eager failing on a program eager should run (a valid graph, or a program
 * whose eager mode passed before), is run again alone in a fresh worker. If
 * it happens again, it stands. If not, the programs its worker ran before it
 * (the last BLAME_HISTORY) are replayed, most recent first, each in a fresh
 * worker and followed by the program: the one that crashes on its own, or
 * after which the program fails again, is the culprit. The program then
 * gets the verdict it had alone, and the culprit's result goes with it
 * (memory/later when the crash came in the program after it). Without a
 * culprit the verdict stays, marked unconfirmed. Policy: docs/oracle.md. */
#ifndef PT2FUZZ_BLAME_H
#define PT2FUZZ_BLAME_H
#include "check_job.h"

#define BLAME_HISTORY 8

/* After j ran on x and was judged into out: confirms out's verdict when it
 * needs it (out->blame). The replays run in workers of x's configuration
 * (never borrowed, no coverage; on CUDA under compute-sanitizer when it is
 * installed), so x's coverage map and values are untouched. */
void blame_confirm(const struct executor *x, const struct check_job *j, struct check_result *out);

/* Adds j to the history of x's current worker (a restarted worker starts an
 * empty one). */
void blame_remember(const struct executor *x, const struct check_job *j);

#endif
