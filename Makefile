# Accelerator RTL library -- every entry point.
#
#   make               main job: tools, build, every block's default workload (RTL vs model),
#                      area summary, one summary table
#   make test          the regression; last line "N passed, N failed"
#   make lint          Verilator -Wall lint + Icarus -g2005 compile of every RTL module
#   make synth         Yosys area flow of every block's synthesis configurations -> docs/area.md
#   make fpga          Yosys + nextpnr place and route (Fmax, utilization) -> docs/fpga.md
#   make sim-<block>   the block's default workload (TRACE=1 for a waveform)
#   make test-<block>  the block's part of the regression (builds only what it needs)
#   make bench         every benchmark table in docs/results; bench-<block> for one
#   make coverage      line/toggle coverage of the harness runs (build/coverage)
#   make formal        formal proofs of the shared handshake cells, each with a seeded bug that
#                      must fail -> docs/formal.md (FORMAL_ARGS="<proof> ..." for some)
#   make mutate        mutation testing: RTL mutants vs the regression, score per block
#                      -> docs/mutation.md (MUTATE_ARGS="--block <b> --count N --seed S")
#   make fuzz          libFuzzer on every file reader and host-tool front end, FUZZ_TIME s each
#                      (default 60; FUZZ_TARGETS="<t> ..." for some) -> docs/fuzz.md
#   make new-block NAME=x   scaffold a new block (scripts/new_block.py)
#
# Knobs: TRACE=1 (FST waveform of sim runs), SEED=N, LONG=1 (100x longer random runs),
#        JOBS=N (parallel builds/tests, default 2).
#
# This file names no block: every block describes itself in rtl/<block>/block.toml
# (docs/conventions.md), and scripts/blocks.py turns the descriptions into $(BUILD)/blocks.mk.
SHELL      := /bin/bash
BUILD      ?= build
TRACE      ?= 0
SEED       ?= 1
LONG       ?= 0
JOBS       ?= 2
COVERAGE   ?= 0
.DEFAULT_GOAL := all
export BUILD SEED LONG

# ---------------------------------------------------------------- tools
# Installs missing tools (apt: verilator iverilog yosys nextpnr-ice40 fpga-icestorm; pip: fusesoc); silent when present.
.PHONY: tools
tools:
	@scripts/install_tools.sh

# ---------------------------------------------------------------- C models
CC        ?= gcc
# -frounding-math: the float reference (cmodel/common/fpref.c) changes the rounding mode at run time.
CSTD      := -std=c11 -Wall -Wextra -Werror -ffp-contract=off -frounding-math -Icmodel/include -Isw
SAN := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all

# Each block's model library $(BUILD)/cmodel/lib<block>.a holds the shared model code
# (cmodel/common) and the block's own (cmodel/<block>, sw/<block>/lib*.c); harnesses and tools
# of a block link only their block's library, so they rebuild only when it changes. Object
# dependencies are on the shared headers and the block's own (MODEL_HDRS_<block>).
# $(call MODEL_LIB_RULE,block)
define MODEL_LIB_RULE
MODEL_LIB_$(1) := $(BUILD)/cmodel/lib$(1).a
$(patsubst %.c,$(BUILD)/cmodel/opt/%.o,$(MODEL_SRCS_$(1))): $(MODEL_HDRS_$(1))
$(BUILD)/cmodel/lib$(1).a: $(patsubst %.c,$(BUILD)/cmodel/opt/%.o,$(MODEL_SRCS_common) $(if $(filter common,$(1)),,$(MODEL_SRCS_$(1))))
	@rm -f $$@; ar rcs $$@ $$^
endef
$(BUILD)/cmodel/opt/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC $@"
	@$(CC) $(CSTD) -O2 -c $< -o $@

# The C unit tests (tests/test_*.c) are built with ASan/UBSan against a sanitized build of every
# model (they are cheap; one library for all). Their header dependencies are the compiler's own
# (-MMD), so a new block's header rebuilds only what includes it.
ALL_MODEL_SRCS = $(wildcard cmodel/*/*.c) $(wildcard sw/*/lib*.c)
MODEL_SAN_LIB  := $(BUILD)/cmodel/libmodels_san.a
$(BUILD)/cmodel/san/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC $@"
	@$(CC) $(CSTD) -O1 -g $(SAN) -MMD -MP -c $< -o $@
