#!/usr/bin/env python3
"""tt_sim_dut.py - mesham/tt-sim's Tensix coprocessor behind the ttdut line protocol
(conformance/README.md, "Implementations under test"; semantics: conformance/ttdut.h).

    build/release/ttconf --mode func --dut-cmd "python3 conformance/dut/mesham-tt-sim/tt_sim_dut.py DIR" conformance

DIR is a checkout of github.com/mesham/tt-sim (read at 8b031a6); it is imported from there, never
copied here. tt-sim is pure Python; what its Tensix model needs is numpy and pyyaml (Debian:
python3-numpy python3-yaml). Modules that its package imports for tracing and the device bridge
(pyarrow, pynng, flatbuffers, pyelftools) are replaced by empty stand-ins when they are missing:
the coprocessor never calls them.

What is driven: one TensixCoProcessor per reset, built as tt-sim's Blackhole tile builds it (the
Blackhole architecture profile's Config and ThreadConfig sizes), its three frontends fed the
streams (as a RISC-V core's instruction pushes would), every clock of the coprocessor ticked once
per cycle. L1 and the Tensix MMIO page are this adapter's memory behind the coprocessor's
addressable-memory port. Functional mode only (tt-sim is not cycle accurate). Words outside the
three units this harness covers (Sync, Config, ThCon, and NOP) are refused, as are the words tt-sim
itself marks unmodelled. A Python exception raised while a thread's instruction is handled stops
that thread (fault class unknown: `some`). `issued` counts the words that left a thread's Wait
Gate; a run ends done when every stream has left its gate and no unit has work of it in flight,
deadlock when for IDLE_CYCLES cycles nothing left a gate and no unit had work in flight, budget
after BUDGET x CYCLES_PER_STEP cycles.
"""
import os, re, sys, types
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from ttdut_line import common, serve, unsupported   # the protocol loop (conformance/dut/)

IDLE_CYCLES = 256       # cycles with no instruction leaving a gate and no unit busy: deadlock
CYCLES_PER_STEP = 32    # the runner's budget is in rounds; tt-sim's clock in cycles
SCOPE = {"SYNC", "CFG", "THCON", "NONE"}   # tt-sim's ex_resource names of the units in scope
L1_SIZE = 1536 * 1024
MMIO_BASE, MMIO_SIZE = 0xFFB00000, 0x100000


def import_tt_sim(root, contract_checks):
    # tt-sim's semaphore contract checks (semaphore_contract.py) stop a program whose SEMPOST or
    # SEMGET the hardware would saturate; tt-sim documents that the instructions themselves
    # saturate as SEMPOST.md/SEMGET.md say. Off by default here: the suite compares what the
    # instructions do. --contract-checks keeps them.
    if not contract_checks:
        os.environ["TT_SIM_DISABLE_SEMAPHORE_CHECKS"] = "1"
    sys.path.insert(0, root)
    for name in ("pyarrow", "pyarrow.parquet", "pynng", "flatbuffers", "elftools", "elftools.elf",
                 "elftools.elf.elffile"):
        try:
            __import__(name)
        except ImportError:
            sys.modules[name] = types.ModuleType(name)
    global TensixCoProcessor, Decoder, UNMODELLED, PROFILE
    from tt_sim.arch.blackhole import BLACKHOLE_PROFILE as PROFILE
    from tt_sim.pe.tensix.tensix import TensixCoProcessor
    from tt_sim.pe.tensix.util import TensixInstructionDecoder as Decoder
    from tt_sim.pe.tensix.backend import UNMODELLED_BLACKHOLE_INSTRUCTIONS as UNMODELLED
    global HANDLERS  # the instructions each unit in scope has a handler for (NONE: NOP, no unit)
    units = TensixCoProcessor(blackhole=True).getBackend().backend_units
    HANDLERS = {r: set(getattr(units[r], "opcode_to_method_map", {})) for r in SCOPE if r in units}


