#!/usr/bin/python3
"""Statistics of gpupm against GPGPU-Sim from the suite's CSVs (issue 27).

From gpgpusim.csv (one row per launch): the Pearson correlation of cycles (of the
cycles and of their logarithms) over all launches; the mean absolute percentage
error of gpupm's cycles against GPGPU-Sim's over the launches of at least
--min-cycles (10k) cycles in both; the ten launches of largest error among those;
per-metric mean absolute differences (IPC as a relative error, hit rates and DRAM
utilisation as fractions) and the power error; a log-log scatter plot of cycles
(matplotlib, skipped with a message when it is missing). From sensitivity.csv,
if given: the programs whose SM +15% and memory +15% speed-ups agree within
--speedup-tolerance (0.03). Prints the report and writes it to OUT/summary.md.
"""
import argparse
import csv
import math
import os
import statistics
import sys


def read_rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def number(value):
    return float(value) if value not in ("", None) else math.nan


def cycle_pairs(rows):
    return [(int(r["gpupm_cycles"]), int(r["gpgpusim_cycles"])) for r in rows]


def correlations(rows):
    """(Pearson r of cycles, Pearson r of log cycles); NaN with fewer than two launches."""
    pairs = [(a, b) for a, b in cycle_pairs(rows) if a > 0 and b > 0]
    if len(pairs) < 2:
        return math.nan, math.nan
    ours, theirs = zip(*pairs)
    logs = [math.log(x) for x in ours], [math.log(x) for x in theirs]
    return statistics.correlation(ours, theirs), statistics.correlation(*logs)


def error(row):
    """gpupm's signed relative cycle error against GPGPU-Sim."""
    return int(row["gpupm_cycles"]) / int(row["gpgpusim_cycles"]) - 1.0


def long_launches(rows, min_cycles):
    return [r for r in rows if int(r["gpupm_cycles"]) >= min_cycles and int(r["gpgpusim_cycles"]) >= min_cycles]


def metric_lines(rows):
    """Mean absolute differences of the other figures, over launches where both have them."""
    def mean_of(values):
        values = [v for v in values if not math.isnan(v)]
        return (statistics.fmean(values), len(values)) if values else (math.nan, 0)

    ipc = mean_of(abs((number(r["gpupm_warp_instructions"]) / number(r["gpupm_cycles"])) /
                      (number(r["gpgpusim_warp_instructions"]) / number(r["gpgpusim_cycles"])) - 1) for r in rows)
    lines = [f"- IPC (warp instructions per SM cycle): mean absolute relative error {ipc[0]:.1%} ({ipc[1]} launches)"]
    for key, what in (("l1_hit", "L1 hit rate"), ("l2_hit", "L2 hit rate"), ("dram_util", "DRAM utilisation")):
        m = mean_of(abs(number(r["gpupm_" + key]) - number(r["gpgpusim_" + key])) for r in rows)
        lines.append(f"- {what}: mean absolute difference {m[0]:.3f} ({m[1]} launches)")
    power = mean_of(number(r["gpupm_power_w"]) / number(r["gpgpusim_power_w"]) - 1 for r in rows)
    power_abs = mean_of(abs(number(r["gpupm_power_w"]) / number(r["gpgpusim_power_w"]) - 1) for r in rows)
    lines.append(f"- average power: gpupm {power[0]:+.1%} on the mean, mean absolute relative error "
                 f"{power_abs[0]:.1%} ({power[1]} launches)")
    return lines


def sensitivity_lines(path, tolerance):
    rows = read_rows(path)
    lines = []
    for clock in ("sm15", "mem15"):
        pairs = [(number(r["gpupm_" + clock]), number(r["gpgpusim_" + clock])) for r in rows]
        pairs = [(a, b) for a, b in pairs if not (math.isnan(a) or math.isnan(b))]
        if not pairs:
            lines.append(f"- {clock}: no programs")
            continue
        agree = sum(abs(a - b) <= tolerance for a, b in pairs)
        worst = max(pairs, key=lambda p: abs(p[0] - p[1]))
        lines.append(f"- {clock}: {agree} of {len(pairs)} programs within {tolerance} ({agree / len(pairs):.0%}); "
                     f"largest difference {worst[0]:.3f} (gpupm) vs {worst[1]:.3f}")
    for r in rows:
        lines.append(f"  - {r['program']}: SM +15% {r['gpupm_sm15'] or '-'} vs {r['gpgpusim_sm15'] or '-'}, "
                     f"memory +15% {r['gpupm_mem15'] or '-'} vs {r['gpgpusim_mem15'] or '-'}")
    return lines


