#!/usr/bin/python3
"""Plots of a Harmonia experiment (the paper's main results, Figs. 10-13 and 16):
ed2p.png       normalised ED^2 per application: Harmonia, CG only, core DVFS only, the oracles
energy.png     normalised energy per application
perf.png       normalised performance per application
residency.png  Harmonia's time share of each CU count, CU clock and memory clock, per application
core_sweep.png the H-STREAM application's performance against the CU clock (claim 7)
Usage: plot_harmonia.py DIR  (reads DIR/summary.json, writes DIR/*.png)"""
import json
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from plot_common import grouped_bars  # noqa: E402


def bars(s, key, path, ylabel):
    apps = list(s["apps"])
    series = [(v, [s["apps"][a][v][key] for a in apps]) for v in s["variants"]]
    grouped_bars(apps, series, ylabel, path, ref=1.0)


def residency(s, path):
    apps = list(s["apps"])
    h = s["variants"][0]
    fig, axes = plt.subplots(1, 3, figsize=(15, 4.2))
    for ax, key, title in zip(axes, ["cus", "sm_mhz", "mem_mhz"], ["CU count", "CU clock (MHz)", "memory clock (MHz)"]):
        values = sorted({float(v) for a in apps for v in s["apps"][a][h]["residency"][key]})
        bottom = [0.0] * len(apps)
        cmap = plt.get_cmap("viridis")
        for i, v in enumerate(values):
            share = [s["apps"][a][h]["residency"][key].get(f"{v:.0f}", 0.0) for a in apps]
            ax.bar(range(len(apps)), share, bottom=bottom, color=cmap(i / max(1, len(values) - 1)), label=f"{v:.0f}")
            bottom = [b + x for b, x in zip(bottom, share)]
        ax.set_xticks(range(len(apps)))
        ax.set_xticklabels(apps, rotation=40, ha="right", fontsize=8)
        ax.set_title(title, fontsize=10)
        ax.set_ylim(0, 1)
        ax.legend(fontsize=7, ncol=2)
    axes[0].set_ylabel(f"share of kernel time under {h}")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def core_sweep(s, path):
    pts = s.get("core_sweep") or []
    if not pts:
        return
    top = pts[-1]["time_s"]
    top_m = pts[-1]["time_s_l2_on_memory_clock"]
    fig, ax = plt.subplots(figsize=(5.5, 3.8))
    ax.plot([p["mhz"] for p in pts], [top / p["time_s"] for p in pts], "o-", label="L2 on the CU clock")
    ax.plot([p["mhz"] for p in pts], [top_m / p["time_s_l2_on_memory_clock"] for p in pts], "s--",
            label="control: L2 on the memory clock")
    ax.legend(fontsize=8)
    ax.set_xlabel("CU clock (MHz), all CUs, top memory clock")
    ax.set_ylabel("performance vs the top clock")
    ax.set_ylim(0, 1.1)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def main():
    d = sys.argv[1]
    s = json.load(open(os.path.join(d, "summary.json")))
    bars(s, "ed2p", os.path.join(d, "ed2p.png"), "ED^2 vs baseline (lower is better)")
    bars(s, "energy", os.path.join(d, "energy.png"), "energy vs baseline")
    bars(s, "speedup", os.path.join(d, "perf.png"), "performance vs baseline")
    residency(s, os.path.join(d, "residency.png"))
    core_sweep(s, os.path.join(d, "core_sweep.png"))


if __name__ == "__main__":
    main()
