#!/usr/bin/python3
"""Impedance profile |Z(f)| of a power-delivery network (gpupm impedance).
Usage: plot_impedance.py DIR [DIR2 ...]
Reads DIR/impedance.csv and DIR/impedance.json, writes DIR/impedance.png.
With several DIRs, also overlays their chip-wide profiles in DIR/impedance_compare.png
(e.g. the four packages)."""
import csv
import json
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def load(d):
    with open(os.path.join(d, "impedance.csv")) as f:
        rows = list(csv.reader(f))
    head, data = rows[0], [[float(x) for x in r] for r in rows[1:]]
    cols = {h: [r[i] for r in data] for i, h in enumerate(head)}
    with open(os.path.join(d, "impedance.json")) as f:
        meta = json.load(f)
    return head, cols, meta


def plot_one(d):
    head, cols, meta = load(d)
    f = cols["freq_hz"]
    fig, ax = plt.subplots(figsize=(7, 4.2))
    ax.loglog(f, [z * 1e3 for z in cols[head[1]]], label="chip-wide (all SMs, mean node)", lw=2)
    for h in head[2:]:
        ax.loglog(f, [z * 1e3 for z in cols[h]], label=h.replace("_ohm", "") + " alone, own node", lw=1, ls="--")
    for key, name in (("second_order", "2nd order"), ("first_order", "1st order")):
        p = meta.get(key, {})
        if p.get("hz", 0) > 0:
            ax.plot(p["hz"], p["ohm"] * 1e3, "o", color="k")
            ax.annotate("%s: %.2f MHz, %.2f mOhm" % (name, p["hz"] / 1e6, p["ohm"] * 1e3), (p["hz"], p["ohm"] * 1e3),
                        textcoords="offset points", xytext=(-60, 10), fontsize=8)
    ax.set_xlabel("frequency (Hz)")
    ax.set_ylabel("|Z| (mOhm)")
    ax.set_title("PDN impedance profile, package '%s'" % meta.get("network", "?"))
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8, loc="lower center")
    fig.tight_layout()
    fig.savefig(os.path.join(d, "impedance.png"), dpi=110)
    plt.close(fig)


def main():
    dirs = sys.argv[1:]
    if not dirs:
        print(__doc__)
        return 2
    for d in dirs:
        plot_one(d)
    if len(dirs) > 1:
        fig, ax = plt.subplots(figsize=(7, 4.2))
        for d in dirs:
            head, cols, meta = load(d)
            ax.loglog(cols["freq_hz"], [z * 1e3 for z in cols[head[1]]], label=meta.get("network", d))
        ax.set_xlabel("frequency (Hz)")
        ax.set_ylabel("chip-wide |Z| (mOhm)")
        ax.set_title("PDN packages")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8)
        fig.tight_layout()
        fig.savefig(os.path.join(dirs[0], "impedance_compare.png"), dpi=110)
        plt.close(fig)
    return 0


if __name__ == "__main__":
    sys.exit(main())
