# fuzz/fuzz.mk — the fuzzing part of the build, included by the top-level Makefile's fuzz
# section (fuzz/README.md has the whole story).
#
#   make replay          every file under corpus/ and fuzz/seeds/ through every target, ASan+UBSan
#                        (build/replay), then `fuzz-fire` (part of `make test`)
#   make fuzz-fire       each invariant reported on its planted defect (build/fuzz-defect-<ID>)
#   make fuzz            campaign: FUZZ_TIME=seconds per target, JOBS, FUZZ_TARGETS, ENGINE,
#                        FUZZ_OUT (persistent, resumable); then triage + reports/fuzz.md
#   make fuzz-seeds      regenerate corpus/<target>/ from conformance/**/*.vec and fuzz/seeds/
#   make bench           execs/s per target vs the empty target on the same inputs; reset cost
#   make reports-fuzz    reports/fuzz.md (+ PNG) from the last campaign in FUZZ_OUT
#   make oss-fuzz-test   run fuzz/oss-fuzz/build.sh as OSS-Fuzz would, then each binary briefly
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
FUZZ_TARGETS_ALL := func_invariants reset_equivalence decode_roundtrip text_parsers
FUZZ_TARGETS ?= $(FUZZ_TARGETS_ALL)
FUZZ_PROG := func_invariants reset_equivalence
FUZZ_HDR := fuzz/fz.h $(MODEL_HDR)
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
FUZZ_CF := $(WARN) -g

.PHONY: replay replay-corpus fuzz-fire fuzz fuzz-build fuzz-seeds bench reports reports-fuzz \
        oss-fuzz-test fuzz-resume-test fuzz-tools

# ---- flavours: $(1) dir, $(2) compiler, $(3) compile flags ---------------------------------
define FUZZ_FLAVOUR
build/$(1)/model/%.o: model/%.c $$(MODEL_HDR) | build/$(1)/model
	$(2) $$(CPPFLAGS) $(3) -c $$< -o $$@
build/$(1)/fuzz/%.o: fuzz/%.c $$(FUZZ_HDR) | build/$(1)/fuzz
	$(2) $$(CPPFLAGS) -Ifuzz $(3) -c $$< -o $$@
build/$(1)/libtt.a: $$(patsubst model/%.c,build/$(1)/model/%.o,$$(MODEL_SRC))
	rm -f $$@ && ar rcs $$@ $$^
build/$(1)/model build/$(1)/fuzz:
	mkdir -p $$@
endef
$(eval $(call FUZZ_FLAVOUR,fuzz-lf,$$(FUZZ_CC),$$(FUZZ_CF) -O1 -fsanitize=fuzzer-no-link $$(FUZZ_SAN)))
$(eval $(call FUZZ_FLAVOUR,fuzz-afl,AFL_QUIET=1 $$(AFL_CC),$$(FUZZ_CF) -O2))
$(eval $(call FUZZ_FLAVOUR,fuzz-bench,$$(FUZZ_CC),$$(FUZZ_CF) -O2 -fsanitize=fuzzer-no-link))
$(eval $(call FUZZ_FLAVOUR,replay,$$(FUZZ_CC),$$(FUZZ_CF) -O1 -DFZ_REPLAY $$(FUZZ_SAN)))
$(eval $(call FUZZ_FLAVOUR,fuzz-tool,$$(FUZZ_CC),$$(FUZZ_CF) -O2 -fPIC))
$(eval $(call FUZZ_FLAVOUR,cov,$$(FUZZ_CC),$$(FUZZ_CF) -O1 -DFZ_REPLAY -fprofile-instr-generate -fcoverage-mapping))
$(eval $(call FUZZ_FLAVOUR,fuzz-plant,$$(FUZZ_CC),$$(FUZZ_CF) -O1 -DFZ_PLANT_TEXT_OOB -fsanitize=fuzzer-no-link $$(FUZZ_SAN)))

# objects of target $(2) in flavour $(1) (libFuzzer hooks of the mutator: program targets only)
fz_objs = build/$(1)/fuzz/$(2).o build/$(1)/fuzz/fz_input.o build/$(1)/fuzz/fz_mutator.o
fz_lfmut = $(if $(filter $(2),$(FUZZ_PROG)),build/$(1)/fuzz/fz_lf_mutator.o)

define FUZZ_BINS
build/fuzz-lf/$(1): $$(call fz_objs,fuzz-lf,$(1)) $$(call fz_lfmut,fuzz-lf,$(1)) build/fuzz-lf/libtt.a
	$$(FUZZ_CC) -fsanitize=fuzzer $$(FUZZ_SAN) $$^ -o $$@
