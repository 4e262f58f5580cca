#!/usr/bin/env bash
# Runs the whole test suite (installs what is missing and builds first).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1
ctest --test-dir build -j "$(nproc)" --output-on-failure --timeout 600
