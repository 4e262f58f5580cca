#!/usr/bin/python3
"""Draws one metric of a sweep's results.csv against one axis (PNG).

  scripts/plot_sweep.py out/sweep/results.csv --x ctas --y energy_j --by sm_level --where kernel=compute
  scripts/plot_sweep.py out/sweep/results.csv --x sm_level --y sim_time_s --by ctas --where kernel=streaming --out t.png

--x and --by are axes of the sweep (the columns between "id" and "status"); --y is
any numeric column (sim_time_s, energy_j, energy_sm_j, edp_js, ed2p_js2, ipc,
residency_sm_high, ...). Every other axis with more than one value must be fixed
with --where AXIS=VALUE. Failed runs are left out. A numeric x axis is drawn to
scale, a textual one in the order of the spec.
"""
import argparse
import csv
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def fail(msg):
    print(f"plot_sweep.py: error: {msg}", file=sys.stderr)
    sys.exit(2)


def as_float(s):
    try:
        return float(s)
    except ValueError:
        return None


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("results", help="results.csv of `gpupm sweep`")
    ap.add_argument("--x", required=True, help="axis on the horizontal axis")
    ap.add_argument("--y", required=True, help="metric column")
    ap.add_argument("--by", help="axis: one line per value")
    ap.add_argument("--where", action="append", default=[], metavar="AXIS=VALUE", help="keep rows with this value")
    ap.add_argument("--out", help="PNG file (default: <y>_vs_<x>.png beside results.csv)")
    ap.add_argument("--logy", action="store_true", help="logarithmic y axis")
    a = ap.parse_args()

    with open(a.results, newline="") as f:
        reader = csv.DictReader(f)
        header = reader.fieldnames or []
        rows = list(reader)
    if "id" not in header or "status" not in header:
        fail(f"{a.results}: not a gpupm sweep results.csv (no id/status columns)")
    axes = header[header.index("id") + 1 : header.index("status")]
    for name, what in ((a.x, "--x"), (a.by, "--by")):
        if name is not None and name not in axes:
            fail(f"{what} {name}: not an axis of this sweep; axes: {', '.join(axes)}")
    if a.y not in header:
        fail(f"--y {a.y}: no such column; columns: {', '.join(header)}")
    where = {}
    for w in a.where:
        k, sep, v = w.partition("=")
        if not sep or k not in axes:
            fail(f"--where {w}: expected AXIS=VALUE with AXIS one of {', '.join(axes)}")
        where[k] = v
    rows = [r for r in rows if r["status"] == "ok" and all(r[k] == v for k, v in where.items())]
    if not rows:
        fail("no successful runs match")
    free = [ax for ax in axes if ax not in (a.x, a.by) and ax not in where and len({r[ax] for r in rows}) > 1]
    if free:
        vals = {ax: sorted({r[ax] for r in rows}) for ax in free}
        fail("fix the other axes with --where: " + "; ".join(f"{ax} in {{{', '.join(v)}}}" for ax, v in vals.items()))

    def ordered(col):
        seen = []
        for r in rows:
            if r[col] not in seen:
                seen.append(r[col])
        return seen

    xs = ordered(a.x)
    numeric_x = all(as_float(x) is not None for x in xs)
    if numeric_x:
        xs.sort(key=float)
    groups = ordered(a.by) if a.by else [None]
    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    for g in groups:
        pts = []
        for x in xs:
            ys = [as_float(r[a.y]) for r in rows if r[a.x] == x and (g is None or r[a.by] == g)]
            ys = [y for y in ys if y is not None]
            if ys:
                pts.append((float(x) if numeric_x else xs.index(x), sum(ys) / len(ys)))
        if pts:
            ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", label=None if g is None else f"{a.by}={g}")
    if not numeric_x:
        ax.set_xticks(range(len(xs)))
        ax.set_xticklabels(xs, rotation=30 if max(len(x) for x in xs) > 6 else 0)
    ax.set_xlabel(a.x)
    ax.set_ylabel(a.y)
    if a.logy:
        ax.set_yscale("log")
    title = ", ".join(f"{k}={v}" for k, v in where.items())
    if title:
        ax.set_title(title)
    if a.by:
        ax.legend()
    ax.grid(alpha=0.3)
    fig.tight_layout()
    out = a.out or os.path.join(os.path.dirname(os.path.abspath(a.results)), f"{a.y}_vs_{a.x}.png")
    fig.savefig(out, dpi=120)
    print(out)


if __name__ == "__main__":
    main()