def program_table(rows):
    """One line per program: its launches' cycles summed on each side, their ratio, and the
    launch-weighted hit rates, DRAM utilisation and power of each side."""
    lines = ["| program | launches | gpupm cycles | GPGPU-Sim cycles | ratio | L1 hit | L2 hit | DRAM util | power W |",
             "|---|---|---|---|---|---|---|---|---|"]
    programs = {}
    for row in rows:
        programs.setdefault(row["program"], []).append(row)

    def weighted(launches, key, side):
        cycles = [number(r[side + "_cycles"]) for r in launches]
        values = [number(r[side + "_" + key]) for r in launches]
        pairs = [(c, v) for c, v in zip(cycles, values) if not math.isnan(v)]
        total = sum(c for c, _ in pairs)
        return sum(c * v for c, v in pairs) / total if total else math.nan

    for name in sorted(programs):
        launches = programs[name]
        ours = sum(int(r["gpupm_cycles"]) for r in launches)
        theirs = sum(int(r["gpgpusim_cycles"]) for r in launches)
        cells = [f"{weighted(launches, key, 'gpupm'):{fmt}} / {weighted(launches, key, 'gpgpusim'):{fmt}}"
                 for key, fmt in (("l1_hit", ".2f"), ("l2_hit", ".2f"), ("dram_util", ".2f"), ("power_w", ".0f"))]
        lines.append(f"| {name} | {len(launches)} | {ours} | {theirs} | {ours / theirs:.3f} | " + " | ".join(cells) + " |")
    return lines


def plot(rows, path):
    """The log-log scatter of cycles; returns a line saying what was written or why not."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return f"plot skipped: no matplotlib for {sys.executable} (Debian: python3-matplotlib, /usr/bin/python3)"
    pairs = [(a, b) for a, b in cycle_pairs(rows) if a > 0 and b > 0]
    if not pairs:
        return "plot skipped: no launches"
    ours, theirs = zip(*pairs)
    low, high = min(ours + theirs) / 1.5, max(ours + theirs) * 1.5
    fig, ax = plt.subplots(figsize=(5, 5), dpi=120)
    ax.loglog([low, high], [low, high], color="grey", linewidth=0.8, label="equal")
    for factor, style in ((1.2, ":"), (1 / 1.2, ":")):
        ax.loglog([low, high], [low * factor, high * factor], color="grey", linestyle=style, linewidth=0.8)
    ax.scatter(theirs, ours, s=10, alpha=0.7)
    ax.set_xlim(low, high)
    ax.set_ylim(low, high)
    ax.set_xlabel("GPGPU-Sim 4.0 cycles (SM clock)")
    ax.set_ylabel("gpupm cycles (SM clock)")
    ax.set_title(f"cycles per launch, {len(pairs)} launches (dotted: +-20%)", fontsize=9)
    fig.tight_layout()
    fig.savefig(path, metadata={"Software": None})
    plt.close(fig)
    return f"plot: {os.path.basename(path)} beside this summary"


def report(args):
    rows = read_rows(args.csv)
    r, r_log = correlations(rows)
    long = long_launches(rows, args.min_cycles)
    errors = [abs(error(row)) for row in long]
    mape = statistics.fmean(errors) if errors else math.nan
    lines = [f"# gpupm vs GPGPU-Sim: {len(rows)} launches of {len({row['program'] for row in rows})} programs", "",
             f"- cycles, Pearson correlation: {r:.4f} (of log cycles: {r_log:.4f})",
             f"- cycles, mean absolute percentage error over the {len(long)} launches of >= {args.min_cycles} "
             f"cycles in both: {mape:.1%}"]
    lines += metric_lines(rows)
    lines += ["", f"## The ten largest cycle errors (launches of >= {args.min_cycles} cycles)", "",
              "| program | kernel | launch | gpupm | GPGPU-Sim | error |", "|---|---|---|---|---|---|"]
    for row in sorted(long, key=lambda x: -abs(error(x)))[:10]:
        lines.append(f"| {row['program']} | {row['kernel']} | {row['launch']} | {row['gpupm_cycles']} | "
                     f"{row['gpgpusim_cycles']} | {error(row):+.1%} |")
    lines += ["", "## Per program (hit rates, utilisation and power: cycle-weighted means, gpupm / GPGPU-Sim)", ""]
    lines += program_table(rows)
    if args.sensitivity:
        lines += ["", f"## Clock sensitivity (speed-ups agreeing within {args.speedup_tolerance})", ""]
        lines += sensitivity_lines(args.sensitivity, args.speedup_tolerance)
    lines += ["", plot(rows, os.path.join(args.out, "cycles.png"))]
    return lines


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("csv", help="gpgpusim.csv (suite.py's or peer.py's)")
    p.add_argument("--sensitivity", help="sensitivity.csv")
    p.add_argument("--out", help="folder for summary.md and cycles.png (default: the CSV's)")
    p.add_argument("--min-cycles", type=int, default=10000, help="launches shorter in either are left out of MAPE")
    p.add_argument("--speedup-tolerance", type=float, default=0.03)
    args = p.parse_args()
    for path in filter(None, (args.csv, args.sensitivity)):
        if not os.path.isfile(path):
            p.error(f"{path} does not exist")
    args.out = args.out or os.path.dirname(os.path.abspath(args.csv))
    os.makedirs(args.out, exist_ok=True)
    lines = report(args)
    with open(os.path.join(args.out, "summary.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
