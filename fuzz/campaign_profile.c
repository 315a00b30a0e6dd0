/* The summary's profile line and stats/profile.tsv (campaign.h). */
#include <stdio.h>
#include "../pipeline/atomic_file.h"
#include "campaign.h"

void campaign_profile_report(const struct profile *jobs_run, unsigned jobs, uint64_t wall_usec, uint64_t startup_usec,
			     uint64_t triage_usec, FILE *f, const char *tsv)
{
	struct profile p = *jobs_run, shares;
	p.usec[PR_START] += (uint64_t)jobs * startup_usec; /* no job ran yet: every one waited */
	uint64_t total = profile_shares(&p, (uint64_t)jobs * wall_usec, &shares);
	double of = total ? 100.0 / (double)total : 0;
	struct atomic_file a;
	FILE *t = atomic_open(&a, tsv);
	fprintf(f, "  profile         %u job%s x %.0f s:", jobs, jobs == 1 ? "" : "s", (double)wall_usec / 1e6);
	for (unsigned k = 0; k < PR_COUNT; k++) {
		double s = (double)shares.usec[k] / 1e6, pct = (double)shares.usec[k] * of;
		fprintf(f, "%s %s %.1f s (%.1f%%)", k ? "," : "", profile_row_key(k), s, pct);
		if (t)
			fprintf(t, "%s\t%s\t%.3f\t%.2f\n", profile_row_key(k), profile_row_title(k), s, pct);
	}
	fprintf(f, "; beside them, background triage %.1f s\n", (double)triage_usec / 1e6);
	if (t) {
		fprintf(t, "triage\tbackground triage (in parallel, not in the shares)\t%.3f\t\n", (double)triage_usec / 1e6);
		atomic_commit(&a, 0);
	}
}
