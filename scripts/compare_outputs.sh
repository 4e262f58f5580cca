#!/usr/bin/env bash
# Records every shipped output of one gpupm build, or compares a build against
# such a record: each shipped workload's report.json / epochs.csv (programs also
# their buffers after the last launch), and each experiment's summary.md /
# summary.json and every run report it holds. A refactor runs `record` before
# and `compare` after; the compare exits 0 only if all of it is identical.
#   scripts/compare_outputs.sh record  DIR [GPUPM]   # GPUPM defaults to build/gpupm
#   scripts/compare_outputs.sh compare DIR [GPUPM]
#   scripts/compare_outputs.sh check   DIR NEW_DIR   # compares a record with outputs made before
#   scripts/compare_outputs.sh analyse DIR [GPUPM]   # experiments only, re-analysing
#       the recorded runs (--reuse-stale): checks an analysis change in minutes
# Left out of the comparison: the provenance (report.json /gpupm, summary.json
# gpupm/wall_seconds/cpu_seconds/timed_runs/jobs/reused_runs, summary.md's "N simulations ... jobs" line,
# each run's cpu_seconds),
# which name the build and the machine's speed rather than the model's results.
# Env: EXPERIMENTS="equalizer harmonia" limits the experiments; JOBS (default 2);
# REWRITES=FILE names deliberate text changes ("OLD<TAB>NEW" lines, see
# scripts/compare_reports.py) applied to the record before comparing, so a change
# that only rewrites those texts shows as identical (and any other as a difference).
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:?record|compare|analyse} dir=${2:?output directory}
gpupm=$(realpath "${3:-build/gpupm}")
jobs=${JOBS:-2}
experiments=${EXPERIMENTS:-"equalizer core-shutdown harmonia sm-allocation voltage-noise"}
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1

