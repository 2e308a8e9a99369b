#!/usr/bin/env python3
"""Writes conformance/cycle/120..132_cal_*.vec, the silicon-calibration bursts.

The script only repeats program lines (64 repetitions per thread); every expected number is a
literal derived by hand in the comment of its vector, never computed here or by the model.
Run from anywhere: python3 conformance/tools/gen_cycle_calibration.py
"""
import os
D = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "cycle")
SRC = "# Source: mesham/tt-sim perfbench card-sessions 2026-08-12b (Blackhole p150),\n# file {f};\n" \
      "# bench perfbench/tensixbench/src/kernels/compute/raw_probes.cpp, probe {p}. Slope of\n" \
      "# (cycles - loop overhead) over 4 burst counts, per 64-instruction block, per thread.\n"

def write(name, header, progs, expects):
    lines = [header.rstrip("\n")]
    for t, body, reps in progs:
        for r in range(reps):
            for w, cmt in body:
                first = r == 0
                lines.append(f"t{t}: {w}" + (f"   # {cmt}" if cmt and first else ""))
    lines += expects
    open(os.path.join(D, name), "w").write("\n".join(lines) + "\n")

def hdr(comment, name, refs, extra=""):
    s = comment
    s += f"name: {name}\n"
    for r in refs: s += f"ref: {r}\n"
    s += extra + "mode: cycle\nstrict\n"
    return s

TH = "WormholeB0/TensixTile/TensixCoprocessor/ScalarUnit.md"
CU = "BlackholeA0/TensixTile/TensixCoprocessor/ConfigurationUnit.md"
SW = "BlackholeA0/TensixTile/TensixCoprocessor/STALLWAIT.md"
SETD = ("0x45000778", "SETDMAREG_IMM new_value=7 result_half_reg=120 (TTI_SETDMAREG(0, 7, 0, 120))")
ADDI = ("0x5883C07C", "ADDDMAREG_IMM result_reg=60 right_imm=1 left_reg=60 (TTI_ADDDMAREG(1, 60, 1, 60))")
done = lambda ts: [f"expect t{t} done" for t in ts] + [f"expect t{t} fault none" for t in ts]

# ---------------------------------------------------------------- SETDMAREG 1 / 2 / 3 threads
c = ("# Silicon calibration, SETDMAREG x64, ONE thread: measured 1.00 cycles/instruction\n"
     "# (0.998). " + SRC.format(f="1-clean-once.csv (variant t1)", p=9)[2:] +
     "# Model (cycle rule 4): occupancy 1, so SETDMAREG k issues at c = k; the last (k = 63) at\n"
     "# c63; ThCon free and the thread done at c64 -> cycles = 64 = 64 x 1.00.\n"
     "# Tolerance +-0.1 cycle/instruction over 64: 57.6..70.4 -> 58 <= cycles <= 70.\n")
write("120_cal_setdmareg_1thread.vec",
      hdr(c, "Calibration: 64 SETDMAREG on one thread take 64 cycles (silicon 1.00/instr)", [TH]),
      [(1, [SETD], 64)],
      ["expect t1.issue[0] = 0", "expect t1.issue[63] = 63", "expect cycles = 64",
       "expect cycles >= 58", "expect cycles <= 70", "expect t1.gpr[60] = 7"] + done([1]))

c = ("# Silicon calibration, SETDMAREG x64 per thread, TWO threads (t0, t1): measured 1.96-1.97\n"
     "# cycles/instruction per thread. " + SRC.format(f="1-clean-once.csv (variant t2)", p=9)[2:] +
     "# Model (cycle rules 4, 6): ThCon is one instruction at a time (occupancy 1) and is\n"
     "# arbitrated round-robin. c0: T0 (first contest). c1: T0#1 and T1#0 ready, last winner T0\n"
     "# -> T1. c2: last T1 -> T0. So T0 #k at 2k, T1 #k at 2k+1: T0#63 at c126, T1#63 at c127;\n"
     "# idle at c128 -> cycles = 128 = 64 x 2.00 per thread.\n"
     "# Tolerance: 64 x (1.97 +- 0.1) = 119.7..132.5 -> 120 <= cycles <= 132.\n")
