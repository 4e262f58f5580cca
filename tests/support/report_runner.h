// Runs `gpupm run` in a child process and returns its report (tests that
// compare several simulations cannot elaborate them in one process).
#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace gpupm::test {

struct RunResult {
  int status = -1;
  std::string output;
  std::string out_dir;
  nlohmann::json report;  // null unless status == 0
};

// `workload` is a file name under configs/workloads/ (without .json) or a path;
// `gpu` a GPU config relative to the source tree.
RunResult run_sim(const std::string& workload, const std::string& extra_args = "", const std::string& tag = "run",
                  const std::string& gpu = "configs/gpu/gtx480.json");

double sim_time(const nlohmann::json& report);  // total simulated seconds

}  // namespace gpupm::test
