#!/usr/bin/env bash
# ctest `format` (label format): every C++ source of the project is as
# .clang-format formats it, with clang-format 14 (Debian 12's; other versions
# format some constructs differently). Lists the files that are not, and the
# command that formats them.
# Usage: scripts/check_format.sh SOURCE_DIR CLANG_FORMAT
set -euo pipefail
src=${1:?source dir} tool=${2:?clang-format program}
grep -q 'version 14\.' <<< "$("$tool" --version)" ||
  { echo "format check: $tool is not clang-format 14: $("$tool" --version)"; exit 1; }
cd "$src"
mapfile -t files < <(find sc_model tests tb fuzz examples scripts -type f \( -name '*.h' -o -name '*.cc' \) | sort)
# One clang-format for all files (a process per file cost 20x more); it names each violation's file.
# Without -Werror it exits 0 on violations, so a failure is its own (an unreadable file or .clang-format).
out=$("$tool" --dry-run "${files[@]}" 2>&1) || { echo "$out"; echo "format check: $tool failed"; exit 1; }
mapfile -t bad < <(sed -n 's/^\(.*\):[0-9]*:[0-9]*: \(warning\|error\): code should be clang-formatted.*/\1/p' \
  <<< "$out" | sort -u)
if [ "${#bad[@]}" -gt 0 ]; then
  echo "format check: ${#bad[@]} of ${#files[@]} files differ from .clang-format; format them with:"
  echo "  $tool -i ${bad[*]}"
  exit 1
fi
echo "format check: ${#files[@]} files as .clang-format formats them"
