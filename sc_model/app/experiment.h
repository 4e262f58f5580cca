// Transitional: what the experiments still in sc_model/app/ use from the
// experiments layer (sc_model/experiment/), and their results reader.
#pragma once

#include "experiment/claims.h"
#include "experiment/format_stats.h"
#include "experiment/legacy_experiments.h"
#include "experiment/registry.h"
#include "experiment/runner.h"

#include <map>
#include <string>

namespace gpupm {

// The runs' reports, read once each (null when a report is missing or unreadable).
class ExperimentResults {
 public:
  explicit ExperimentResults(std::string out_dir) : dir_(std::move(out_dir)) {}
  const Json& report(const std::string& id);
  bool has(const std::string& id) { return report(id).is_object(); }
  double time(const std::string& id) { return report(id)["total"]["sim_time_s"].get<double>(); }
  double energy(const std::string& id) { return report(id)["total"]["energy_j"]["total"].get<double>(); }

 private:
  std::string dir_;
  std::map<std::string, Json> cache_;
};

inline void write_summary(const std::string& out_dir, const Json& summary, const std::string& markdown,
                          const std::string& plot_script, bool print_claims) {
  write_summary(out_dir, ExperimentSummary{summary, markdown}, plot_script, print_claims);
}

inline std::string shipped_config_path(const std::string& config_name) {
  return std::string(GPUPM_SOURCE_DIR) + "/configs/experiments/" + config_name + ".json";
}

}  // namespace gpupm
