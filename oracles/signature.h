/* Signatures: the dedup identity of a finding (signature.c). */
#ifndef PT2FUZZ_SIGNATURE_H
#define PT2FUZZ_SIGNATURE_H
#include <stddef.h>
#include <stdint.h>
#include "../harness/result.h"
#include "verdict.h"

/* A finding's identity for dedup: xxHash64 of the kind, the class of
 * mismatch, the broken constraint (v->broken), the normalized exception
 * (type + message with numbers, addresses, paths and quoted names stripped)
 * of the mode that raised (for error-mismatch: eager's type, then compiled's
 * exception), and the sorted set of op names. */
uint64_t oracle_signature(const struct verdict *v, const struct run_result *r, const char *const *ops, unsigned nops);

/* The normalized form of an error message, as hashed (for tests and meta.json). */
void oracle_normalize_message(const char *msg, char *out, size_t n);

/* The normalized message with every run of expression-like words (made of
 * numbers, size symbols sN/uN, brackets and operators only: a shape
 * "[N, sN]", a sympy relation "N*(sN + N) > N") replaced by one '#': the form
 * findings are bucketed by (pipeline/bucket.h), where one bug's messages
 * differ in shapes and guard expressions. */
void oracle_bucket_message(const char *msg, char *out, size_t n);

#endif
