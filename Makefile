# pt2fuzz. `make` builds everything (`all`: build/pt2fuzz, the libFuzzer
# targets, the seeds, the benches; clang by default, CC=gcc builds all but the
# libFuzzer targets); `make test` runs every test; `make fuzz` runs a
# campaign. See README.md.

B := build
# The default goal is all, not the first rule below (the build tools' packages.mk).
.DEFAULT_GOAL := all

# A fresh machine: the build tools (clang, libFuzzer's runtime, xxHash,
# jansson) are installed before anything compiles. GNU make remakes an included makefile
# first and then starts over, so IS_CLANG below sees the clang just installed.
ifeq ($(filter clean sources,$(MAKECMDGOALS)),)
include $(B)/packages.mk
endif
$(B)/packages.mk: scripts/setup
	bash scripts/setup packages
	@mkdir -p $(dir $@) && echo '# written once scripts/setup had installed the build tools' >$@

ifeq ($(origin CC),default)
CC = clang
endif
IS_CLANG := $(shell $(CC) --version 2>/dev/null | grep -q clang && echo 1)

CSTD := -std=c11 -D_GNU_SOURCE -DXXH_INLINE_ALL # xxHash compiled in: binaries run on GPU nodes without it
WARN := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wno-missing-field-initializers
CFLAGS ?= -O2 -g
# The checkout's own path: the tools find build/runtime.env and the worker's
# Python sources through it (PT2FUZZ_HOME overrides at run time).
ROOTDEF := -DPT2FUZZ_ROOT='"$(CURDIR)"'
ALLCFLAGS := $(CSTD) $(WARN) $(ROOTDEF) $(CFLAGS)
SANFLAGS := -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
# jansson (JSON files) linked from its static archive: binaries run on GPU nodes without it.
JSON_LIBS := -l:libjansson.a
LDLIBS := $(JSON_LIBS) -lm

