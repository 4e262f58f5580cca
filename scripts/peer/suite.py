#!/usr/bin/env python3
"""Peer suite driver (issue 27): every real program at ci scale on gpupm and GPGPU-Sim.

Each program runs through peer.py three times: at the nominal clocks, with the SM
clock x1.15 and with the memory clock x1.15 (on both simulators: peer.py's
--sm-clock-scale/--mem-clock-scale say what each moves). Every run is a child
process (niced, in its own process group, killed at --timeout) whose
OUT/runs/<program>/<variant>/result.json is kept: a rerun reuses every result
file it finds, so an interrupted suite resumes where it stopped; a crash or a
timeout is recorded in that file (status "failed"/"timeout") and the suite goes
on (--retry-failed runs those again). At the end, from the result files:
  OUT/gpgpusim.csv    one row per launch of the nominal runs (issue 27's header)
  OUT/sensitivity.csv each program's speed-up (kernel time ratio) at SM +15% and memory +15%
  OUT/programs.csv    each run's status, wall seconds, and the final-buffer verdict
With --keep DIR, each run's result.json, gpgpusim.json and program.ptx (what a rerun and
--refresh-gpupm read) are copied to DIR/<program>/<variant>/ as they are made, and copied back
into OUT first: a suite longer than one machine's life goes on from a folder kept in git.
"""
import argparse
import concurrent.futures
import csv
import glob
import json
import os
import signal
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import filecmp  # noqa: E402
import shutil  # noqa: E402

import peer  # noqa: E402  (also puts scripts/ on the path for check_schemas)
import check_schemas  # noqa: E402

WORKLOADS = os.path.join(peer.REPO, "configs", "workloads", "cuda")
SENSITIVITY_HEADER = ["program", "gpupm_sm15", "gpgpusim_sm15", "gpupm_mem15", "gpgpusim_mem15"]
PROGRAMS_HEADER = ["program", "variant", "status", "wall_s", "gpupm_s", "gpgpusim_s", "gpgpusim_cpu_s", "launches",
                   "gpgpusim_cycles", "buffers", "detail"]
# Programs left out of the suite, with the reason (none so far: every program workload runs).
EXCLUDED = {}
# The runs under way (their process groups), and whether the suite is being stopped: a SIGINT or
# SIGTERM kills them and records nothing for them, so the next start runs them again.
RUNNING, STOPPING = set(), threading.Event()