write("121_cal_setdmareg_2threads.vec",
      hdr(c, "Calibration: 64 SETDMAREG on each of two threads take 128 cycles (silicon 1.97/instr)", [TH]),
      [(0, [SETD], 64), (1, [SETD], 64)],
      ["expect t0.issue[0] = 0", "expect t1.issue[0] = 1", "expect t0.issue[63] = 126",
       "expect t1.issue[63] = 127", "expect cycles = 128", "expect cycles >= 120", "expect cycles <= 132",
       "expect t0.gpr[60] = 7", "expect t1.gpr[60] = 7"] + done([0, 1]))

c = ("# Silicon calibration, SETDMAREG x64 per thread, THREE threads: measured 2.97 cycles/\n"
     "# instruction per thread. " + SRC.format(f="1-clean-once.csv (variant t3)", p=9)[2:] +
     "# Model (cycle rules 4, 6): round-robin T0, T1, T2, T0, ... one per cycle: thread t's #k at\n"
     "# 3k + t. T2#63 at c191; idle at c192 -> cycles = 192 = 64 x 3.00.\n"
     "# Tolerance: 64 x (2.97 +- 0.1) = 183.7..196.5 -> 184 <= cycles <= 196.\n")
write("122_cal_setdmareg_3threads.vec",
      hdr(c, "Calibration: 64 SETDMAREG on each of three threads take 192 cycles (silicon 2.97/instr)", [TH]),
      [(0, [SETD], 64), (1, [SETD], 64), (2, [SETD], 64)],
      ["expect t0.issue[1] = 3", "expect t1.issue[1] = 4", "expect t2.issue[1] = 5",
       "expect t0.issue[63] = 189", "expect t1.issue[63] = 190", "expect t2.issue[63] = 191",
       "expect cycles = 192", "expect cycles >= 184", "expect cycles <= 196",
       "expect t0.gpr[60] = 7", "expect t1.gpr[60] = 7", "expect t2.gpr[60] = 7"] + done([0, 1, 2]))

# ---------------------------------------------------------------- ADDDMAREG imm 1 / 2 / 3 threads
REG = ("# Register choice in the bench: TTI_ADDDMAREG(1, 60, 1, 60) = OpBisConst 1 (IMMEDIATE\n"
       "# variant), ResultReg 60, immediate 1, LeftReg 60 - so the ISA rule gives 3 cycles; the\n"
       "# '1' is an immediate, not RightReg 1 (group 0 vs 15). MUL/SHIFT/CMP probes 11-13 are\n"
       "# immediate forms too. GPR60 += 1 per instruction (GPR60 starts 0).\n")
c = ("# Silicon calibration, ADDDMAREG (3-cycle case) x64, ONE thread: measured 2.97 cycles/instr.\n"
     + SRC.format(f="1-clean-once.csv (variant t1)", p=10) + REG +
     "# Model (cycle rule 4): immediate form occupies ThCon 3 cycles; ADD #k at 3k, #63 at c189,\n"
     "# ThCon held c189..c191 -> cycles = 192 = 64 x 3.00.\n"
     "# Tolerance: 64 x (2.97 +- 0.1) -> 184 <= cycles <= 196.\n")
write("123_cal_adddmareg_imm_1thread.vec",
      hdr(c, "Calibration: 64 ADDDMAREG imm on one thread take 192 cycles (silicon 2.97/instr)",
          [TH, "WormholeB0/TensixTile/TensixCoprocessor/ADDDMAREG.md"]),
      [(1, [ADDI], 64)],
      ["expect t1.issue[1] = 3", "expect t1.issue[63] = 189", "expect cycles = 192",
       "expect cycles >= 184", "expect cycles <= 196", "expect t1.gpr[60] = 64"] + done([1]))

c = ("# Silicon calibration, ADDDMAREG imm x64 per thread, TWO threads (t0, t1): measured 5.98-5.99\n"
     "# cycles/instruction per thread. " + SRC.format(f="1-clean-once.csv (variant t2)", p=10)[2:] + REG +
     "# Model (cycle rules 4, 6): c0 T0#0; c3 T0#1 and T1#0 ready, last winner T0 -> T1#0; c6 ->\n"
     "# T0#1; ... T0 #k at 6k, T1 #k at 6k+3. T1#63 at c381, ThCon c381..c383 -> cycles = 384\n"
     "# = 64 x 6.00. Tolerance: 64 x (5.99 +- 0.1) = 377.0..389.8 -> 377 <= cycles <= 389.\n")
