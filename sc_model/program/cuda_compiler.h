// Compiling a CUDA program (.cu) to PTX with the system's clang, without the
// CUDA toolkit: gpupm's prelude (configs/cuda/gpupm_prelude.h) is force-included
// and supplies the device API. Results are cached by content.
#pragma once

#include <string>
#include <vector>

namespace gpupm {

// Compiles `cu_file` and returns the path of its PTX in the cache
// (${GPUPM_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/gpupm}/ptx/<hash>.ptx).
// The hash covers the .cu text, the prelude text, clang's --version and the
// flags, so a cache hit skips the compile; `from_cache` tells which happened.
// clang is GPUPM_CLANG if set, else the first of clang++, clang++-19 ... -14 in PATH.
// Throws InputError (exit 2) naming the file: no clang (with the install hint),
// unreadable file or prelude, clang's diagnostics when it fails, or clang
// taking longer than the time limit (GPUPM_CLANG_TIMEOUT seconds, default 120).
// A .cu is compiled on its own: #include of local headers is not part of the hash.
std::string compile_cuda_to_ptx(const std::string& cu_file, bool* from_cache = nullptr);

// The name clang's line directives give the compiled .cu (it is read from
// stdin): ptx::Module::rename_source puts the .cu's path in its place.
constexpr const char* kCompiledSource = "./<stdin>";
// clang runs at most this long (GPUPM_CLANG_TIMEOUT overrides); past it, InputError.
constexpr double kDefaultClangTimeoutS = 120;

// Pieces exposed for tests and tools.
std::string find_cuda_clang();                                 // "" when none
int clang_major_version(const std::string& version_text);      // 0 when not recognised
std::vector<std::string> cuda_compile_flags(int clang_major);  // without -include/-o/input
std::string ptx_cache_dir();

// One line for `gpupm --version`: the clang CUDA programs compile with and the first
// line of its --version ("/usr/bin/clang++ (Debian clang version 14.0.6)"), or why none.
std::string cuda_clang_summary();

}  // namespace gpupm
