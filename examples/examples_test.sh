#!/usr/bin/env bash
# ctest `examples` (label examples; docs/embedding.md#examples): `cmake --install`
# into a temporary prefix, then each example configured with
# find_package(gpupm) against it and built out of tree, run, and its results
# checked:
#   platform/       its own checks pass (exit 0), and what it printed agrees
#                   with its report.json and with the installed gpupm's run of
#                   the same workload (the instructions);
#   driver/         its own checks pass, and the buffers its CPU read back from
#                   its RAM are byte for byte those `gpupm run --dump-buffers`
#                   writes for the same program; its instructions are the CLI's;
#                   built again against the shared library, the same run;
#   policy_plugin/  listed by `gpupm policies --plugin`; under `gpupm run
#                   --plugin` it takes a memory-bound kernel to the lowest SM
#                   level and leaves a compute-bound one at nominal (report.json);
#                   a parameter out of its range exits 2 naming it;
# and the snippets of docs/embedding.md as written (scripts/doc_snippet.py):
# the minimal sc_main built with pkg-config and run from a folder of its own;
# the policy and its registration built as a plugin by the CMake snippet, then
# the shell snippet's commands run on it.
# Usage: examples_test.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
test_name="examples test"
# shellcheck source=tests/install/temp_prefix.sh
source "$(dirname "$0")/../tests/install/temp_prefix.sh"
examples=$src/examples
gpupm=$prefix/bin/gpupm

