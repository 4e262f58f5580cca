#include "app/run_pool.h"

namespace gpupm {

std::vector<RunOutcome> run_pool(const std::vector<RunSpec>& specs, const std::string& out_dir,
                                 const ExecutorOptions& exec, bool progress) {
  return execute_runs(specs, out_dir, exec, progress);
}

std::vector<RunOutcome> run_pool(const std::vector<RunSpec>& specs, const std::string& out_dir, int jobs,
                                 bool progress) {
  ExecutorOptions exec;
  exec.jobs = jobs;
  return execute_runs(specs, out_dir, exec, progress);
}

}  // namespace gpupm
