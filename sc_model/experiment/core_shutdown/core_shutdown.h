// The core shut-down paper's evaluation (docs/papers.md#core-shutdown-setup
// to #core-shutdown-claims) on the suite of configs/workloads/core_shutdown/: baseline, core
// shut-down, core DVFS and the exhaustive static oracles of
// configs/experiments/core_shutdown.json; plots: scripts/plot_core_shutdown.py.
#pragma once

#include "gpupm/experiment/claims.h"
#include "gpupm/experiment/experiment_params.h"
#include "gpupm/experiment/runner.h"
#include "gpupm/policy/shared/oracle/oracle_search.h"

#include <string>
#include <vector>

namespace gpupm {

// An application of the synthetic suite (its class as the config writes it),
// or a program of the real one (its class measured, core_shutdown_real.h).
struct CoreShutdownApp {
  std::string name, cls, file;
  bool memory = true;                // the paper's MEM / MEM-COMP kernels
  std::vector<std::string> kernels;  // real suite: the program's kernels (.entry names), in launch order
};

// How a real suite's programs are classified from their counters (the config's "classification").
struct CoreShutdownClassification {
  double mbu_min = 0.5;            // a kernel is memory-intensive above this MBU (the paper's Sec. 4.2 rule)
  double kernel_share_min = 0;     // kernels below this share of their program's baseline time are not counted
  double thrash_gain_min = 1;      // cache-thrash: the best static SM count this much faster than all SMs
  uint32_t phase_knee_span = 0;    // phase-changing: a kernel's per-launch static knees span this many SMs
  uint32_t phase_min_windows = 0;  // ... over launches through which the policy sampled this many windows
};

struct CoreShutdownConfig {
  std::string gpu, suite;
  bool real = false;
  CoreShutdownClassification classification;  // the real suite's classes; claim C8 reads mbu_min on both
  std::vector<std::string> policy_sets;       // --set policy.k=v for the dynamic policies
  Json policy_params = Json::object();
  std::vector<OracleSpace> oracles;
  std::vector<CoreShutdownApp> apps;
  ClaimBook claims;
  std::vector<ClaimTarget> targets;  // the headline targets, judged by claims
};

// The config as written (configs/experiments/core_shutdown*.json), declared once.
struct CoreShutdownAppParams : EntryParams {
  std::string cls;
  bool memory = true;
};
struct CoreShutdownProgramParams : EntryParams {};
struct CoreShutdownParams : ExperimentParamsBase<> {
  Json policy_params = Json::object();
  std::vector<OracleSpaceParams> oracles;
  CoreShutdownClassification classification;
  std::vector<CoreShutdownAppParams> apps;
  std::vector<CoreShutdownProgramParams> programs;
};
void describe(ParamVisitor& v, CoreShutdownParams& p);

// The dynamic policies, after the baseline.
const std::vector<std::string>& core_shutdown_policies();
const std::vector<ClaimLimits>& core_shutdown_claim_limits();
std::string core_shutdown_run_id(const CoreShutdownApp& a, const std::string& run);

struct CoreShutdown {
  using Config = CoreShutdownConfig;
  using Params = CoreShutdownParams;
  static Config load(const ExperimentOptions& opt, const std::string& shipped_config);
  static std::vector<RunSpec> plan(const Config& c, const RunReports& done, size_t stage);
  static ExperimentSummary analyse(const Config& c, const RunReports& reports,
                                   const std::vector<ExperimentRuns>& stages);
};

}  // namespace gpupm
