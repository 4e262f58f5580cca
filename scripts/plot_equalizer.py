#!/usr/bin/python3
"""Plots of an Equalizer experiment: speed-up and energy per kernel (paper
Fig. 7/8) and V/F residency per kernel under Equalizer (Fig. 9).
Usage: plot_equalizer.py DIR  (reads DIR/summary.json, writes DIR/*.png)"""
import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from plot_common import grouped_bars  # noqa: E402

ORDER = ["compute", "memory", "cache", "unsaturated"]


def suite_label(summary):
    """What a real suite's plots say beside their axis label; nothing for the synthetic suite."""
    return "\n(real programs)" if summary.get("suite") == "real" else ""


def kernels_in_order(summary):
    ks = summary["kernels"]
    return sorted(ks, key=lambda k: (ORDER.index(ks[k]["category"]), k))


def bars(summary, key, policies, ylabel, path):
    names = kernels_in_order(summary)
    ks = summary["kernels"]
    grouped_bars([f"{n}\n({ks[n]['category'][:4]})" for n in names],
                 [(p, [ks[n][key][p] for n in names]) for p in policies], ylabel + suite_label(summary), path,
                 ref=1.0, per_label=0.55, rotation=90, fontsize=7)


def residency(summary, path):
    names = kernels_in_order(summary)
    ks = summary["kernels"]
    fig, axes = plt.subplots(2, 1, figsize=(max(10, len(names) * 0.55), 7), sharex=True)
    for ax, policy in zip(axes, ["equalizer-perf", "equalizer-energy"]):
        bottom = [0.0] * len(names)
        for dom, lvl, colour in [("sm", "high", "tab:red"), ("sm", "low", "tab:orange"),
                                 ("mem", "high", "tab:blue"), ("mem", "low", "tab:cyan")]:
            vals = [ks[n]["vf_residency"][policy][dom].get(lvl, 0.0) for n in names]
            ax.bar(range(len(names)), vals, bottom=bottom, color=colour, label=f"{dom} {lvl}")
            bottom = [b + v for b, v in zip(bottom, vals)]
        ax.bar(range(len(names)), [1 - b for b in bottom], bottom=bottom, color="lightgrey", label="normal")
        ax.set_ylabel(f"{policy}\nfraction of time" + suite_label(summary))
        ax.legend(fontsize=7, ncol=5)
    axes[1].set_xticks(range(len(names)))
    axes[1].set_xticklabels(names, rotation=90, fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main():
    out = sys.argv[1]
    summary = json.load(open(f"{out}/summary.json"))
    bars(summary, "speedup", ["sm-high", "mem-high", "equalizer-perf", "equalizer-energy"],
         "speed-up vs baseline", f"{out}/speedup.png")
    bars(summary, "energy", ["sm-high", "mem-high", "equalizer-perf", "sm-low", "mem-low", "equalizer-energy"],
         "energy vs baseline", f"{out}/energy.png")
    residency(summary, f"{out}/residency.png")


if __name__ == "__main__":
    main()
