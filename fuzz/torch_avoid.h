/* What generation and mutation avoid on the torch a campaign runs
 * (mutators/avoid.h): a component holding an op that torch lacks (an op
 * row's `since`), always; unless known bugs are hunted, a component holding
 * the trigger of a known bug listed for that torch, and a near-invalid
 * graph's broken pair that a known bug or the campaign's findings
 * (fuzz/known_breaks.h) name. The served targets and the manager, which
 * makes their inputs, avoid the same. */
#ifndef PT2FUZZ_TORCH_AVOID_H
#define PT2FUZZ_TORCH_AVOID_H

/* torch(): the torch's version ("2.11.0+cu130"; "" while unknown, when
 * nothing is avoided). aoti: the campaign runs under --backend aoti, so a
 * known bug that needs that backend (config:backend=aoti) is avoided in
 * every graph, not only where a drawn configuration sets it. findings: the
 * campaign's findings folder. */
void torch_avoid_use(const char *(*torch)(void), int hunt_known, int aoti, const char *findings);

#endif
