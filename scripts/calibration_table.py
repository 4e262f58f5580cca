#!/usr/bin/env python3
"""The calibration table of a GPU config (docs/calibration.md): the kernel
profiles' clock sensitivities, the DRAM bandwidth the streaming profile and
stream_copy reach, the cache probe's L1 behaviour, and idle and peak power.

Usage: heavy scripts/calibration_table.py --gpu configs/gpu/pascal_60sm.json [--gpupm build/gpupm] [--out DIR]

The profiles (configs/workloads/{compute,streaming,cache_sensitive}.json) are
sized for the GTX480's 15 SMs: two waves of 6 CTAs per SM. Their grids are
scaled by sm.count / 15 so every config runs the same waves; stream_copy's grid
likewise (it is grid-stride). Runs go one after the other (one core).
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

PROFILE_GRID = 180    # the profiles' grid_ctas, for 15 SMs
COPY_GRID = 120       # stream_copy's grid, for 15 SMs
CACHE_CTAS = range(1, 7)  # the cache probe's CTA limits (its max_ctas_per_sm is 6)


def sm_count(gpu):
    text = open(gpu).read()
    return int(re.search(r'"count"\s*:\s*(\d+)', text).group(1))


class Runner:
    def __init__(self, gpupm, gpu, out, sets):
        self.gpupm, self.gpu, self.out = gpupm, gpu, out
        self.sets = [x for s in sets for x in ("--set", s)]
        self.sms = sm_count(gpu)
        for s in sets:
            if s.startswith("gpu.sm.count="):
                self.sms = int(s.split("=", 1)[1])
        self.scale = self.sms / 15.0
        self.n = 0

    def total(self, workload, args):
        """Runs one workload (under the policy and --set in args) and returns the report's total."""
        self.n += 1
        out = os.path.join(self.out, f"run{self.n:02d}")
        cmd = [self.gpupm, "run", "--quiet", "--gpu", self.gpu, "--workload", workload, "--out", out] + args + self.sets
        res = subprocess.run(cmd, capture_output=True, text=True)
        if res.returncode != 0:
            sys.exit(f"{' '.join(cmd)}\n{res.stdout}{res.stderr}")
        return json.load(open(os.path.join(out, "report.json")))["total"]

    def profile(self, name, policy="baseline", extra=()):
        grid = round(PROFILE_GRID * self.scale)
        return self.total(f"configs/workloads/{name}.json",
                          ["--policy", policy, "--set", f"workload.kernels[0].grid_ctas={grid}", *extra])

    def copy(self, policy="baseline"):
        grid = round(COPY_GRID * self.scale)
        return self.total("configs/workloads/cuda/stream_copy/stream_copy.json",
                          ["--policy", policy, "--set", f"workload.launches[0].grid=[{grid}]"])


def gain(base, other):
    """Speed-up of `other` over `base`, in percent."""
    return 100.0 * (base["sim_time_s"] / other["sim_time_s"] - 1.0)


def rows(r):
    out = []
    c = r.profile("compute")
    out.append(("compute: SM +15%", f"{gain(c, r.profile('compute', 'sm-high')):+.1f}%"))
    out.append(("compute: memory +15% / -15%",
                f"{gain(c, r.profile('compute', 'mem-high')):+.1f}% / {gain(c, r.profile('compute', 'mem-low')):+.1f}%"))
    out.append(("compute: IPC per SM", f"{c['ipc'] / r.sms:.2f}"))
    s = r.profile("streaming")
    out.append(("streaming: DRAM bandwidth / peak", f"{100 * s['dram_bandwidth_utilisation']:.1f}% "
                f"({s['dram_bandwidth_gbps']:.1f} GB/s)"))
    out.append(("streaming: memory +15%", f"{gain(s, r.profile('streaming', 'mem-high')):+.1f}%"))
    out.append(("streaming: SM +15% / -15%",
                f"{gain(s, r.profile('streaming', 'sm-high')):+.1f}% / {gain(s, r.profile('streaming', 'sm-low')):+.1f}%"))
    three = r.profile("streaming", "static", ["--set", "policy.ctas_per_sm=3"])
    out.append(("streaming: 3 of 6 CTAs vs max", f"{100 * (three['sim_time_s'] / s['sim_time_s'] - 1):+.1f}% time"))
    cache = {n: r.profile("cache_sensitive", "static", ["--set", f"policy.ctas_per_sm={n}"]) for n in CACHE_CTAS}
    out.append((f"cache-sensitive: L1 hit rate at {CACHE_CTAS[0]}..{CACHE_CTAS[-1]} CTAs",
                ", ".join(f"{cache[n]['l1_hit_rate']:.2f}" for n in CACHE_CTAS)))
    best = min(CACHE_CTAS, key=lambda n: cache[n]["sim_time_s"])
    top = CACHE_CTAS[-1]
    out.append(("cache-sensitive: best fixed CTAs vs max",
                f"{cache[top]['sim_time_s'] / cache[best]['sim_time_s']:.2f}x ({best} CTAs)"))
    cp = r.copy()
    out.append(("stream_copy: DRAM bandwidth / peak", f"{100 * cp['dram_bandwidth_utilisation']:.1f}% "
                f"({cp['dram_bandwidth_gbps']:.1f} GB/s)"))
    out.append(("stream_copy: memory +15%", f"{gain(cp, r.copy('mem-high')):+.1f}%"))
    # Idle: one CTA on one SM, every other SM clocked and empty (nothing is gated under baseline).
    lone = r.total("configs/workloads/compute.json", ["--set", "workload.kernels[0].grid_ctas=1"])
    out.append(("power: one CTA on one SM (near idle)", f"{lone['average_power_w']:.1f} W"))
    out.append(("power: compute profile (peak)", f"{c['average_power_w']:.1f} W"))
    out.append(("power: streaming profile", f"{s['average_power_w']:.1f} W"))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--gpu", required=True)
    ap.add_argument("--gpupm", default="build/gpupm")
    ap.add_argument("--out", help="keep the runs here (default: a temporary directory)")
    ap.add_argument("--set", action="append", default=[], help="gpu.PATH=VALUE for every run")
    a = ap.parse_args()
    out = a.out or tempfile.mkdtemp(prefix="calibration_")
    r = Runner(a.gpupm, a.gpu, out, a.set)
    print(f"| property ({os.path.basename(a.gpu)}{', ' + ', '.join(a.set) if a.set else ''}) | measured |")
    print("|---|---|")
    for name, value in rows(r):
        print(f"| {name} | {value} |")


if __name__ == "__main__":
    main()
