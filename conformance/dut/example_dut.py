#!/usr/bin/env python3
"""example_dut.py - a deliberately tiny Tensix "implementation" behind the ttdut line protocol
(server side: conformance/dut_serve.c; semantics: conformance/ttdut.h). Run it with
    build/release/ttconf --mode func --dut-cmd "python3 conformance/dut/example_dut.py" conformance
Functional mode only: the three threads' GPRs, NOP (exactly 0x02000000) and SETDMAREG immediate.
Every other word is refused through `accepts`, so such vectors are *not comparable*, not failed.
EXAMPLE_DUT_BREAK=1 plants a bug (SETDMAREG writes value + 1) for tests/dut_python.sh.
The request loop and the common requests are conformance/dut/ttdut_line.py's (beside this file)."""
import os, re, sys
from ttdut_line import common, serve, unsupported   # the protocol loop (beside this file)

BREAK = os.environ.get("EXAMPLE_DUT_BREAK") == "1"
GPR = re.compile(r"t([0-2])\.gpr\[(\d+|0[xX][0-9a-fA-F]+)\]$")   # as dutc_fmt_loc writes it
CAPS = ("ok name=python_example_dut modes=func set=gpr get=gpr flags=issued "   # notes= last:
        "notes=GPRs, NOP and SETDMAREG immediate only; no faults, stalls or cycle mode")  # spaces ok

def refusal(word):
    """None when the word is accepted, else why not (model/isa.def: opcode = bits [31:24])."""
    op, payload = word >> 24, word & 0xFFFFFF
    if op == 0x02:   # NOP has no fields: any payload bit is reserved and faults (`undefined`)
        return None if payload == 0 else "NOP with reserved bits set (faults are not modelled)"
    if op == 0x45:   # SETDMAREG: bit 7 (SetSignalsMode) selects the special form
        return None if payload & 0x80 == 0 else "SETDMAREG special mode (bit 7) is not modelled"
    return "opcode 0x%02X is not modelled (only NOP and SETDMAREG)" % op

class Dut:
    def __init__(self):   # the reset state
        self.gpr = [[0] * 64 for _ in range(3)]   # 3 threads x 64 32-bit GPRs
        self.prog, self.pc, self.steps = [[], [], []], [0, 0, 0], 0   # pc = instructions issued

    def run(self, budget):
        """One round issues every unfinished thread's head (T0, T1, T2): nothing here can stall."""
        while any(self.pc[t] < len(self.prog[t]) for t in range(3)):
            if budget <= 0:   # at most `budget` rounds in this run; `steps` counts since reset
                return "budget"
            budget -= 1
            for t in range(3):
                if self.pc[t] < len(self.prog[t]):
                    w = self.prog[t][self.pc[t]]
                    if w >> 24 == 0x45:   # SETDMAREG: NewValue [23:8] -> half-register [6:0]
                        v, h, s = ((w >> 8) + BREAK) & 0xFFFF, (w & 0x7F) >> 1, 16 * (w & 1)
                        self.gpr[t][h] = self.gpr[t][h] & ~(0xFFFF << s) & 0xFFFFFFFF | v << s
                    self.pc[t] += 1
            self.steps += 1
        return "done"

def answer(dut, req, a):
    """The response to one request `req` with arguments `a` (several lines for `run`)."""
    out = common(req, a, CAPS, refusal, dut.__init__)
    if out is not None: return out
    if req in ("set", "get"):
        m = GPR.match(a[0]) if a else None
        if not m or int(m.group(2), 0) > 63: return "no only tN.gpr[0..63] can be " + req
        t, i = int(m.group(1)), int(m.group(2), 0)
        if req == "get": return "ok 0x%X" % dut.gpr[t][i]
        dut.gpr[t][i] = int(a[1], 0) & 0xFFFFFFFF if len(a) > 1 else 0
        return "ok"
    if req == "load":
        if not a or a[0] not in ("t0", "t1", "t2"): return "error load tN WORD..."
        words = [int(w, 0) & 0xFFFFFFFF for w in a[1:]]
        why = next(filter(None, map(refusal, words)), None)   # also without `accepts` first
        if why: return "no " + why
        t = int(a[0][1])
        dut.prog[t], dut.pc[t] = words, 0
        return "ok"
    if req == "run":   # "ok OUTCOME STEPS CYCLES", then "tN DONE BLOCKED ISSUED FAULT FIDX WHY"
        out = ["ok %s %d 0" % (dut.run(int(a[0], 0) if a else 0), dut.steps)]
        for t in range(3):
            done, k = dut.pc[t] >= len(dut.prog[t]), dut.pc[t]   # never blocked, never faults
            out.append("t%d %d 0 %d none 0 %s" % (t, done, k, "done" if done else "at %d" % k))
        return "\n".join(out)
    # issue, hazards, snapshot, changed, trace and anything unknown: not this implementation's
    return unsupported(req)

if __name__ == "__main__":
    dut = Dut()
    serve(lambda req, args: answer(dut, req, args))