class Memory:
    """L1 and the MMIO page, sparse, little-endian; the coprocessor's addressable memory."""
    def __init__(self):
        self.b = {}

    def read(self, addr, size):
        return bytes(self.b.get(addr + i, 0) for i in range(size))

    def write(self, addr, value, size=None):
        if isinstance(value, int):
            value = value.to_bytes(size or 4, "little")
        for i, x in enumerate(bytes(value)[: size or len(value)]):
            self.b[addr + i] = x

    def get(self, addr, n):
        return int.from_bytes(self.read(addr, n), "little")

    def getSize(self):
        return 0xFFFFFFFF


def refusal(word):
    """None when the word is accepted, else why not."""
    if not Decoder.isInstructionRecognised(word):
        return "opcode 0x%02X is not a Tensix instruction tt-sim recognises" % (word >> 24)
    info = Decoder.getInstructionInfo(word)
    name, res = info["name"], info["ex_resource"]
    if name in UNMODELLED:
        return "%s: tt-sim marks it unmodelled" % name
    if res not in SCOPE:
        return "%s runs in %s, outside the units this harness covers" % (name, res)
    unit = HANDLERS.get(res)
    if unit is not None and name not in unit:
        return "%s: tt-sim's %s unit has no handler for it" % (name, res)
    return None


LOC = re.compile(r"(?:t([0-2])\.gpr\[(\w+)\]|cfg\[([01])\]\[(\w+)\]|tcfg\[([0-2])\]\[(\w+)\]|"
                 r"sem\[([0-7])\]\.(value|max)|mutex\[(\w+)\]|l1\.u(8|16|32)\[(\w+)\]|mmio\[(\w+)\])$")


