#!/usr/bin/env python3
"""trace_png.py — draw a ttrun --trace file as a PNG timeline with gnuplot (Debian: gnuplot).

    python3 tools/trace_png.py TRACE.json OUT.png [FIRST_CYCLE LAST_CYCLE]

One row per track of the trace (each thread's own row with its issues and stalls, its in-flight
rows with each instruction from issue to completion, the ThCon, Config-stage and Sync-slot
tracks), one box per slice, coloured by kind: instructions of the Sync, Config, Scalar units and
of units outside the model, and stalls by reason (semaphore, STALLWAIT, unit or slot contention,
latch release). Each semaphore counter is a band under the tracks with its Value (solid) and its
Max (dashed). A legend under the plot names every colour used. Only Python's standard library
and the gnuplot program are used; neither is needed by `make test`.
"""
import json
import shutil
import subprocess
import sys


STALL_COLOURS = [  # (reason prefixes, colour, legend)
    (("semaphore_empty", "semaphore_full"), "#d62728", "stall: semaphore empty/full"),
    (("resource_wait", "stream_wait"), "#e377c2", "stall: STALLWAIT/STREAMWAIT conditions"),
    (("mutex_wait", "mutex_invalid", "atomic_retry"), "#8c564b", "stall: mutex or atomic"),
    (("thcon_busy", "thcon_own", "cfg_entry", "sync_slot", "arbitration", "wb_full"), "#bcbd22",
     "stall: unit busy / slot or round lost"),
    (("latch_release",), "#f7b6d2", "stall: latch released at end of cycle"),
]
UNIT_LEGEND = [("#1f77b4", "Sync Unit (SEM*, STALLWAIT, AT*M)"), ("#2ca02c", "Config Unit (WRCFG, SETC16, RMWCIB, ...)"),
               ("#ff7f0e", "ThCon / Scalar (DMAREG, LOAD/STORE, AT*)"), ("#9467bd", "units outside the model"),
               ("#bbbbbb", "NOP")]


def stall_colour(name):
    reason = name.replace("stall: ", "").split()[0] if name.startswith("stall: ") else ""
    for prefixes, colour, _ in STALL_COLOURS:
        if reason.startswith(prefixes):
            return colour
    return "#d62728"


def unit_colour(name, cat):
    if cat == "stall":
        return stall_colour(name)
    n = name.split()[-1] if cat == "unit" else name
    if n.startswith(("SEM", "STALLWAIT", "STREAMWAIT", "ATGETM", "ATRELM")):
        return "#1f77b4"
    if n.startswith(("WRCFG", "RDCFG", "SETC16", "RMWCIB", "CFGSHIFTMASK", "STREAMWRCFG")):
        return "#2ca02c"
    if n.endswith("DMAREG") or n.startswith(("LOADIND", "STOREIND", "LOADREG", "STOREREG", "AT", "DMANOP", "FLUSHDMA")):
        return "#ff7f0e"
    if n == "NOP":
        return "#bbbbbb"
    return "#9467bd"


