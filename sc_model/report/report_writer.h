// The run's outputs: DIR/report.json (schema: docs/report.schema.json),
// DIR/epochs.csv and DIR/sm_epochs.csv, written atomically (temporary file, then rename).
#pragma once

#include "gpupm/common/output_files.h"
#include "gpupm/platform/gpu.h"

#include <string>
#include <utility>
#include <vector>

namespace gpupm {

Json build_report(Gpu& gpu, const Json& config_echo);
std::string build_epochs_csv(const Gpu& gpu, const DvfsConfig& dvfs);
// sm_epochs.csv (`gpupm run --sm-csv`): per epoch, each SM's power (W) and energy (J).
std::string build_sm_epochs_csv(const Gpu& gpu);
// The build's provenance, as report.json and summary.json carry it:
// {"version": git describe, "build_id": hash of the model sources}.
Json provenance_json();
// A one-screen summary table for the terminal.
std::string summary_table(const Json& report);

}  // namespace gpupm