$(MODEL_SAN_LIB): $(patsubst %.c,$(BUILD)/cmodel/san/%.o,$(ALL_MODEL_SRCS))
	@rm -f $@; ar rcs $@ $^
CTEST_SRCS := $(wildcard tests/test_*.c)
CTESTS     := $(patsubst tests/%.c,$(BUILD)/tests/%,$(CTEST_SRCS))
$(CTESTS:=.o): $(BUILD)/tests/%.o: tests/%.c
	@mkdir -p $(dir $@)
	@echo "  CC $@"
	@$(CC) $(CSTD) -O1 -g $(SAN) -MMD -MP -c $< -o $@
$(CTESTS): $(BUILD)/tests/%: $(BUILD)/tests/%.o $(MODEL_SAN_LIB)
	@$(CC) $(SAN) $< $(MODEL_SAN_LIB) -lm -o $@
-include $(wildcard $(BUILD)/cmodel/san/*/*/*.d $(BUILD)/tests/*.d)

# Host tools: every sw/<block>/*.c other than lib*.c is one tool, linked with its block's
# model library (the prerequisites come from $(BUILD)/blocks.mk).
$(BUILD)/sw/%: sw/%.c
	@mkdir -p $(dir $@)
	@echo "  CC $@"
	@$(CC) $(CSTD) -O2 $< $(filter %.a,$^) -lm -o $@
# ... and each again under ASan/UBSan in $(BUILD)/sw-san, linked with the sanitized models: the
# regression runs every test's tools from there (tests/run_tests.py --san-tools), the benches
# and `make` the optimized ones.
TOOLS_SAN = $(patsubst $(BUILD)/sw/%,$(BUILD)/sw-san/%,$(TOOLS))
$(BUILD)/sw-san/%: sw/%.c $(MODEL_SAN_LIB)
	@mkdir -p $(dir $@)
	@echo "  CC $@ (ASan/UBSan)"
	@$(CC) $(CSTD) -O1 -g $(SAN) -MMD -MP $< $(MODEL_SAN_LIB) -lm -o $@
-include $(wildcard $(BUILD)/sw-san/*/*.d)

# ---------------------------------------------------------------- Verilator harnesses
TB_LIB     := tb/common/tb_lib.cpp tb/common/tb_lib.h
VERILATOR  ?= verilator
VFLAGS     := --cc --exe --build -Wall --assert --trace-fst --x-assign unique --x-initial unique \
              -O3 -j $(JOBS)
ifeq ($(COVERAGE),1)
VFLAGS += --coverage-line --coverage-toggle
endif

