// What Harmonia's trace (report.policy_trace) says per kernel.
#pragma once

#include "gpupm/common/json_reader.h"

#include <map>
#include <string>
#include <vector>

namespace gpupm {

struct KernelTrace {
  std::vector<Json> ran;   // configuration of each launch
  std::vector<double> us;  // each launch's time
  std::vector<std::string> events;
  int first_cg = -1, last_change = -1;  // launch indices
};

std::map<std::string, KernelTrace> read_harmonia_trace(const Json& trace);
// Time-weighted residency of each tunable's values: {"cus": {"32": 0.9, ...}, ...}.
Json harmonia_residency(const std::map<std::string, KernelTrace>& kernels);

}  // namespace gpupm