write("124_cal_adddmareg_imm_2threads.vec",
      hdr(c, "Calibration: 64 ADDDMAREG imm on each of two threads take 384 cycles (silicon 5.99/instr)",
          [TH, "WormholeB0/TensixTile/TensixCoprocessor/ADDDMAREG.md"]),
      [(0, [ADDI], 64), (1, [ADDI], 64)],
      ["expect t0.issue[0] = 0", "expect t1.issue[0] = 3", "expect t0.issue[1] = 6",
       "expect t0.issue[63] = 378", "expect t1.issue[63] = 381", "expect cycles = 384",
       "expect cycles >= 377", "expect cycles <= 389",
       "expect t0.gpr[60] = 64", "expect t1.gpr[60] = 64"] + done([0, 1]))

c = ("# Silicon calibration, ADDDMAREG imm x64 per thread, THREE threads: measured 9.00 cycles/\n"
     "# instruction per thread. " + SRC.format(f="1-clean-once.csv (variant t3)", p=10)[2:] + REG +
     "# Model (cycle rules 4, 6): round-robin T0, T1, T2 with 3 cycles each: thread t's #k at\n"
     "# 9k + 3t. T2#63 at c573, ThCon c573..c575 -> cycles = 576 = 64 x 9.00.\n"
     "# Tolerance: 64 x (9.00 +- 0.1) = 569.6..582.4 -> 570 <= cycles <= 582.\n")
write("125_cal_adddmareg_imm_3threads.vec",
      hdr(c, "Calibration: 64 ADDDMAREG imm on each of three threads take 576 cycles (silicon 9.00/instr)",
          [TH, "WormholeB0/TensixTile/TensixCoprocessor/ADDDMAREG.md"]),
      [(0, [ADDI], 64), (1, [ADDI], 64), (2, [ADDI], 64)],
      ["expect t0.issue[0] = 0", "expect t1.issue[0] = 3", "expect t2.issue[0] = 6", "expect t0.issue[1] = 9",
       "expect t0.issue[63] = 567", "expect t1.issue[63] = 570", "expect t2.issue[63] = 573",
       "expect cycles = 576", "expect cycles >= 570", "expect cycles <= 582",
       "expect t0.gpr[60] = 64", "expect t1.gpr[60] = 64", "expect t2.gpr[60] = 64"] + done([0, 1, 2]))

# ---------------------------------------------------------------- RMWCIB0, RDCFG
RMW = ("0xB3000000", "RMWCIB0 mask=0 new_value=0 cfg_index=0 (TTI_RMWCIB0(0, 0, 0): identity)")
c = ("# Silicon calibration, RMWCIB0 x64, ONE thread: measured 1.00 cycles/instruction (0.998).\n"
     + SRC.format(f="tensix-rdcfg.blackhole.csv", p=25) +
     "# Model (cycle rule 5): RMWCIB enters stage 0 and leaves after 1 cycle, so at every issue\n"
     "# the previous one has gone: RMWCIB k at c = k, #63 at c63, pipeline empty at c64 ->\n"
     "# cycles = 64. Mask 0 writes the old byte back: Config unchanged.\n"
     "# Tolerance: 64 x (1.00 +- 0.1) -> 58 <= cycles <= 70.\n")
write("126_cal_rmwcib0_1thread.vec",
      hdr(c, "Calibration: 64 RMWCIB0 on one thread take 64 cycles (silicon 1.00/instr)",
          [CU, "BlackholeA0/TensixTile/TensixCoprocessor/RMWCIB.md"]),
      [(1, [RMW], 64)],
      ["expect t1.issue[1] = 1", "expect t1.issue[63] = 63", "expect cycles = 64",
       "expect cycles >= 58", "expect cycles <= 70"] + done([1]))