# The objects every harness shares -- Verilator's run-time library and tb_lib -- are compiled
# once into $(BUILD)/tb/_runtime and copied into each harness directory between Verilator's
# code generation and the C++ build (newer than the generated makefile, so make skips them):
# about 10 s of compiling saved per harness.
HARNESS_RT_OBJS := verilated.o verilated_fst_c.o verilated_threads.o tb_lib.o
# No -O here: Verilator's own levels apply -- OPT_FAST (-Os) for the per-cycle code and the
# harness, OPT_GLOBAL (-Os) for its run-time library, and no optimisation for the __Slow files
# (construction, initial blocks, waveform set-up; run once), which are half the generated code.
# An -O2 in -CFLAGS reached only those files (the later -Os wins elsewhere) and tripled their
# compile time for no simulation speed.
HARNESS_CFLAGS = -I$(CURDIR)/tb/common -I$(CURDIR)/cmodel/include -I$(CURDIR)/sw
# The generated C++ compiles through ccache when it is installed (scripts/install_tools.sh):
# Verilator's output is the same for the same RTL and flags, so a rebuild -- also in another
# clone (paths are taken relative to the repository: CCACHE_BASEDIR, no directory in the hash)
# -- is a cache hit.  OBJCACHE= (empty) turns it off.
OBJCACHE_CMD = $${OBJCACHE-$$(command -v ccache 2>/dev/null)}
export CCACHE_BASEDIR := $(CURDIR)
export CCACHE_NOHASHDIR := true
# $(call RUNTIME_RULE,dir,flags-filtered-out,objects): the shared run-time objects, built once
# in $(BUILD)/tb/<dir> from a small model with the same Verilator flags as the harnesses.
define RUNTIME_RULE
$(BUILD)/tb/$(1)/stamp: $(TB_LIB) rtl/common/cc_skid_buffer.v
	@mkdir -p $(BUILD)/tb/$(1)
	@echo "  CXX harness run-time library ($(1))"
	@$(VERILATOR) $(filter-out --build $(2),$(VFLAGS)) --top-module cc_skid_buffer -y rtl/common -Mdir $(BUILD)/tb/$(1) \
	  -CFLAGS "$(HARNESS_CFLAGS)" rtl/common/cc_skid_buffer.v $(CURDIR)/tb/common/tb_lib.cpp \
	  > $(BUILD)/tb/$(1)/build.log 2>&1 \
	  && $(MAKE) -s -C $(BUILD)/tb/$(1) -f Vcc_skid_buffer.mk OBJCACHE="$$(OBJCACHE_CMD)" $(3) >> $(BUILD)/tb/$(1)/build.log 2>&1 \
	  || { tail -30 $(BUILD)/tb/$(1)/build.log; exit 1; }
	@touch $$@
endef
# With waveform support (the regression's harnesses) and without (the benchmark networks and
# other harnesses with trace = false, which also use Verilator's DPI library): the second saves
# the same 10-15 s per bench harness, 31 of them in the Neu-NoC bench (their -D flags differ
# per harness, so ccache could not share these objects between them).
HARNESS_RT_OBJS_NT := verilated.o verilated_threads.o verilated_dpi.o tb_lib.o
$(eval $(call RUNTIME_RULE,_runtime,,$(HARNESS_RT_OBJS)))
$(eval $(call RUNTIME_RULE,_runtime_nt,--trace-fst,$(HARNESS_RT_OBJS_NT)))

# $(call HARNESS_RULE,name,top,harness.cpp,verilator flags,dependencies,block,trace-or-empty,top-file)
# Builds $(BUILD)/tb/<name>/<name> from the harness's block description; it depends on the
# block's own RTL, the shared cells, the block's model library and its harness sources only.
# Without 'trace' (benchmark-only networks) it is built without waveform support and copies
# the run-time objects built without it ($(BUILD)/tb/_runtime_nt). A top-file (hierarchical
# bench harnesses, 'hier' in block.toml) replaces the block's top source: a generated copy with
# the harness's parameters as defaults (scripts/blocks.py, hier_files). The build's wall time
# goes to $(BUILD)/tb/<name>/build_seconds (the Neu-NoC bench reports it per network size).
# Harnesses without tracing (the benchmark networks: long runs) compile the per-cycle code with
# OPT_FAST=-O2 instead of Verilator's -Os: on the Neu-NoC 10 x 10 mesh and 4 x 4 ring networks
# the runs took 13-15% less time, and the C++ compile took as long.
define HARNESS_RULE
$(BUILD)/tb/$(1)/$(1): $(5) $(TB_LIB) $$(MODEL_LIB_$(6)) $$(MODEL_HDRS_$(6)) $(if $(7),$(BUILD)/tb/_runtime/stamp,$(BUILD)/tb/_runtime_nt/stamp)
	@mkdir -p $(BUILD)/tb/$(1)
	@echo "  VERILATE $(1)$(if $(7),, (no tracing))"
	@date +%s > $(BUILD)/tb/$(1)/build_start
	@$(VERILATOR) $(filter-out --build $(if $(7),,--trace-fst),$(VFLAGS)) --top-module $(2) $(4) -Mdir $(BUILD)/tb/$(1) -o $(1) \
	  -CFLAGS "$(HARNESS_CFLAGS)" \
	  -LDFLAGS "$$(abspath $$(MODEL_LIB_$(6))) -lm -lz" \
	  $(if $(8),$(8),$$(sort $$(filter %/$(2).v,$$(RTL_$(6)) $$(RTL_common)))) $(CURDIR)/$(3) $(CURDIR)/tb/common/tb_lib.cpp > $(BUILD)/tb/$(1)/build.log 2>&1 \
	  && cp $(if $(7),$(addprefix $(BUILD)/tb/_runtime/,$(HARNESS_RT_OBJS)),$(addprefix $(BUILD)/tb/_runtime_nt/,$(HARNESS_RT_OBJS_NT))) $(BUILD)/tb/$(1)/ \
	  && $(MAKE) -s -C $(BUILD)/tb/$(1) -f V$(2).mk OBJCACHE="$$(OBJCACHE_CMD)" $(if $(7),,OPT_FAST=-O2) >> $(BUILD)/tb/$(1)/build.log 2>&1 \
	  || { tail -30 $(BUILD)/tb/$(1)/build.log; exit 1; }
	@echo $$$$(( $$$$(date +%s) - $$$$(cat $(BUILD)/tb/$(1)/build_start) )) > $(BUILD)/tb/$(1)/build_seconds
