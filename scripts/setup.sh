#!/usr/bin/env bash
# One command on a fresh Debian machine: install what is missing, build, and run
# the main job (the demo workload on the GTX480 config, baseline policy).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1
build/gpupm run --gpu configs/gpu/gtx480.json --workload configs/workloads/demo.json --policy baseline --out out/demo
# A real CUDA program: compiled to PTX by clang, executed and timed by the SMs.
build/gpupm run --gpu configs/gpu/gtx480.json --workload configs/workloads/cuda/kmeans/kmeans.json --policy baseline \
  --out out/kmeans --dump-buffers out/kmeans/buffers
