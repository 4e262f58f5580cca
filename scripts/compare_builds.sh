#!/usr/bin/env bash
# Runs every shipped statistical workload with two gpupm binaries and compares
# the outputs (scripts/compare_reports.py: report.json less the provenance and
# per-SM fields, every other file byte for byte). Shows that a change kept the
# shipped outputs identical.
#   scripts/compare_builds.sh OLD_GPUPM NEW_GPUPM [WORK_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
old=$1 new=$2 work=${3:-$(mktemp -d)}
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1
gpu_for() {  # the Harmonia suite runs on its GCN-like config, the SM-allocation pairs on 60 SMs
  case $1 in
    */harmonia/*) echo configs/gpu/hd7970_like.json ;;
    */sm_allocation/*) echo configs/gpu/gtx480_60sm.json ;;
    *) echo configs/gpu/gtx480.json ;;
  esac
}
same=0 differ=0 failed=0
while IFS= read -r w; do
  id=$(echo "$w" | tr '/' '_')
  gpu=$(gpu_for "$w")
  if ! "$old" run --quiet --gpu "$gpu" --workload "$w" --out "$work/old/$id" >/dev/null 2>&1 ||
     ! "$new" run --quiet --gpu "$gpu" --workload "$w" --out "$work/new/$id" >/dev/null 2>&1; then
    echo "failed to run: $w"; failed=$((failed + 1)); continue
  fi
  if scripts/compare_reports.py "$work/old/$id" "$work/new/$id" >"$work/$id.diff"; then
    same=$((same + 1))
  else
    echo "differs: $w ($work/$id.diff)"; differ=$((differ + 1))
  fi
done < <(find configs/workloads -name '*.json' -not -path '*/cuda/*' | sort)
echo "$same identical, $differ different, $failed not run"
[ "$differ" -eq 0 ] && [ "$failed" -eq 0 ]