def stop(signum, frame):
    STOPPING.set()
    for pid in list(RUNNING):
        try:
            os.killpg(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def discover():
    """{name: workload path} of every program workload under configs/workloads/cuda (a
    `program` key, not `apps`), named by its folder: "bfs", "equalizer/bfs"."""
    found = {}
    for path in sorted(glob.glob(os.path.join(WORKLOADS, "*", "*.json")) +
                       glob.glob(os.path.join(WORKLOADS, "*", "*", "*.json"))):
        with open(path) as f:
            workload = json.loads(check_schemas.strip_comments(f.read()))
        if "program" in workload:
            found[os.path.relpath(os.path.dirname(path), WORKLOADS)] = path
    return found


def variants(scale):
    """[(variant name, SM clock factor, memory clock factor)]; scale None: the nominal run only."""
    if scale is None:
        return [("base", 1.0, 1.0)]
    return [("base", 1.0, 1.0), ("sm15", scale, 1.0), ("mem15", 1.0, scale)]


def gpupm_build(gpupm):
    """The build id `gpupm --version` prints first ("gpupm COMMIT (build ID)"): the model's sources."""
    text = subprocess.run([gpupm, "--version"], capture_output=True, text=True, check=True).stdout
    return text.splitlines()[0].rsplit("(build ", 1)[-1].split(")")[0].strip()


def run_name(program, variant):
    """A run's folder under OUT/runs (and under --keep)."""
    return os.path.join(program.replace("/", "__"), variant)


def run_dir(out, program, variant):
    return os.path.join(out, "runs", run_name(program, variant))


def peer_command(args, program, workload, variant, directory, refresh=False):
    """peer.py's command line for one run; the clock runs leave GPGPU-Sim's power model off (only
    their time is used; it costs ~8% of GPGPU-Sim's CPU time on reduce, and changes no cycle).
    refresh: gpupm only, GPGPU-Sim's side kept from the earlier run (--refresh-gpupm)."""
    name, sm, mem = variant
    cmd = [sys.executable, os.path.join(HERE, "peer.py"), "--gpgpusim", args.gpgpusim, "--workload", workload,
           "--out", directory, "--program", program, "--gpupm", args.gpupm, "--gpu", args.gpu, "--regs", args.regs,
           "--sm-clock-scale", str(sm), "--mem-clock-scale", str(mem), "--cuda", args.cuda, "--clean"]
    if name != "base":
        cmd.append("--no-power")
    if args.config_dir:
        cmd += ["--config-dir", args.config_dir]
    for setting in args.gpupm_set:
        cmd += ["--gpupm-set", setting]
    if refresh:
        cmd.append("--reuse-gpgpusim")
    return cmd


def tail(path, lines=5):
    try:
        with open(path, errors="replace") as f:
            return " | ".join(line.strip() for line in f.readlines()[-lines:])
    except OSError:
        return ""


def same_gpupm_side(record, args):
    """Whether a record's gpupm side was made by this build, GPU config (its name and every setting it
    resolves to: records made before the digest was recorded count as another side) and settings."""
    return (record.get("gpupm_build") == args.gpupm_build and record.get("gpupm_sets", []) == args.gpupm_set and
            record.get("gpupm_gpu", "gtx480") == args.gpu_name and record.get("gpupm_gpu_digest") == args.gpu_digest)


def run_one(args, program, workload, variant):
    """The variant's result record: the one on disk if there is one (unless it failed and
    --retry-failed), else a fresh peer.py run's, or a failure record; None when stopped.
    With --refresh-gpupm only finished runs are touched (gpupm's side, in seconds): a
    variant without one is reported "not run", and a refresh that fails leaves the
    earlier record on disk."""
    directory = run_dir(args.out, program, variant[0])
    result_path = os.path.join(directory, "result.json")
    refresh = False
    finished = False
    if os.path.exists(result_path):
        with open(result_path) as f:
            record = json.load(f)
        finished = record["status"] not in ("failed", "timeout")
        refresh = args.refresh_gpupm and finished and not same_gpupm_side(record, args)
        if not refresh and (finished or not args.retry_failed):
            record["reused"] = True
            return record
    if args.refresh_gpupm and not finished:
        return {"program": program, "status": "not run", "wall_s": {"total": 0.0},
                "detail": "--refresh-gpupm re-measures finished runs only"}
    if os.path.exists(result_path) and not refresh:
        os.remove(result_path)
    if STOPPING.is_set():
        return None
    os.makedirs(directory, exist_ok=True)
    log = os.path.join(directory, "peer.log")
    start = time.monotonic()
    with open(log, "w") as f:
        child = subprocess.Popen(peer_command(args, program, workload, variant, directory, refresh), stdout=f,
                                 stderr=subprocess.STDOUT, start_new_session=True,
                                 preexec_fn=lambda: os.nice(args.nice))
        RUNNING.add(child.pid)
        try:
            code = child.wait(timeout=args.timeout)
        except subprocess.TimeoutExpired:
            os.killpg(child.pid, signal.SIGKILL)  # peer.py, gpupm and GPGPU-Sim's host process
            child.wait()
            code = None
        RUNNING.discard(child.pid)
    if STOPPING.is_set():
        return None
    if code in (0, 1) and os.path.exists(result_path):  # 1: buffers beyond tolerance, recorded
        with open(result_path) as f:
            record = json.load(f)
        if not refresh or same_gpupm_side(record, args):  # else the earlier run's file
            return record
    record = {"program": program, "status": "timeout" if code is None else "failed", "exit": code,
              "wall_s": {"total": round(time.monotonic() - start, 1)},
              "detail": f"killed after {args.timeout} s" if code is None else tail(log)}
    if not refresh:  # a failed refresh keeps the finished run it started from
        with open(result_path, "w") as f:
            json.dump(record, f, indent=1)
    return record


KEPT_FILES = ("result.json", "gpgpusim.json", "program.ptx")


def copy_run_files(source, target):
    """KEPT_FILES of run folder SOURCE into TARGET, those that differ; result.json last, so a
    folder counts as a finished run only once the files it needs are there."""
    os.makedirs(target, exist_ok=True)
    for name in KEPT_FILES[1:] + KEPT_FILES[:1]:
        src, dst = os.path.join(source, name), os.path.join(target, name)
        if os.path.exists(src) and not (os.path.exists(dst) and filecmp.cmp(src, dst, shallow=False)):
            shutil.copyfile(src, dst + ".tmp")
            os.replace(dst + ".tmp", dst)


def restore_kept(args):
    """--keep: every kept run whose folder in OUT has no result.json yet."""
    restored = 0
    for result in sorted(glob.glob(os.path.join(args.keep, "*", "*", "result.json"))):
        folder = os.path.dirname(result)
        target = os.path.join(args.out, "runs", os.path.relpath(folder, args.keep))
        if not os.path.exists(os.path.join(target, "result.json")):
            copy_run_files(folder, target)
            restored += 1
    print(f"--keep: {restored} run(s) restored from {args.keep}", flush=True)


def buffers_summary(record):
    verdicts = record.get("buffers", {})
    counts = {}
    for v in verdicts.values():
        counts[v["match"]] = counts.get(v["match"], 0) + 1
    worst = max((v["worst_rel"] for v in verdicts.values()), default=0.0)
    text = " ".join(f"{n} {m}" for m, n in sorted(counts.items()))
    return text + (f" (worst rel {worst:.3g})" if worst else "")


def program_row(program, variant, record):
    wall = record.get("wall_s", {})
    detail = record.get("detail", "")
    if record.get("status") == "buffers differ":
        detail = "; ".join(f"{name}: {v['beyond_tolerance']} of {v['elements']} beyond tolerance"
                           for name, v in sorted(record["buffers"].items()) if v["match"] == "differs")
    return [program, variant, record["status"], wall.get("total", round(sum(wall.values()), 1)), wall.get("gpupm", ""),
            wall.get("gpgpusim", ""), record.get("cpu_s", {}).get("gpgpusim", ""), len(record.get("rows", [])),
            record.get("gpgpusim_cycles", ""), buffers_summary(record), detail]


def speedup(base, fast, key):
    if not base or not fast or "rows" not in base or "rows" not in fast or not fast[key]:
        return ""
    return f"{base[key] / fast[key]:.4f}"


def write_csv(path, header, rows):
    with open(path, "w", newline="") as f:
        writer = csv.writer(f, lineterminator="\n")
        writer.writerow(header)
        writer.writerows(rows)


def write_outputs(args, programs, results, with_clocks):
    """gpgpusim.csv, sensitivity.csv and programs.csv from the result records. A record whose
    gpupm side another build, config or settings made (a refresh that failed, or a run without
    --refresh-gpupm) is listed in programs.csv only: the figures never mix two gpupm sides.
    Returns how many records were left out so."""
    launches, sensitivity, status, stale = [], [], [], 0
    for program in programs:
        runs = dict(results.get(program, {}))
        for variant in ("base", "sm15", "mem15"):
            if variant not in runs:
                continue
            row = program_row(program, variant, runs[variant])
            if "rows" in runs[variant] and not same_gpupm_side(runs[variant], args):
                row[-1] = "gpupm side from another build, config or settings: left out (--refresh-gpupm)"
                del runs[variant]
                stale += 1
            status.append(row)
        launches += runs.get("base", {}).get("rows", [])
        if with_clocks:
            base = runs.get("base")
            speedups = [speedup(base, runs.get("sm15"), "gpupm_kernel_s"),
                        speedup(base, runs.get("sm15"), "gpgpusim_kernel_s"),
                        speedup(base, runs.get("mem15"), "gpupm_kernel_s"),
                        speedup(base, runs.get("mem15"), "gpgpusim_kernel_s")]
            if any(speedups):  # a program with no clock run measured yet has no row
                sensitivity.append([program] + speedups)
    write_csv(os.path.join(args.out, "gpgpusim.csv"), peer.CSV_HEADER, launches)
    write_csv(os.path.join(args.out, "programs.csv"), PROGRAMS_HEADER, status)
    if with_clocks:
        write_csv(os.path.join(args.out, "sensitivity.csv"), SENSITIVITY_HEADER, sensitivity)
    return stale


def select(args, found):
    """The programs to run, in name order; a name not found is exit 2."""
    names = args.programs.split(",") if args.programs else sorted(found)
    unknown = [n for n in names if n not in found]
    if unknown:
        sys.stderr.write(f"suite.py: --programs: unknown program(s) {', '.join(unknown)}; "
                         f"the programs are: {', '.join(sorted(found))}\n")
        sys.exit(2)
    return [n for n in names if n not in EXCLUDED or args.programs]


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--gpgpusim", required=True, help="GPGPU-Sim checkout, built (README.md)")
    p.add_argument("--out", required=True, help="output folder (reused: finished runs are not redone)")
    p.add_argument("--programs", help="comma-separated program names (default: all; --list shows them)")
    p.add_argument("--list", action="store_true", help="list the programs and the excluded ones, run nothing")
    p.add_argument("--jobs", type=int, default=1, help="runs at once (each takes one core)")
    p.add_argument("--timeout", type=float, default=7200, help="seconds a run may take before it is killed")
    p.add_argument("--nice", type=int, default=19, help="niceness added to every run")
    p.add_argument("--clock-scale", type=float, default=1.15, help="factor of the SM and memory clock runs")
    p.add_argument("--no-clock-runs", action="store_true", help="nominal runs only (no sensitivity.csv)")
    p.add_argument("--retry-failed", action="store_true", help="rerun the runs recorded as failed or timed out")
    p.add_argument("--refresh-gpupm", action="store_true",
                   help="rerun gpupm's side of every finished run that another gpupm build made (peer.py "
                        "--reuse-gpgpusim: GPGPU-Sim's side is kept), e.g. after a change to gpupm's model; "
                        "runs nothing else, and a refresh that fails leaves the earlier record")
    p.add_argument("--gpupm", default=os.path.join(peer.REPO, "build", "gpupm"))
    p.add_argument("--gpupm-set", action="append", default=[], metavar="KEY=VALUE",
                   help="a gpupm --set for every run (repeatable; peer.py's); with --refresh-gpupm, runs made with "
                        "other settings are re-measured on gpupm's side only")
    p.add_argument("--gpu", default=os.path.join(peer.REPO, "configs", "gpu", "gtx480.json"))
    p.add_argument("--config-dir", help="GPGPU-Sim config folder (default: peer.py's)")
    p.add_argument("--regs", choices=["gpupm", "ptxas"], default="gpupm")
    p.add_argument("--cuda", default="/usr/local/cuda", help="CUDA toolkit (peer.py's --cuda)")
    p.add_argument("--keep", help="folder the finished runs' files are copied to as they are made and restored "
                                  "from at the start (e.g. docs/validation/runs, kept in git)")
    args = p.parse_args()
    if args.refresh_gpupm and args.retry_failed:
        p.error("--refresh-gpupm re-measures finished runs only; --retry-failed reruns failed ones: one at a time")
    peer.check_toolkit(p, args.cuda)
    if args.jobs < 1 or args.timeout <= 0 or not 1.0 < args.clock_scale <= 2.0:
        p.error("--jobs must be >= 1, --timeout > 0, --clock-scale in (1, 2]")
    for path, what in ((args.gpupm, "--gpupm"), (args.gpu, "--gpu")):
        if not os.path.exists(path):
            p.error(f"{what}: {path} does not exist")
    if not glob.glob(os.path.join(args.gpgpusim, "lib", "*", "*", "release", "libcudart.so.13")):
        p.error(f"--gpgpusim: no lib/*/*/release/libcudart.so.13 under {args.gpgpusim}: build GPGPU-Sim (README.md)")
    args.gpupm, args.gpu = os.path.abspath(args.gpupm), os.path.abspath(args.gpu)
    args.gpupm_build = gpupm_build(args.gpupm)
    params = peer.gpu_params(args.gpupm, args.gpu)
    args.gpu_name, args.gpu_digest = params["gpu.name"], peer.params_digest(params)
    args.out = os.path.abspath(args.out)
    args.keep = os.path.abspath(args.keep) if args.keep else None
    return args


def main():
    args = parse_args()
    found = discover()
    if args.list:
        for name in sorted(found):
            print(f"{name:32s} {os.path.relpath(found[name], peer.REPO)}"
                  + (f"   EXCLUDED: {EXCLUDED[name]}" if name in EXCLUDED else ""))
        print(f"{len(found)} program workloads, {len(EXCLUDED)} excluded")
        return 0
    programs = select(args, found)
    scale = None if args.no_clock_runs else args.clock_scale
    jobs = [(program, variant) for program in programs for variant in variants(scale)]
    results, lock, done = {}, threading.Lock(), [0]

    def work(job):
        program, variant = job
        record = run_one(args, program, found[program], variant)
        if record is None:
            return
        # Only what this invocation made: a record it reused from OUT may be older than the kept one (another
        # suite.py refreshed --keep meanwhile), and a refresh's "not run" has nothing to keep.
        if args.keep and not record.get("reused") and record["status"] != "not run":
            copy_run_files(run_dir(args.out, program, variant[0]), os.path.join(args.keep, run_name(program, variant[0])))
        with lock:
            results.setdefault(program, {})[variant[0]] = record
            done[0] += 1
            wall = record.get("wall_s", {})
            print(f"[{done[0]}/{len(jobs)}] {program} {variant[0]}: {record['status']}"
                  f"{' (reused)' if record.get('reused') else ''}, GPGPU-Sim {wall.get('gpgpusim', '-')} s, "
                  f"total {wall.get('total', round(sum(wall.values()), 1))} s", flush=True)
            write_outputs(args, programs, results, scale is not None)

    os.makedirs(args.out, exist_ok=True)
    if args.keep:
        restore_kept(args)
    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        list(pool.map(work, jobs))
    stale = write_outputs(args, programs, results, scale is not None)
    failed = sum(r["status"] in ("failed", "timeout") for runs in results.values() for r in runs.values())
    if stale:
        print(f"{stale} run(s) made by another gpupm build, config or settings are left out of the CSVs "
              "(programs.csv lists them): --refresh-gpupm re-measures their gpupm side")
    if STOPPING.is_set():
        print(f"stopped: the runs under way are not recorded; the same command resumes ({args.out})")
        return 130
    print(f"{len(jobs)} runs, {failed} failed or timed out; outputs in {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
