#!/usr/bin/python3
"""Plots of a voltage-noise experiment (the paper's Figs. 19 and the package sweep):
droop.png     worst-case droop per kernel under no smoothing, local, global and hierarchical (Fig. 19a)
time.png      execution time per kernel relative to no smoothing (Fig. 19b)
packages.png  worst-case droop over the suite and mean reduction per package (Sec. 6.3)
Usage: plot_voltage_noise.py DIR  (reads DIR/summary.json, writes DIR/*.png)"""
import json
import sys

from plot_common import grouped_bars

MODES = ["baseline", "local", "global", "hierarchical"]


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
