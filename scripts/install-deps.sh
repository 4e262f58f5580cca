#!/usr/bin/env bash
# Installs the Debian packages gpupm needs, only those missing.
set -euo pipefail
PACKAGES=(g++ cmake ninja-build pkgconf ccache libsystemc-dev nlohmann-json3-dev libcli11-dev
          libgtest-dev libeigen3-dev libbenchmark-dev verilator yosys iverilog opensta
          python3-jsonschema python3-matplotlib python3-numpy slurmctld slurmd slurm-client munge clang
          libclang-rt-14-dev  # libFuzzer and the sanitizer runtimes for clang (scripts/fuzz.sh): only recommended by clang
          clang-format-14)    # the C++ sources' style (.clang-format; ctest format)
missing=()
for p in "${PACKAGES[@]}"; do
  grep -q "install ok installed" <<< "$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null)" || missing+=("$p")
done
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
updated=0
if [ ${#missing[@]} -gt 0 ]; then
  echo "[gpupm] installing: ${missing[*]}" >&2
  $SUDO apt-get update -qq && updated=1
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# The OSU 0.18 um Liberty file for the RTL area/timing report: only the file, not
# all of qflow (the package depends on it), unpacked into .cache/osu018.
cd "$(dirname "$0")/.."
LIB=.cache/osu018/usr/share/qflow/tech/osu018/osu018_stdcells.lib
if [ ! -f "$LIB" ]; then
  mkdir -p .cache/osu018
  if ! (cd .cache/osu018 && apt-get download qflow-tech-osu018 >/dev/null 2>&1); then
    [ "$updated" = 1 ] || $SUDO apt-get update -qq
    (cd .cache/osu018 && apt-get download qflow-tech-osu018 >/dev/null)
  fi
  dpkg -x .cache/osu018/qflow-tech-osu018_*.deb .cache/osu018
fi
