#!/usr/bin/env python3
"""Measures a program of the core shut-down, Harmonia, voltage-noise or SM-allocation suite at
a scale for its suite README (README.md beside this file, "Scales"), as
measure_scale.py does for the Equalizer suite, with the decision windows of
the suite's policy instead of Equalizer's epochs: runs it once under the
baseline policy on the suite experiment's GPU (the voltage-noise suite with
its PDN on, as its experiment runs), or reads a run made before, and prints
one Markdown row:

  CTAs per launch, waves at full occupancy (min - max), launches, SM cycles,
  then per suite:
    core_shutdown  the memory-intensive launches (DRAM utilisation > 0.5, the
                   policy's MBU rule): how many, their share of the SM cycles,
                   and their sampling windows (#SMs x CTAs per SM CTAs each, min
                   / median). The search needs 2 windows at all SMs, then a
                   bisection of 5 windows of 1-31 SMs' worth: about 3-6 waves.
    harmonia       invocations per kernel (min / max): Harmonia decides once per
                   invocation (1 for CG, 3-4 for FG).
    voltage_noise  nothing more: its predictor acts every cycle and its stagger
                   unit in 30-cycle windows, inside any launch; waves count the
                   CTA-dispatch alignments.
    sm_allocation  nothing more: the policies split the SMs once per pair (the
                   ILP-SMRA comparison moves them in 8192-cycle windows).
  and the host CPU seconds of the run.

    configs/workloads/cuda/measure_suite.py WORKLOAD --suite SUITE [--scale paper]
        [--gpupm build/gpupm] [--out DIR] [--header]
"""
import argparse
import json
import os
import statistics
import sys

import measure_scale

SUITES = {  # the experiment's GPU and PDN (configs/experiments/<suite>_real.json)
    "core_shutdown": ("configs/gpu/gtx480_32sm.json", None),
    "harmonia": ("configs/gpu/hd7970_like.json", None),
    "voltage_noise": ("configs/gpu/gtx480.json", "configs/pdn/package_default.json"),
    "sm_allocation": ("configs/gpu/gtx480_60sm.json", None),
}
MEMORY_INTENSIVE_MBU = 0.5


def launch_shapes(workload, report, resources, sm):
    """Per report launch (in order): (kernel, CTAs, waves at full occupancy). Each
    workload entry stands for `repeat` launches, or a while_nonzero's run of them."""
    shapes, k = [], 0
    for launch in workload["launches"]:
        ctas = 1
        for d in launch["grid"]:
            ctas *= d
        waves = ctas / (measure_scale.occupancy(launch, resources, sm) * sm["count"])
        count = launch.get("repeat", 1)
        if "while_nonzero" in launch:
            count = 0
            while k + count < len(report["kernels"]) and report["kernels"][k + count]["kernel"] == launch["kernel"]:
                count += 1
        shapes += [(launch["kernel"], ctas, waves)] * count
        k += count
    assert k == len(report["kernels"]), "the report's launches do not follow the workload's"
    return shapes


def policy_column(suite, report, shapes):
    kernels = report["kernels"]
    if suite == "core_shutdown":
        memory = [i for i, k in enumerate(kernels) if k["dram_bandwidth_utilisation"] > MEMORY_INTENSIVE_MBU]
        if not memory:
            return "none"
        share = sum(kernels[i]["cycles"]["sm"] for i in memory) / report["total"]["cycles"]["sm"]
        windows = [shapes[i][2] for i in memory]
        return "%d (%.0f%% of cycles), %.1f / %.1f" % (len(memory), 100 * share, min(windows),
                                                     statistics.median(windows))
    if suite == "harmonia":
        counts = {}
        for name, _, _ in shapes:
            counts[name] = counts.get(name, 0) + 1
        return "%d / %d" % (min(counts.values()), max(counts.values()))
    return "-"


def measure(args):
    gpu, pdn = SUITES[args.suite]
    out = args.out or os.path.join("out", "measure", os.path.basename(args.workload)[:-5] + "-" + args.scale)
    host_file = os.path.join(out, "host_seconds")
    host = float(open(host_file).read().split()[0]) if os.path.exists(host_file) else measure_scale.run_baseline(args, out, gpu, pdn)
    with open(os.path.join(out, "report.json")) as f:
        report = json.load(f)
    workload = report["config"]["workload"]
    program = os.path.join(os.path.dirname(args.workload), workload["program"])
    resources, sm = measure_scale.kernel_resources(args.gpupm, program), measure_scale.sm_limits(args.gpupm, gpu)
    shapes = launch_shapes(workload, report, resources, sm)
    ctas, waves = [s[1] for s in shapes], [s[2] for s in shapes]
    span = lambda v, fmt: (fmt % min(v)) if min(v) == max(v) else (fmt + " - " + fmt) % (min(v), max(v))
    return "| %s | %s | %s | %s | %d | %d | %s | %.0f |" % (
        workload["name"], args.scale, span(ctas, "%d"), span(waves, "%.1f"), len(report["kernels"]),
        report["total"]["cycles"]["sm"], policy_column(args.suite, report, shapes), host)


HEADERS = {
    "core_shutdown": "memory-intensive launches (share of cycles), sampling windows each (min / median)",
    "harmonia": "invocations per kernel (min / max)",
    "voltage_noise": "-",
    "sm_allocation": "-",
}


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("workload")
    p.add_argument("--suite", required=True, choices=sorted(SUITES))
    p.add_argument("--scale", default="ci", choices=["ci", "paper"])
    p.add_argument("--gpupm", default="build/gpupm")
    p.add_argument("--out", help="the run's folder (default out/measure/PROGRAM-SCALE)")
    p.add_argument("--header", action="store_true", help="print the table's header first")
    args = p.parse_args()
    if args.header:
        print("| program | scale | CTAs per launch | waves at full occupancy | launches | SM cycles | %s | host s |"
              % HEADERS[args.suite])
        print("|---|---|---|---|---|---|---|---|")
    print(measure(args))


if __name__ == "__main__":
    sys.exit(main())
