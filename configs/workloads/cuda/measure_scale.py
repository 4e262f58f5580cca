#!/usr/bin/env python3
"""Measures a program workload at a scale for its suite README (README.md
beside this file, "Scales"): runs it once under the baseline policy (or reads a
run made before) and prints one Markdown row: CTAs per launch and waves at full
occupancy (min - max over the launches), launches, SM cycles, Equalizer epochs
per launch (min / median: the launch's SM cycles / the epoch), host CPU seconds.

    configs/workloads/cuda/measure_scale.py WORKLOAD [--scale paper] [--gpu GPU]
        [--gpupm build/gpupm] [--out DIR] [--epoch-cycles 4096] [--header]

Occupancy is gpupm's (sc_model/program/program_workload.cc, program_occupancy):
CTAs per SM limited by max_ctas, warps, shared memory (static + dynamic) and
registers (the launch's regs_per_thread, else the PTX estimate `gpupm ptx` prints).
With --out DIR holding report.json and host_seconds from an earlier call, nothing runs.
"""
import argparse
import json
import os
import re
import resource
import statistics
import subprocess
import sys
import time


def run_baseline(args, out, gpu=None, pdn=None):
    """Runs the baseline (on args.gpu unless `gpu`, with `pdn` if given); returns the
    child's CPU seconds (user + system) and writes them beside the report."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    command = [args.gpupm, "run", "--quiet", "--gpu", gpu or args.gpu, "--workload", args.workload, "--scale", args.scale,
               "--policy", "baseline", "--out", out]
    subprocess.run(command + (["--pdn", pdn] if pdn else []), check=True, stdout=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    seconds = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    with open(os.path.join(out, "host_seconds"), "w") as f:
        f.write("%.1f %.1f\n" % (seconds, time.monotonic() - start))
    return seconds


def kernel_resources(gpupm, program):
    """{kernel: (registers per thread, static shared bytes)} from `gpupm ptx PROGRAM`."""
    text = subprocess.run([gpupm, "ptx", program], check=True, capture_output=True, text=True).stdout
    found = re.findall(r"^(\w+)\(.*\)\n\s+\d+ instructions, (\d+) registers/thread \(estimate\), (\d+) B static shared",
                       text, re.M)
    return {name: (int(regs), int(shared)) for name, regs, shared in found}


def sm_limits(gpupm, gpu):
    listing = json.loads(subprocess.run([gpupm, "params", "--gpu", gpu, "--json"], check=True, capture_output=True,
                                        text=True).stdout)
    rows = listing["parameters"] if isinstance(listing, dict) else listing
    value = {row["path"]: row["value"] for row in rows}
    return {k: value["gpu.sm." + k] for k in ("count", "max_ctas", "max_warps", "warp_size", "shared_bytes", "registers")}


def occupancy(launch, resources, sm):
    """CTAs of LAUNCH that fit on one SM (program_occupancy)."""
    threads = 1
    for d in launch["block"]:
        threads *= d
    warps = -(-threads // sm["warp_size"])
    regs_ptx, shared_static = resources[launch["kernel"]]
    fit = min(sm["max_ctas"], sm["max_warps"] // warps)
    shared = shared_static + launch.get("shared_bytes", 0)
    if shared:
        fit = min(fit, sm["shared_bytes"] // shared)
    regs = launch.get("regs_per_thread", regs_ptx)
    if regs:
        fit = min(fit, sm["registers"] // (regs * warps * sm["warp_size"]))
    return fit


def measure(args):
    out = args.out or os.path.join("out", "measure", os.path.basename(args.workload)[:-5] + "-" + args.scale)
    host_file = os.path.join(out, "host_seconds")
    host = float(open(host_file).read().split()[0]) if os.path.exists(host_file) else run_baseline(args, out)
    with open(os.path.join(out, "report.json")) as f:
        report = json.load(f)
    workload = report["config"]["workload"]
    program = os.path.join(os.path.dirname(args.workload), workload["program"])
    resources, sm = kernel_resources(args.gpupm, program), sm_limits(args.gpupm, args.gpu)
    ctas, waves = [], []
    for launch in workload["launches"]:
        count = 1
        for d in launch["grid"]:
            count *= d
        per_wave = occupancy(launch, resources, sm) * sm["count"]
        ctas += [count] * launch.get("repeat", 1)
        waves += [count / per_wave] * launch.get("repeat", 1)
    epochs = [k["cycles"]["sm"] / args.epoch_cycles for k in report["kernels"]]
    span = lambda v, fmt: (fmt % min(v)) if min(v) == max(v) else (fmt + " - " + fmt) % (min(v), max(v))
    return "| %s | %s | %s | %s | %d | %d | %.1f / %.1f | %.0f |" % (
        workload["name"], args.scale, span(ctas, "%d"), span(waves, "%.1f"), len(report["kernels"]),
        report["total"]["cycles"]["sm"], min(epochs), statistics.median(epochs), host)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("workload")
    p.add_argument("--scale", default="ci", choices=["ci", "paper"])
    p.add_argument("--gpu", default="configs/gpu/gtx480.json")
    p.add_argument("--gpupm", default="build/gpupm")
    p.add_argument("--out", help="the run's folder (default out/measure/PROGRAM-SCALE)")
    p.add_argument("--epoch-cycles", type=int, default=4096, help="Equalizer's epoch in SM cycles (2^7 x 2^5)")
    p.add_argument("--header", action="store_true", help="print the table's header first")
    args = p.parse_args()
    if args.header:
        print("| program | scale | CTAs per launch | waves at full occupancy | launches | SM cycles | "
              "epochs per launch (min / median) | host s |")
        print("|---|---|---|---|---|---|---|---|")
    print(measure(args))


if __name__ == "__main__":
    sys.exit(main())
