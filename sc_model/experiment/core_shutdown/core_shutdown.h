// The core shut-down paper's evaluation (docs/papers.md#core-shutdown-setup
// to #core-shutdown-claims) on the suite of configs/workloads/core_shutdown/: baseline, core
// shut-down, core DVFS and the exhaustive static oracles of
// configs/experiments/core_shutdown.json; plots: scripts/plot_core_shutdown.py.
#pragma once

#include "experiment/claims.h"
#include "experiment/runner.h"
#include "policy/shared/oracle/oracle_search.h"

#include <string>
#include <vector>

namespace gpupm {

struct CoreShutdownApp {
  std::string name, cls, file;
  bool memory = true;  // the paper's MEM / MEM-COMP kernels
};

struct CoreShutdownConfig {
  std::string gpu, suite;
  std::vector<std::string> policy_sets;  // --set policy.k=v for the dynamic policies
  Json policy_params = Json::object();
  std::vector<OracleSpace> oracles;
  std::vector<CoreShutdownApp> apps;
  ClaimBook claims;
};

// The dynamic policies, after the baseline.
const std::vector<std::string>& core_shutdown_policies();
const std::vector<ClaimLimits>& core_shutdown_claim_limits();
std::string core_shutdown_run_id(const CoreShutdownApp& a, const std::string& run);

struct CoreShutdown {
  using Config = CoreShutdownConfig;
  static Config load(const ExperimentOptions& opt, const std::string& shipped_config);
  static std::vector<RunSpec> plan(const Config& c, const RunReports& done, size_t stage);
  static ExperimentSummary analyse(const Config& c, const RunReports& reports, const std::vector<ExperimentRuns>& stages);
};

}  // namespace gpupm
