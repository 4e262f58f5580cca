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

# The clang this build compiles CUDA with, as `gpupm --version` names it:
# "CUDA clang: /usr/bin/clang++ (Debian clang version 14.0.6)" or "CUDA clang: none (...)".
clang_summary=$("$build/gpupm" --version | sed -n 's/^CUDA clang: //p')
if [[ -z $clang_summary || $clang_summary == none* ]]; then
  echo "skipped: no clang++ to compile the CUDA programs with (gpupm --version: ${clang_summary:-no CUDA clang line})"
  exit 77
fi
clang_line=${clang_summary#* (}
clang_line=${clang_line%)}

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
