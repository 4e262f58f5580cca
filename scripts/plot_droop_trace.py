#!/usr/bin/python3
"""Per-cycle PDN trace of a run (gpu.pdn.stats.trace_cycles > 0 writes DIR/pdn_trace.csv):
total SM current, node voltages, and the split of the deepest SM's droop into its
second-order (zero-phase low-passed) and first-order components (paper Fig. 5).
Usage: plot_droop_trace.py DIR [OUT.png]   (default DIR/pdn_trace.png)"""
import csv
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    d = sys.argv[1]
    out = sys.argv[2] if len(sys.argv) > 2 else os.path.join(d, "pdn_trace.png")
    with open(os.path.join(d, "pdn_trace.csv")) as f:
        rows = list(csv.DictReader(f))
    cyc = [int(r["cycle"]) for r in rows]
    sms = sorted({int(k[4:]) for k in rows[0] if k.startswith("v_sm")})
    # the SM with the deepest droop in the trace, and the one least affected at that cycle
    at = max(range(len(rows)), key=lambda n: float(rows[n]["droop"]))
    deep = int(rows[at]["worst_sm"])
    far = max(sms, key=lambda i: float(rows[at]["v_sm%d" % i]))
    fig, ax = plt.subplots(3, 1, figsize=(8, 7), sharex=True)
    ax[0].plot(cyc, [float(r["amps"]) for r in rows], lw=1)
    ax[0].set_ylabel("SM current (A)")
    for i, style in ((deep, "-"), (far, "-")):
        ax[1].plot(cyc, [float(r["v_sm%d" % i]) for r in rows], style, lw=1, label="SM %d" % i)
    ax[1].plot(cyc, [float(r["v2_sm%d" % deep]) for r in rows], "--", lw=1.5, label="SM %d low-passed (2nd order)" % deep)
    ax[1].plot(cyc, [float(r["v_set"]) for r in rows], ":", color="gray", label="set-point")
    ax[1].set_ylabel("node voltage (V)")
    ax[1].legend(fontsize=8)
    ref = [float(r["v_set"]) for r in rows]
    v = [float(r["v_sm%d" % deep]) for r in rows]
    lp = [float(r["v2_sm%d" % deep]) for r in rows]
    ax[2].plot(cyc, [100 * (s - l) / s for s, l in zip(ref, lp)], label="second-order droop")
    ax[2].plot(cyc, [100 * (l - x) / s for s, l, x in zip(ref, lp, v)], label="first-order droop")
    ax[2].set_ylabel("SM %d droop (%%)" % deep)
    ax[2].set_xlabel("SM cycle")
    ax[2].legend(fontsize=8)
    for a in ax:
        a.grid(True, alpha=0.3)
    fig.suptitle("PDN trace: deepest droop %.2f%% at cycle %d, SM %d" % (100 * float(rows[at]["droop"]), cyc[at], deep))
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    return 0


if __name__ == "__main__":
    sys.exit(main())