endef

# $(call HARNESS_SAN_RULE,name,top,block): $(BUILD)/tb/<name>/<name>-san, the harness with its
# own C++ and the C models under ASan/UBSan, linked with the normal build's Verilated objects
# (tb/common/tb_san.mk; one configuration of each harness source, `sanitize = true` in the
# block description).
define HARNESS_SAN_RULE
$(BUILD)/tb/$(1)/$(1)-san: $(BUILD)/tb/$(1)/$(1) $(MODEL_SAN_LIB) tb/common/tb_san.mk
	@echo "  CXX $(1)-san (ASan/UBSan)"
	@$(MAKE) -s -C $(BUILD)/tb/$(1) -f V$(2).mk -f $(CURDIR)/tb/common/tb_san.mk \
	  OBJCACHE="$$(OBJCACHE_CMD)" SAN_BIN=$(1)-san SAN_FLAGS="$(SAN)" \
	  MODEL_LIB=$$(abspath $$(MODEL_LIB_$(3))) SAN_MODEL_LIB=$$(abspath $(MODEL_SAN_LIB)) \
	  $(1)-san > $(BUILD)/tb/$(1)/build_san.log 2>&1 \
	  || { tail -30 $(BUILD)/tb/$(1)/build_san.log; exit 1; }
endef

