#!/usr/bin/env bash
# Builds the libFuzzer targets (fuzz/, clang++, ASan+UBSan) into build-fuzz/ and
# runs them in-process: the smoke run GPUPM_FUZZ_JOBS targets at a time (default: the cores).
#   scripts/fuzz.sh                      every target, GPUPM_FUZZ_RUNS executions each (default 20000): the CI smoke run
#   scripts/fuzz.sh TARGET [ARGS...]     one target; ARGS go to libFuzzer (-runs=N, -max_total_time=S, ...)
#   GPUPM_FUZZ_TARGETS="ptx_parse ptx_exec" scripts/fuzz.sh    a subset
#   GPUPM_FUZZ_JOBS=1 scripts/fuzz.sh    build with one job and fuzz one target at a time (beside an experiment)
# Targets: gpu_config workload pdn_network sweep_spec program_workload ptx_parse ptx_exec.
# A crash, a leak, an uncaught exception, a 10 s input or 2 GB of memory fails
# the run; the input is kept in build-fuzz/artifacts/<target>/. New inputs go
# to build-fuzz/corpus/<target>/ (not committed); fuzz/corpus/<target>/ holds
# the committed extra seeds and every finding's input (regression seeds).
set -euo pipefail
cd "$(dirname "$0")/.."
ALL_TARGETS=(gpu_config workload pdn_network ptx_parse ptx_exec sweep_spec program_workload program_npy)
BUILD=build-fuzz

# The shipped inputs each reader is given as seeds.
seeds_of() {
  case "$1" in
    gpu_config) ls configs/gpu/*.json ;;  # the based-on ones merged: fuzz/corpus/gpu_config/*_merged.json
    workload) ls configs/workloads/*.json configs/workloads/*/*.json | grep -v '/cuda/' ;;
    pdn_network) ls configs/pdn/*.json ;;
    sweep_spec) ls configs/sweeps/*.json ;;
    program_workload) ls configs/workloads/cuda/*/*.json ;;
    program_npy) find configs/workloads/cuda -name '*.npy' -size -16k | sort ;;  # small ones: short executions
    ptx_parse | ptx_exec) ls fuzz/programs/*.ptx ;;
    *) echo "scripts/fuzz.sh: unknown target '$1' (one of: ${ALL_TARGETS[*]})" >&2; return 2 ;;
  esac
}
dict_of() {
  case "$1" in ptx_*) echo fuzz/ptx.dict ;; *) echo "fuzz/$1.dict" ;; esac
}

run_target() {
  local target=$1; shift
  local corpus=$BUILD/corpus/$target artifacts=$BUILD/artifacts/$target
  mkdir -p "$corpus" "$artifacts"
  seeds_of "$target" | xargs -I{} cp -n {} "$corpus/"
  local dirs=("$corpus")
  [ -d "fuzz/corpus/$target" ] && dirs+=("fuzz/corpus/$target")
  echo "[fuzz] $target $*" >&2
  "$BUILD/fuzz/fuzz_$target" -dict="$(dict_of "$target")" -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=1 -artifact_prefix="$artifacts/" "$@" "${dirs[@]}"
}

if [ $# -gt 0 ]; then
  targets=("$1"); shift
  seeds_of "${targets[0]}" >/dev/null
else
  read -r -a targets <<< "${GPUPM_FUZZ_TARGETS:-${ALL_TARGETS[*]}}"
fi
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$PWD}
CXX=clang++ cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g" \
  -DGPUPM_FUZZ=ON >/dev/null
cmake --build "$BUILD" -j "${GPUPM_FUZZ_JOBS:-$(nproc)}" --target "${targets[@]/#/fuzz_}"
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
if [ $# -gt 0 ]; then
  run_target "${targets[0]}" "$@"
  exit
fi
# The smoke run: GPUPM_FUZZ_JOBS targets at a time (each one core), each one's output printed whole
# when it ends; every target runs, and any failure fails the script.
logs=$BUILD/logs
mkdir -p "$logs"
declare -A running=()  # pid -> target
failed=()
finish_one() {  # waits for whichever target ends first
  local pid status=0
  wait -n -p pid "${!running[@]}" || status=$?
  [ "$status" = 0 ] || failed+=("${running[$pid]}")
  cat "$logs/${running[$pid]}.log" >&2
  unset "running[$pid]"
}
for t in "${targets[@]}"; do
  [ "${#running[@]}" -lt "${GPUPM_FUZZ_JOBS:-$(nproc)}" ] || finish_one
  run_target "$t" -runs="${GPUPM_FUZZ_RUNS:-20000}" > "$logs/$t.log" 2>&1 &
  running[$!]=$t
done
while [ "${#running[@]}" -gt 0 ]; do finish_one; done
if [ "${#failed[@]}" -gt 0 ]; then
  echo "[fuzz] failed: ${failed[*]} (inputs in $BUILD/artifacts/<target>/)" >&2
  exit 1
fi
