#!/usr/bin/env bash
# ctest `install` (label install; docs/usage.md "Install"): `cmake --install` into a
# temporary prefix, then
#   1. the installed gpupm, run from a folder outside the source and build
#      trees, on shipped workloads (a kernel profile on the RLC network the GPU
#      config names as configs/pdn/...; a CUDA program, which needs the CUDA
#      prelude and its own relative files) gives report.json and epochs.csv
#      byte-identical to the build tree's run; it draws a plot with the
#      installed plot scripts;
#   2. no installed binary or library holds the source tree's path (but in
#      the Verilated models' diagnostics);
#   3. a minimal out-of-tree project builds with find_package(gpupm) and runs;
#      so does a module plugin (a shared library) with the model linked in;
#   4. the same source compiles as C++20 and links with `pkg-config gpupm` and runs;
#      pkg-config's libraries cover those the find_package(gpupm) consumer links;
#   5. every installed header compiles on its own with pkg-config's flags.
# Usage: install_test.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
test_name="install test"
# shellcheck source=tests/install/temp_prefix.sh
source "$(dirname "$0")/temp_prefix.sh"

# 1. The installed program from elsewhere against the build tree's: NAME WORKLOAD [ARG...].
mkdir "$work/elsewhere"
cd "$work/elsewhere"
compare_run() {
  local name=$1 workload=$2
  shift 2
  "$prefix/bin/gpupm" run --quiet --gpu "$share/configs/gpu/gtx480.json" --workload "$share/$workload" "$@" \
    --out "installed_$name" > /dev/null || fail "installed gpupm failed on $workload $*"
  (cd "$src" && "$build/gpupm" run --quiet --gpu configs/gpu/gtx480.json --workload "$workload" "$@" \
    --out "$work/tree_$name" > /dev/null) || fail "build-tree gpupm failed on $workload $*"
  for file in report.json epochs.csv; do
    if ! cmp -s "installed_$name/$file" "$work/tree_$name/$file"; then
      python3 "$src/scripts/compare_reports.py" "$work/tree_$name" "installed_$name" || true
      fail "$workload $*: installed $file differs from the build tree's"
    fi
  done
  echo "install test: $workload $*: installed run identical to the build tree's"
}
# The RLC network the GPU config names (configs/pdn/...): found under the data root.
compare_run compute_rlc configs/workloads/compute.json --set gpu.pdn.model=rlc
grep -q '"voltage_noise"' installed_compute_rlc/report.json || fail "the RLC run has no voltage_noise section"
# A CUDA program: the prelude from the data root, its .cu beside the workload file.
compare_run fma_loop configs/workloads/cuda/fma_loop/fma_loop.json

# The plot scripts from the data root (impedance.png), and a default that names shipped data.
"$prefix/bin/gpupm" impedance --gpu "$share/configs/gpu/gtx480.json" --out impedance > /dev/null 2>&1 ||
  fail "installed gpupm impedance failed"
[ -s impedance/impedance.png ] || fail "gpupm impedance drew no plot: scripts/plot_impedance.py not found under $share"
"$prefix/bin/gpupm" params --json > /dev/null || fail "installed gpupm params (default --gpu under $share) failed"