def main():
    if len(sys.argv) not in (3, 5):
        sys.exit(__doc__)
    if shutil.which("gnuplot") is None:
        sys.exit("trace_png.py: gnuplot is not installed (not on PATH): install it, e.g. "
                 "`sudo apt-get install gnuplot` (Debian/Ubuntu) or `brew install gnuplot` (macOS)")
    trace = json.load(open(sys.argv[1]))
    events = trace["traceEvents"]
    names = {}
    for e in events:
        if e["ph"] == "M" and e["name"] == "thread_name":
            names[(e["pid"], e["tid"])] = e["args"]["name"]
    slices = [e for e in events if e["ph"] == "X"]
    lo = min((e["ts"] for e in slices), default=0)
    hi = max((e["ts"] + e["dur"] for e in slices), default=1)
    if len(sys.argv) == 5:
        lo, hi = int(sys.argv[3]), int(sys.argv[4])
    tracks = sorted({(e["pid"], e["tid"]) for e in slices})
    row = {t: i for i, t in enumerate(reversed(tracks))}
    sems = {}
    for e in events:
        if e["ph"] == "C":
            sems.setdefault(e["name"], []).append((e["ts"], e["args"]["value"], e["args"].get("max", 0)))
    nsem = len(sems)
    base = nsem + 1 if nsem else 0
    g = []
    g.append('set terminal pngcairo size 1600,%d font "DejaVu Sans,10"' % (220 + 28 * (len(tracks) + base)))
    g.append('set output "%s"' % sys.argv[2])
    g.append('set termoption noenhanced')
    g.append('set xrange [%g:%g]' % (lo, hi))
    g.append('set yrange [-0.7:%g]' % (len(tracks) + base - 0.3))
    g.append('set xlabel "cycle"')
    g.append('set title "%s"' % sys.argv[1].split('/')[-1].replace('"', ""))
    g.append("set grid xtics")
    g.append("set key outside below horizontal maxcols 4 font \",9\"")
    labels = ['"%s" %d' % (names.get(t, str(t)).replace('"', ""), row[t] + base) for t in tracks]
    for i, (name, _) in enumerate(sorted(sems.items())):
        labels.append('"%s" %d' % (name, nsem - 1 - i))
    g.append("set ytics (%s)" % ", ".join(labels))
    obj = 1
    used = set()
    for e in slices:
        if e["ts"] + e["dur"] < lo or e["ts"] > hi:
            continue
        y = row[(e["pid"], e["tid"])] + base
        c = unit_colour(e["name"], e.get("cat", ""))
        used.add(c)
        g.append('set object %d rect from %g,%g to %g,%g fc rgb "%s" fs solid 0.85 border lc rgb "#333333"'
                 % (obj, e["ts"], y - 0.38, e["ts"] + max(e["dur"], 0.2), y + 0.38, c))
        obj += 1
        if e["dur"] >= (hi - lo) / 40:
            short = e["name"].replace("stall: ", "")[:24]
            g.append('set label "%s" at %g,%g front font ",7"' % (short, e["ts"] + 0.1, y))
    # semaphore step lines (Value solid, Max dashed), each in its own band under the tracks
    data, plots = [], []
    for i, (name, pts) in enumerate(sorted(sems.items())):
        band = nsem - 1 - i
        top = max(1, max(max(v, m) for _, v, m in pts))
        end = sorted(pts)[-1]
        g.append('set label "Value %d, Max %d (at the end)" at %g,%g right front font ",8"' % (end[1], end[2], hi, band + 0.2))
        for col, style, title in ((1, "lw 2 lc rgb \"#17becf\"", "semaphore Value"),
                                  (2, "lw 1 dt 2 lc rgb \"#000000\"", "semaphore Max")):
            rows, last = [], pts[0][col] if pts else 0
            for p in sorted(pts):
                rows.append("%g %g" % (p[0], band - 0.35 + 0.7 * last / top))
                rows.append("%g %g" % (p[0], band - 0.35 + 0.7 * p[col] / top))
                last = p[col]
            rows.append("%g %g" % (hi, band - 0.35 + 0.7 * last / top))
            data.append("\n".join(rows))
            plots.append("'-' using 1:2 with lines %s %s" % (style, 'title "%s"' % title if i == 0 else "notitle"))
    # the legend: one entry per colour used
    legend = [(c, t) for c, t in UNIT_LEGEND] + [(c, t) for _, c, t in STALL_COLOURS]
    keys = ['NaN with boxes fs solid 0.85 fc rgb "%s" title "%s"' % (c, t) for c, t in legend if c in used]
    g.append("set style fill solid 0.85")
    g.append("plot " + ", ".join(keys + plots if keys or plots else ["NaN notitle"]))
    for d in data:
        g.append(d)
        g.append("e")
    try:
        subprocess.run(["gnuplot"], input="\n".join(g) + "\n", text=True, check=True)
    except (OSError, subprocess.CalledProcessError) as err:
        sys.exit("trace_png.py: gnuplot failed: %s" % err)


if __name__ == "__main__":
    main()