build/fuzz-afl/$(1): $$(call fz_objs,fuzz-afl,$(1)) build/fuzz-afl/libtt.a
	AFL_QUIET=1 $$(AFL_CC) -fsanitize=fuzzer $$^ -o $$@
build/fuzz-bench/$(1): $$(call fz_objs,fuzz-bench,$(1)) build/fuzz-bench/fuzz/bench_feed.o build/fuzz-bench/libtt.a
	$$(FUZZ_CC) -fsanitize=fuzzer $$^ -o $$@
build/replay/$(1): $$(call fz_objs,replay,$(1)) build/replay/fuzz/driver.o build/replay/libtt.a
	$$(FUZZ_CC) $$(FUZZ_SAN) $$^ -o $$@
build/fuzz-tool/$(1): $$(call fz_objs,fuzz-tool,$(1)) build/fuzz-tool/fuzz/driver.o build/fuzz-tool/libtt.a
	$$(FUZZ_CC) $$^ -o $$@
build/cov/$(1): $$(call fz_objs,cov,$(1)) build/cov/fuzz/driver.o build/cov/libtt.a
	$$(FUZZ_CC) -fprofile-instr-generate $$^ -o $$@
endef
$(foreach t,$(FUZZ_TARGETS_ALL),$(eval $(call FUZZ_BINS,$(t))))

# the empty target links the whole model library, so libFuzzer scans the same counters
build/fuzz-bench/empty: build/fuzz-bench/fuzz/empty.o build/fuzz-bench/fuzz/bench_feed.o build/fuzz-bench/libtt.a
	$(FUZZ_CC) -fsanitize=fuzzer $(filter %.o,$^) -Wl,--whole-archive build/fuzz-bench/libtt.a -Wl,--no-whole-archive -o $@
build/fuzz-afl/empty: build/fuzz-afl/fuzz/empty.o build/fuzz-afl/libtt.a
	AFL_QUIET=1 $(AFL_CC) -fsanitize=fuzzer $(filter %.o,$^) -Wl,--whole-archive build/fuzz-afl/libtt.a -Wl,--no-whole-archive -o $@
build/fuzz-tool/afl-bench-feed.so: build/fuzz-tool/fuzz/afl_bench_feed.o
	$(FUZZ_CC) -shared $^ -o $@
build/fuzz-bench/reset_cost: fuzz/reset_cost.c build/fuzz-tool/fuzz/fz_input.o build/fuzz-tool/fuzz/fz_mutator.o \
                            build/fuzz-tool/libtt.a $(FUZZ_HDR) | build/fuzz-bench/fuzz
	$(FUZZ_CC) $(CPPFLAGS) -Ifuzz $(FUZZ_CF) -O2 $(filter %.c %.o %.a,$^) -o $@
build/fuzz-tool/gen: build/fuzz-tool/fuzz/gen.o build/fuzz-tool/fuzz/fz_input.o build/fuzz-tool/libtt.a
	$(FUZZ_CC) $^ -o $@
build/fuzz-tool/afl-mutator.so: build/fuzz-tool/fuzz/afl_mutator.o build/fuzz-tool/fuzz/fz_mutator.o \
                                build/fuzz-tool/fuzz/fz_input.o build/fuzz-tool/libtt.a
	$(FUZZ_CC) -shared $^ -o $@
build/fuzz-plant/text_parsers: $(call fz_objs,fuzz-plant,text_parsers) build/fuzz-plant/libtt.a
	$(FUZZ_CC) -fsanitize=fuzzer $(FUZZ_SAN) $^ -o $@
build/fuzz/program.dict: build/fuzz-tool/gen | build/fuzz
	$< dict-program >$@
build/fuzz/text.dict: build/fuzz-tool/gen | build/fuzz
	$< dict-text >$@
build/fuzz:
	mkdir -p $@

fuzz-tools: build/fuzz-tool/gen build/fuzz/program.dict build/fuzz/text.dict \
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
             ENCODE_DROPS_LSB:decode_roundtrip:roundtrip_fields \
             ENCODE_DROPS_LSB:decode_roundtrip:roundtrip_text
FUZZ_FIRE_RUNS ?= 20000
fz_word = $(word $(2),$(subst :, ,$(1)))
FUZZ_DEF_IDS := $(sort $(foreach f,$(FUZZ_FIRE),$(call fz_word,$(f),1)))
fz_def_hdr = $(shell grep -l 'TT_DEFECT($(1))' $(filter-out model/defects.h,$(MODEL_HDR)) /dev/null)
fz_def_src = $(if $(call fz_def_hdr,$(1)),$(MODEL_SRC),$(shell grep -l 'TT_DEFECT($(1))' $(MODEL_SRC) /dev/null))
fz_def_objs = $(foreach f,$(MODEL_SRC),$(if $(filter $(f),$(call fz_def_src,$(1))),build/fuzz-defect-$(1)/model/$(notdir $(f:.c=.o)),build/fuzz-tool/model/$(notdir $(f:.c=.o))))
define FUZZ_DEFECT
build/fuzz-defect-$(1)/model/%.o: model/%.c $$(MODEL_HDR) | build/fuzz-defect-$(1)/model
	$$(FUZZ_CC) $$(CPPFLAGS) $$(FUZZ_CF) -O2 -fPIC -DTT_PLANTED=TT_DEF_$(1) -c $$< -o $$@
