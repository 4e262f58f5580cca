#!/usr/bin/env bash
# Installs the Debian packages gpupm needs, only those missing.
set -euo pipefail
PACKAGES=(g++ cmake ninja-build pkgconf ccache libsystemc-dev nlohmann-json3-dev libcli11-dev
          libgtest-dev libeigen3-dev libbenchmark-dev verilator yosys iverilog opensta
          python3-jsonschema python3-matplotlib)
missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  echo "[gpupm] installing: ${missing[*]}" >&2
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
