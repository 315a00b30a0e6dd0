/* `pt2fuzz fuzz`: a campaign (fuzz/campaign.c); cli/main.c holds the table. */
#ifndef PT2FUZZ_FUZZ_COMMAND_H
#define PT2FUZZ_FUZZ_COMMAND_H

#define FUZZ_USAGE \
	"[--time SEC] [--out DIR] [--jobs N | --workers-per-gpu N] [--seeds DIR] [--sync DIR]\n" \
	"          [--sync-every SEC] [--stats-every SEC] [--triage-time SEC] [--findings DIR]\n" \
	"          [--near-invalid PCT] [--no-triage] [--no-coverage] [--size N] [--components K] [--seed N]\n" \
	"          [run options]"
int cmd_fuzz(int argc, char **argv);

#endif