RDC = ("0xB13C0000", "RDCFG result_reg=60 cfg_index=0 (TTI_RDCFG(60, 0))")
c = ("# Silicon calibration, RDCFG x64, ONE thread: measured 1.00 cycles/instruction (0.998).\n"
     + SRC.format(f="1-clean-once.csv (variant t1)", p=14) +
     "# Model (cycle rule 5): RDCFG is in stage 0 in its issue cycle and in +1 the next; it does\n"
     "# not block its thread, and stage 0 is empty again at every next issue: RDCFG k at c = k.\n"
     "# #63 at c63, +1 at c64, empty at c65 (GPR60 readable from 63 + 2) -> cycles = 65.\n"
     "# Rule 8: every RDCFG writes GPR60 while the previous RDCFG's write-back to GPR60 (landing at\n"
     "# its issue + 2) is pending -> gpr_pending at instructions 1..63 = 63 hazards (the bench's\n"
     "# stream is a write-after-write on one GPR; silicon does not care, the model reports it).\n"
     "# Tolerance (issue span): 64 x (1.00 +- 0.1) -> 58 <= cycles <= 70.\n")
write("127_cal_rdcfg_1thread.vec",
      hdr(c, "Calibration: 64 RDCFG on one thread issue one per cycle (silicon 1.00/instr)",
          [CU, "BlackholeA0/TensixTile/TensixCoprocessor/RDCFG.md"], "init cfg[0][0] = 0x0BADCAFE\n"),
      [(1, [RDC], 64)],
      ["expect t1.issue[1] = 1", "expect t1.issue[63] = 63", "expect cycles = 65",
       "expect cycles >= 58", "expect cycles <= 70", "expect t1.gpr[60] = 0x0BADCAFE",
       "expect t1.hazard[1] = gpr_pending", "expect t1.hazard[63] = gpr_pending",
       "expect hazards = 63"] + done([1]))

# ---------------------------------------------------------------- STALLWAIT 0x1FF C12 + NOP
SWC = ("0xA2FF9000", "STALLWAIT block_mask=0x1FF condition_mask=0x1000 (STALL_THREAD, CFGEXU)")
NOP = ("0x02000000", "NOP")
c = ("# Silicon calibration, pair {STALLWAIT 0x1FF/C12, NOP} x64, ONE thread: measured 2.97\n"
     "# cycles per PAIR (2.968), against 2.00 for {NOP, NOP} (vector 129).\n"
     + SRC.format(f="tensix-rdcfg-c12.blackhole.csv (variant t1)", p="28 (C12_XTHREAD)") +
     "# Model (cycle rules 1, 2): pair k: STALLWAIT at c = 3k (latch from 3k+1); at 3k+1 the\n"
     "# Config pipeline is empty (C12 false) -> latch forgotten at the end of 3k+1, the NOP\n"
     "# (caught only because the mask is 0x1FF) is held at 3k+1 and issues at 3k+2; the next\n"
     "# STALLWAIT is not caught (latch gone) and issues at 3k+3. Last NOP at 3*63+2 = c191 ->\n"
     "# cycles = 192 = 64 x 3.00. Tolerance 64 x (2.97 +- 0.1) -> 184 <= cycles <= 196.\n")
write("128_cal_stallwait_c12_nop_pair_1thread.vec",
      hdr(c, "Calibration: 64 pairs STALLWAIT(0x1FF, C12) + NOP take 192 cycles (silicon 2.97/pair)", [SW]),
      [(1, [SWC, NOP], 64)],
      ["expect t1.issue[0] = 0", "expect t1.issue[1] = 2", "expect t1.issue[2] = 3",
       "expect t1.issue[126] = 189", "expect t1.issue[127] = 191", "expect cycles = 192",
       "expect cycles >= 184", "expect cycles <= 196"] + done([1]))

c = ("# Silicon calibration, the null arm of vector 128: pair {NOP, NOP} x64, ONE thread: measured\n"
     "# 2.00 cycles per pair (1.997).\n"
     + SRC.format(f="tensix-rdcfg-c12.blackhole.csv (variant t1)", p="29 (C12_XTHREAD_NULL)") +
     "# Model (cycle rule 3): a NOP costs one issue cycle: NOP j at c = j, last (j = 127) at c127\n"
     "# -> cycles = 128 = 64 x 2.00. Tolerance 64 x (2.00 +- 0.1) = 121.6..134.4 -> 122..134.\n")