class Dut:
    def __init__(self):
        # as tt-sim's Blackhole tile builds it (device/tiles.py): the architecture profile's sizes
        self.cop = TensixCoProcessor(cfg_state_size=PROFILE.tensix_cfg_state_size,
                                     thd_state_size=PROFILE.tensix_thd_state_size,
                                     blackhole=PROFILE.tensix_blackhole)
        self.mem = Memory()
        self.cop.setAddressableMemory([self.mem])
        self.be = self.cop.getBackend()
        self.prog = [[], [], []]
        self.pushed = [0, 0, 0]
        self.fault = [None, None, None]   # (index, why) of the first fault
        self.cycle, self.steps = 0, 0
        # which thread last issued to each unit: a unit's exception stops that thread
        self.last_thread = {}
        issue = self.be.issueInstruction

        def tracked(instruction, from_thread):
            self.last_thread[Decoder.getInstructionInfo(instruction)["ex_resource"]] = from_thread
            return issue(instruction, from_thread)
        self.be.issueInstruction = tracked

    # ---- locations ------------------------------------------------------------------------------
    def loc(self, text):
        m = LOC.match(text)
        if not m:
            return None
        g = m.groups()
        n = lambda s: int(s, 0)
        if g[0] is not None:
            return ("gpr", int(g[0]), n(g[1]))
        if g[2] is not None:
            return ("cfg", int(g[2]), n(g[3]))
        if g[4] is not None:
            return ("tcfg", int(g[4]), n(g[5]))
        if g[6] is not None:
            return ("sem", int(g[6]), g[7])
        if g[8] is not None:
            return ("mutex", n(g[8]), None)
        if g[9] is not None:
            return ("l1", int(g[9]) // 8, n(g[10]))
        return ("mmio", 4, n(g[11]))

    def access(self, text, v=None):
        """Read the location written `text` (v None: its value, or None when tt-sim has no such
        location), or write v to it (True, or False when it has none)."""
        l = self.loc(text)
        if l is None:
            return None if v is None else False
        k, a, b = l
        cu, su = self.be.getConfigUnit(), self.be.getSyncUnit()
        # registers: a list, an index in it and the location's width
        regs = {"gpr": (self.be.getGPR().getRegisters(a) if k == "gpr" else None, 0xFFFFFFFF),
                "cfg": (cu.config[a] if k == "cfg" else None, 0xFFFFFFFF),
                "tcfg": (cu.threadConfig[a] if k == "tcfg" else None, 0xFFFF)}
        if k in regs:
            cells, mask = regs[k]
            if b >= len(cells):
                return None if v is None else False
            if v is None:
                return cells[b] & mask
            cells[b] = v & mask
        elif k == "sem":
            if v is None:
                return getattr(su.semaphores[a], b) & 0xF
            setattr(su.semaphores[a], b, v & 0xF)
        elif k == "mutex":
            if a >= len(su.mutexes):
                return None if v is None else False
            if v is None:
                h = su.mutexes[a].held_by
                return 0 if h is None else 1 + h
            su.mutexes[a].held_by = None if v == 0 else v - 1
        else:   # l1 (a bytes at b) or mmio (a word at offset b)
            addr, size, limit = (b, a, L1_SIZE) if k == "l1" else (MMIO_BASE + b, 4, MMIO_BASE + MMIO_SIZE)
            if addr + size > limit:
                return None if v is None else False
            if v is None:
                return self.mem.get(addr, size)
            self.mem.write(addr, v & ((1 << (8 * size)) - 1), size)
        return True

    # ---- running --------------------------------------------------------------------------------
    def waiting(self, t):
        return self.cop.getThread(t).inflight_count()

    def mutex_wait(self, t):
        """1 while thread t's ATGETM waits for its mutex: tt-sim lets it out of the gate and holds
        the thread after it (sync.py's blocked_mutex); the harness counts it as not yet issued."""
        return int(any(th == t for th, _ in self.be.getSyncUnit().blocked_mutex))

    def atom_wait(self, t):
        """1 while thread t's ATCAS retries in ThCon (thcon.py's stalled ATCAS): not yet issued,
        as for the harness a spinning atomic has not passed."""
        su = self.be.scalar_unit
        if not su.stalled or su.stalled_type != type(su).THConStallType.ATCAS:
            return 0
        return int(su.stalled_condition[1] == t)   # (instruction_info, issue_thread, instr_args)

    def issued(self, t):
        return self.pushed[t] - self.waiting(t) - self.mutex_wait(t) - self.atom_wait(t)

    def stop(self, t, why, issued):
        """Thread t stops at a fault: its instruction at `issued` (a unit's error: the thread's last
        instruction out of its gate; the gate's: its head)."""
        if self.fault[t] is None:
            self.fault[t] = (max(issued, 0), why)
        fe = self.cop.getThread(t)
        fe.mop_instruction_fifo.clear()
        fe.replay_instruction_fifo.clear()
        fe.wait_gate_instruction_fifo.clear()

    def tick(self):
        for t in range(3):   # a core pushes what the frontend takes
            fe = self.cop.getThread(t)
            while self.fault[t] is None and self.pushed[t] < len(self.prog[t]) and fe.inflight_count() < 8:
                fe.push_mop_instruction(self.prog[t][self.pushed[t]])
                self.pushed[t] += 1
        for t in range(3):
            if self.fault[t] is not None:
                continue
            for clk in self.cop.getThread(t).getClocks():
                try:
                    clk.clock_tick(self.cycle)
                except Exception as e:  # noqa: BLE001 - any error of tt-sim stops the thread
                    self.stop(t, "%s: %s" % (type(e).__name__, e), self.issued(t))
                    break
        for unit in self.be.getClocks():
            try:
                unit.clock_tick(self.cycle)
            except Exception as e:  # noqa: BLE001
                name = next((k for k, u in self.be.backend_units.items() if u is unit), "?")
                t = self.last_thread.get(name, 0)
                self.stop(t, "%s: %s: %s" % (name, type(e).__name__, e), self.issued(t) - 1)
        self.cycle += 1

    def busy(self, t):
        return self.fault[t] is None and (self.issued(t) < len(self.prog[t])
                                          or self.be.hasInflightInstructionsFromThread(t))

    def run(self, budget):
        limit, idle = budget * CYCLES_PER_STEP, 0
        for spent in range(limit):
            if not any(self.busy(t) for t in range(3)):
                return "done"
            before = [self.issued(t) for t in range(3)]
            self.tick()
            self.steps += 1
            moved = [self.issued(t) for t in range(3)] != before or any(
                self.be.hasInflightInstructionsFromThread(t) for t in range(3) if self.fault[t] is None)
            idle = 0 if moved else idle + 1
            if idle >= IDLE_CYCLES:
                return "deadlock"
        return "done" if not any(self.busy(t) for t in range(3)) else "budget"


CAPS = ("ok name=mesham_tt-sim modes=func set=gpr,cfg,tcfg,sem.value,sem.max,mutex,l1.u8,l1.u16,l1.u32,mmio "
        "get=gpr,cfg,tcfg,sem.value,sem.max,mutex,l1.u8,l1.u16,l1.u32,mmio flags=issued "
        "notes=func only; Sync/Config/ThCon words and NOP; semaphore contract checks off; "
        "tt-sim errors stop the thread (class unknown); "
        "deadlock after %d cycles with nothing issued or in flight" % IDLE_CYCLES)


def answer(dut, req, a):
    out = common(req, a, CAPS, refusal, lambda: dut.__setitem__(0, Dut()))
    if out is not None: return out
    d = dut[0]
    if req == "set":
        return "ok" if len(a) == 2 and d.access(a[0], int(a[1], 0)) else "no tt-sim has no such location here"
    if req == "get":
        v = d.access(a[0]) if a else None
        return "no tt-sim has no such location here" if v is None else "ok 0x%X" % v
    if req == "load":
        if not a or a[0] not in ("t0", "t1", "t2"): return "error load tN WORD..."
        words = [int(w, 0) & 0xFFFFFFFF for w in a[1:]]
        why = next(filter(None, map(refusal, words)), None)
        if why: return "no " + why
        t = int(a[0][1])
        d.prog[t], d.pushed[t] = words, 0
        return "ok"
    if req == "run":
        outcome = d.run(int(a[0], 0) if a else 0)
        out = ["ok %s %d 0" % (outcome, d.steps)]
        for t in range(3):
            done = d.fault[t] is None and not d.busy(t)
            f = d.fault[t]
            why = ("halted at %d: %s" % f) if f else ("done" if done else "at %d" % d.issued(t))
            why = re.sub(r"[^ -~]", "?", why)[:200]
            out.append("t%d %d 0 %d %s %d %s" % (t, done, d.issued(t), "some" if f else "none", f[0] if f else 0, why))
        return "\n".join(out)
    return unsupported(req)


def main():
    args = [a for a in sys.argv[1:] if a != "--contract-checks"]
    if len(args) != 1 or not os.path.isdir(os.path.join(args[0], "tt_sim")):
        print("usage: tt_sim_dut.py [--contract-checks] TT_SIM_CHECKOUT", file=sys.stderr)
        sys.exit(2)
    for need, pkg in (("numpy", "python3-numpy"), ("yaml", "python3-yaml")):
        try:
            __import__(need)
        except ImportError:
            print("tt_sim_dut.py: tt-sim needs the module %s, which %s cannot import: "
                  "sudo apt-get install -y %s (or run another python3, TT_SIM_PYTHON=...)"
                  % (need, sys.executable, pkg), file=sys.stderr)
            sys.exit(2)
    import_tt_sim(args[0], "--contract-checks" in sys.argv[1:])
    dut = [Dut()]
    serve(lambda req, args: answer(dut, req, args))


if __name__ == "__main__":
    main()
