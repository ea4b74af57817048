# Accelerator RTL library -- every entry point.
#
#   make               main job: tools, build, every block's default workload (RTL vs model),
#                      area summary, one summary table
#   make test          the regression; last line "N passed, N failed"
#   make lint          Verilator -Wall lint + Icarus -g2005 compile of every RTL module
#   make synth         Yosys area flow for every configuration in synth/configs.txt -> docs/area.md
#   make sim-<block>   the block's default workload (TRACE=1 for a waveform)
#   make test-<block>  the block's part of the regression
#   make bench         every benchmark table in docs/results; bench-<block> for one
#   make coverage      line/toggle coverage of the harness runs (build/coverage)
#
# Knobs: TRACE=1 (FST waveform of sim runs), SEED=N, LONG=1 (100x longer random runs),
#        JOBS=N (parallel builds/tests, default 2).
SHELL      := /bin/bash
BUILD      ?= build
TRACE      ?= 0
SEED       ?= 1
LONG       ?= 0
JOBS       ?= 2
COVERAGE   ?= 0
.DEFAULT_GOAL := all
export BUILD SEED LONG

BLOCKS := softermax neummu neunoc

# ---------------------------------------------------------------- tools
# Installs missing tools (apt: verilator iverilog yosys; pip: fusesoc); silent when present.
.PHONY: tools
tools:
	@scripts/install_tools.sh