# ---------------------------------------------------------------- the block descriptions
BLOCK_DESCS := $(wildcard rtl/*/block.toml)
$(BUILD)/blocks.mk: scripts/blocks.py $(BLOCK_DESCS) $(wildcard rtl/*/*.v rtl/*/lint.vlt)
	@mkdir -p $(BUILD)
	@python3 scripts/blocks.py make $(BUILD) > $@.tmp && mv $@.tmp $@
include $(BUILD)/blocks.mk
# A harness's flags stamp (and a hierarchical harness's generated top) are written with
# $(BUILD)/blocks.mk; when the harness's directory was removed, they are written again.
$(BUILD)/tb/%/flags.txt:
	@python3 scripts/blocks.py make $(BUILD) > /dev/null

.PHONY: harnesses
harnesses: $(HARNESS_BINS)

# ---------------------------------------------------------------- lint
.PHONY: lint
lint: tools
	@python3 scripts/lint.py

# ---------------------------------------------------------------- synthesis
.PHONY: synth
synth: tools
	@python3 synth/run_synth.py --jobs $(JOBS) --out docs/area.md

# ---------------------------------------------------------------- FPGA place and route
# Yosys + nextpnr (iCE40 UP5K/HX8K, ECP5-85k) of every block's `fpga` configurations, one
# place-and-route at a time -> docs/fpga.md (not part of `make test`; its smoke test is).
.PHONY: fpga fpga-tools
fpga-tools:
	@scripts/install_tools.sh fpga
fpga: fpga-tools
	@python3 scripts/fpga.py --out docs/fpga.md

# ---------------------------------------------------------------- regression
.PHONY: build-tests test
build-tests: tools
	@$(MAKE) -s --no-print-directory -j$(JOBS) $(MODEL_LIBS) $(MODEL_SAN_LIB) $(CTESTS) $(TOOLS) $(TOOLS_SAN) harnesses

# Project lists (those no block claims: lint, synth, structure) and then the blocks' lists; the
# runner starts the longest entries first (tests/durations.txt).
PROJECT_LISTS = $(filter-out $(LISTS),$(wildcard tests/*.list))
# REGRESSION_T0: when make started (read as the Makefile is parsed, before any build), so the
# runner can say how long the whole of make test took, builds included.
ifneq ($(filter test,$(MAKECMDGOALS)),)
REGRESSION_T0 := $(shell date +%s)
endif
test: build-tests
	@REGRESSION_T0=$(REGRESSION_T0) python3 tests/run_tests.py --jobs $(JOBS) \
	  --san-tools $(BUILD)/sw-san $(PROJECT_LISTS) $(LISTS)

# test-<block> (from blocks.mk) runs the block's lists and builds only what they need; any
# other group of the lists' first column (lint, synth, structure) runs with test-<group>.
test-%: build-tests
	@python3 tests/run_tests.py --jobs $(JOBS) --san-tools $(BUILD)/sw-san --block $* tests/*.list

# ---------------------------------------------------------------- main job and sims
.PHONY: all
all: build-tests
	@python3 scripts/main_job.py --jobs $(JOBS)

# ---------------------------------------------------------------- benchmarks
.PHONY: bench
bench: $(addprefix bench-,$(BENCH_BLOCKS))

# ---------------------------------------------------------------- mutation testing
# Source-level mutants of every block's RTL (mutant schemata: one instrumented build per
# harness), each run against the regression entries of the harnesses that elaborate its file;
# killed-lint / killed-test / survived / equivalent and the score per block -> docs/mutation.md
# and $(BUILD)/mutate/results.json (scripts/mutate.py). Long: MUTATE_ARGS picks blocks, count,
# seed and parallel runs (--jobs).
.PHONY: mutate
MUTATE_ARGS ?=
mutate: build-tests
	@python3 scripts/mutate.py $(MUTATE_ARGS)

# ---------------------------------------------------------------- formal proofs
# k-induction proofs of the shared handshake cells (Yosys, yosys-smtbmc, z3) and, per proof, a
# seeded bug that must make it fail (scripts/formal.py -> docs/formal.md, $(BUILD)/formal).
# FORMAL_ARGS: proof names or patterns, --no-bugs, --list.
.PHONY: formal
FORMAL_ARGS ?=
formal: tools
	@python3 scripts/formal.py --jobs $(JOBS) $(FORMAL_ARGS)

# ---------------------------------------------------------------- fuzzing
# One libFuzzer target per file reader and per host tool (tests/fuzz/targets.toml), built with
# clang-14 and ASan/UBSan into $(BUILD)/fuzz, each fuzzed FUZZ_TIME seconds, one at a time;
# findings go to the regression corpus tests/fuzz/corpus/<target>/, which the smoke of
# `make test` (tests/fuzz.list) replays (scripts/fuzz.py, docs/fuzz.md).
.PHONY: fuzz
FUZZ_TIME    ?= 60
FUZZ_TARGETS ?=
fuzz: tools
	@python3 scripts/fuzz.py --jobs $(JOBS) run --time $(FUZZ_TIME) $(FUZZ_TARGETS)

# ---------------------------------------------------------------- coverage
.PHONY: coverage
coverage: tools
	@$(MAKE) --no-print-directory BUILD=$(BUILD)/cov COVERAGE=1 build-tests
	@python3 scripts/coverage.py --build $(BUILD)/cov

# ---------------------------------------------------------------- scaffold
.PHONY: new-block
new-block:
	@python3 scripts/new_block.py $(NAME)

.PHONY: clean
clean:
	rm -rf $(BUILD)