# Sources, by floor; arrows point down only:
#   cli (the command table) -> fuzz (campaigns, libFuzzer targets), triage (reduce, bisect, report)
#   fuzz, triage -> pipeline (check a graph, findings, options, the worker pool)
#   pipeline -> oracles (verdicts) -> harness (the worker; it owns the run record)
#   pipeline -> mutators; mutators, harness -> graph
#   graph and everything above it -> config (the compile settings' catalogue)
LIB_SRC := $(wildcard config/*.c graph/*.c graph/ops/*.c mutators/*.c oracles/*.c harness/*.c)
FUZZLIB_SRC := $(wildcard pipeline/*.c triage/*.c) $(filter-out fuzz/%_fuzzer.c,$(wildcard fuzz/*.c)) \
	$(filter-out cli/main.c,$(wildcard cli/*.c))
TEST_SRC := $(wildcard tests/*.c)
INTEG_SRC := tests/run.c tests/testkit.c $(wildcard tests/integration/*.c)
SEEDS_TXT := $(wildcard seeds/*.txt)
SEEDS_BIN := $(patsubst seeds/%.txt,$(B)/seeds/%.bin,$(SEEDS_TXT))

LIB_ASM := harness/worker_blob.S graph/emit_blob.S
EMIT_PY := graph/emit_imports.py graph/emit_special.py graph/emit_nonfinite.py graph/emit_fill.py graph/emit_model_init.py graph/emit_runner.py graph/emit_inference.py graph/emit_upcast.py
LIB_OBJ := $(patsubst %.c,$(B)/obj/%.o,$(LIB_SRC)) $(patsubst %.S,$(B)/obj/%.o,$(LIB_ASM))
FUZZLIB_ASM := cli/python_blob.S pipeline/known_bugs_blob.S
FUZZLIB_OBJ := $(patsubst %.c,$(B)/obj/%.o,$(FUZZLIB_SRC)) $(patsubst %.S,$(B)/obj/%.o,$(FUZZLIB_ASM))
CLI_OBJ := $(B)/obj/cli/main.o $(FUZZLIB_OBJ)
SAN_LIB_OBJ := $(patsubst %.c,$(B)/san/%.o,$(LIB_SRC)) $(patsubst %.S,$(B)/san/%.o,$(LIB_ASM))
SAN_TEST_OBJ := $(patsubst %.c,$(B)/san/%.o,$(TEST_SRC))
SAN_FUZZLIB_OBJ := $(patsubst %.c,$(B)/san/%.o,$(FUZZLIB_SRC)) $(patsubst %.S,$(B)/san/%.o,$(FUZZLIB_ASM))
SAN_INTEG_OBJ := $(patsubst %.c,$(B)/san/%.o,$(INTEG_SRC))

# The library's sources for builds outside make (scripts/oss-fuzz/build.sh).
sources:
	@echo $(LIB_SRC) $(LIB_ASM) $(FUZZLIB_SRC) $(FUZZLIB_ASM)

FUZZERS :=
ifeq ($(IS_CLANG),1)
FUZZERS := $(B)/decode_fuzzer $(B)/pt2fuzz_fuzzer
endif

BENCH := $(patsubst bench/%.c,$(B)/bench/%,$(wildcard bench/*.c))

.PHONY: all sources test unit-test fuzz-test integration-test setup clean seeds bench fuzz
all: $(B)/pt2fuzz $(FUZZERS) seeds bench

bench: $(BENCH)
$(B)/bench/%: bench/%.c $(LIB_OBJ) $(FUZZLIB_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(ALLCFLAGS) -o $@ $^ $(LDLIBS)

$(B)/obj/%.o: %.c Makefile
	@mkdir -p $(dir $@)
	$(CC) $(ALLCFLAGS) -MMD -MP -c $< -o $@

# The worker's Python source is linked into the binaries (.incbin).
$(B)/obj/harness/worker_blob.o $(B)/san/harness/worker_blob.o: harness/worker_blob.S harness/worker.py harness/worker_coverage.py harness/worker_decisions.py harness/worker_scratch.py harness/worker_nudged.py harness/aoti_runner.cpp
	@mkdir -p $(dir $@)
	$(CC) -c $< -o $@

# The emitted program's fixed Python, likewise.
$(B)/obj/graph/emit_blob.o $(B)/san/graph/emit_blob.o: graph/emit_blob.S $(EMIT_PY)
	@mkdir -p $(dir $@)
	$(CC) -c $< -o $@

# The cli's Python scripts (plot, opdb), likewise.
$(B)/obj/cli/python_blob.o $(B)/san/cli/python_blob.o: cli/python_blob.S cli/plot.py cli/opdb.py
	@mkdir -p $(dir $@)
	$(CC) -c $< -o $@

# The known upstream bugs (pipeline/known_bugs.h), likewise.
$(B)/obj/pipeline/known_bugs_blob.o $(B)/san/pipeline/known_bugs_blob.o: pipeline/known_bugs_blob.S pipeline/known_bugs.txt
	@mkdir -p $(dir $@)
	$(CC) -c $< -o $@

$(B)/san/%.o: %.c Makefile
	@mkdir -p $(dir $@)
	$(CC) $(CSTD) $(WARN) $(ROOTDEF) $(SANFLAGS) -MMD -MP -c $< -o $@

$(B)/pt2fuzz: $(CLI_OBJ) $(LIB_OBJ)
	$(CC) $(ALLCFLAGS) -o $@ $^ $(LDLIBS)

$(B)/unit_tests: $(SAN_TEST_OBJ) $(SAN_LIB_OBJ) $(SAN_FUZZLIB_OBJ)
	$(CC) $(SANFLAGS) -o $@ $^ $(LDLIBS)

# Tests against the real torch runtime (C, ASan+UBSan), run by tests/run_all.sh.
$(B)/integration_tests: $(SAN_INTEG_OBJ) $(SAN_LIB_OBJ) $(SAN_FUZZLIB_OBJ)
	$(CC) $(SANFLAGS) -o $@ $^ $(LDLIBS)

# The fuzzer proper: our code is not instrumented (libFuzzer's features are
# torch's compiler coverage, fed as extra counters); only linked with libFuzzer.
$(B)/pt2fuzz_fuzzer: $(B)/obj/fuzz/pt2fuzz_fuzzer.o $(LIB_OBJ) $(FUZZLIB_OBJ)
	$(CC) $(ALLCFLAGS) -fsanitize=fuzzer -o $@ $^ $(LDLIBS)

# libFuzzer targets: the decoder must never crash on any byte string.
$(B)/decode_fuzzer: fuzz/decode_fuzzer.c $(LIB_SRC) $(LIB_ASM) $(EMIT_PY)
	@mkdir -p $(dir $@)
	$(CC) $(CSTD) $(WARN) $(ROOTDEF) -O1 -g -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
		-o $@ fuzz/decode_fuzzer.c $(LIB_SRC) $(LIB_ASM) $(LDLIBS)

seeds: $(SEEDS_BIN)
$(B)/seeds/%.bin: seeds/%.txt $(B)/pt2fuzz
	@mkdir -p $(dir $@)
	$(B)/pt2fuzz parse $< --out $@

$(B)/runtime.env: scripts/setup scripts/torch-version
	bash scripts/setup

setup: $(B)/runtime.env

unit-test: $(B)/unit_tests
	$(B)/unit_tests

# 300,000 decoder inputs under ASan+UBSan, from the seeds and 50 generated
# graphs, 20 of them near-invalid.
fuzz-test: $(B)/decode_fuzzer $(B)/pt2fuzz seeds
	@rm -rf $(B)/decode_corpus && mkdir -p $(B)/decode_corpus
	cp $(SEEDS_BIN) $(B)/decode_corpus/
	$(B)/pt2fuzz gen --seed 1 --count 30 --size 12 --out $(B)/decode_corpus
	$(B)/pt2fuzz gen --seed 2 --count 20 --size 12 --near-invalid 100 --out $(B)/decode_corpus
	$(B)/decode_fuzzer -runs=300000 -max_len=8192 -seed=1 $(B)/decode_corpus

integration-test: $(B)/integration_tests $(B)/runtime.env
	$(B)/integration_tests

# The main job: a bounded campaign (FUZZ_TIME seconds, default 600) from the
# seeds into FUZZ_OUT (default out/), on the GPU when torch sees one.
FUZZ_TIME ?= 600
FUZZ_OUT ?= out
fuzz: all $(B)/runtime.env
	$(B)/pt2fuzz fuzz --time $(FUZZ_TIME) --out $(FUZZ_OUT) $(FUZZ_ARGS)

test: all $(B)/unit_tests $(B)/integration_tests $(FUZZERS) $(B)/runtime.env
	bash tests/run_all.sh

clean:
	rm -rf $(B)/obj $(B)/san $(B)/bench $(B)/pt2fuzz $(B)/unit_tests $(B)/decode_fuzzer $(B)/seeds

-include $(shell find $(B)/obj $(B)/san -name '*.d' 2>/dev/null)
