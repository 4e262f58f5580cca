#!/usr/bin/python3
"""Plots of a voltage-noise experiment (the paper's Figs. 19 and the package sweep):
droop.png     worst-case droop per kernel under no smoothing, local, global and hierarchical (Fig. 19a)
time.png      execution time per kernel relative to no smoothing (Fig. 19b)
packages.png  worst-case droop over the suite and mean reduction per package (Sec. 6.3)
Usage: plot_voltage_noise.py DIR  (reads DIR/summary.json, writes DIR/*.png)"""
import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

MODES = ["baseline", "local", "global", "hierarchical"]


def grouped_bars(kernels, series, ylabel, path, ref=None):
    width = 0.8 / len(series)
    fig, ax = plt.subplots(figsize=(max(9, len(kernels) * 0.8), 4.2))
    for i, (name, vals) in enumerate(series):
        ax.bar([j + i * width for j in range(len(kernels))], vals, width, label=name)
    if ref is not None:
        ax.axhline(ref, color="black", linewidth=0.8)
    ax.set_xticks([j + 0.4 - width / 2 for j in range(len(kernels))])
    ax.set_xticklabels(kernels, rotation=30, ha="right")
    ax.set_ylabel(ylabel)
    ax.legend(fontsize=8, ncol=len(series))
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main(out):
    s = json.load(open(out + "/summary.json"))
    ks = list(s["kernels"])
    grouped_bars(ks, [(m, [100 * s["kernels"][k][m]["worst_droop"] for k in ks]) for m in MODES],
                 "worst-case droop (% of nominal)", out + "/droop.png", ref=100 * s["emergency_margin"])
    grouped_bars(ks, [(m, [s["kernels"][k][m]["time_ratio"] for k in ks]) for m in MODES[1:]],
                 "execution time / no smoothing", out + "/time.png", ref=1.0)
    if s["packages"]:
        names = list(s["packages"])
        grouped_bars(names, [("baseline", [100 * s["packages"][p]["worst_baseline"] for p in names]),
                             ("hierarchical", [100 * s["packages"][p]["worst_hierarchical"] for p in names])],
                     "worst-case droop over the suite (%)", out + "/packages.png")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
