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

.PHONY: all test conformance fuzz bench reports clean audit unit exhaustive replay sensitivity
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
	echo "audit: undefined symbols used by model/: $$(nm -u build/release/model/*.o | awk '{print $$NF}' | sort -u | tr '\n' ' ')"

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

# ---- fuzzing (section owned by the fuzz work: targets, replay, campaigns) -------------------
replay:
	@echo "replay: no fuzz targets yet"

clean:
	rm -rf build
