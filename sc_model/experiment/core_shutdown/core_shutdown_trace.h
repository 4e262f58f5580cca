// What the core shut-down policy's trace (report.policy_trace) says.
#pragma once

#include "gpupm/common/json_fwd.h"

#include <cstdint>
#include <string>
#include <vector>

namespace gpupm {

// One launch's part of the trace.
struct LaunchTrace {
  std::string kernel;
  uint32_t launch = 0;
  uint32_t final_sms = 0;         // the setting at the end (before the early wake-up)
  std::vector<uint32_t> settles;  // each converged search's result
  std::vector<uint32_t> steps;    // steps of each search
  uint32_t searches = 0, drifts = 0, windows = 0;
  bool woke_early = false;
  bool ended = false;  // the trace has its end (final_sms is the setting then)
  double settle_time_us = -1, start_us = 0, end_us = 0;
};

std::vector<LaunchTrace> read_launch_traces(const Json& trace);
// Time-weighted mean of the active SM count over a run.
double mean_active_sms(const Json& trace, double total_us, uint32_t sms);

}  // namespace gpupm
