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
CPPFLAGS := -Imodel -D_POSIX_C_SOURCE=200809L
REL_CFLAGS := $(WARN) -O2 -g
ASAN_CFLAGS := $(WARN) -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined \
               -fno-sanitize-recover=all
ASAN_LDFLAGS := -fsanitize=address,undefined

MODEL_SRC := $(wildcard model/*.c)
MODEL_HDR := $(wildcard model/*.h model/*.def)
TEST_SRC  := $(wildcard model/tests/test_*.c)
TOOL_SRC  := model/tools/ttasm.c
RUNNER_SRC := conformance/runner.c
VEC ?= conformance

.PHONY: all test conformance fuzz bench reports clean audit unit exhaustive replay sensitivity \
        reports-conformance sensitivity-build
.DELETE_ON_ERROR:

all: build/release/ttasm build/release/ttconf

# ---- per-flavour rules ---------------------------------------------------------------------
define FLAVOUR
build/$(1)/model/%.o: model/%.c $(MODEL_HDR) | build/$(1)/model
	$$(CC) $$(CPPFLAGS) $(2) -c $$< -o $$@
build/$(1)/libtt.a: $$(patsubst model/%.c,build/$(1)/model/%.o,$$(MODEL_SRC))
	rm -f $$@ && ar rcs $$@ $$^
build/$(1)/ttasm: $$(TOOL_SRC) build/$(1)/libtt.a $$(MODEL_HDR)
	$$(CC) $$(CPPFLAGS) $(2) $$< build/$(1)/libtt.a $(3) -o $$@
build/$(1)/ttconf: $$(RUNNER_SRC) build/$(1)/libtt.a $$(MODEL_HDR)
	$$(CC) $$(CPPFLAGS) $(2) $$< build/$(1)/libtt.a $(3) -o $$@
build/$(1)/tests/%: model/tests/%.c $$(wildcard model/tests/*.h) build/$(1)/libtt.a $$(MODEL_HDR) | build/$(1)/tests
	$$(CC) $$(CPPFLAGS) -Imodel/tests $(2) $$< build/$(1)/libtt.a $(3) -lpthread -o $$@
build/$(1)/model build/$(1)/tests:
	mkdir -p $$@
endef
$(eval $(call FLAVOUR,release,$(REL_CFLAGS),))
$(eval $(call FLAVOUR,asan,$(ASAN_CFLAGS),$(ASAN_LDFLAGS)))

TESTS := $(patsubst model/tests/%.c,%,$(TEST_SRC))

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
	@loops=$$(grep -nE 'for *\([^;]*;[[:space:]]*;|while *\( *(1|true) *\)|do *\{?$$' model/*.c || true); \
	if [ -n "$$loops" ]; then echo "audit: loop without an explicit bound in model/:"; echo "$$loops"; exit 1; fi; \
	echo "audit: every loop in model/ states its bound in its condition (no for(;;), while(1), do-while)"

# ---- tests ---------------------------------------------------------------------------------
unit: $(addprefix build/release/tests/,$(TESTS)) $(addprefix build/asan/tests/,$(TESTS))
	@set -e; for t in $(TESTS); do \
	  for fl in release asan; do echo "== unit $$t ($$fl)"; build/$$fl/tests/$$t; done; done

conformance: build/asan/ttconf
	build/asan/ttconf --mode both $(VEC)

test: audit unit conformance-test replay
	@echo "make test: all stages passed"

conformance-test: build/asan/ttconf build/release/ttconf
	build/asan/ttconf --mode both conformance

# ---- conformance report and sensitivity (section owned by the report work) ------------------
# make sensitivity: for every planted defect (model/defects.def) of the units the vectors check,
#   a func-mode runner with that one defect compiled in (build/defect-<ID>/ttconf, $(WARN) -O1);
#   every vector is run against each and the target fails unless each defect makes >= 1 vector
#   fail. Results: build/sensitivity/<ID>.txt and build/sensitivity/summary.tsv.
#   Only the model sources that mention TT_DEFECT(<ID>) are recompiled per defect; the other
#   objects and the runner come from the clean build build/defect-NONE/ (same flags). A defect
#   named in a header, or a model source using TT_PLANTED directly, recompiles every source.
# make reports-conformance: conformance results + sensitivity + reports/conformance.md.
SENS_UNITS := sync gate config scalar threads
SENS_CFLAGS := $(WARN) -O1
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

build/defect-NONE/runner.o: $(RUNNER_SRC) $(MODEL_HDR) | build/defect-NONE/model
	$(CC) $(CPPFLAGS) $(SENS_CFLAGS) -c $< -o $@
define SENS_DEFECT
build/defect-$(1)/model/%.o: model/%.c $$(MODEL_HDR) | build/defect-$(1)/model
	$$(CC) $$(CPPFLAGS) $$(SENS_CFLAGS) -DTT_PLANTED=TT_DEF_$(1) -c $$< -o $$@
build/defect-$(1)/ttconf: $$(call sens_objs,$(1)) build/defect-NONE/runner.o
	$$(CC) $$(SENS_CFLAGS) $$^ -o $$@
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
# reports-fuzz (reports: depends on it), oss-fuzz-test. Rules: fuzz/fuzz.mk.
include fuzz/fuzz.mk

clean:
	rm -rf build
