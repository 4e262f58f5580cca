#!/usr/bin/env bash
# Builds gpupm with AddressSanitizer + UndefinedBehaviorSanitizer (and LeakSanitizer)
# into build-asan/ and runs the unit, behaviour, CLI and lock-step tests under them.
#   scripts/test-sanitize.sh                   the whole set (see SKIP below)
#   scripts/test-sanitize.sh -R 'Ptx|Json'     extra arguments go to ctest (a subset)
#   GPUPM_SANITIZE=undefined scripts/test-sanitize.sh     other sanitizers (into build-undefined/)
#   GPUPM_SANITIZE_TARGETS="gpupm gpupm_tests" ...        build only these (with a matching -R)
# Any sanitizer report fails its test: UBSan halts on the first error, ASan
# and LSan always do.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
SANITIZE=${GPUPM_SANITIZE:-address,undefined}
BUILD=build-asan
[ "$SANITIZE" = address,undefined ] || BUILD=build-${SANITIZE//,/-}
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$PWD}
cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g" \
  -DGPUPM_SANITIZE="$SANITIZE" >/dev/null
cmake --build "$BUILD" -j "$(nproc)" ${GPUPM_SANITIZE_TARGETS:+--target $GPUPM_SANITIZE_TARGETS}

# Not run here: Verilator lint, Yosys and the synthesis report run external tools
# on the RTL (nothing of ours is instrumented), the Slurm cluster test, and shipped_outputs (136 whole
# workloads, about 3 minutes optimised and past the time limit instrumented; their paths run in the
# behaviour and program tests).
SKIP='^(rtl_lint|rtl_yosys|rtl_synth_report|SweepSlurm|shipped_outputs)'
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:strict_string_checks=1:check_initialization_order=1:detect_stack_use_after_return=0}
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$PWD/scripts/sanitize/lsan.supp:print_suppressions=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
# ASan makes the simulation several times slower: a longer per-test timeout.
ctest --test-dir "$BUILD" -j "$(nproc)" --output-on-failure --timeout 1800 -E "$SKIP" "$@"
