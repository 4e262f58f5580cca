#!/usr/bin/python3
"""Plots of an SM allocation experiment (the paper's Figs. 2-5 and Fig. 1):
throughput.png, power.png, efficiency.png, energy.png
             per queue, each policy normalised to the even split (baseline)
profiles.png power efficiency (IPC/W) and IPC against the SM count of every
             application alone (the offline profiles), opt marked
With a second GPU (the config's pascal_gpu) the same five as pascal_*.png.
Usage: plot_sm_allocation.py DIR  (reads DIR/summary.json, DIR/profiles.json and DIR/pascal_profiles.json
if any, writes DIR/*.png)"""
import json
import os
import sys

from plot_common import grouped_bars, panel_grid, save_grid


def bars(s, key, path, ylabel):
    queues = s.get("queue_order", list(s["queues"]))
    series = [(p, [s["queues"][q]["policies"][p][key] for q in queues]) for p in s["policies"] if p != "baseline"]
    labels = queues + ["mean"]
    series = [(p, v + [s["averages"][p][key]]) for p, v in series]
    grouped_bars(labels, series, ylabel, path, ref=1.0, rotation=0)


def profiles(s, prof, path):
    apps = prof["apps"]
    fig, axes = panel_grid(len(apps))
    for i, (a, ax) in enumerate(zip(apps, axes)):
        ns = [p["n"] for p in a["points"]]
        ax.plot(ns, [p["pow_ef"] * 1e3 for p in a["points"]], "o-", ms=3, color="tab:blue", label="IPC/W x1e3")
        ax.axvline(a["opt"], color="tab:blue", linestyle=":", linewidth=1)
        ax2 = ax.twinx()
        ax2.plot(ns, [p["ipc"] for p in a["points"]], "s--", ms=2, color="tab:orange", label="IPC")
        ax2.tick_params(labelsize=7)
        ax.tick_params(labelsize=7)
        intended = s["apps"].get(a["name"], {}).get("intended_class")  # none on real programs
        label = f"{a['class']}, intended {intended}" if intended else f"measured {a['class']}"
        ax.set_title(f"{a['name']} ({label}), opt {a['opt']}", fontsize=8)
        ax.set_xlabel("SMs", fontsize=7)
        if i == 0:
            ax.legend(fontsize=6, loc="lower right")
            ax2.legend(fontsize=6, loc="upper right")
    save_grid(fig, "offline profiles: power efficiency (blue, left) and IPC (orange, right) alone on n SMs", path)


def plots(s, policies, d, prefix):
    """The five plots of one GPU's part of summary.json (S), named PREFIX*.png."""
    s = dict(s, policies=policies)
    bars(s, "throughput", os.path.join(d, prefix + "throughput.png"), "throughput / even split")
    bars(s, "power", os.path.join(d, prefix + "power.png"), "average power / even split")
    bars(s, "efficiency", os.path.join(d, prefix + "efficiency.png"), "power efficiency / even split")
    bars(s, "energy", os.path.join(d, prefix + "energy.png"), "energy / even split")
    profiles(s, json.load(open(os.path.join(d, prefix + "profiles.json"))), os.path.join(d, prefix + "profiles.png"))


def main():
    d = sys.argv[1]
    s = json.load(open(os.path.join(d, "summary.json")))
    plots(s, s["policies"], d, "")
    if "pascal" in s:
        plots(s["pascal"], s["policies"], d, "pascal_")


if __name__ == "__main__":
    main()