write("129_cal_nop_nop_pair_1thread.vec",
      hdr(c, "Calibration: 64 pairs NOP + NOP take 128 cycles (silicon 2.00/pair)",
          ["WormholeB0/TensixTile/TensixCoprocessor/NOP.md"]),
      [(1, [NOP, NOP], 64)],
      ["expect t1.issue[127] = 127", "expect cycles = 128", "expect cycles >= 122",
       "expect cycles <= 134"] + done([1]))

c = ("# Silicon calibration (extra row, same session): pair {RDCFG(60, 0), STALLWAIT 0x1FF/C12} x64,\n"
     "# ONE thread: measured 2.968 cycles per pair - identical to RMWCIB0 + the same STALLWAIT\n"
     "# (2.968) and SETDMAREG + it (2.968), i.e. C12 never saw the RDCFG's +1 cycle.\n"
     + SRC.format(f="tensix-rdcfg.blackhole.csv", p="22 (RDCFG_CFGSTALL)") +
     "# Model (cycle rules 1, 5): pair k: RDCFG at c = 3k (stage 0), +1 at 3k+1; STALLWAIT at\n"
     "# 3k+1 (latch from 3k+2); at 3k+2 the RDCFG has left +1 -> C12 false -> latch forgotten at\n"
     "# the end of 3k+2; the next RDCFG (caught by 0x1FF) is held at 3k+2 and issues at 3k+3.\n"
     "# 3 per pair, agreeing with silicon (the bench's own prediction of 4 assumed C12 is sampled\n"
     "# while the RDCFG is in +1; with the latch visible only from c+1 it never is).\n"
     "# Last pair: RDCFG c189, STALLWAIT c190; RDCFG leaves +1 at c191 (GPR60 readable 189+2) ->\n"
     "# cycles = 191. Every RDCFG's write-back landed 2 cycles before the next -> no hazard.\n"
     "# Tolerance 64 x (2.968 +- 0.1) = 183.6..196.4 -> 184 <= cycles <= 196.\n")
write("130_cal_rdcfg_stallwait_c12_pair_1thread.vec",
      hdr(c, "Calibration: 64 pairs RDCFG + STALLWAIT(0x1FF, C12) take 3 cycles/pair (silicon 2.968)",
          [CU, "BlackholeA0/TensixTile/TensixCoprocessor/RDCFG.md", SW], "init cfg[0][0] = 0x0BADCAFE\n"),
      [(1, [RDC, SWC], 64)],
      ["expect t1.issue[0] = 0", "expect t1.issue[1] = 1", "expect t1.issue[2] = 3",
       "expect t1.issue[126] = 189", "expect t1.issue[127] = 190", "expect cycles = 191",
       "expect cycles >= 184", "expect cycles <= 196", "expect t1.gpr[60] = 0x0BADCAFE",
       "expect hazards = 0"] + done([1]))

# ---------------------------------------------------------------- RDCFG + ADD pair: rule vs silicon
ADD0 = ("0x5883F03C", "ADDDMAREG_IMM result_reg=63 right_imm=0 left_reg=60 (TTI_ADDDMAREG(1, 63, 0, 60))")
c = ("# RULE 4 vs SILICON (extra row, same session) - this vector encodes cycle rule 4; silicon\n"
     "# disagrees (see the report). Pair {RDCFG(60, 0), ADDDMAREG imm GPR63 = GPR60 + 0} x64, ONE\n"
     "# thread: measured 2.968 cycles per PAIR, the same as ADDDMAREG alone (2.972) - the RDCFG\n"
     "# costs nothing extra. The INDEP arm (probe 27, ADD reads GPR59) is identical: no interlock.\n"
     + SRC.format(f="tensix-rdcfg.blackhole.csv", p="26 (RDCFG_DEP)") +
     "# Model (cycle rule 4: the issuing thread issues NOTHING before c+N): pair k: RDCFG at 4k,\n"
     "# ADD at 4k+1 (ThCon 4k+1..4k+3), next RDCFG at 4k+4 -> 4 cycles per pair. Last ADD at\n"
     "# c253, ThCon free at c256 -> cycles = 256 (silicon ~ 64 x 2.968 = 190).\n"
     "# Rule 8: each ADD reads GPR60 at 4k+1 while its RDCFG's write-back lands at 4k+2 ->\n"
     "# gpr_pending at every ADD (instructions 1, 3, ..., 127) = 64 hazards; the RDCFG at 4k+4\n"
     "# finds the previous write-back landed. Values (operands read at issue): ADD #0 reads the\n"
     "# initial GPR60 (0); later ADDs read the previous RDCFG's value 0x0BADCAFE -> GPR63 ends\n"
     "# 0x0BADCAFE, GPR60 ends 0x0BADCAFE.\n")
