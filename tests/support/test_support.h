// Shared helpers for tests: repository paths and running the gpupm binary.
#pragma once

#include <string>

namespace gpupm::test {

std::string source_path(const std::string& relative);  // path inside the repo
std::string temp_dir(const std::string& tag);           // fresh, per process
// Runs the gpupm binary with `args` (shell-quoted by the caller); returns the
// exit status and fills `output` with stdout+stderr.
int run_gpupm(const std::string& args, std::string* output = nullptr);
std::string read_file(const std::string& path);  // whole file, bytes as they are ("" if missing)

}  // namespace gpupm::test
