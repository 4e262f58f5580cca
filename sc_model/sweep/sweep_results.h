// DIR/results.csv of a sweep: one row per point of the spec, in the spec's
// order, with the axes' values, the run's status and its main metrics (from
// report.json's "total"). The same runs give the same bytes, whichever executor
// ran them. Loadable by pandas.read_csv (header row, RFC 4180 quoting, empty
// cells for the metrics of failed runs).
#pragma once

#include "gpupm/common/csv_writer.h"
#include "gpupm/sweep/run_executor.h"
#include "gpupm/sweep/sweep_spec.h"

#include <map>
#include <string>
#include <vector>

namespace gpupm {

// The fixed metric columns and the JSON pointer (under "total") each comes from.
const std::vector<std::pair<std::string, std::string>>& result_metric_columns();

// Builds results.csv; `outcomes` maps run id -> outcome (runs not in it count as not run).
std::string build_results_csv(const SweepSpec& spec, const std::map<std::string, RunOutcome>& outcomes);

}  // namespace gpupm
