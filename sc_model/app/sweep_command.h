// `gpupm sweep SPEC --out DIR`: a design-space sweep (sweep/sweep_spec.h) run
// through the run pool, locally or on Slurm, collected into DIR/results.csv.
#pragma once

#include "gpupm/sweep/run_executor.h"

#include <string>

namespace CLI {
class App;
}

namespace gpupm {

struct SweepOptions {
  std::string spec_file;
  std::string out_dir;
  ExecutorOptions exec;
  bool slurm_detach = false;  // submit, and let a dependent Slurm job collect
  bool collect_only = false;  // run nothing: write results.csv from what runs/ holds
  std::string scale = "ci";   // --scale: every run's (program/workload_scale.h)
};

int command_sweep(const SweepOptions& opt);

// --executor and the --slurm-* options, shared by `sweep` and `experiment`.
void add_executor_options(CLI::App* cmd, ExecutorOptions& exec);

}  // namespace gpupm
