// A program run's launches of one kernel (.entry) as one interval: what the
// real suites' analyses read per kernel (moved from equalizer/equalizer_real.cc
// so that every real suite shares it).
#pragma once

#include "gpupm/experiment/report_view.h"

#include <string>
#include <vector>

namespace gpupm {

// REPORT's launches (report.kernels[]) of KERNEL, in order.
std::vector<const Json*> launches_of(const Json& report, const std::string& kernel);

// REPORT's launches of KERNEL as one interval, in the shape of report.total:
// times, energies, instructions and cycles added up, every other number
// (warp states, rates, residencies) averaged weighted by the launches' times.
// Null when KERNEL has no launch.
Json kernel_interval(const Json& report, const std::string& kernel);

}  // namespace gpupm
