// Shared helpers for tests: repository paths and running the gpupm binary.
#pragma once

#include <string>
#include <vector>

namespace gpupm::test {

std::string source_path(const std::string& relative);   // path inside the repo
std::string cuda_workload(const std::string& program);  // configs/workloads/cuda/PROGRAM/<last name>.json
std::string binary_path();                              // the gpupm program under test
// A policy plugin tests/plugin/ builds beside the program, e.g. "sm_lowest_plugin".
std::string test_plugin_path(const std::string& name);
std::string temp_dir(const std::string& tag);  // fresh, per process
// Runs the gpupm binary with `args` (shell-quoted by the caller); returns the
// exit status and fills `output` with stdout+stderr.
int run_gpupm(const std::string& args, std::string* output = nullptr);
std::string read_file(const std::string& path);  // whole file, bytes as they are ("" if missing)
std::string write_file(const std::string& path, const std::string& text);  // bytes as they are; returns path

// A program run without a shell: its exit status (-1 if it did not exit) and
// its stdout and stderr apart.
struct ProcessResult {
  int status = -1;
  std::string out, err;
};
// Runs argv (argv[0] a path) with a file-size limit (RLIMIT_FSIZE, bytes; 0: none)
// so tests can make writes fail as a full disk would.
ProcessResult run_process(const std::vector<std::string>& argv, unsigned long long file_size_limit = 0);
// run_process with the gpupm binary first.
ProcessResult run_gpupm_argv(std::vector<std::string> args, unsigned long long file_size_limit = 0);

// The hostile-input catalogues (tests/*_catalogue_test.cc). A case's argument
// "@/" is the fixtures' folder, "@SRC/" the source tree, "@PLUGIN/NAME" a
// plugin of tests/plugin/, "@OUT" the case's output folder.
std::string expand_case_arg(const std::string& arg, const std::string& fixtures_dir, const std::string& out_dir);
// gpupm with the expanded `args`, after `env` settings "NAME=VALUE", killed
// after 60 s (status 137: a hang).
ProcessResult run_case(const std::vector<std::string>& env, const std::vector<std::string>& args,
                       const std::string& fixtures_dir, const std::string& out_dir);
bool empty_or_absent(const std::string& dir);  // no such folder, or an empty one
// The GTX480 config most tests run on.
std::string gtx480_config();

// Whether report.json at `report` matches docs/report.schema.json (python3
// jsonschema, started without a shell); `why` gets its output when it does not.
bool report_matches_schema(const std::string& report, std::string* why = nullptr);

// A stand-in for `gpupm run` in DIR (returns its path) for executor tests:
// `--fail N` exits N after printing to stderr, `--fail kill` dies by SIGKILL,
// otherwise it writes a minimal complete report into --out; every start is
// counted (fake_gpupm_starts).
std::string fake_gpupm(const std::string& dir);
size_t fake_gpupm_starts(const std::string& dir);

}  // namespace gpupm::test
