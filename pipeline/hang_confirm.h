/* Hang confirmation. A run that outlasts its limit may be a slow compile on
 * a loaded machine (a campaign's jobs share its cores) rather than a hang.
 * So a hang in compiled mode is run again alone in a fresh worker given
 * HANG_RERUN_FACTOR times its limit, cut to what is left before the
 * configuration's hang_rerun_until_ms. Hanging again, it stands: confirmed
 * where the rerun had the full factor, unconfirmed where the deadline cut it
 * shorter; finishing, the rerun's verdict takes its place (slow): a pass, or
 * what that run found. Without the time for a longer rerun it stands,
 * unconfirmed. Policy: docs/oracle.md. */
#ifndef PT2FUZZ_HANG_CONFIRM_H
#define PT2FUZZ_HANG_CONFIRM_H
#include "check_job.h"

#define HANG_RERUN_FACTOR 3

/* After j ran on x and was judged into out: confirms a hang verdict by a
 * rerun that ends by until_ms (check_cfg's hang_rerun_until_ms). The rerun's
 * worker has x's configuration and no coverage, so x's map is untouched; its
 * time goes into x's profile. */
void hang_confirm(struct executor *x, const struct check_job *j, int64_t until_ms, struct check_result *out);

#endif
