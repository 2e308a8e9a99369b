# tensix-harness — one GNU Makefile.
#   make              build the model library, tools and the conformance runner (release)
#   make test         everything: release + ASan/UBSan builds, symbol audit, unit tests,
#                     conformance in both modes, corpus/reproducer replay through every target
#   make conformance [VEC=PATH]   run .vec files (a file, or every .vec below a directory)
#   make fuzz         short campaign on the embedded default (see README)
#   make bench        throughput figures, measured side by side
# Build directories are per flag set: build/release, build/asan, build/fuzz, ...

SHELL := /bin/bash
CC ?= cc
ifeq ($(origin CC),default)
CC := cc
endif
WARN := -std=c11 -Wall -Wextra -Werror -Wshadow -Wswitch-enum -Wcast-qual \
        -Wstrict-prototypes -Wundef -Wvla -Wno-missing-field-initializers
CPPFLAGS := -Imodel -Imodel/text -Iconformance -Icommon -D_POSIX_C_SOURCE=200809L
REL_CFLAGS := $(WARN) -O2 -g
ASAN_CFLAGS := $(WARN) -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined \
               -fno-sanitize-recover=all
ASAN_LDFLAGS := -fsanitize=address,undefined

# the machine (model/) and its text layer (model/text/: assembler, listings, .vec, locations);
# objects are named by the file alone (build/FLAVOUR/model/asm.o), each rule below has a twin for
# model/text/
MODEL_SRC := $(wildcard model/*.c model/text/*.c)
MODEL_HDR := $(wildcard model/*.h model/*.def model/text/*.h)
MODEL_OBJ := $(notdir $(MODEL_SRC:.c=.o))
TEST_SRC  := $(wildcard tests/test_*.c)
TOOL_SRC  := tools/ttasm.c
# the runner and the implementation-under-test layer (conformance/ttdut.h)
DUT_SRC := conformance/dut_check.c conformance/dut_model.c conformance/dut_proc.c conformance/dut_proto.c \
           conformance/vec_json.c
DUT_HDR := $(wildcard conformance/*.h) common/files.h
RUNNER_SRC := conformance/runner.c $(DUT_SRC)
VEC ?= conformance

.PHONY: dut-build dut-test json-roundtrip-test
# the suite as JSON (ttconf --export-json), back to .vec and through the runner again
json-roundtrip-test: build/release/ttconf build/asan/ttconf
	bash tests/json_roundtrip.sh build/release
	bash tests/json_roundtrip.sh build/asan
.PHONY: all test test-tools conformance conformance-test fuzz bench reports clean audit unit exhaustive replay sensitivity ttrun-test \
        reports-conformance sensitivity-build
.DELETE_ON_ERROR:

all: build/release/ttasm build/release/ttconf build/release/ttrun

# ---- per-flavour rules ---------------------------------------------------------------------
define FLAVOUR
build/$(1)/model/%.o: model/%.c $(MODEL_HDR) | build/$(1)/model
	$$(CC) $$(CPPFLAGS) $(2) -c $$< -o $$@
build/$(1)/model/%.o: model/text/%.c $(MODEL_HDR) | build/$(1)/model
	$$(CC) $$(CPPFLAGS) $(2) -c $$< -o $$@
build/$(1)/libtt.a: $$(addprefix build/$(1)/model/,$$(MODEL_OBJ))
	rm -f $$@ && ar rcs $$@ $$^
build/$(1)/ttasm: $$(TOOL_SRC) build/$(1)/libtt.a $$(MODEL_HDR)
	$$(CC) $$(CPPFLAGS) $(2) $$< build/$(1)/libtt.a $(3) -o $$@
build/$(1)/ttconf: $$(RUNNER_SRC) build/$(1)/libtt.a $$(MODEL_HDR) $$(DUT_HDR)
	$$(CC) $$(CPPFLAGS) $(2) $$(RUNNER_SRC) build/$(1)/libtt.a $(3) -ldl -o $$@
build/$(1)/ttdut-serve: conformance/dut_serve.c $$(DUT_SRC) build/$(1)/libtt.a $$(MODEL_HDR) $$(DUT_HDR)
	$$(CC) $$(CPPFLAGS) $(2) conformance/dut_serve.c $$(DUT_SRC) build/$(1)/libtt.a $(3) -ldl -o $$@
build/$(1)/ttrun: $$(wildcard tools/ttrun*.c) tools/ttrun.h common/files.h build/$(1)/libtt.a $$(MODEL_HDR)
	$$(CC) $$(CPPFLAGS) $(2) $$(wildcard tools/ttrun*.c) build/$(1)/libtt.a $(3) -o $$@
build/$(1)/ttcal: tools/ttcal.c build/$(1)/libtt.a $$(MODEL_HDR)
	$$(CC) $$(CPPFLAGS) $(2) tools/ttcal.c build/$(1)/libtt.a $(3) -o $$@
build/$(1)/insn_count: fuzz/insn_count.c fuzz/fz_input.c $$(wildcard fuzz/fz*.h) build/$(1)/libtt.a $$(MODEL_HDR) $$(DUT_HDR)
	$$(CC) $$(CPPFLAGS) -Ifuzz $(2) fuzz/insn_count.c fuzz/fz_input.c build/$(1)/libtt.a $(3) -ldl -o $$@
build/$(1)/jsoncheck: tests/jsoncheck.c | build/$(1)/tests
	$$(CC) $(2) $$< $(3) -o $$@
build/$(1)/tests/%: tests/%.c $$(wildcard tests/*.h) build/$(1)/libtt.a $$(MODEL_HDR) | build/$(1)/tests
	$$(CC) $$(CPPFLAGS) -Itests $(2) $$< build/$(1)/libtt.a $(3) -lpthread -o $$@
build/$(1)/model build/$(1)/tests:
	mkdir -p $$@
endef
$(eval $(call FLAVOUR,release,$(REL_CFLAGS),))
# the model as a shared object behind conformance/ttdut.h (position-independent objects; only
# ttdut_entry is meant for the loader, -Bsymbolic keeps its own tt_* symbols its own)
build/release/pic/%.o: model/%.c $(MODEL_HDR) | build/release/pic
	$(CC) $(CPPFLAGS) $(REL_CFLAGS) -fPIC -c $< -o $@
build/release/pic/%.o: model/text/%.c $(MODEL_HDR) | build/release/pic
	$(CC) $(CPPFLAGS) $(REL_CFLAGS) -fPIC -c $< -o $@
build/release/pic/dut_model.o: conformance/dut_model.c $(MODEL_HDR) $(DUT_HDR) | build/release/pic
	$(CC) $(CPPFLAGS) $(REL_CFLAGS) -fPIC -DTTDUT_MODEL_SO -c $< -o $@
build/release/dut/model.so: build/release/pic/dut_model.o $(addprefix build/release/pic/,$(MODEL_OBJ)) | build/release/dut
	$(CC) -shared -Wl,-Bsymbolic $^ -o $@
build/release/pic/spec_ref_dut.o: conformance/dut/spec_ref_dut.c fuzz/spec_ref.h $(MODEL_HDR) $(DUT_HDR) | build/release/pic
	$(CC) $(CPPFLAGS) -Ifuzz $(REL_CFLAGS) -fPIC -DTTDUT_SPEC_REF_SO -c $< -o $@
build/release/pic/spec_ref.o build/release/pic/spec_ref_cycle.o build/release/pic/spec_ref_insn.o build/release/pic/spec_ref_host.o build/release/pic/spec_ref_mem.o build/release/pic/spec_ref_pipe.o: build/release/pic/%.o: fuzz/%.c fuzz/spec_ref.h $(MODEL_HDR) | build/release/pic
	$(CC) $(CPPFLAGS) -Ifuzz $(REL_CFLAGS) -fPIC -c $< -o $@
# the independent reference interpreter (functional and cycle mode) behind the same interface
build/release/dut/spec_ref.so: build/release/pic/spec_ref_dut.o build/release/pic/spec_ref.o build/release/pic/spec_ref_cycle.o build/release/pic/spec_ref_insn.o build/release/pic/spec_ref_host.o build/release/pic/spec_ref_mem.o build/release/pic/spec_ref_pipe.o $(addprefix build/release/pic/,$(MODEL_OBJ)) | build/release/dut
	$(CC) -shared -Wl,-Bsymbolic $^ -o $@
build/release/pic build/release/dut:
	mkdir -p $@
$(eval $(call FLAVOUR,asan,$(ASAN_CFLAGS),$(ASAN_LDFLAGS)))

TESTS := $(patsubst tests/%.c,%,$(TEST_SRC))

# ---- audit: model objects reference no allocator, clock, randomness, environment or exit ----
FORBIDDEN := malloc calloc realloc free aligned_alloc posix_memalign memalign valloc strdup \
             strndup alloca time clock clock_gettime gettimeofday rand random srand srandom \
             rand_r drand48 lrand48 getrandom getenv secure_getenv exit _exit _Exit abort \
             __assert_fail quick_exit atexit fopen printf fprintf puts
audit: build/release/libtt.a
	@bad=$$(nm -u build/release/model/*.o | awk '{print $$NF}' | sort -u | \
	  grep -xE '$(subst $(eval) ,|,$(strip $(FORBIDDEN)))' || true); \
	if [ -n "$$bad" ]; then echo "audit: model/ references forbidden symbols:"; echo "$$bad"; exit 1; fi; \
	echo "audit: model/ objects reference no allocator, clock, randomness, environment or exit symbol"; \
	echo "audit: external symbols used by model/: $$(nm -u build/release/model/*.o | awk 'NF==2{print $$2}' | grep -v '^tt_' | sort -u | tr '\n' ' ')"
	@loops=$$(grep -nE 'for *\([^;]*;[[:space:]]*;|while *\( *(1|true) *\)|do *\{?$$' model/*.c model/text/*.c || true); \
	if [ -n "$$loops" ]; then echo "audit: loop without an explicit bound in model/:"; echo "$$loops"; exit 1; fi; \
	echo "audit: every loop in model/ states its bound in its condition (no for(;;), while(1), do-while)"

# ---- tests ---------------------------------------------------------------------------------
unit: $(addprefix build/release/tests/,$(TESTS)) $(addprefix build/asan/tests/,$(TESTS))
	@set -e; for t in $(TESTS); do \
	  for fl in release asan; do echo "== unit $$t ($$fl)"; build/$$fl/tests/$$t; done; done

conformance: build/asan/ttconf
	@if [ -z "$(strip $(VEC))" ]; then echo "make conformance: VEC is empty: give a .vec file or a directory (default: conformance)"; exit 2; fi
	build/asan/ttconf --mode both $(VEC)

# The stages run in parallel, TEST_JOBS at a time (default: the machine's CPUs; make -jN test
# gives its own), each stage's output printed whole when it ends (--output-sync).
TEST_JOBS ?= $(shell nproc 2>/dev/null || echo 1)
test: test-tools
	@$(MAKE) --no-print-directory $(if $(findstring jobserver,$(MAKEFLAGS)),,-j$(TEST_JOBS)) --output-sync=target \
	  audit unit conformance-test dut-test json-roundtrip-test ttrun-test replay triage-test amb-test calibration-test
	@bash tests/layering.sh && bash tests/layering.sh --self-test
	@bash tests/funclen.sh && bash tests/funclen.sh --self-test
	@echo "make test: all stages passed"

# clang with libFuzzer (replay and fuzz-fire builds): installed as root, else the one command
test-tools:
	@FUZZ_CC=$(FUZZ_CC) sh fuzz/tools.sh test

conformance-test: build/asan/ttconf build/release/ttconf
	build/asan/ttconf --mode both conformance
	@# the published reproducers of implementations' divergences state the model's behaviour too
	build/asan/ttconf --quiet --mode both reports/implementations
	@bash conformance/selftest/run.sh build/asan/ttconf | tail -n 1 | sed 's/^/conformance selftest (the runner on broken vectors and empty runs): /'; \
	  exit $${PIPESTATUS[0]}

# implementations under test (tests/dut.sh): the suite through --dut and --dut-cmd, every
# planted defect as an implementation, the reference interpreter behind the interface
DUT_DEFECT_SOS = $(foreach id,$(SENS_IDS),build/defect-$(id)/model.so)
dut-build: build/release/ttconf build/release/ttdut-serve build/release/dut/model.so build/release/insn_count
	@$(MAKE) --no-print-directory -q $(DUT_DEFECT_SOS) 2>/dev/null || \
	  $(MAKE) --no-print-directory $(if $(findstring jobserver,$(MAKEFLAGS)),,-j$(SENS_JOBS)) $(DUT_DEFECT_SOS)
# dut_diff against a chosen set of planted defects (tests/dut_fire.sh): each is found from the
# seeds within DUT_FIRE_RUNS structured mutations and minimised into a reproducer; every dut_diff
# invariant fires (knob/NAME=VALUE: the model opened with its own reading of an ambiguity, which
# must come out as dut_amb with the AMB id). ttsim's adapter test runs when TTSIM=DIR is given.
DUT_FIRE := SEM_NO_SATURATE:dut_state SEMINIT_CLAMPS:dut_state CFG_GLOBAL_ONE_BANK:dut_state \
            RMWCIB_WRONG_LANE:dut_state WAIT_REPLACES_LATCH:dut_outcome MUTEX1_VALID:dut_outcome \
            CYC_CFG_OVERWRITE:dut_cycles FAULT_CLASS_UNPREDICTABLE:dut_fault \
            knob/wait_replace=overwrite:dut_amb knob/reserved_bits=ignore:dut_amb
DUT_FIRE_RUNS ?= 20000
dut-test: dut-build build/release/dut/spec_ref.so build/fuzz-tool/dut_diff
	bash tests/dut.sh build/release "$(SENS_IDS)"
	bash tests/dut_fire.sh $(DUT_FIRE_RUNS) $(DUT_FIRE)
	bash tests/dut_python.sh build/release
	@$(MAKE) --no-print-directory dut-ttsim-test

# ttsim behind ttdut.h: make dut-ttsim TTSIM=DIR, make dut-ttsim-test TTSIM=DIR
include conformance/dut/ttsim/ttsim.mk

# mesham/tt-sim's Tensix model behind the line protocol (conformance/dut/mesham-tt-sim/README.md):
#   make dut-tt-sim-test TT_SIM=DIR     the suite through it (functional mode)
#   make dut-tt-sim-report TT_SIM=DIR   reports/implementations/mesham-tt-sim.md (make dut-report's
#                                       report; FUZZ_TIME_DUT seconds of dut_diff campaign, default 60)
# DIR: a checkout of github.com/mesham/tt-sim; TT_SIM_PYTHON: a python3 with numpy and pyyaml.
TT_SIM ?=
TT_SIM_PYTHON ?= python3
TT_SIM_CMD = $(TT_SIM_PYTHON) conformance/dut/mesham-tt-sim/tt_sim_dut.py $(abspath $(TT_SIM))
.PHONY: dut-tt-sim-test dut-tt-sim-report
dut-tt-sim-test: build/release/ttconf
	@if [ -z "$(TT_SIM)" ]; then echo "dut-tt-sim-test: skipped: give TT_SIM=DIR, a checkout of mesham/tt-sim"; exit 0; fi; \
	  build/release/ttconf --mode func --dut-cmd "$(TT_SIM_CMD)" conformance >build/dut-tt-sim-test.txt 2>&1; rc=$$?; \
	  echo "dut-tt-sim-test: $$(tail -n 1 build/dut-tt-sim-test.txt) (build/dut-tt-sim-test.txt; status $$rc)"; \
	  if ! tail -n 1 build/dut-tt-sim-test.txt | grep -qE '^[0-9]+ passed, [0-9]+ failed'; then head -n 2 build/dut-tt-sim-test.txt; exit 1; fi; \
	  [ $$rc -le 1 ]
dut-tt-sim-report: build/release/ttconf build/release/ttasm build/release/dut/model.so
	@if [ -z "$(TT_SIM)" ]; then echo "make dut-tt-sim-report: give TT_SIM=DIR, a checkout of mesham/tt-sim"; exit 2; fi
	@mkdir -p reports/implementations
	@FUZZ_TIME=$(or $(FUZZ_TIME_DUT),60) bash conformance/tools/dut_report.sh "cmd:$(TT_SIM_CMD)" mesham-tt-sim \
	  reports/implementations/mesham-tt-sim.md conformance/dut/mesham-tt-sim/classes.tsv

# make dut-report DUT=X [NAME=N] [CLASSES=F] [FUZZ_TIME_DUT=60] [DUT_ARGS=A]: reports/implementations/N.md, the
# conformance report of an implementation (conformance/tools/dut_report.sh). X: a shared object,
# `ttsim` (build/dut/ttsim.so; `make dut-ttsim TTSIM=DIR` builds it), `model`, `spec_ref`, or
# `defect-ID` (the model with planted defect ID).
DUT_SO = $(if $(filter ttsim,$(DUT)),build/dut/ttsim.so,$(if $(filter model,$(DUT)),build/release/dut/model.so,$(if $(filter spec_ref,$(DUT)),build/release/dut/spec_ref.so,$(if $(filter defect-%,$(DUT)),build/$(DUT)/model.so,$(DUT)))))
DUT_NAME = $(or $(NAME),$(if $(filter ttsim,$(DUT)),ttsim-v1.10.0,$(basename $(notdir $(DUT)))))
DUT_CLASSES = $(or $(CLASSES),$(wildcard conformance/dut/$(firstword $(subst -, ,$(DUT_NAME)))/classes.tsv))
.PHONY: dut-report
dut-report: build/release/ttconf build/release/ttasm build/release/dut/model.so build/release/dut/spec_ref.so
	@if [ -z "$(DUT)" ]; then echo "make dut-report: give DUT=PATH.so (or ttsim, model, spec_ref, defect-ID)"; exit 2; fi
	@if [ "$(DUT)" = ttsim ] && [ ! -f build/dut/ttsim.so ]; then \
	  if [ -n "$(TTSIM)" ]; then $(MAKE) --no-print-directory dut-ttsim TTSIM=$(TTSIM) || exit 1; \
	  else echo "make dut-report: build/dut/ttsim.so is missing: make dut-ttsim TTSIM=DIR (a checkout of tenstorrent/ttsim v1.10.0)"; exit 2; fi; fi
	@case "$(DUT)" in defect-*) $(MAKE) --no-print-directory $(DUT_SO) ;; esac
	@mkdir -p reports/implementations
	@FUZZ_TIME=$(or $(FUZZ_TIME_DUT),60) CAMPAIGN_ARGS="$(or $(DUT_ARGS),$(if $(filter ttsim,$(DUT)),refuse-faults))" \
	  bash conformance/tools/dut_report.sh $(DUT_SO) $(DUT_NAME) \
	  reports/implementations/$(DUT_NAME).md $(DUT_CLASSES)

# ttrun end to end: every corpus kernel in both modes, --json, --emit-vec through the runner,
# --trace through the trace-event checker, the README example, bad input (tests/ttrun.sh)
ttrun-test: build/asan/ttrun build/asan/ttconf build/asan/ttasm build/release/ttrun build/release/jsoncheck
	bash tests/ttrun.sh build/asan build/release/jsoncheck

# ---- conformance report and sensitivity (section owned by the report work) ------------------
# make sensitivity: for every planted defect (model/defects.def) of the units the vectors check,
#   a runner (both modes) with that one defect compiled in (build/defect-<ID>/ttconf, $(WARN) -O1);
#   every vector is run against each and the target fails unless each defect makes >= 1 vector
#   fail. Results: build/sensitivity/<ID>.txt and build/sensitivity/summary.tsv.
#   Only the model sources that mention TT_DEFECT(<ID>) are recompiled per defect; the other
#   objects and the runner come from the clean build build/defect-NONE/ (same flags). A defect
#   named in a header, or a model source using TT_PLANTED directly, recompiles every source.
# make reports-conformance: conformance results + sensitivity + reports/conformance.md.
SENS_UNITS := sync gate config scalar threads cycle
SENS_CFLAGS := $(WARN) -O1 -fPIC
SENS_JOBS ?= 2
SENS_DEFS := $(shell tr '(,)"' '    ' <model/defects.def | awk '$$1 == "TT_DEF" { print $$2 "@" $$3 }')
SENS_IDS := $(foreach d,$(SENS_DEFS),$(if $(filter $(lastword $(subst @, ,$(d))),$(SENS_UNITS)),$(firstword $(subst @, ,$(d)))))
# ID@file for each TT_DEFECT(ID) use in model/
SENS_USES := $(shell grep -oE 'TT_DEFECT\( *[A-Za-z0-9_]+ *\)' $(MODEL_SRC) $(filter-out model/defects.h model/defects.def,$(MODEL_HDR)) /dev/null | \
               sed 's/^\([^:]*\):TT_DEFECT( *\([A-Za-z0-9_]*\) *)/\2@\1/' | sort -u)
SENS_DIRECT := $(shell grep -l TT_PLANTED $(MODEL_SRC) $(filter-out model/defects.h model/defects.def,$(MODEL_HDR)) /dev/null)
sens_files = $(patsubst $(1)@%,%,$(filter $(1)@%,$(SENS_USES)))
sens_src = $(if $(SENS_DIRECT)$(filter-out %.c,$(call sens_files,$(1))),$(MODEL_SRC),$(filter %.c,$(call sens_files,$(1))))
sens_objs = $(foreach f,$(MODEL_SRC),$(if $(filter $(f),$(call sens_src,$(1))),build/defect-$(1)/model/$(notdir $(f:.c=.o)),build/defect-NONE/model/$(notdir $(f:.c=.o))))
SENS_RUNNERS := build/defect-NONE/ttconf $(foreach id,$(SENS_IDS),build/defect-$(id)/ttconf)

SENS_DUT_OBJS := $(patsubst conformance/%.c,build/defect-NONE/dut/%.o,$(DUT_SRC))
build/defect-NONE/runner.o: conformance/runner.c $(MODEL_HDR) $(DUT_HDR) | build/defect-NONE/model
	$(CC) $(CPPFLAGS) $(SENS_CFLAGS) -c $< -o $@
build/defect-NONE/dut/%.o: conformance/%.c $(MODEL_HDR) $(DUT_HDR) | build/defect-NONE/dut
	$(CC) $(CPPFLAGS) $(SENS_CFLAGS) -c $< -o $@
build/defect-NONE/dut/model_so.o: conformance/dut_model.c $(MODEL_HDR) $(DUT_HDR) | build/defect-NONE/dut
	$(CC) $(CPPFLAGS) $(SENS_CFLAGS) -DTTDUT_MODEL_SO -c $< -o $@
build/defect-NONE/dut:
	@mkdir -p $@
define SENS_DEFECT
build/defect-$(1)/model/%.o: model/%.c $$(MODEL_HDR) | build/defect-$(1)/model
	$$(CC) $$(CPPFLAGS) $$(SENS_CFLAGS) -DTT_PLANTED=TT_DEF_$(1) -c $$< -o $$@
build/defect-$(1)/model/%.o: model/text/%.c $$(MODEL_HDR) | build/defect-$(1)/model
	$$(CC) $$(CPPFLAGS) $$(SENS_CFLAGS) -DTT_PLANTED=TT_DEF_$(1) -c $$< -o $$@
build/defect-$(1)/ttconf: $$(call sens_objs,$(1)) build/defect-NONE/runner.o $$(SENS_DUT_OBJS)
	$$(CC) $$(SENS_CFLAGS) $$^ -ldl -o $$@
# the same model, with the defect, as an implementation under test (ttconf --dut)
build/defect-$(1)/model.so: $$(call sens_objs,$(1)) build/defect-NONE/dut/model_so.o
	$$(CC) -shared -Wl,-Bsymbolic $$^ -o $$@
build/defect-$(1)/model:
	@mkdir -p $$@
endef
$(foreach id,NONE $(SENS_IDS),$(eval $(call SENS_DEFECT,$(id))))

sensitivity-build:
	@$(MAKE) --no-print-directory -q $(SENS_RUNNERS) 2>/dev/null || \
	  $(MAKE) --no-print-directory $(if $(findstring jobserver,$(MAKEFLAGS)),,-j$(SENS_JOBS)) $(SENS_RUNNERS)

sensitivity: sensitivity-build
	@SENS_JOBS=$(SENS_JOBS) sh conformance/tools/sensitivity.sh -d model/defects.def -b build -o build/sensitivity \
	  -u "$(SENS_UNITS)" conformance

reports-conformance: build/release/ttasm build/release/ttconf sensitivity-build
	@mkdir -p build/conformance reports
	@SENS_JOBS=$(SENS_JOBS) sh conformance/tools/sensitivity.sh -d model/defects.def -b build \
	  -o build/sensitivity -u "$(SENS_UNITS)" conformance >build/conformance/sensitivity.txt 2>&1; \
	  echo "reports-conformance: $$(tail -n 1 build/conformance/sensitivity.txt)"
	@cd build/sensitivity/snap && $(CURDIR)/build/release/ttconf --mode both conformance \
	  >$(CURDIR)/build/conformance/results.txt 2>&1; \
	  echo "reports-conformance: conformance: $$(tail -n 1 $(CURDIR)/build/conformance/results.txt)"
	@sh conformance/tools/report.sh -C build/sensitivity/snap -r build/conformance/results.txt \
	  -s build/sensitivity -a build/release/ttasm -c build/release/ttconf conformance \
	  >reports/conformance.md.tmp && mv reports/conformance.md.tmp reports/conformance.md && \
	  echo "reports-conformance: wrote reports/conformance.md"

# ---- fuzzing (section owned by the fuzz work: targets, replay, campaigns) -------------------
# replay (in `make test`: corpus + reproducers through every target under ASan/UBSan, and
# fuzz-fire: every invariant reported on its planted defect), fuzz, fuzz-seeds, bench,
# reports-fuzz (reports: depends on it), oss-fuzz-test. Rules below.
#   make replay          every file under corpus/ and fuzz/seeds/ through every target, ASan+UBSan
#                        (build/replay), then `fuzz-fire` (part of `make test`)
#   make fuzz-fire       each invariant reported on its planted defect (build/fuzz-defect-<ID>)
#   make fuzz            campaign: FUZZ_TIME=seconds per target, JOBS, FUZZ_TARGETS, ENGINE,
#                        FUZZ_OUT (persistent, resumable); then triage + reports/fuzz.md
#   make fuzz-seeds      regenerate corpus/<target>/ from conformance/**/*.vec and fuzz/seeds/
#   make bench           execs/s per target vs the empty target on the same inputs (libFuzzer -O2,
#                        libFuzzer+ASan+UBSan, plain loop, AFL++), features per exec; reset cost;
#                        the model alone (fuzz/model_speed.c) and vs BASE (make bench-model);
#                        host instructions per simulated instruction (make bench-insn: callgrind)
#   make bench-dut       implementations under test side by side, host instructions per issued
#                        instruction on the same streams (DUTS, TTSIM=DIR: the model and ttsim)
#   make reports-fuzz    reports/fuzz.md (+ PNG) from the last campaign in FUZZ_OUT
#   make oss-fuzz-test   fuzz/oss-fuzz/build.sh in the OSS-Fuzz/ClusterFuzzLite layout (scratch $SRC), each fuzzer on its seed zip
# Build directories, one per flag set: build/fuzz-lf (libFuzzer+ASan+UBSan), build/fuzz-afl
# (afl-clang-fast), build/fuzz-bench (libFuzzer, -O2, no sanitizer), build/replay (plain main,
# ASan+UBSan), build/fuzz-tool (plain main, -O2, -fPIC: minimizer, generators, AFL++ mutator
# library), build/cov (llvm-cov), build/fuzz-defect-<ID> (plain main, one planted defect),
# build/fuzz-plant (libFuzzer+ASan with the harness-level planted defect of text_parsers).
FUZZ_CC ?= clang
AFL_CC ?= afl-clang-fast
FUZZ_TIME ?= 30
JOBS ?= 2
ENGINE ?= auto
FUZZ_OUT ?= fuzz/out
FUZZ_TARGETS_ALL := func_invariants reset_equivalence cycle_vs_func ambiguity_diff spec_diff decode_roundtrip text_parsers
FUZZ_TARGETS ?= $(FUZZ_TARGETS_ALL)
FUZZ_PROG := func_invariants reset_equivalence cycle_vs_func ambiguity_diff spec_diff
SPEC_REF_OBJ := spec_ref.o spec_ref_cycle.o spec_ref_insn.o spec_ref_host.o spec_ref_mem.o spec_ref_pipe.o   # the reference interpreter (fuzz/spec_ref.h)
FUZZ_HDR := common/files.h fuzz/fz.h fuzz/fz_records.h fuzz/amb_diff.h fuzz/spec_ref.h $(MODEL_HDR)
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
FUZZ_CF := $(WARN) -g

.PHONY: replay replay-corpus fuzz-fire fuzz fuzz-build fuzz-seeds bench reports reports-fuzz \
        oss-fuzz-test fuzz-resume-test fuzz-tools triage-test fuzz-report-test

# Coverage that guides nothing is left out of the engine builds (fuzz/README.md "Where the time
# goes"): fuzz/sancov-ignore.txt (-fsanitize-coverage-ignorelist) for libFuzzer; AFL++ 4.04c's
# pass ignores that flag and the no_sanitize("coverage") attribute (FZ_BOOKKEEPING), so its
# builds get the same list plus every FZ_BOOKKEEPING function by name (AFL_LLVM_DENYLIST,
# build/fuzz/afl-deny.txt, generated by fuzz/afl-deny.sh).
FUZZ_IGNORE := -fsanitize-coverage-ignorelist=fuzz/sancov-ignore.txt
# The scheduler files keep their edge counters but not comparison tracing: their comparisons are
# between the model's own bookkeeping (pc vs stream length, latch/wait kinds, cycle counters,
# scoreboards), values no input byte spells, so the engine's comparison tables gain nothing
# from them; they made ~40% of all comparison callbacks per func_invariants execution. The
# assembler/disassembler (asm.o) likewise: decode_roundtrip feeds it text the model wrote (42k
# callbacks per execution, 2.4k without), and text_parsers' keywords come from its dictionary;
# fixed-seed campaigns reached the same coverage with it off (fuzz/README.md). One list: the
# OSS-Fuzz build (fuzz/oss-fuzz/build.sh) reads this line.
FUZZ_NO_CMP_OBJS := run.o cycle.o asm.o
$(foreach fl,fuzz-lf fuzz-bench fuzz-plant,$(foreach o,$(FUZZ_NO_CMP_OBJS),\
  $(eval build/$(fl)/model/$(o) build/$(fl)/model-kl/$(o): FZ_OBJ_FLAGS := -fno-sanitize-coverage=trace-cmp)))
# The same for spec_diff's side of the comparison: the reference interpreter decides what the
# model's traced comparisons already decide on the same words (and times with bookkeeping, as
# cycle.o does), and spec_diff.c compares model against reference, values no input byte spells.
# They made ~7k of spec_diff's comparison callbacks per execution (fuzz/benchmarks.md); their
# edge counters stay. Read by fuzz/oss-fuzz/build.sh as well.
FUZZ_NO_CMP_HARNESS := spec_diff.o spec_ref.o spec_ref_cycle.o spec_ref_insn.o spec_ref_host.o spec_ref_mem.o spec_ref_pipe.o
$(foreach fl,fuzz-lf fuzz-bench fuzz-plant,$(foreach o,$(FUZZ_NO_CMP_HARNESS),\
  $(eval build/$(fl)/fuzz/$(o): FZ_OBJ_FLAGS := -fno-sanitize-coverage=trace-cmp)))
FUZZ_AFL_DENY := build/fuzz/afl-deny.txt
build/fuzz/afl-deny.txt: fuzz/sancov-ignore.txt fuzz/afl-deny.sh $(wildcard fuzz/*.c) $(MODEL_SRC) | build/fuzz
	sh fuzz/afl-deny.sh >$@

# ---- flavours: $(1) dir, $(2) compiler, $(3) compile flags, $(4) extra prerequisites ---------
define FUZZ_FLAVOUR
build/$(1)/model/%.o: model/%.c $$(MODEL_HDR) $(4) | build/$(1)/model
	$(2) $$(CPPFLAGS) $(3) $$(FZ_OBJ_FLAGS) -c $$< -o $$@
build/$(1)/model/%.o: model/text/%.c $$(MODEL_HDR) $(4) | build/$(1)/model
	$(2) $$(CPPFLAGS) $(3) $$(FZ_OBJ_FLAGS) -c $$< -o $$@
build/$(1)/fuzz/%.o: fuzz/%.c $$(FUZZ_HDR) $(4) | build/$(1)/fuzz
	$(2) $$(CPPFLAGS) -Ifuzz $(3) $$(FZ_OBJ_FLAGS) -c $$< -o $$@
build/$(1)/conf/%.o: conformance/%.c $$(MODEL_HDR) $$(DUT_HDR) $(4) | build/$(1)/conf
	$(2) $$(CPPFLAGS) $(3) -c $$< -o $$@
build/$(1)/libtt.a: $$(addprefix build/$(1)/model/,$$(MODEL_OBJ))
	rm -f $$@ && ar rcs $$@ $$^
build/$(1)/model-kl/%.o: model/%.c $$(MODEL_HDR) $(4) | build/$(1)/model-kl
	$(2) $$(CPPFLAGS) $(3) $$(FZ_OBJ_FLAGS) -DTT_KNOB_LOG -c $$< -o $$@
build/$(1)/model-kl/%.o: model/text/%.c $$(MODEL_HDR) $(4) | build/$(1)/model-kl
	$(2) $$(CPPFLAGS) $(3) $$(FZ_OBJ_FLAGS) -DTT_KNOB_LOG -c $$< -o $$@
build/$(1)/libtt-kl.a: $$(addprefix build/$(1)/model-kl/,$$(MODEL_OBJ))
	rm -f $$@ && ar rcs $$@ $$^
build/$(1)/model build/$(1)/model-kl build/$(1)/fuzz build/$(1)/conf:
	mkdir -p $$@
endef
$(eval $(call FUZZ_FLAVOUR,fuzz-lf,$$(FUZZ_CC),$$(FUZZ_CF) -O1 -fsanitize=fuzzer-no-link $$(FUZZ_IGNORE) $$(FUZZ_SAN),fuzz/sancov-ignore.txt))
$(eval $(call FUZZ_FLAVOUR,fuzz-afl,AFL_QUIET=1 AFL_LLVM_DENYLIST=$$(abspath $$(FUZZ_AFL_DENY)) $$(AFL_CC),$$(FUZZ_CF) -O2,$$(FUZZ_AFL_DENY)))
$(eval $(call FUZZ_FLAVOUR,fuzz-bench,$$(FUZZ_CC),$$(FUZZ_CF) -O2 -fsanitize=fuzzer-no-link $$(FUZZ_IGNORE),fuzz/sancov-ignore.txt))
$(eval $(call FUZZ_FLAVOUR,replay,$$(FUZZ_CC),$$(FUZZ_CF) -O1 -DFZ_REPLAY $$(FUZZ_SAN)))
$(eval $(call FUZZ_FLAVOUR,fuzz-tool,$$(FUZZ_CC),$$(FUZZ_CF) -O2 -fPIC))
$(eval $(call FUZZ_FLAVOUR,cov,$$(FUZZ_CC),$$(FUZZ_CF) -O1 -DFZ_REPLAY -fprofile-instr-generate -fcoverage-mapping))
$(eval $(call FUZZ_FLAVOUR,fuzz-plant,$$(FUZZ_CC),$$(FUZZ_CF) -O1 -DFZ_PLANT_TEXT_OOB -fsanitize=fuzzer-no-link $$(FUZZ_IGNORE) $$(FUZZ_SAN),fuzz/sancov-ignore.txt))

# objects of target $(2) in flavour $(1) (libFuzzer hooks of the mutator: program targets only;
# spec_diff also links its reference interpreter)
fz_objs = build/$(1)/fuzz/$(2).o build/$(1)/fuzz/fz_input.o build/$(1)/fuzz/fz_mutator.o \
          $(if $(filter spec_diff,$(2)),$(addprefix build/$(1)/fuzz/,$(SPEC_REF_OBJ))) \
          $(if $(filter dut_diff,$(2)),$(patsubst conformance/%.c,build/$(1)/conf/%.o,$(DUT_SRC)))
fz_lfmut = $(if $(filter $(2),$(FUZZ_PROG)),build/$(1)/fuzz/fz_lf_mutator.o)
# the model library target $(2) links in flavour $(1): ambiguity_diff's notes the knobs a run
# reads (-DTT_KNOB_LOG, model/tt.h knob_log), so it skips the readings of knobs its default
# run never read; every other target links the model without that test at each knob read, and
# so does the llvm-cov build (coverage of model/ is measured on the model every target runs)
fz_lib = build/$(1)/libtt$(if $(and $(filter ambiguity_diff,$(2)),$(filter-out cov,$(1))),-kl).a

define FUZZ_BINS
build/fuzz-lf/$(1): $$(call fz_objs,fuzz-lf,$(1)) $$(call fz_lfmut,fuzz-lf,$(1)) $$(call fz_lib,fuzz-lf,$(1))
	$$(FUZZ_CC) -fsanitize=fuzzer $$(FUZZ_SAN) $$^ $$(LDLIBS_DUT) -o $$@
build/fuzz-lf/bench-$(1): $$(call fz_objs,fuzz-lf,$(1)) build/fuzz-lf/fuzz/bench_feed.o $$(call fz_lib,fuzz-lf,$(1))
	$$(FUZZ_CC) -fsanitize=fuzzer $$(FUZZ_SAN) $$^ $$(LDLIBS_DUT) -o $$@
build/fuzz-afl/$(1): $$(call fz_objs,fuzz-afl,$(1)) $$(call fz_lib,fuzz-afl,$(1))
	AFL_QUIET=1 $$(AFL_CC) -fsanitize=fuzzer $$^ $$(LDLIBS_DUT) -o $$@
build/fuzz-bench/$(1): $$(call fz_objs,fuzz-bench,$(1)) build/fuzz-bench/fuzz/bench_feed.o $$(call fz_lib,fuzz-bench,$(1))
	$$(FUZZ_CC) -fsanitize=fuzzer $$^ $$(LDLIBS_DUT) -o $$@
build/fuzz-bench/features-$(1): $$(call fz_objs,fuzz-bench,$(1)) build/fuzz-bench/fuzz/feature_count.o $$(call fz_lib,fuzz-bench,$(1))
	$$(FUZZ_CC) -no-pie $$^ $$(LDLIBS_DUT) -o $$@
build/replay/$(1): $$(call fz_objs,replay,$(1)) build/replay/fuzz/driver.o build/replay/fuzz/fz_minimize.o build/replay/fuzz/fz_files.o $$(call fz_lib,replay,$(1))
	$$(FUZZ_CC) $$(FUZZ_SAN) $$^ $$(LDLIBS_DUT) -o $$@
build/fuzz-tool/$(1): $$(call fz_objs,fuzz-tool,$(1)) build/fuzz-tool/fuzz/driver.o build/fuzz-tool/fuzz/fz_minimize.o build/fuzz-tool/fuzz/fz_files.o $$(call fz_lib,fuzz-tool,$(1))
	$$(FUZZ_CC) $$^ $$(LDLIBS_DUT) -o $$@
build/cov/$(1): $$(call fz_objs,cov,$(1)) build/cov/fuzz/driver.o build/cov/fuzz/fz_minimize.o build/cov/fuzz/fz_files.o $$(call fz_lib,cov,$(1))
	$$(FUZZ_CC) -fprofile-instr-generate $$^ $$(LDLIBS_DUT) -o $$@
endef
$(foreach t,$(FUZZ_TARGETS_ALL) dut_diff,$(eval $(call FUZZ_BINS,$(t))))
# dut_diff loads the implementation under test with dlopen
$(foreach fl,fuzz-lf fuzz-afl replay fuzz-tool cov,$(eval build/$(fl)/dut_diff: LDLIBS_DUT := -ldl))

# the empty target links the whole model library, so libFuzzer scans the same counters
build/fuzz-bench/empty: build/fuzz-bench/fuzz/empty.o build/fuzz-bench/fuzz/bench_feed.o build/fuzz-bench/libtt.a
	$(FUZZ_CC) -fsanitize=fuzzer $(filter %.o,$^) -Wl,--whole-archive build/fuzz-bench/libtt.a -Wl,--no-whole-archive -o $@
build/fuzz-bench/engine_model: build/fuzz-bench/fuzz/engine_model.o build/fuzz-bench/fuzz/fz_input.o build/fuzz-bench/fuzz/bench_feed.o build/fuzz-bench/libtt.a
	$(FUZZ_CC) -fsanitize=fuzzer $^ -o $@
build/fuzz-afl/empty: build/fuzz-afl/fuzz/empty.o build/fuzz-afl/libtt.a
	AFL_QUIET=1 $(AFL_CC) -fsanitize=fuzzer $(filter %.o,$^) -Wl,--whole-archive build/fuzz-afl/libtt.a -Wl,--no-whole-archive -o $@
build/fuzz-tool/afl-bench-feed.so: build/fuzz-tool/fuzz/afl_bench_feed.o
	$(FUZZ_CC) -shared $^ -o $@
build/fuzz-bench/reset_cost: fuzz/reset_cost.c build/fuzz-tool/fuzz/fz_input.o build/fuzz-tool/fuzz/fz_mutator.o \
                            build/fuzz-tool/libtt.a $(FUZZ_HDR) | build/fuzz-bench/fuzz
	$(FUZZ_CC) $(CPPFLAGS) -Ifuzz $(FUZZ_CF) -O2 $(filter %.c %.o %.a,$^) -o $@
# model_speed: the model alone (fuzz-tool library and flags); make bench-model builds the same
# source against BASE's model/ and fuzz/fz_input.c with these flags (fuzz/bench_model.sh)
BENCH_CFLAGS := $(FUZZ_CF) -O2
BENCH_LIB_CFLAGS := $(FUZZ_CF) -O2 -fPIC
build/fuzz-bench/model_speed: fuzz/model_speed.c build/fuzz-tool/fuzz/fz_input.o build/fuzz-tool/libtt.a \
                             $(FUZZ_HDR) | build/fuzz-bench/fuzz
	$(FUZZ_CC) $(CPPFLAGS) -Ifuzz $(BENCH_CFLAGS) $(filter %.c %.o %.a,$^) -o $@
build/fuzz-tool/gen: build/fuzz-tool/fuzz/gen.o build/fuzz-tool/fuzz/fz_input.o build/fuzz-tool/libtt.a
	$(FUZZ_CC) $^ -o $@
build/fuzz-tool/ambtool: build/fuzz-tool/fuzz/ambtool.o build/fuzz-tool/fuzz/amb_min.o build/fuzz-tool/fuzz/amb_text.o \
                         build/fuzz-tool/fuzz/amb_render.o build/fuzz-tool/fuzz/amb_page.o build/fuzz-tool/fuzz/ambiguity_diff.o \
                         build/fuzz-tool/fuzz/fz_input.o build/fuzz-tool/fuzz/fz_mutator.o build/fuzz-tool/fuzz/fz_files.o \
                         build/fuzz-tool/libtt-kl.a
	$(FUZZ_CC) $^ -o $@
build/fuzz-tool/afl-mutator.so: build/fuzz-tool/fuzz/afl_mutator.o build/fuzz-tool/fuzz/fz_mutator.o \
                                build/fuzz-tool/fuzz/fz_input.o build/fuzz-tool/libtt.a
	$(FUZZ_CC) -shared $^ -o $@
# -DFZ_PLANT_TEXT_OOB is read by text_parsers.c alone: the rest is build/fuzz-lf's objects (the model
# is compiled once for make test, fuzz-report-test and bugbench)
build/fuzz-plant/text_parsers: build/fuzz-plant/fuzz/text_parsers.o \
    $(filter-out build/fuzz-lf/fuzz/text_parsers.o,$(call fz_objs,fuzz-lf,text_parsers)) build/fuzz-lf/libtt.a
	$(FUZZ_CC) -fsanitize=fuzzer $(FUZZ_SAN) $^ -o $@
build/fuzz/program.dict: build/fuzz-tool/gen | build/fuzz
	$< dict-program >$@
build/fuzz/text.dict: build/fuzz-tool/gen | build/fuzz
	$< dict-text >$@
build/fuzz:
	mkdir -p $@

fuzz-tools: build/fuzz-tool/gen build/fuzz-tool/ambtool build/fuzz/program.dict build/fuzz/text.dict \
            $(addprefix build/fuzz-tool/,$(FUZZ_TARGETS_ALL))

# ---- planted defects: model sources that mention the defect are rebuilt, the rest shared ---
FUZZ_FIRE := CFG_GLOBAL_ONE_BANK:func_invariants:banked_writes \
             CFG_BANK0_ONLY:func_invariants:banked_writes \
             BLOCK_DEFAULT_ZERO:func_invariants:default_mask \
             COND_DEFAULT_ZERO:func_invariants:default_mask \
             SEM_NO_SATURATE:func_invariants:semaphore_bounds \
             SEMGET_WRAPS:func_invariants:semaphore_bounds \
             ATRELM_NONOWNER:func_invariants:mutex_ownership \
             MUTEX1_VALID:func_invariants:mutex_ownership \
             RDCFG_OTHER_THREAD:func_invariants:thread_isolation \
             DEADLOCK_EARLY:func_invariants:deadlock_soundness \
             BUDGET_OVERRUN:func_invariants:budget_respected \
             NONDETERMINISTIC:func_invariants:determinism \
             RESET_KEEPS_L1:reset_equivalence:reset_equivalence \
             CYC_RESET_KEEPS_STATE:reset_equivalence:reset_equivalence \
             CYC_DOUBLE_ISSUE:cycle_vs_func:one_issue_per_thread \
             CYC_THCON_SHARED:cycle_vs_func:thcon_exclusive \
             CYC_SYNC_SLOT_SHARED:cycle_vs_func:sync_slot_single \
             CYC_CFG_OVERWRITE:cycle_vs_func:cfg_stage_single \
             CYC_CFG_NO_ORDER:cycle_vs_func:cfg_order \
             CYC_DEADLOCK_EARLY:cycle_vs_func:cycle_deadlock_soundness \
             CYC_NONDETERMINISTIC:cycle_vs_func:cycle_determinism \
             CYC_SKIP_STUBS:cycle_vs_func:fast_forward \
             CYC_LAND_FULL_WORD:cycle_vs_func:cycle_agreement \
             SEMPOST_HONORS_MAX:spec_diff:spec_value \
             SEMINIT_CLAMPS:spec_diff:spec_value \
             MUTEX_NO_FAIRNESS:spec_diff:spec_value \
             SEMWAIT_C1_GT:spec_diff:spec_value \
             NOP_CAUGHT_ANY:spec_diff:spec_issue \
             STREAMWAIT_NO_HI:spec_diff:spec_value \
             WAIT_REPLACES_LATCH:spec_diff:spec_issue \
             RMWCIB_WRONG_LANE:spec_diff:spec_value \
             WRCFG128_NO_ALIGN:spec_diff:spec_value \
             CFGSHIFTMASK_ROTL:spec_diff:spec_value \
             RESET_EN_VIA_RMWCIB:spec_diff:spec_value \
             RESET_EN_IGNORED:spec_diff:spec_value \
             ADD_NO_WRAP:spec_diff:spec_value \
             MUL_FULL_WIDTH:spec_diff:spec_value \
             CMP_SIGNED:spec_diff:spec_value \
             SETDMAREG_14BIT:spec_diff:spec_value \
             OFFSET_CARRY:spec_diff:spec_value \
             ADDR_POST_INCREMENT:spec_diff:spec_value \
             ATINCGET_NARROW_MASK:spec_diff:spec_value \
             CYC_DOUBLE_ISSUE:spec_diff:spec_time \
             CYC_THCON_SHARED:spec_diff:spec_time \
             CYC_SYNC_SLOT_SHARED:spec_diff:spec_time \
             CYC_CFG_OVERWRITE:spec_diff:spec_time \
             CYC_CFG_NO_ORDER:spec_diff:spec_time \
             CYC_WRCFG_LATE_READ:spec_diff:spec_value \
             CYC_LAND_FULL_WORD:spec_diff:spec_value \
             CYC_DEADLOCK_EARLY:spec_diff:spec_time \
             DEADLOCK_EARLY:spec_diff:spec_issue \
             CYC_NONDETERMINISTIC:spec_diff:spec_time \
             CYC_SKIP_STUBS:spec_diff:spec_time \
             CYC_RESET_KEEPS_STATE:spec_diff:spec_hazard \
             ENCODE_DROPS_LSB:decode_roundtrip:roundtrip_fields \
             ENCODE_DROPS_LSB:decode_roundtrip:roundtrip_text
FUZZ_FIRE_RUNS ?= 20000
fz_word = $(word $(2),$(subst :, ,$(1)))
FUZZ_DEF_IDS := $(sort $(foreach f,$(FUZZ_FIRE),$(call fz_word,$(f),1)))
# file:ID for every TT_DEFECT(ID) in model/, one grep for all defects (a grep per defect and
# file made every make invocation start ~1,900 processes); the sources a defect build compiles
# with it: those that mention it, or every one when a header does
BB_SITES := $(shell grep -o 'TT_DEFECT([A-Z0-9_]*)' $(MODEL_SRC) $(filter-out model/defects.h,$(MODEL_HDR)) /dev/null | sed 's/TT_DEFECT(\(.*\))/\1/' | sort -u)
bb_files = $(patsubst %:$(1),%,$(filter %:$(1),$(BB_SITES)))
bb_src = $(if $(filter %.h,$(call bb_files,$(1))),$(MODEL_SRC),$(call bb_files,$(1)))
fz_def_src = $(call bb_src,$(1))
fz_def_objs = $(foreach f,$(MODEL_SRC),$(if $(filter $(f),$(call fz_def_src,$(1))),build/fuzz-defect-$(1)/model/$(notdir $(f:.c=.o)),build/fuzz-tool/model/$(notdir $(f:.c=.o))))
define FUZZ_DEFECT
build/fuzz-defect-$(1)/model/%.o: model/%.c $$(MODEL_HDR) | build/fuzz-defect-$(1)/model
	$$(FUZZ_CC) $$(CPPFLAGS) $$(FUZZ_CF) -O2 -fPIC -DTT_PLANTED=TT_DEF_$(1) -c $$< -o $$@
build/fuzz-defect-$(1)/model/%.o: model/text/%.c $$(MODEL_HDR) | build/fuzz-defect-$(1)/model
	$$(FUZZ_CC) $$(CPPFLAGS) $$(FUZZ_CF) -O2 -fPIC -DTT_PLANTED=TT_DEF_$(1) -c $$< -o $$@
build/fuzz-defect-$(1)/model:
	mkdir -p $$@
endef
define FUZZ_DEFECT_BIN
build/fuzz-defect-$(1)/$(2): $$(call fz_objs,fuzz-tool,$(2)) build/fuzz-tool/fuzz/driver.o build/fuzz-tool/fuzz/fz_minimize.o build/fuzz-tool/fuzz/fz_files.o $$(call fz_def_objs,$(1))
	$$(FUZZ_CC) $$^ -o $$@
endef
$(foreach id,$(FUZZ_DEF_IDS),$(eval $(call FUZZ_DEFECT,$(id))))
$(foreach p,$(sort $(foreach f,$(FUZZ_FIRE),$(call fz_word,$(f),1):$(call fz_word,$(f),2))),\
  $(eval $(call FUZZ_DEFECT_BIN,$(call fz_word,$(p),1),$(call fz_word,$(p),2))))
FUZZ_FIRE_BINS := $(sort $(foreach f,$(FUZZ_FIRE),build/fuzz-defect-$(call fz_word,$(f),1)/$(call fz_word,$(f),2)))

fuzz-fire: $(FUZZ_FIRE_BINS) $(addprefix build/replay/,$(FUZZ_TARGETS_ALL)) build/fuzz-plant/text_parsers
	@mkdir -p build/fuzz; set -o pipefail; sh fuzz/fire.sh $(FUZZ_FIRE_RUNS) $(FUZZ_FIRE) | tee build/fuzz/fire.txt
	@echo "fuzz-fire: again under profile p150 (FZ_PROFILE=p150)"; set -o pipefail; \
	  FZ_PROFILE=p150 sh fuzz/fire.sh $(FUZZ_FIRE_RUNS) $(FUZZ_FIRE) | tee build/fuzz/fire-p150.txt | tail -n 1

# ---- replay (make test) -------------------------------------------------------------------
replay-corpus: $(addprefix build/replay/,$(FUZZ_TARGETS_ALL) dut_diff)
	@set -e; for t in $(FUZZ_TARGETS_ALL) dut_diff; do build/replay/$$t corpus fuzz/seeds; done
	@set -e; for t in $(FUZZ_TARGETS_ALL) dut_diff; do echo "== $$t under --profile p150"; \
	  build/replay/$$t --profile p150 corpus fuzz/seeds; done

replay: replay-corpus fuzz-fire profile-test

# profile-test (part of make test, through replay): make profile's sorting of samples, on a
# saved report (no perf needed)
.PHONY: profile-test
profile-test:
	@bash fuzz/profile-test.sh

# triage-test (part of `make test`): planted defects' findings go through fuzz/triage.sh; each
# reproducer fails under the defective runner and passes `make conformance VEC=` (or is replay-only)
TRIAGE_TEST_IDS := CFG_GLOBAL_ONE_BANK CFG_BANK0_ONLY SEM_NO_SATURATE SEMGET_WRAPS MUTEX1_VALID \
                   ATRELM_NONOWNER RDCFG_OTHER_THREAD BUDGET_OVERRUN NONDETERMINISTIC
triage-test: $(foreach id,$(TRIAGE_TEST_IDS),build/fuzz-defect-$(id)/func_invariants build/defect-$(id)/ttconf) \
             build/replay/func_invariants build/asan/ttconf
	@bash fuzz/triage-test.sh

# ---- seeds, campaigns, reports, bench, OSS-Fuzz -------------------------------------------
# fixed-seed coverage of every target, a markdown table (fuzz/coverage-fixed.sh: COV_RUNS,
# COV_SEED, COV_TARGETS; COV_TREE=REV measures the tree at REV, built under build/cov-fixed/)
.PHONY: coverage-fixed
coverage-fixed:
	@bash fuzz/coverage-fixed.sh

fuzz-seeds: build/fuzz-tool/gen
	@sh fuzz/seeds.sh build/fuzz-tool/gen corpus conformance fuzz/seeds

fuzz-build: fuzz-tools build/fuzz-tool/afl-mutator.so $(addprefix build/replay/,$(FUZZ_TARGETS_ALL)) \
            $(addprefix build/cov/,$(FUZZ_TARGETS_ALL))
	@$(MAKE) --no-print-directory $(addprefix build/fuzz-lf/,$(FUZZ_TARGETS))
	@if command -v $(AFL_CC) >/dev/null 2>&1; then \
	  $(MAKE) --no-print-directory $(addprefix build/fuzz-afl/,$(FUZZ_TARGETS)); fi

fuzz:
	@FUZZ_CC=$(FUZZ_CC) AFL_CC=$(AFL_CC) sh fuzz/tools.sh fuzz
	@$(MAKE) --no-print-directory all fuzz-build
	@FUZZ_TIME=$(FUZZ_TIME) JOBS=$(JOBS) ENGINE=$(ENGINE) FUZZ_OUT=$(FUZZ_OUT) \
	  bash fuzz/campaign.sh $(FUZZ_TARGETS)
	@FUZZ_OUT=$(FUZZ_OUT) sh fuzz/triage.sh $(FUZZ_TARGETS)
	@if [ -z "$(FUZZ_NO_REPORT)" ]; then $(MAKE) --no-print-directory reports-fuzz; fi
	@if [ -z "$(FUZZ_NO_REPORT)" ]; then $(MAKE) --no-print-directory reports-conformance; fi
	@echo "make fuzz: reports/fuzz.md (campaign) and reports/conformance.md (conformance run) written"

reports-fuzz: fuzz-tools $(addprefix build/cov/,$(FUZZ_TARGETS_ALL))
	@FUZZ_OUT=$(FUZZ_OUT) bash fuzz/report.sh

reports: reports-fuzz reports-conformance

# make bench-model [BASE=commit]: model-only speed of BASE's model/ vs the working tree's, the
# same bench program (fuzz/model_speed.c) built against each, run alternately (fuzz/bench_model.sh)
BASE ?= cb7cff8
BENCH_ENV = BASE=$(BASE) BENCH_CC="$(FUZZ_CC)" BENCH_CFLAGS="$(BENCH_CFLAGS)" BENCH_LIB_CFLAGS="$(BENCH_LIB_CFLAGS)"
.PHONY: bench-model
bench: $(addprefix build/fuzz-bench/,$(FUZZ_TARGETS_ALL) $(addprefix features-,$(FUZZ_TARGETS_ALL)) empty engine_model reset_cost model_speed) \
       $(addprefix build/fuzz-lf/bench-,$(FUZZ_TARGETS_ALL)) fuzz-tools
	@if command -v $(AFL_CC) >/dev/null 2>&1; then $(MAKE) --no-print-directory \
	  $(addprefix build/fuzz-afl/,$(FUZZ_TARGETS_ALL) empty) build/fuzz-tool/afl-bench-feed.so; fi
	@$(BENCH_ENV) sh fuzz/bench.sh
	@$(MAKE) --no-print-directory bench-insn

bench-model: build/fuzz-bench/model_speed build/fuzz-tool/func_invariants
	@$(BENCH_ENV) bash fuzz/bench_model.sh

# make bench-insn: host instructions per simulated instruction (callgrind; fuzz/insn_bench.sh)
.PHONY: bench-insn
bench-insn: build/fuzz-tool/func_invariants
	@CC="$(FUZZ_CC)" sh fuzz/insn_bench.sh

# make bench-dut [DUTS="A.so B.so"] [TTSIM=DIR]: implementations under test side by side on the same
# streams, host instructions per issued instruction (callgrind; fuzz/dut_bench.sh); by default the
# model's model.so and ttsim's build/dut/ttsim.so (made from TTSIM=DIR when missing)
DUTS ?= build/release/dut/model.so build/dut/ttsim.so
.PHONY: bench-dut
bench-dut: build/release/dut/model.so build/fuzz-tool/func_invariants
	@if echo " $(DUTS) " | grep -q " build/dut/ttsim.so " && [ ! -f build/dut/ttsim.so ]; then \
	  if [ -n "$(TTSIM)" ]; then $(MAKE) --no-print-directory dut-ttsim TTSIM=$(TTSIM) || exit 1; \
	  else echo "make bench-dut: build/dut/ttsim.so is missing: make dut-ttsim TTSIM=DIR (a checkout of tenstorrent/ttsim v1.10.0)"; exit 2; fi; fi
	@CC="$(FUZZ_CC)" sh fuzz/dut_bench.sh $(DUTS)

# make profile [PROFILE_TARGETS=...]: where each target's time goes under each build (perf;
# fuzz/profile.sh), the empty target's rows after them
PROFILE_TARGETS ?= func_invariants reset_equivalence cycle_vs_func decode_roundtrip text_parsers
.PHONY: profile
profile: $(addprefix build/fuzz-bench/,$(PROFILE_TARGETS) empty) $(addprefix build/fuzz-lf/bench-,$(PROFILE_TARGETS)) \
         $(addprefix build/fuzz-tool/,$(PROFILE_TARGETS) func_invariants) fuzz-tools
	@if command -v $(AFL_CC) >/dev/null 2>&1; then $(MAKE) --no-print-directory \
	  $(addprefix build/fuzz-afl/,$(PROFILE_TARGETS) empty) build/fuzz-tool/afl-bench-feed.so; fi
	@PROFILE_TARGETS="$(PROFILE_TARGETS) empty" bash fuzz/profile.sh

oss-fuzz-test:
	@bash fuzz/oss-fuzz/test.sh

fuzz-resume-test: fuzz-build
	@bash fuzz/resume-test.sh

# ---- mutation testing (tests/mutation/mutate.py; slow, so outside make test) ---------------------
#   make mutation      MUT_PER_FILE mutants of every model/ and model/text/ file (fixed MUT_SEED),
#                      each run against the conformance suite and the unit tests, and each
#                      non-equivalent one through a fixed-seed campaign (libFuzzer -seed=
#                      MUT_CAMPAIGN_SEED, from corpus/<target>/) of spec_diff, func_invariants,
#                      cycle_vs_func, reset_equivalence (model/) or text_parsers, decode_roundtrip
#                      (model/text/) sharing MUT_CAMPAIGN seconds of an idle core, counted in
#                      executions (the verdict does not depend on load), stopping at the first
#                      finding (MUT_CAMPAIGN=0: none); writes reports/mutation.md. MUT_JOBS parallel
#                      mutants (nice -n 10). Cached per fingerprint in build/mutation/ (resumes).
#   make mutation-ci   a 2-per-file sample of MUT_CI_FILES, suite only (CI); fails below MUT_CI_MIN
#                      percent killed. The table files and listing.c are left out: their suite gaps
#                      (isa.c's tt_insn_fields, amb.c's tt_amb_reading_of, listing.c's prefixes) are
#                      open, and CI would fail on them
MUT_PER_FILE ?= 20
MUT_SEED ?= 12
MUT_JOBS ?= 2
MUT_CAMPAIGN ?= 30
MUT_CAMPAIGN_SEED ?= 1
MUT_CI_MIN ?= 80
MUT_CI_FILES ?= waitgate.c,sync.c,config.c,scalar.c,run.c,state.c,host.c,cycle.c,asm.c,vec.c,vec_run.c,loc.c
.PHONY: mutation mutation-ci
mutation:
	@nice -n 10 python3 tests/mutation/mutate.py --per-file $(MUT_PER_FILE) --seed $(MUT_SEED) \
	  --jobs $(MUT_JOBS) --campaign $(MUT_CAMPAIGN) --campaign-seed $(MUT_CAMPAIGN_SEED)
mutation-ci:
	@nice -n 10 python3 tests/mutation/mutate.py --per-file 2 --seed $(MUT_SEED) --jobs $(MUT_JOBS) \
	  --files $(MUT_CI_FILES) --build build/mutation-ci --report build/mutation-ci/mutation.md \
	  --min-rate $(MUT_CI_MIN)

# fuzz-report-test (.ci/run): a resumed campaign's sums, saturation columns, warning rows and
# finding origins in the report (fuzz/report-test.sh; ~25 s of fuzzing)
fuzz-report-test: fuzz-tools build/fuzz-lf/decode_roundtrip build/fuzz-plant/text_parsers
	@if command -v $(AFL_CC) >/dev/null 2>&1; then $(MAKE) --no-print-directory build/fuzz-afl/decode_roundtrip; fi
	@bash fuzz/report-test.sh

# ---- bugbench: time a campaign takes to find each planted defect (issue 20 item 3) ---------
#   make bugbench     every defect of model/defects.def and the harness's FZ_PLANT_TEXT_OOB under
#                     the default campaign (FUZZ_TARGETS_ALL from the committed seeds, libFuzzer
#                     and AFL++ side by side), BUGBENCH_TRIALS trials of at most BUGBENCH_CAP s,
#                     seeds BUGBENCH_SEED+trial; fuzz/bugbench.sh; writes reports/bugbench.md
#                     (Ctrl-C: rows so far kept in BUGBENCH_OUT, the report written from them)
#   make bugbench-ci  (.ci/run) BUGBENCH_CI_DEFECTS, 1 trial, 30 s cap: each found by each engine
#                     (a campaign of BUGBENCH_CI_TARGETS)
# Defect builds (all made before the first trial): build/bugbench/<ID>/{lf,afl}/<target>, the model sources that mention the
# defect recompiled with -DTT_PLANTED=TT_DEF_<ID> (every source for a header), the rest and
# the harness objects shared with build/fuzz-lf and build/fuzz-afl.
BUGBENCH_TRIALS ?= 3
BUGBENCH_CAP ?= 120
BUGBENCH_SEED ?= 1
BUGBENCH_ENGINES ?= libfuzzer afl
BUGBENCH_TARGETS ?= $(FUZZ_TARGETS_ALL)
BUGBENCH_OUT ?= build/bugbench
BUGBENCH_REPORT ?= reports/bugbench.md
BB_IDS := $(shell sed -n 's/^TT_DEF.\([A-Z0-9_]*\),.*/\1/p' model/defects.def)
BUGBENCH_DEFECTS ?= $(BB_IDS) FZ_PLANT_TEXT_OOB
BUGBENCH_CI_DEFECTS ?= SEM_NO_SATURATE SEMPOST_HONORS_MAX NOP_CAUGHT_ANY
# BB_SITES, bb_files, bb_src: with the fuzz-fire defect builds above
bb_objs = $(foreach f,$(MODEL_SRC),$(if $(filter $(f),$(call bb_src,$(1))),build/bugbench/$(1)/$(2)/model/$(notdir $(f:.c=.o)),build/fuzz-$(2)/model/$(notdir $(f:.c=.o))))
define BB_DEFECT
build/bugbench/$(1)/lf/model/%.o: model/%.c $$(MODEL_HDR) fuzz/sancov-ignore.txt | build/bugbench/$(1)/lf/model
	$$(FUZZ_CC) $$(CPPFLAGS) $$(FUZZ_CF) -O1 -fsanitize=fuzzer-no-link $$(FUZZ_IGNORE) $$(FUZZ_SAN) \
	  $$(if $$(filter $$(FUZZ_NO_CMP_OBJS),$$(notdir $$@)),-fno-sanitize-coverage=trace-cmp) -DTT_PLANTED=TT_DEF_$(1) -c $$< -o $$@
build/bugbench/$(1)/lf/model/%.o: model/text/%.c $$(MODEL_HDR) fuzz/sancov-ignore.txt | build/bugbench/$(1)/lf/model
	$$(FUZZ_CC) $$(CPPFLAGS) $$(FUZZ_CF) -O1 -fsanitize=fuzzer-no-link $$(FUZZ_IGNORE) $$(FUZZ_SAN) \
	  $$(if $$(filter $$(FUZZ_NO_CMP_OBJS),$$(notdir $$@)),-fno-sanitize-coverage=trace-cmp) -DTT_PLANTED=TT_DEF_$(1) -c $$< -o $$@
build/bugbench/$(1)/afl/model/%.o: model/%.c $$(MODEL_HDR) $$(FUZZ_AFL_DENY) | build/bugbench/$(1)/afl/model
	AFL_QUIET=1 AFL_LLVM_DENYLIST=$$(abspath $$(FUZZ_AFL_DENY)) $$(AFL_CC) $$(CPPFLAGS) $$(FUZZ_CF) -O2 -DTT_PLANTED=TT_DEF_$(1) -c $$< -o $$@
build/bugbench/$(1)/afl/model/%.o: model/text/%.c $$(MODEL_HDR) $$(FUZZ_AFL_DENY) | build/bugbench/$(1)/afl/model
	AFL_QUIET=1 AFL_LLVM_DENYLIST=$$(abspath $$(FUZZ_AFL_DENY)) $$(AFL_CC) $$(CPPFLAGS) $$(FUZZ_CF) -O2 -DTT_PLANTED=TT_DEF_$(1) -c $$< -o $$@
build/bugbench/$(1)/lf/libtt.a: $$(call bb_objs,$(1),lf)
	rm -f $$@ && ar rcs $$@ $$^
build/bugbench/$(1)/afl/libtt.a: $$(call bb_objs,$(1),afl)
	rm -f $$@ && ar rcs $$@ $$^
build/bugbench/$(1)/lf/model build/bugbench/$(1)/afl/model:
	mkdir -p $$@
endef
define BB_DEFECT_BIN
build/bugbench/%/lf/$(1): $$(call fz_objs,fuzz-lf,$(1)) $$(call fz_lfmut,fuzz-lf,$(1)) build/bugbench/%/lf/libtt.a
	$$(FUZZ_CC) -fsanitize=fuzzer $$(FUZZ_SAN) $$^ -o $$@
build/bugbench/%/afl/$(1): $$(call fz_objs,fuzz-afl,$(1)) build/bugbench/%/afl/libtt.a
	AFL_QUIET=1 $$(AFL_CC) -fsanitize=fuzzer $$^ -o $$@
endef
$(foreach id,$(BB_IDS),$(eval $(call BB_DEFECT,$(id))))
$(foreach t,$(FUZZ_TARGETS_ALL),$(eval $(call BB_DEFECT_BIN,$(t))))
# the harness-level planted text bug: text_parsers.c compiled with -DFZ_PLANT_TEXT_OOB (the
# libFuzzer build is build/fuzz-plant/text_parsers); the other targets are the correct builds.
# The AFL++ build compiles the harness object with ASan (and links its runtime): a one-byte
# heap over-read does not crash a plain build, so without it AFL++ could never see the plant.
build/bugbench/FZ_PLANT_TEXT_OOB/afl/text_parsers.o: fuzz/text_parsers.c $(FUZZ_HDR) $(FUZZ_AFL_DENY)
	@mkdir -p $(@D)
	AFL_QUIET=1 AFL_LLVM_DENYLIST=$(abspath $(FUZZ_AFL_DENY)) $(AFL_CC) $(CPPFLAGS) -Ifuzz $(FUZZ_CF) -O2 -fsanitize=address -DFZ_PLANT_TEXT_OOB -c $< -o $@
build/bugbench/FZ_PLANT_TEXT_OOB/afl/text_parsers: build/bugbench/FZ_PLANT_TEXT_OOB/afl/text_parsers.o \
    $(filter-out build/fuzz-afl/fuzz/text_parsers.o,$(call fz_objs,fuzz-afl,text_parsers)) build/fuzz-afl/libtt.a
	AFL_QUIET=1 $(AFL_CC) -fsanitize=fuzzer -fsanitize=address $^ -o $@
# the binaries of defect $(1) for engine flavour $(2) (lf or afl)
bb_bins = $(if $(filter FZ_PLANT_TEXT_OOB,$(1)),$(if $(filter lf,$(2)),build/fuzz-plant/text_parsers,build/bugbench/$(1)/afl/text_parsers),$(addprefix build/bugbench/$(1)/$(2)/,$(BUGBENCH_TARGETS)))
BB_FLAVOURS = lf $(if $(filter afl,$(BUGBENCH_ENGINES)),afl)
BB_ENV = BUGBENCH_TRIALS="$(BUGBENCH_TRIALS)" BUGBENCH_CAP="$(BUGBENCH_CAP)" BUGBENCH_SEED="$(BUGBENCH_SEED)" \
  BUGBENCH_ENGINES="$(BUGBENCH_ENGINES)" BUGBENCH_TARGETS="$(BUGBENCH_TARGETS)"
.PHONY: bugbench bugbench-ci bugbench-common
bugbench-common: fuzz-tools build/fuzz-tool/afl-mutator.so
	@$(MAKE) --no-print-directory $(foreach fl,$(BB_FLAVOURS),$(addprefix build/fuzz-$(fl)/,$(BUGBENCH_TARGETS)))
bb_all_bins = $(foreach id,$(1),$(foreach fl,$(BB_FLAVOURS),$(call bb_bins,$(id),$(fl))))
bugbench: bugbench-common
	@$(MAKE) --no-print-directory $(call bb_all_bins,$(BUGBENCH_DEFECTS))
	@$(BB_ENV) BUGBENCH_DEFECTS="$(BUGBENCH_DEFECTS)" BUGBENCH_OUT="$(BUGBENCH_OUT)" \
	  BUGBENCH_REPORT="$(BUGBENCH_REPORT)" bash fuzz/bugbench.sh
# the CI sample's campaign is the targets that find its defects in reports/bugbench.md
# (func_invariants: SEM_NO_SATURATE; spec_diff: SEMPOST_HONORS_MAX, NOP_CAUGHT_ANY), so CI builds
# 2 targets for each engine and defect, not 7; `make bugbench` runs every target
BUGBENCH_CI_TARGETS ?= func_invariants spec_diff
bugbench-ci:
	@$(MAKE) --no-print-directory bugbench-ci-run BUGBENCH_TARGETS="$(BUGBENCH_CI_TARGETS)"
.PHONY: bugbench-ci-run
bugbench-ci-run: bugbench-common
	@$(MAKE) --no-print-directory $(call bb_all_bins,$(BUGBENCH_CI_DEFECTS))
	@$(BB_ENV) BUGBENCH_TRIALS=1 BUGBENCH_CAP=30 BUGBENCH_DEFECTS="$(BUGBENCH_CI_DEFECTS)" \
	  BUGBENCH_OUT=build/bugbench-ci BUGBENCH_REPORT=build/bugbench-ci/bugbench.md BUGBENCH_REQUIRE=1 \
	  bash fuzz/bugbench.sh

clean:
	rm -rf build

# ---- calibration against Blackhole p150 silicon (issue 21) -------------------------------------
#   make calibration       the probe table (conformance/cycle/silicon/probes.tsv) under isa and p150,
#                          written into README.md with the p150 profile differences, and the
#                          silicon vectors regenerated (conformance/tools/calibration.sh update)
#   make calibration-test  (in make test) p150 fits every probe within ±0.1; all of it current
.PHONY: calibration calibration-test
calibration: build/release/ttcal build/release/ttconf
	@bash conformance/tools/calibration.sh update
calibration-test: build/release/ttcal build/release/ttconf
	@bash conformance/tools/calibration.sh check

# ---- spec ambiguities (issue 8; section owned by the ambiguity work) -------------------------
#   make amb-witnesses        search the seeds (conformance/ minus conformance/ambiguities/, fuzz/seeds/)
#                             with fuzz/ambiguity_diff for a witness of every knob value
#                             (AMB_RUNS structured mutations, fixed seed: deterministic), minimise
#                             each into corpus/reproducers/ambiguity_diff/<name>.vec
#   make reports-ambiguities  from those reproducers: reports/ambiguities/AMB-NN-slug.md, the
#                             index README.md, and conformance/ambiguities/ (a vector per reading)
#   make amb-test             (in make test) the search finds a witness of every knob value within
#                             60 s from the seeds; the published pages and vectors are byte for byte
#                             what reports-ambiguities generates, and each reproducer is the
#                             minimiser's output for itself
AMB_RUNS ?= 1500000
AMB_SEEDS := conformance fuzz/seeds
AMB_DIRS := corpus/reproducers/ambiguity_diff reports/ambiguities conformance/ambiguities
.PHONY: amb-witnesses reports-ambiguities amb-test
amb-witnesses: build/fuzz-tool/ambtool
	@rm -rf build/amb-witnesses && mkdir -p build/amb-witnesses corpus/reproducers/ambiguity_diff
	build/fuzz-tool/ambtool search --runs $(AMB_RUNS) --time 100000 --exclude conformance/ambiguities \
	  --out build/amb-witnesses $(AMB_SEEDS)
	@rm -f corpus/reproducers/ambiguity_diff/*.vec && cp build/amb-witnesses/*.vec corpus/reproducers/ambiguity_diff/
	@echo "amb-witnesses: corpus/reproducers/ambiguity_diff/ ($$(ls build/amb-witnesses | wc -l) reproducers); now make reports-ambiguities"

reports-ambiguities: build/fuzz-tool/ambtool
	@mkdir -p $(AMB_DIRS)
	build/fuzz-tool/ambtool render $(AMB_DIRS)

amb-test: build/fuzz-tool/ambtool build/replay/ambiguity_diff
	@build/fuzz-tool/ambtool search --any --runs 5000000 --time 60 --exclude conformance/ambiguities \
	  $(AMB_SEEDS) >build/amb-search.txt; rc=$$?; head -n 1 build/amb-search.txt | sed 's/^/amb-test: /'; \
	  if [ $$rc -ne 0 ]; then grep 'NOT FOUND' build/amb-search.txt; exit 1; fi
	build/fuzz-tool/ambtool render --check $(AMB_DIRS)
	@# the readings ambiguity_diff skips (knob not read by the default run) are checked by every
	@# replay (amb_skip_sound); that check must fire when the knob log misses a knob's reads
	@FZ_AMB_DROP_KNOB=load_latency build/replay/ambiguity_diff corpus/ambiguity_diff >build/amb-skip-fire.txt 2>&1; \
	  n=$$(grep -c 'INVARIANT amb_skip_sound: load_latency=' build/amb-skip-fire.txt); \
	  if [ "$$n" -gt 0 ]; then echo "amb-test: ok   amb_skip_sound fires on $$n corpus inputs with load_latency dropped from the knob log"; \
	  else echo "amb-test: FAIL amb_skip_sound did not fire with load_latency dropped from the knob log"; exit 1; fi

