// Runs `gpupm run` in a child process and returns its report (tests that
// compare several simulations cannot elaborate them in one process).
#pragma once

#include <nlohmann/json.hpp>

#include <functional>
#include <string>
#include <vector>

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

// A run's total at each fixed CTA limit 1..max (`total_at(n)`, null when it
// failed): the L1 hit rates in order, the fastest count and how much faster
// it is than `max`.
struct CtaSweep {
  std::vector<double> l1_hit;
  int best_n = 0;
  double speedup_over_max = 0.0;
};
CtaSweep sweep_cta_limits(int max, const std::function<nlohmann::json(int)>& total_at);

// The SM allocation tests' queue pair: a compute application (`compute_ctas`
// CTAs) and a streaming one (`stream_ctas`), re-spawned until the slower ends.
std::string compute_stream_pair(int compute_ctas, int stream_ctas);

}  // namespace gpupm::test
