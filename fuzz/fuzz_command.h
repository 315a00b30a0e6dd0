/* `pt2fuzz fuzz`: a campaign (fuzz/campaign.c); cli/main.c holds the table. */
#ifndef PT2FUZZ_FUZZ_COMMAND_H
#define PT2FUZZ_FUZZ_COMMAND_H

#define FUZZ_USAGE \
	"[--time SEC] [--out DIR] [--engine manager|fork] [--jobs N | --workers-per-gpu N] [--seeds DIR]\n" \
	"          [--sync DIR] [--merge-every SEC] [--sync-every SEC] [--stats-every SEC] [--triage-time SEC]\n" \
	"          [--findings DIR] [--near-invalid PCT] [--no-triage] [--no-lender] [--no-coverage] [--size N]\n" \
	"          [--components K] [run options]"
int cmd_fuzz(int argc, char **argv);

#endif