build/fuzz-defect-$(1)/model:
	mkdir -p $$@
endef
define FUZZ_DEFECT_BIN
build/fuzz-defect-$(1)/$(2): $$(call fz_objs,fuzz-tool,$(2)) build/fuzz-tool/fuzz/driver.o $$(call fz_def_objs,$(1))
	$$(FUZZ_CC) $$^ -o $$@
endef
$(foreach id,$(FUZZ_DEF_IDS),$(eval $(call FUZZ_DEFECT,$(id))))
$(foreach p,$(sort $(foreach f,$(FUZZ_FIRE),$(call fz_word,$(f),1):$(call fz_word,$(f),2))),\
  $(eval $(call FUZZ_DEFECT_BIN,$(call fz_word,$(p),1),$(call fz_word,$(p),2))))
FUZZ_FIRE_BINS := $(sort $(foreach f,$(FUZZ_FIRE),build/fuzz-defect-$(call fz_word,$(f),1)/$(call fz_word,$(f),2)))

fuzz-fire: $(FUZZ_FIRE_BINS) $(addprefix build/replay/,$(FUZZ_TARGETS_ALL)) build/fuzz-plant/text_parsers
	@mkdir -p build/fuzz; set -o pipefail; sh fuzz/fire.sh $(FUZZ_FIRE_RUNS) $(FUZZ_FIRE) | tee build/fuzz/fire.txt

# ---- replay (make test) -------------------------------------------------------------------
replay-corpus: $(addprefix build/replay/,$(FUZZ_TARGETS_ALL))
	@set -e; for t in $(FUZZ_TARGETS_ALL); do build/replay/$$t corpus fuzz/seeds; done

replay: replay-corpus fuzz-fire

# ---- seeds, campaigns, reports, bench, OSS-Fuzz -------------------------------------------
fuzz-seeds: build/fuzz-tool/gen
	@sh fuzz/seeds.sh build/fuzz-tool/gen corpus conformance fuzz/seeds

fuzz-build: fuzz-tools build/fuzz-tool/afl-mutator.so $(addprefix build/replay/,$(FUZZ_TARGETS_ALL)) \
            $(addprefix build/cov/,$(FUZZ_TARGETS_ALL))
	@$(MAKE) --no-print-directory $(addprefix build/fuzz-lf/,$(FUZZ_TARGETS))
	@if command -v $(AFL_CC) >/dev/null 2>&1; then \
	  $(MAKE) --no-print-directory $(addprefix build/fuzz-afl/,$(FUZZ_TARGETS)); fi

fuzz:
	@FUZZ_CC=$(FUZZ_CC) AFL_CC=$(AFL_CC) sh fuzz/tools.sh
	@$(MAKE) --no-print-directory fuzz-build
	@FUZZ_TIME=$(FUZZ_TIME) JOBS=$(JOBS) ENGINE=$(ENGINE) FUZZ_OUT=$(FUZZ_OUT) \
	  bash fuzz/campaign.sh $(FUZZ_TARGETS)
	@FUZZ_OUT=$(FUZZ_OUT) sh fuzz/triage.sh $(FUZZ_TARGETS)
	@if [ -z "$(FUZZ_NO_REPORT)" ]; then $(MAKE) --no-print-directory reports-fuzz; fi

reports-fuzz: fuzz-tools $(addprefix build/cov/,$(FUZZ_TARGETS_ALL))
	@FUZZ_OUT=$(FUZZ_OUT) bash fuzz/report.sh

reports: reports-fuzz

bench: $(addprefix build/fuzz-bench/,$(FUZZ_TARGETS_ALL) empty reset_cost) fuzz-tools
	@if command -v $(AFL_CC) >/dev/null 2>&1; then $(MAKE) --no-print-directory \
	  $(addprefix build/fuzz-afl/,$(FUZZ_TARGETS_ALL) empty) build/fuzz-tool/afl-bench-feed.so; fi
	@sh fuzz/bench.sh

oss-fuzz-test:
	@sh fuzz/oss-fuzz/test.sh

fuzz-resume-test: fuzz-build
	@bash fuzz/resume-test.sh
