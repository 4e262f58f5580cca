// The numbers a report gives for an interval of a run: everything is computed
// from two snapshots of monotonic counters, so per-kernel, per-epoch and total
// figures come from one piece of code.
#pragma once

#include "gpupm/platform/snapshot.h"

#include <nlohmann/json_fwd.hpp>

namespace gpupm {

// The report's metrics for the interval (a, b]. Schema: docs/report.schema.json.
nlohmann::json interval_metrics(const Snapshot& a, const Snapshot& b, const MetricContext& ctx);

}  // namespace gpupm