# ---------------------------------------------------------------- C models
CC        ?= gcc
# -frounding-math: the float reference (cmodel/common/fpref.c) changes the rounding mode at run time.
CSTD      := -std=c11 -Wall -Wextra -Werror -ffp-contract=off -frounding-math -Icmodel/include
CMODEL_SRCS := $(wildcard cmodel/common/*.c) $(foreach b,$(BLOCKS),$(wildcard cmodel/$(b)/*.c))
SW_LIB_SRCS := $(foreach b,$(BLOCKS),$(wildcard sw/$(b)/lib*.c))
CMODEL_HDRS := $(wildcard cmodel/include/*.h) $(wildcard cmodel/*/*.h) $(wildcard sw/*/*.h)
CMODEL_LIB     := $(BUILD)/cmodel/libcmodel.a
CMODEL_SAN_LIB := $(BUILD)/cmodel/libcmodel_san.a
SAN := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all

$(BUILD)/cmodel/opt/%.o: %.c $(CMODEL_HDRS)
	@mkdir -p $(dir $@)
	@echo "  CC $@"
	@$(CC) $(CSTD) -O2 -Isw -c $< -o $@
$(BUILD)/cmodel/san/%.o: %.c $(CMODEL_HDRS)
	@mkdir -p $(dir $@)
	@echo "  CC $@"
	@$(CC) $(CSTD) -O1 -g $(SAN) -Isw -c $< -o $@
$(CMODEL_LIB): $(patsubst %.c,$(BUILD)/cmodel/opt/%.o,$(CMODEL_SRCS) $(SW_LIB_SRCS))
	@rm -f $@; ar rcs $@ $^
$(CMODEL_SAN_LIB): $(patsubst %.c,$(BUILD)/cmodel/san/%.o,$(CMODEL_SRCS) $(SW_LIB_SRCS))
	@rm -f $@; ar rcs $@ $^

# C unit tests (tests/test_*.c) are built with ASan/UBSan against the sanitized model.
CTEST_SRCS := $(wildcard tests/test_*.c)
CTESTS     := $(patsubst tests/%.c,$(BUILD)/tests/%,$(CTEST_SRCS))
$(BUILD)/tests/%: tests/%.c tests/test_check.h $(CMODEL_SAN_LIB) $(CMODEL_HDRS)
	@mkdir -p $(dir $@)
	@echo "  CC $@"
	@$(CC) $(CSTD) -O1 -g $(SAN) -Isw $< $(CMODEL_SAN_LIB) -lm -o $@

# Host tools (sw/<block>/*.c other than lib*.c), one binary each.
SW_TOOL_SRCS := $(filter-out $(SW_LIB_SRCS),$(foreach b,common $(BLOCKS),$(wildcard sw/$(b)/*.c)))
SW_TOOLS     := $(patsubst sw/%.c,$(BUILD)/sw/%,$(SW_TOOL_SRCS))
$(BUILD)/sw/%: sw/%.c $(CMODEL_LIB) $(CMODEL_HDRS)
	@mkdir -p $(dir $@)
	@echo "  CC $@"
	@$(CC) $(CSTD) -O2 -Isw $< $(CMODEL_LIB) -lm -o $@

# ---------------------------------------------------------------- Verilator harnesses
RTL_DIRS   := rtl/common $(addprefix rtl/,$(BLOCKS))
RTL_FILES  := $(foreach d,$(RTL_DIRS),$(wildcard $(d)/*.v))
RTL_INCS   := $(foreach d,$(RTL_DIRS),$(wildcard $(d)/*.vh))
VLT_WAIVER := rtl/lint_waivers.vlt
TB_LIB     := tb/common/tb_lib.cpp tb/common/tb_lib.h
VERILATOR  ?= verilator
VFLAGS     := --cc --exe --build -Wall --assert --trace-fst --x-assign unique --x-initial unique \
              -O3 -j $(JOBS) $(addprefix -y ,$(RTL_DIRS)) $(addprefix -I,$(RTL_DIRS)) $(VLT_WAIVER)
ifeq ($(COVERAGE),1)
VFLAGS += --coverage-line --coverage-toggle
endif

# The objects every harness shares -- Verilator's run-time library and tb_lib -- are compiled
# once into $(BUILD)/tb/_runtime and copied into each harness directory between Verilator's
# code generation and the C++ build (newer than the generated makefile, so make skips them):
# about 10 s of compiling saved per harness.
HARNESS_RT_OBJS := verilated.o verilated_fst_c.o verilated_threads.o tb_lib.o
HARNESS_CFLAGS = -O2 -I$(CURDIR)/tb/common -I$(CURDIR)/cmodel/include -I$(CURDIR)/sw
$(BUILD)/tb/_runtime/stamp: $(TB_LIB) $(VLT_WAIVER)
	@mkdir -p $(BUILD)/tb/_runtime
	@echo "  CXX harness run-time library"
	@$(VERILATOR) $(filter-out --build,$(VFLAGS)) --top-module cc_skid_buffer -Mdir $(BUILD)/tb/_runtime \
	  -CFLAGS "$(HARNESS_CFLAGS)" rtl/common/cc_skid_buffer.v $(CURDIR)/tb/common/tb_lib.cpp \
	  > $(BUILD)/tb/_runtime/build.log 2>&1 \
	  && $(MAKE) -s -C $(BUILD)/tb/_runtime -f Vcc_skid_buffer.mk $(HARNESS_RT_OBJS) >> $(BUILD)/tb/_runtime/build.log 2>&1 \
	  || { tail -30 $(BUILD)/tb/_runtime/build.log; exit 1; }
	@touch $@

# $(call HARNESS,name,top,harness.cpp,verilator flags e.g. -GVec=16)
# Builds $(BUILD)/tb/<name>/<name>; every RTL file is a dependency (cheap and never stale).
# $(call HARNESS_NOTRACE,...): the same without waveform support, compiling its own run-time
# objects (the shared ones are built for tracing); for large benchmark-only networks, whose trace
# code grows with every signal of every instance and would take most of their build time. Not
# added to HARNESSES (make test does not build them).
HARNESSES :=
define HARNESS
HARNESSES += $(1)
$(call HARNESS_RULE,$(1),$(2),$(3),$(4),trace)
endef
HARNESS_NOTRACE = $(call HARNESS_RULE,$(1),$(2),$(3),$(4),)

# $(call HARNESS_RULE,name,top,harness.cpp,flags,trace-or-empty)
define HARNESS_RULE
$(BUILD)/tb/$(1)/$(1): $(3) $(wildcard $(dir $(3))*.h) $(TB_LIB) $(RTL_FILES) $(RTL_INCS) $(CMODEL_LIB) $(CMODEL_HDRS) $(VLT_WAIVER) $(if $(5),$(BUILD)/tb/_runtime/stamp)
	@mkdir -p $(BUILD)/tb/$(1)
	@echo "  VERILATE $(1)$(if $(5),, (no tracing))"
	@$(VERILATOR) $(filter-out --build $(if $(5),,--trace-fst),$(VFLAGS)) --top-module $(2) $(4) -Mdir $(BUILD)/tb/$(1) -o $(1) \
	  -CFLAGS "$(HARNESS_CFLAGS)" \
	  -LDFLAGS "$(abspath $(CMODEL_LIB)) -lm -lz" \
	  $(filter %/$(2).v,$(RTL_FILES)) $(CURDIR)/$(3) $(CURDIR)/tb/common/tb_lib.cpp > $(BUILD)/tb/$(1)/build.log 2>&1 \
	  $(if $(5),&& cp $(addprefix $(BUILD)/tb/_runtime/,$(HARNESS_RT_OBJS)) $(BUILD)/tb/$(1)/) \
	  && $(MAKE) -s -C $(BUILD)/tb/$(1) -f V$(2).mk >> $(BUILD)/tb/$(1)/build.log 2>&1 \
	  || { tail -30 $(BUILD)/tb/$(1)/build.log; exit 1; }
endef

include tb/common/common.mk
include tb/fp/fp.mk
include $(foreach b,$(BLOCKS),tb/$(b)/$(b).mk)

HARNESS_BINS := $(foreach h,$(HARNESSES),$(BUILD)/tb/$(h)/$(h))
.PHONY: harnesses
harnesses: $(HARNESS_BINS)

# ---------------------------------------------------------------- lint
.PHONY: lint
lint: tools
	@scripts/lint.sh

# ---------------------------------------------------------------- synthesis
.PHONY: synth
synth: tools
	@python3 synth/run_synth.py --jobs $(JOBS) --out docs/area.md

# ---------------------------------------------------------------- regression
.PHONY: build-tests test
build-tests: tools
	@$(MAKE) -s --no-print-directory -j$(JOBS) $(CMODEL_LIB) $(CMODEL_SAN_LIB) $(CTESTS) $(SW_TOOLS) harnesses

test: build-tests
	@python3 tests/run_tests.py --jobs $(JOBS) tests/*.list

test-%: build-tests
	@python3 tests/run_tests.py --jobs $(JOBS) --block $* tests/*.list

# ---------------------------------------------------------------- main job and sims
.PHONY: all
all: build-tests
	@python3 scripts/main_job.py --jobs $(JOBS) --blocks "$(BLOCKS)"

sim-%: build-tests
	@python3 scripts/main_job.py --jobs 1 --blocks $* --trace $(TRACE) --no-synth

# ---------------------------------------------------------------- benchmarks
.PHONY: bench
bench: bench-fp $(addprefix bench-,$(BLOCKS))
bench-%: build-tests
	@mkdir -p $(BUILD)/bench
	@python3 scripts/bench_$*.py

# ---------------------------------------------------------------- coverage
.PHONY: coverage
coverage: tools
	@$(MAKE) --no-print-directory BUILD=$(BUILD)/cov COVERAGE=1 build-tests
	@python3 scripts/coverage.py --build $(BUILD)/cov

.PHONY: clean
clean:
	rm -rf $(BUILD)
