#!/usr/bin/env bash
# ctest shipped_outputs: runs every shipped workload (compare_outputs.sh's set, at ci scale) with this
# build and checks each output's digest against tests/shipped_outputs/digests.sha256. A refactor or
# speed-up must leave them all as they are; a deliberate model change rewrites the file in its own
# commit (docs/testing.md). Skipped (77) where the CUDA programs compile with another clang than the
# table's: its PTX differs.
#   tests/shipped_outputs/shipped_outputs_test.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$(realpath "${1:?build directory}") source=$(realpath "${2:?source directory}")
cd "$source"
export GPUPM_DATA_DIR=$source  # this checkout's CUDA prelude, not an installed copy's

# The clang gpupm compiles CUDA with, found as find_cuda_clang() (sc_model/program/cuda_compiler.cc) does.
clang=${GPUPM_CLANG:-}
if [[ -z $clang ]]; then
  for name in clang++ clang++-19 clang++-18 clang++-17 clang++-16 clang++-15 clang++-14; do
    clang=$(command -v "$name") && break
  done
fi
if [[ -z $clang ]]; then
  echo "skipped: no clang++ to compile the CUDA programs with (scripts/install-deps.sh installs it)"
  exit 77
fi
clang_line=$("$clang" --version | head -n 1)

record=$(mktemp -d)
trap 'rm -rf "$record"' EXIT
EXPERIMENTS=" " scripts/compare_outputs.sh record "$record/outputs" "$build/gpupm" | tee "$record/log"
if grep -q '^failed to run' "$record/log"; then
  sed -n 's/^failed to run: .* (see \(.*\))$/\1/p' "$record/log" | while read -r stderr; do
    echo "--- $stderr"
    cat "$stderr"
  done
  echo "shipped_outputs: a shipped workload failed to run"
  exit 1
fi
python3 scripts/output_digests.py "$record/outputs" --clang "$clang_line" --check tests/shipped_outputs/digests.sha256
