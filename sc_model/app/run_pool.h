// The app's entry to the runner (sweep/run_executor.h): every experiment and
// every sweep runs its simulations through run_pool, locally or on Slurm.
#pragma once

#include "sweep/run_executor.h"

#include <string>
#include <vector>

namespace gpupm {

std::vector<RunOutcome> run_pool(const std::vector<RunSpec>& specs, const std::string& out_dir,
                                 const ExecutorOptions& exec, bool progress);
// The local executor with `jobs` processes.
std::vector<RunOutcome> run_pool(const std::vector<RunSpec>& specs, const std::string& out_dir, int jobs,
                                 bool progress);

}  // namespace gpupm