gpu_for() {  # the Harmonia suite runs on its GCN-like config, the SM-allocation pairs on 60 SMs
  case $1 in
    */harmonia/*) echo configs/gpu/hd7970_like.json ;;
    */sm_allocation/*) echo configs/gpu/gtx480_60sm.json ;;
    *) echo configs/gpu/gtx480.json ;;
  esac
}

shipped_workloads() {  # statistical workloads and program workloads (not their input files):
  # cuda/PROGRAM/PROGRAM.json and the seed suites' cuda/SEED/PROGRAM/PROGRAM.json, at ci scale
  find configs/workloads -name '*.json' -not -path '*/cuda/*' | sort
  find configs/workloads/cuda -mindepth 2 -maxdepth 3 -name '*.json' |
    awk -F/ '{ name = $NF; sub(/\.json$/, "", name); if (name == $(NF - 1)) print }' | sort
}

run_workloads() {  # $1: destination
  local w id args
  while IFS= read -r w; do
    id=$(echo "${w#configs/workloads/}" | tr '/' '_')
    args=(run --quiet --gpu "$(gpu_for "$w")" --workload "$w" --out "$1/$id")
    [[ $w == */cuda/* ]] && args+=(--dump-buffers "$1/$id/buffers")
    "$gpupm" "${args[@]}" >/dev/null 2>"$1/$id.stderr" || echo "failed to run: $w (see $1/$id.stderr)"
  done < <(shipped_workloads)
}

run_experiments() {  # $1: destination, $2...: extra options
  local dest=$1 e; shift
  for e in $experiments; do
    "$gpupm" experiment "$e" --out "$dest/$e" --jobs "$jobs" "$@" >"$dest/$e.log" 2>&1 ||
      echo "experiment $e exited $? (see $dest/$e.log)"
  done
}

compare_dirs() {  # $1: recorded, $2: new; prints differences, returns 1 if any
  python3 - "$1" "$2" "${REWRITES:-}" "$experiments" <<'EOF'
import json, os, subprocess, sys
sys.path.insert(0, "scripts")
from compare_reports import read_rewrites, rewritten
before, after, rewrites, experiments = sys.argv[1:5]
experiments = set(experiments.split())
pairs = read_rewrites(rewrites)
rewrite_args = ["--rewrites", rewrites] if rewrites else []
SUMMARY_DROP = ("gpupm", "wall_seconds", "cpu_seconds", "timed_runs", "jobs", "reused_runs")
bad = 0
def report(msg):
    global bad
    bad += 1
    print(msg)
def md_lines(path, pairs=()):
    with open(path) as f:
        return [rewritten(l, pairs) for l in f if not (" simulations, " in l and " jobs, " in l and " s wall" in l)]
def summary_json(path, pairs=()):
    with open(path) as f:
        doc = rewritten(json.load(f), pairs)
    for k in SUMMARY_DROP:
        doc.pop(k, None)
    return doc
checked = 0
for root, dirs, files in os.walk(before):
    dirs.sort()
    rel = os.path.relpath(root, before)
    other = os.path.join(after, rel)
    # An experiment's folder: experiments/NAME in a whole record, NAME when comparing experiments/ itself.
    parts = ([] if os.path.basename(os.path.normpath(before)) != "experiments" else ["experiments"]) + \
        ([] if rel == "." else rel.split(os.sep))
    if len(parts) == 2 and parts[0] == "experiments" and parts[1] not in experiments:
        dirs.clear()  # an experiment left out by EXPERIMENTS
        continue
    if "report.json" in files:
        checked += 1
        if not os.path.isdir(other):
            report(f"missing: {rel}")
            continue
        # inputs.fingerprint names the build by design, cpu_seconds the machine's speed; logs and
        # sm-allocation runs name their directories
        r = subprocess.run([sys.executable, "scripts/compare_reports.py", root, other, "--ignore", "/gpupm",
                            "--skip-file", "inputs.fingerprint", "--skip-file", "cpu_seconds",
                            "--replace", before, after] + rewrite_args,
                           capture_output=True, text=True)
        if r.returncode != 0:
            report(f"differs: {rel}\n{r.stdout}")
    if "summary.md" in files:
        checked += 1
        if not os.path.exists(os.path.join(other, "summary.md")):
            report(f"missing: {rel}/summary.md")
            continue
        if md_lines(os.path.join(root, "summary.md"), pairs) != md_lines(os.path.join(other, "summary.md")):
            report(f"summary.md differs: {rel}")
        if summary_json(os.path.join(root, "summary.json"), pairs) != summary_json(os.path.join(other, "summary.json")):
            report(f"summary.json differs: {rel}")
    if os.path.basename(root) == "buffers":
        for name in sorted(files):
            with open(os.path.join(root, name), "rb") as a:
                pb = os.path.join(other, name)
                if not os.path.exists(pb) or open(pb, "rb").read() != a.read():
                    report(f"buffer differs: {rel}/{name}")
            checked += 1
print(f"{checked} outputs checked, {bad} difference(s)")
sys.exit(1 if bad else 0)
EOF
}

case $mode in
  record)
    rm -rf "$dir" && mkdir -p "$dir/runs" "$dir/experiments"
    run_workloads "$dir/runs"
    run_experiments "$dir/experiments"
    echo "recorded $(find "$dir" -name report.json | wc -l) run reports in $dir" ;;
  compare)
    new=$(mktemp -d) && mkdir -p "$new/runs" "$new/experiments"
    run_workloads "$new/runs"
    run_experiments "$new/experiments"
    compare_dirs "$dir" "$new" && echo "identical to $dir (new outputs in $new)" ;;
  analyse)
    new=$(mktemp -d) && mkdir -p "$new/experiments"
    for e in $experiments; do cp -r "$dir/experiments/$e" "$new/experiments/"; done
    run_experiments "$new/experiments" --reuse-stale
    compare_dirs "$dir/experiments" "$new/experiments" && echo "analyses identical to $dir (new in $new)" ;;
  check)  # compares a record with outputs already made: check DIR NEW_DIR
    compare_dirs "$dir" "${3:?the directory of the new outputs}" && echo "identical to $dir" ;;
  *) echo "usage: $0 record|compare|analyse DIR [GPUPM] | check DIR NEW_DIR" >&2; exit 2 ;;
esac