# Both examples configured (at once) and built out of tree, as a user does.
build_example() {  # NAME [BUILD_NAME CMAKE_ARG...]
  local name=$1 build=${2:-$1} log=$work/${2:-$1}.log
  shift $(($# > 1 ? 2 : 1))
  { cmake -S "$examples/$name" -B "$work/$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$prefix" "$@" &&
    cmake --build "$work/$build"; } > "$log" 2>&1 || { cat "$log"; fail "$build: configure or build failed"; }
}
build_example platform & platform_build=$!
build_example policy_plugin & plugin_build=$!
wait $platform_build || fail "platform example not built"
wait $plugin_build || fail "policy_plugin example not built"
build_example driver || fail "driver example not built"
build_example driver driver_shared -DDRIVER_SHARED_GPUPM=ON || fail "driver example on the shared library not built"

cd "$work"
# A JSON value of FILE by a Python expression on `r` (the document).
py=${GPUPM_PYTHON:-$(command -v /usr/bin/python3 || command -v python3)}  # Debian's first (CMakeLists.txt)
python3() { "$py" "$@"; }
json() { python3 -c "import json, sys; r = json.load(open(sys.argv[1])); print($2)" "$1"; }
expect() {  # WHAT ACTUAL EXPECTED
  [ "$2" = "$3" ] || fail "$1: $2, expected $3"
}

# The platform: exit 0 is its own checks; then its printout against its report and the CLI.
out=$("$work/platform/platform" platform_out) || { echo "$out"; fail "the platform example failed its checks"; }
printed() { sed -n "s/^$1 //p" <<< "$out"; }
report=platform_out/report.json
expect "platform launch_entries" "$(printed launch_entries)" 2
expect "platform irq_rises" "$(printed irq_rises)" 3
expect "platform vf_sm_level (the highest of gtx480's 3)" "$(printed vf_sm_level)" 2
expect "platform policy_decisions" "$(printed policy_decisions)" 2
expect "platform dram_reads vs report memory.seen_by_the_sms.line_reads" "$(printed dram_reads)" \
  "$(json $report 'r["memory"]["seen_by_the_sms"]["line_reads"]')"
expect "platform instructions vs its report" "$(printed instructions)" "$(json $report 'r["total"]["instructions"]')"
expect "platform report config.policy" "$(json $report 'r["config"]["policy"]["name"]')" example-kernel-level
expect "platform report kernels" "$(json $report 'len(r["kernels"])')" 2
"$gpupm" run --quiet --gpu "$share/configs/gpu/gtx480.json" --workload "$examples/platform/workload.json" \
  --out cli_platform > /dev/null || fail "installed gpupm failed on the platform's workload"
expect "platform instructions vs gpupm run on the model's own memory" "$(printed instructions)" \
  "$(json cli_platform/report.json 'r["total"]["instructions"]')"
echo "examples test: platform built, ran, $(printed dram_reads) DRAM reads, checks passed"

# The driver: its CPU's results against the CLI's run of the same program on its own buffers.
out=$("$work/driver/driver" driver_out) || { echo "$out"; fail "the driver example failed its checks"; }
kmeans=$share/configs/workloads/cuda/kmeans/kmeans.json
"$gpupm" run --quiet --gpu "$share/configs/gpu/gtx480.json" --workload "$kmeans" --dump-buffers cli_kmeans_buffers \
  --out cli_kmeans > /dev/null || fail "installed gpupm failed on kmeans"
for buffer in assignment centroids; do
  cmp -s "driver_out/$buffer.npy" "cli_kmeans_buffers/$buffer.npy" ||
    fail "driver: $buffer.npy differs from gpupm run --dump-buffers'"
done
expect "driver instructions vs gpupm run" "$(printed instructions)" "$(json cli_kmeans/report.json 'r["total"]["instructions"]')"
expect "driver instructions vs its report" "$(printed instructions)" "$(json driver_out/report.json 'r["total"]["instructions"]')"
ratio=$(python3 -c "import json; a = json.load(open('driver_out/report.json')); b = json.load(open('cli_kmeans/report.json')); \
print(f'{a[\"total\"][\"sim_time_s\"] / b[\"total\"][\"sim_time_s\"]:.3f}')")
echo "examples test: driver built, ran, results equal to gpupm run's; run time $ratio x the CLI's (its RAM: 300 ns flat, no DRAM model)"
# The same platform linked against gpupm's shared library: the same run.
# ldd's output is taken whole first: `ldd | grep -q` under pipefail fails whenever grep's early exit kills ldd
# with SIGPIPE (this test's one intermittent failure).
libraries=$(ldd "$work/driver_shared/driver")
grep -q "libgpupm_model_shared.so => $prefix/" <<< "$libraries" ||
  fail "driver_shared does not load the installed libgpupm_model_shared.so: $libraries"
shared_out=$("$work/driver_shared/driver" driver_shared_out) || { echo "$shared_out"; fail "driver on the shared library failed its checks"; }
for file in assignment.npy centroids.npy; do
  cmp -s "driver_out/$file" "driver_shared_out/$file" || fail "driver on the shared library: $file differs"
done
expect "driver on the shared library: its printout" "$shared_out" "$out"
echo "examples test: driver linked against libgpupm_model_shared.so, the same run"

# The plugin.
plugin=$work/policy_plugin/libstall_threshold.so
[ -f "$plugin" ] || fail "the plugin build made no $plugin"
listed=$("$gpupm" policies --plugin "$plugin") || fail "gpupm policies --plugin failed"
grep -qF "example-stall-threshold " <<< "$listed" || fail "gpupm policies does not list the plugin's policy: $listed"
run_plugin() {  # OUT WORKLOAD [ARG...]
  local dir=$1 workload=$2
  shift 2
  "$gpupm" run --quiet --gpu "$share/configs/gpu/gtx480.json" --workload "$share/configs/workloads/$workload" \
    --plugin "$plugin" --policy example-stall-threshold --set 'workload.kernels[0].grid_ctas=30' "$@" \
    --out "$dir" > /dev/null || fail "gpupm run --plugin failed on $workload"
}
run_plugin streaming streaming.json --set policy.epoch_cycles=2048
expect "plugin config.policy" "$(json streaming/report.json 'json.dumps(r["config"]["policy"], sort_keys=True)')" \
  '{"epoch_cycles": 2048, "name": "example-stall-threshold", "threshold": 0.5}'
expect "plugin on streaming: most time at the lowest SM level" \
  "$(json streaming/report.json 'r["total"]["vf_residency"]["sm"]["low"] > 0.5')" True
expect "plugin on streaming: memory-bound epochs and a level change" \
  "$(json streaming/report.json 'r["policy_trace"]["memory_bound_epochs"] > 0 and r["policy_trace"]["level_changes"] > 0')" True
run_plugin compute compute.json
expect "plugin on compute: all time at nominal" "$(json compute/report.json 'r["total"]["vf_residency"]["sm"]["normal"]')" 1.0
expect "plugin on compute: no level change" "$(json compute/report.json 'r["policy_trace"]["level_changes"]')" 0
if err=$("$gpupm" run --quiet --plugin "$plugin" --policy example-stall-threshold --set policy.threshold=2 \
  --gpu "$share/configs/gpu/gtx480.json" --workload "$share/configs/workloads/compute.json" --out bad 2>&1); then
  fail "policy.threshold=2 was accepted"
else
  status=$?
fi
expect "plugin: exit status of policy.threshold=2" "$status" 2
grep -q "threshold" <<< "$err" || fail "policy.threshold=2: the message does not name it: $err"
echo "examples test: policy_plugin built, listed, ran (streaming at the lowest level, compute at nominal)"

# The documented snippets, as written in docs/embedding.md.
snippet() { python3 "$src/scripts/doc_snippet.py" "$src/docs/embedding.md" "$@" || fail "docs/embedding.md: $*: no such snippet"; }
export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
mkdir "$work/doc_sc_main" "$work/doc_plugin"
snippet "A minimal sc_main" cpp > "$work/doc_sc_main/main.cc"
# shellcheck disable=SC2046  # pkg-config's flags are words
c++ -std=c++17 $(pkg-config --cflags gpupm) "$work/doc_sc_main/main.cc" -o "$work/doc_sc_main/main" \
  $(pkg-config --libs gpupm) > "$work/doc_sc_main.log" 2>&1 || { cat "$work/doc_sc_main.log"; fail "the minimal sc_main did not build"; }
# Its relative config names, from a folder that has none: found under the installed data ($GPUPM_DATA_DIR).
(cd "$work/doc_sc_main" && GPUPM_DATA_DIR=$share ./main) > "$work/doc_sc_main.out" 2>&1 ||
  { cat "$work/doc_sc_main.out"; fail "the documented minimal sc_main failed"; }
echo "examples test: docs/embedding.md's minimal sc_main built and ran"

# The policy (Writing a policy) and its registration (Registering a policy), in one source,
# built by the CMake snippet (Policy plugins) as a plugin; then the shell snippet's commands.
registration=$(snippet "Registering a policy: GPUPM_REGISTER_POLICY" cpp)
{ grep '^#include' <<< "$registration"; snippet "Writing a policy" cpp; grep -v '^#include' <<< "$registration"; } \
  > "$work/doc_plugin/my_policy.cc"
{ printf 'cmake_minimum_required(VERSION 3.22)\nproject(mine CXX)\n'; snippet "Policy plugins" cmake; } > "$work/doc_plugin/CMakeLists.txt"
{ cmake -S "$work/doc_plugin" -B "$work/doc_plugin/build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$prefix" &&
  cmake --build "$work/doc_plugin/build"; } > "$work/doc_plugin.log" 2>&1 || { cat "$work/doc_plugin.log"; fail "the documented plugin did not build"; }
cd "$work/doc_plugin/build"
[ -f libmine.so ] || fail "the CMake snippet made no libmine.so"
snippet "Policy plugins" sh | sed -n 1,2p |
  sed "s#--gpu \.\.\. --workload \.\.\.#--gpu $share/configs/gpu/gtx480.json --workload $share/configs/workloads/compute.json#" > commands.sh
grep -q -- '--gpu \.\.\.' commands.sh && fail "the shell snippet's placeholders were not filled: $(cat commands.sh)"
PATH=$prefix/bin:$PATH bash -e commands.sh > commands.out 2>&1 || { cat commands.out; fail "the shell snippet's commands failed"; }
grep -qE '^ *sm-level ' commands.out || fail "gpupm policies --plugin does not list sm-level: $(cat commands.out)"
expect "documented plugin: config.policy" "$(json out/x/report.json 'json.dumps(r["config"]["policy"], sort_keys=True)')" \
  '{"level": 2, "name": "sm-level"}'
expect "documented plugin: time at SM level 2 (high)" "$(json out/x/report.json 'r["total"]["vf_residency"]["sm"]["high"] > 0.99')" True
echo "examples test: docs/embedding.md's policy, registration, CMake and shell snippets built and ran"