write("131_cal_rdcfg_add_pair_rule4_vs_silicon.vec",
      hdr(c, "Calibration (rule 4 vs silicon): 64 pairs RDCFG + ADDDMAREG imm: rule 4 gives 256 cycles, silicon ~190",
          [TH, CU, "BlackholeA0/TensixTile/TensixCoprocessor/RDCFG.md"], "init cfg[0][0] = 0x0BADCAFE\n"),
      [(1, [RDC, ADD0], 64)],
      ["expect t1.issue[0] = 0", "expect t1.issue[1] = 1", "expect t1.issue[2] = 4",
       "expect t1.issue[126] = 252", "expect t1.issue[127] = 253", "expect cycles = 256",
       "expect t1.gpr[60] = 0x0BADCAFE", "expect t1.gpr[63] = 0x0BADCAFE",
       "expect t1.hazard[1] = gpr_pending", "expect t1.hazard[127] = gpr_pending",
       "expect hazards = 64"] + done([1]))

# ---------------------------------------------------------------- C12 cross-thread: rule vs silicon
c = ("# RULE 1/5 vs SILICON (extra row, same session) - this vector encodes the cycle rules;\n"
     "# silicon disagrees (see the report). Three threads: t1 runs {STALLWAIT 0x1FF/C12, NOP} x64\n"
     "# while t0 and t2 each run {RMWCIB0(0,0,0), NOP} x64. Measured per pair: t0 1.996, t2 1.997\n"
     "# (agrees with the model), t1 4.916 (t1 alone: 2.968; its NOP+NOP null arm: 1.997) - C12\n"
     "# on silicon DOES see the other threads' RMWCIBs.\n"
     + SRC.format(f="tensix-rdcfg-c12.blackhole.csv (variant t3)", p="28 (C12_XTHREAD)") +
     "# Model: stage 0 is contended by t0/t2 RMWCIBs: c0 t0 (first), c1 t2 (t0 issues its NOP),\n"
     "# c2 t0, c3 t2, ...: t0 RMWCIB #k at 2k, NOP at 2k+1; t2 RMWCIB #k at 2k+1, NOP at 2k+2.\n"
     "# An RMWCIB is in stage 0 only during its issue cycle and has left at step (b) of the next,\n"
     "# so at every latch evaluation (step c, start-of-cycle state after the advance) the pipeline\n"
     "# is empty: C12 is never true for t1, and t1 runs exactly as alone (vector 128): STALLWAIT\n"
     "# #k at 3k, NOP at 3k+2; last NOP c191 -> cycles = 192. t0 last at c127, t2 last at c128.\n"
     "# (If C12 saw the RMWCIBs, t1 would wait until the hammering ends near c128 and then run\n"
     "# 63 more pairs at 3: about 5.0 per pair, close to the measured 4.92.)\n")
write("132_cal_c12_cross_thread_rule_vs_silicon.vec",
      hdr(c, "Calibration (rules vs silicon): C12 wait beside two RMWCIB streams: rules give t1 3/pair, silicon 4.92",
          [SW, CU]),
      [(0, [RMW, NOP], 64), (1, [SWC, NOP], 64), (2, [RMW, NOP], 64)],
      ["expect t0.issue[0] = 0", "expect t2.issue[0] = 1", "expect t0.issue[2] = 2", "expect t2.issue[2] = 3",
       "expect t0.issue[127] = 127", "expect t2.issue[127] = 128",
       "expect t1.issue[1] = 2", "expect t1.issue[127] = 191", "expect cycles = 192"] + done([0, 1, 2]))
print("ok")