# 2. No source path compiled in. Left out: Verilator writes its input files' and
# generated files' paths into the Verilated models' fatal messages ("... did not
# converge"); diagnostics only, never looked up.
for file in "$prefix"/bin/gpupm "$prefix"/lib/*.a "$prefix"/lib/*.so; do
  found=$(strings "$file" | grep -F "$src/" | grep -vE '/rtl/[a-z0-9_]+\.sv$|/gpupm_rtl_models\.dir/' || true)
  [ -z "$found" ] || fail "$file holds the source path $src: $found"
done

# 3. find_package(gpupm) from a project of one's own.
cmake -S "$src/tests/install/consumer" -B "$work/consumer" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$prefix" > "$work/consumer.log" 2>&1 || { cat "$work/consumer.log"; fail "consumer configure failed"; }
cmake --build "$work/consumer" >> "$work/consumer.log" 2>&1 || { cat "$work/consumer.log"; fail "consumer build failed"; }
check_consumer() {  # the data root the package names: the shipped PDN package resolved under it
  out=$("$1") || fail "$1 failed"
  printed=$(sed -n 's/^pdn_network //p' <<< "$out")
  if [ -z "$printed" ] || [ "$(realpath "$printed")" != "$(realpath "$share/configs/pdn/package_default.json")" ]; then
    fail "$1 printed: $out"
  fi
}
check_consumer "$work/consumer/consumer"
echo "install test: find_package(gpupm) consumer built and ran"
# 3b. The model inside a shared library a platform loads (position-independent code).
module_out=$("$work/consumer/module_host" "$work/consumer/consumer_module.so") || fail "module_host failed: $module_out"
[ "$module_out" = "module sms $(sed -n 's/^sms //p' <<< "$("$work/consumer/consumer")")" ] ||
  fail "the module plugin read another GPU than the consumer: $module_out"
echo "install test: the model linked into a module plugin, loaded and ran"

# 4. pkg-config: the same source as C++20 (the flags leave the consumer's standard alone),
# linked with exactly what pkg-config lists, which covers what find_package(gpupm) links.
export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
# shellcheck disable=SC2046  # the flags are words
printf '#if __cplusplus < 202002L\n#error standard overridden\n#endif\n' |
  c++ -std=c++20 $(pkg-config --cflags gpupm) -fsyntax-only -x c++ - ||
  fail "pkg-config --cflags gpupm overrides the consumer's -std=c++20: $(pkg-config --cflags gpupm)"
link_names() {  # the libraries of a link line on stdin, one NAME a line: -lNAME, .../libNAME.a|.so, -pthread
  tr ' ' '\n' | sed -nE 's/^-l(.+)$/\1/p; s/^-pthread$/pthread/p; s@^.*/lib([^/]+)\.(a|so)(\..*)?$@\1@p' | sort -u
}
missing=$(comm -23 <(ninja -C "$work/consumer" -t commands consumer | tail -1 | link_names) \
  <(pkg-config --libs gpupm | link_names) | tr '\n' ' ')
[ -z "$missing" ] || fail "pkg-config --libs gpupm lacks libraries find_package(gpupm) links: $missing"
# shellcheck disable=SC2046  # the flags are words
c++ -std=c++20 $(pkg-config --cflags gpupm) -DGPUPM_INSTALLED_DATA_DIR="\"$(pkg-config --variable=datadir gpupm)\"" \
  "$src/tests/install/consumer/consumer.cc" -o "$work/consumer_pc" $(pkg-config --libs gpupm) ||
  fail "pkg-config compile/link failed"
check_consumer "$work/consumer_pc"
echo "install test: pkg-config gpupm consumer built as C++20 and ran"

# 5. Each installed header alone (a user includes any one first), two at a time.
# shellcheck disable=SC2016  # expanded by the inner shell
(cd "$prefix/include/gpupm" && find . -name '*.h' | sed 's#^\./##' | sort) |
  xargs -P 2 -I{} sh -c 'printf "#include <gpupm/%s>\n" "$1" | c++ -std=c++17 $2 -fsyntax-only -x c++ - 2>/dev/null ||
    echo "$1"' sh {} "$(pkg-config --cflags gpupm)" > "$work/bad_headers.txt"
[ ! -s "$work/bad_headers.txt" ] ||
  fail "installed headers that do not compile on their own: $(tr '\n' ' ' < "$work/bad_headers.txt")"
echo "install test: $(find "$prefix/include/gpupm" -name '*.h' | wc -l) installed headers each compile on their own"

# 6. The package's include path is <prefix>/include alone and the model includes its own headers
#    as "gpupm/...": a user's headers named as the model's folders neither shadow gpupm's nor
#    get them.
mkdir -p "$work/shadow/mem" "$work/shadow/common"
echo '#error a user header shadowed gpupm/mem/memory_system.h' > "$work/shadow/mem/memory_system.h"
echo '#error a user header shadowed gpupm/common/rng.h' > "$work/shadow/common/rng.h"
# shellcheck disable=SC2046  # pkg-config's flags are words
printf '#include <gpupm/platform/gpu.h>\n' | c++ -std=c++17 -I"$work/shadow" $(pkg-config --cflags gpupm) \
  -fsyntax-only -x c++ - || fail "a user's mem/memory_system.h or common/rng.h shadowed gpupm's in gpu.h"
# shellcheck disable=SC2046
if printf '#include "common/rng.h"\n' | c++ -std=c++17 $(pkg-config --cflags gpupm) -fsyntax-only -x c++ - 2> /dev/null; then
  fail "#include \"common/rng.h\" found gpupm's header: the package puts a generic path on the include path"
fi
grep -q 'include/gpupm"' "$prefix"/lib/cmake/gpupm/gpupmTargets.cmake &&
  fail "gpupmTargets.cmake puts include/gpupm on a consumer's include path"
echo "install test: a user's mem/ and common/ headers neither shadow gpupm's nor find them"
