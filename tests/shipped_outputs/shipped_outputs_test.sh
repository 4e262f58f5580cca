#!/usr/bin/env bash
# ctest shipped_outputs: runs every shipped workload (compare_outputs.sh's set, at ci scale) with this
# build and checks each output's digest against tests/shipped_outputs/digests.sha256. A refactor or
# speed-up must leave them all as they are; a deliberate model change rewrites the file in its own
# commit (scripts/output_digests.py RECORD --write tests/shipped_outputs/digests.sha256).
#   tests/shipped_outputs/shipped_outputs_test.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$(realpath "${1:?build directory}") source=$(realpath "${2:?source directory}")
record=$(mktemp -d)
trap 'rm -rf "$record"' EXIT
cd "$source"
EXPERIMENTS=" " scripts/compare_outputs.sh record "$record" "$build/gpupm"
python3 scripts/output_digests.py "$record" --check tests/shipped_outputs/digests.sha256
