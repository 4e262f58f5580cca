// `gpupm bench` by whole `run` processes: the real suite (--real-suite) and the
// paired comparison of two binaries (--against).
#pragma once

#include "gpupm/app/commands.h"

#include <string>
#include <vector>

namespace gpupm {

// What one measurement of `workload` loads (opt's GPU config and --set overrides).
RunInputs bench_inputs(const BenchOptions& opt, const std::string& workload);

// Measures opt's workloads (the real suite, --workload, else `defaults`) one
// `run` process each; with opt.against, that binary too, alternately.
int command_bench_processes(const BenchOptions& opt, const std::vector<std::string>& defaults);

}  // namespace gpupm
