#!/usr/bin/python3
"""Plots of a core shut-down experiment (the paper's main results):
energy.png   normalised energy per application: core shut-down, core DVFS, the oracles
speedup.png  normalised performance per application
sm_sweep.png static SM-count sweep per application (performance and energy vs active SMs),
             with core shut-down's final counts and the oracle's choice marked
trace.png    active SMs over time under core shut-down (search, gating, re-search)
Usage: plot_core_shutdown.py DIR  (reads DIR/summary.json and DIR/runs/*/report.json, writes DIR/*.png)"""
import json
import os
import sys

from plot_common import grouped_bars, panel_grid, save_grid


def bars(s, key, path, ylabel):
    apps = list(s["apps"])
    oracles = list(s["apps"][apps[0]]["oracles"])
    series = [("core-shutdown", [s["apps"][a]["core-shutdown"][key] for a in apps]),
              ("core-dvfs", [s["apps"][a]["core-dvfs"][key] for a in apps])]
    for o in oracles:
        series.append((o, [s["apps"][a]["oracles"][o][key] for a in apps]))
    grouped_bars(apps, series, ylabel, path, ref=1.0)


def sweep(s, path):
    apps = list(s["apps"])
    fig, axes = panel_grid(len(apps), height=2.8)
    for i, (a, ax) in enumerate(zip(apps, axes)):
        j = s["apps"][a]
        o = j["oracles"].get("oracle-sm")
        if not o:
            continue
        pts = [(int(p["point"].split("=")[1]), p) for p in o["sweep"]]
        pts.sort()
        tb, eb = j["baseline"]["time_s"], j["baseline"]["energy_j"]
        ns = [n for n, _ in pts]
        ax.plot(ns, [tb / p["time_s"] for _, p in pts], "o-", ms=3, label="performance")
        ax.plot(ns, [p["energy_j"] / eb for _, p in pts], "s-", ms=3, label="energy")
        for l in j["core_shutdown_launches"]:
            ax.axvline(l["final_sms"], color="tab:red", alpha=0.35, linewidth=1)
        if o["best"].startswith("sms="):
            ax.axvline(int(o["best"].split("=")[1]), color="black", linestyle=":", linewidth=1)
        ax.axhline(1.0, color="grey", linewidth=0.6)
        ax.set_ylim(0, 1.6)
        ax.set_title(f"{a} ({j['class']})", fontsize=9)
        ax.set_xlabel("active SMs", fontsize=8)
        if i == 0:
            ax.legend(fontsize=7)
    save_grid(fig, "static SM sweep (vs baseline); red: core shut-down final counts; dotted: oracle", path)


def trace(s, d, path):
    apps = list(s["apps"])
    sms = s.get("sms", 32)
    cols = 4
    fig, axes = panel_grid(len(apps), cols=cols, height=2.4)
    for i, (a, ax) in enumerate(zip(apps, axes)):
        f = os.path.join(d, "runs", a + "__core-shutdown", "report.json")
        try:
            rep = json.load(open(f))
            tr = rep["policy_trace"] or []
            total = rep["total"]["sim_time_s"] * 1e6
        except (OSError, ValueError, KeyError):
            continue
        t, n, cur = [0.0], [sms], sms
        for e in tr:
            ev = e["event"]
            if ev in ("sample", "wake"):
                cur = sms
            elif ev in ("step", "settle"):
                cur = e["setting"]
            else:
                if ev == "end":
                    ax.axvline(e["time_us"], color="grey", linewidth=0.5, alpha=0.5)
                continue
            t += [e["time_us"], e["time_us"]]
            n += [n[-1], cur]
        t.append(total)
        n.append(n[-1])
        ax.plot(t, n, linewidth=1.2, color="tab:blue")
        ax.set_ylim(0, sms + 2)
        ax.set_title(a, fontsize=9)
        ax.set_xlabel("time (us)", fontsize=8)
        if i % cols == 0:
            ax.set_ylabel("running SMs", fontsize=8)
    save_grid(fig, "core shut-down: SMs running (not paused or gated) over time; grey: kernel ends", path)


def main():
    d = sys.argv[1]
    s = json.load(open(os.path.join(d, "summary.json")))
    bars(s, "energy", os.path.join(d, "energy.png"), "energy / baseline")
    bars(s, "speedup", os.path.join(d, "speedup.png"), "performance / baseline")
    sweep(s, os.path.join(d, "sm_sweep.png"))
    trace(s, d, os.path.join(d, "trace.png"))


if __name__ == "__main__":
    main()
