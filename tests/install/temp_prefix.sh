# shellcheck shell=bash disable=SC2034,SC2154  # sourced: the caller sets test_name and uses the rest
# Sourced by the tests that run an install (tests/install/install_test.sh,
# examples/examples_test.sh) with their arguments BUILD_DIR SOURCE_DIR and
# $test_name set: `cmake --install` into a fresh temporary prefix, removed on
# exit. Sets build, src, work, prefix, share (the data root); defines fail.
build=$(cd "$1" && pwd)
src=$(cd "$2" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/gpupm_${test_name// /_}.XXXXXX")
trap 'rm -rf "$work"' EXIT
unset GPUPM_DATA_DIR
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1
fail() { echo "$test_name: $*" >&2; exit 1; }

prefix=$work/prefix
share=$prefix/share/gpupm
cmake --install "$build" --prefix "$prefix" > "$work/install.log" || { cat "$work/install.log"; fail "cmake --install failed"; }
