// `gpupm experiment NAME`: a seed paper's evaluation run through the run pool,
// summarised as JSON, Markdown (with a claims table) and PNG plots.
#pragma once

#include "app/run_pool.h"
#include "common/json_reader.h"
#include "sweep/run_executor.h"

#include <map>
#include <string>
#include <vector>

namespace gpupm {

struct ExperimentOptions {
  std::string name;
  std::string out_dir;
  std::string config;  // default: configs/experiments/NAME.json
  std::vector<std::string> only;  // run only these kernels (a quick subset)
  std::vector<std::string> sets;  // --set PATH=VALUE added to every run (e.g. gpu.controller_impl=lockstep)
  ExecutorOptions exec;           // where and how many at once the runs execute
};

int command_experiment(const ExperimentOptions& opt);

// One testable claim of a paper, judged on our model.
struct Claim {
  std::string id;
  std::string text;
  std::string paper;     // the paper's figure
  std::string measured;  // ours
  std::string tolerance;
  std::string verdict;   // "pass", "fail" or "n/a"
  std::string note;      // one line: why it failed, or what stands in for it
};

Json claims_json(const std::vector<Claim>& claims);
std::string claims_markdown(const std::vector<Claim>& claims);

// An experiment's simulations through the run executor, with the options'
// --set overrides added to every run (so to its fingerprint). ok is false, and
// the failed runs are listed on stderr, if any run failed.
struct ExperimentRuns {
  std::vector<RunOutcome> outcomes;
  double wall_seconds = 0;
  size_t reused = 0;
  bool ok = true;
};
ExperimentRuns run_experiment_runs(std::vector<RunSpec> specs, const ExperimentOptions& opt);

// Geometric mean (of positive values); 0 for an empty list.
double geomean(const std::vector<double>& v);
std::string fixed(double x, int digits);  // "%.*f"
std::string pct(double ratio);             // 1.123 -> "+12.3%", 0.79 -> "-21.0%"

int run_equalizer_experiment(const ExperimentOptions& opt);
int run_core_shutdown_experiment(const ExperimentOptions& opt);

}  // namespace gpupm
