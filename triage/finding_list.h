/* The finding folders of a findings directory, for the commands that take
 * one whole (triage, recheck). */
#ifndef PT2FUZZ_FINDING_LIST_H
#define PT2FUZZ_FINDING_LIST_H

#define FINDING_NAME_MAX 64

/* The names of DIR's subfolders that hold a meta.json, sorted, at most cap
 * (longer names cut to FINDING_NAME_MAX - 1 bytes). The count, or -1 when
 * DIR cannot be read (errno set). */
int finding_list(const char *dir, char (*names)[FINDING_NAME_MAX], unsigned cap);

#endif
