# ttsim.mk — Tenstorrent's ttsim behind conformance/ttdut.h (see README.md next to this file).
# A GNU make fragment: `include conformance/dut/ttsim/ttsim.mk` from the top Makefile, or run it
# alone: `make -f conformance/dut/ttsim/ttsim.mk dut-ttsim TTSIM=DIR` from the repository root.
#
#   make dut-ttsim TTSIM=DIR        build ttsim's Blackhole objects with its own make.py (in DIR,
#                                   incremental) and link build/dut/ttsim.so
#   make dut-ttsim-test TTSIM=DIR   that, then the adapter's smoke test and the conformance
#                                   suite through it (ttconf --dut build/dut/ttsim.so conformance)
# DIR is a checkout of github.com/tenstorrent/ttsim at tag v1.10.0 (the adapter's tables are
# read from that version). Without TTSIM both targets say so and succeed.

TTSIM_MK_SAVED_GOAL := $(.DEFAULT_GOAL)
TTSIM_MK_INCLUDED := $(filter-out 1,$(words $(MAKEFILE_LIST)))
TTSIM_MK_DIR := $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))

TTSIM ?=
TTSIM_CXX ?= g++
TTSIM_CC ?= cc
TTSIM_PYTHON ?= python3
TTSIM_DIR = $(abspath $(TTSIM))
# ttsim's single-chip Blackhole release build (src/rules.py: config "release", chip "bh")
TTSIM_OUT = $(TTSIM_DIR)/src/_out/release_bh
TTSIM_OBJ_NAMES := libttsim.o common.o rv32.o sim.o tensix.o tile.o fma.o
TTSIM_OBJS = $(addprefix $(TTSIM_OUT)/,$(TTSIM_OBJ_NAMES))
TTSIM_SO := build/dut/ttsim.so
TTSIM_ADAPTER_OBJ := build/dut/ttsim_dut.o
TTSIM_SMOKE := build/dut/ttsim_smoke
# The same defines ttsim's objects were compiled with: the adapter shares their structures.
TTSIM_DEFS := -DTT_ARCH_VERSION=1 -DNUM_CHIPS=1 -DNUM_MMIO_CHIPS=1
TTSIM_CXXFLAGS := -std=c++20 -O2 -g -fPIC -fvisibility=hidden -fno-exceptions -fno-rtti \
                  -Wall -Wextra -Wno-unused-parameter -Werror
# ttsim_error() prints and _Exit()s: the adapter wraps it (and rv32_icache_invalidate, to count).
TTSIM_WRAPS := -Wl,--wrap=_Z11ttsim_error18TTSimErrorCategoryPKcS1_z \
               -Wl,--wrap=_Z22rv32_icache_invalidateP13Rv32HartState
TTSIM_LDFLAGS := -shared -Wl,--no-undefined -Wl,--version-script=$(TTSIM_MK_DIR)/ttsim.map $(TTSIM_WRAPS)

.PHONY: dut-ttsim dut-ttsim-test

ifeq ($(strip $(TTSIM)),)

dut-ttsim dut-ttsim-test:
	@echo "$@: skipped: give TTSIM=DIR, a checkout of tenstorrent/ttsim v1.10.0"

else

TTSIM_DESCRIBE = $(shell git -C "$(TTSIM_DIR)" describe --tags --always 2>/dev/null || echo unknown-version)

dut-ttsim:
	@test -f "$(TTSIM_DIR)/make.py" -a -f "$(TTSIM_DIR)/src/tensix.cpp" || \
	  { echo "dut-ttsim: $(TTSIM) is not a ttsim checkout (no make.py / src/tensix.cpp)"; exit 2; }
	@d="$(TTSIM_DESCRIBE)"; case "$$d" in v1.10.0|v1.10.0-*) ;; \
	  *) echo "dut-ttsim: note: $(TTSIM) is at $$d; the adapter's tables were written for v1.10.0" ;; esac
	cd "$(TTSIM_DIR)" && $(TTSIM_PYTHON) ./make.py $(addprefix src/_out/release_bh/,$(TTSIM_OBJ_NAMES))
	@$(MAKE) --no-print-directory -f $(TTSIM_MK_DIR)/ttsim.mk TTSIM="$(TTSIM_DIR)" $(TTSIM_SO)

$(TTSIM_ADAPTER_OBJ): $(TTSIM_MK_DIR)/ttsim_dut.cpp conformance/ttdut.h $(TTSIM_OUT)/tensix.o
	@mkdir -p $(dir $@)
	$(TTSIM_CXX) $(TTSIM_CXXFLAGS) $(TTSIM_DEFS) '-DTTSIM_DESCRIBE="$(TTSIM_DESCRIBE)"' \
	  -I"$(TTSIM_DIR)/src" -I"$(TTSIM_OUT)/../bh" -Iconformance -c $< -o $@

$(TTSIM_SO): $(TTSIM_ADAPTER_OBJ) $(TTSIM_OBJS) $(TTSIM_MK_DIR)/ttsim.map
	@mkdir -p $(dir $@)
	$(TTSIM_CXX) -o $@ $(TTSIM_ADAPTER_OBJ) $(TTSIM_OBJS) $(TTSIM_LDFLAGS)
	@exported=$$(nm -D --defined-only $@ | awk '{print $$3}' | grep -v '^$$' | sort | tr '\n' ' '); \
	  test "$$exported" = "ttdut_entry " || { echo "$@: exports more than ttdut_entry: $$exported"; rm -f $@; exit 1; }

$(TTSIM_SMOKE): $(TTSIM_MK_DIR)/smoke.c conformance/ttdut.h
	@mkdir -p $(dir $@)
	$(TTSIM_CC) -std=c11 -Wall -Wextra -Werror -O1 -g -Iconformance $< -o $@ -ldl

# Statuses of ttconf: 0 all passed, 1 some vector failed (findings about ttsim, listed above:
# not an error of this target), 2 bad command line, 3 nothing ran.
dut-ttsim-test: dut-ttsim
	@$(MAKE) --no-print-directory -f $(TTSIM_MK_DIR)/ttsim.mk TTSIM="$(TTSIM_DIR)" $(TTSIM_SMOKE)
	$(TTSIM_SMOKE) $(TTSIM_SO)
	@if [ ! -x build/release/ttconf ]; then $(MAKE) --no-print-directory build/release/ttconf; fi
	@set +e; build/release/ttconf --dut $(TTSIM_SO) conformance; s=$$?; \
	  case $$s in 0|1) exit 0 ;; *) echo "dut-ttsim-test: ttconf --dut exited with status $$s"; exit $$s ;; esac

endif

# Included: leave the including Makefile's default goal alone (also when it is defined later).
ifneq ($(TTSIM_MK_INCLUDED),)
.DEFAULT_GOAL := $(TTSIM_MK_SAVED_GOAL)
endif
