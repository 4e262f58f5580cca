// The Harmonia paper's evaluation (docs/papers.md#harmonia-setup
// to #harmonia-claims) on the suite of configs/workloads/harmonia/ and the HD7970-like GPU:
// the baseline (boost clock, all CUs, top memory clock), Harmonia, its variants
// (CG only, core DVFS only) and an ED^2 oracle over a static grid of CU count x
// CU clock x memory clock (configs/experiments/harmonia.json); plots: scripts/plot_harmonia.py.
//
// The oracle is the paper's: the ED^2-optimal point for every invocation of
// every kernel (from the per-launch records of the static runs), combined into
// the application's time and energy; the best single static point per
// application is reported beside it.
#pragma once

#include "gpupm/experiment/claims.h"
#include "gpupm/experiment/experiment_params.h"
#include "gpupm/experiment/runner.h"
#include "gpupm/policy/shared/oracle/oracle_search.h"

#include <map>
#include <string>
#include <vector>

namespace gpupm {

struct HarmoniaApp {
  std::string name, cls, file;
};

struct HarmoniaVariant {
  std::string name;
  std::vector<std::string> args;  // --policy harmonia --set policy.k=v ...
};

struct HarmoniaConfig {
  std::string gpu, suite;
  std::vector<HarmoniaVariant> variants;  // the first one is Harmonia itself
  OracleSpace oracle;
  std::string core_sweep_app;  // claim 7: that app at all CUs, top memory, every CU clock
  std::vector<std::string> core_sweep_levels;
  std::vector<std::string> stress_apps;  // left out of geomean2 (the paper's MaxFlops, DeviceMemory)
  std::vector<HarmoniaApp> apps;
  std::map<std::string, double> sm_mhz, mem_mhz;  // the GPU's level names -> MHz
  uint32_t sms = 0;
  ClaimBook claims;
  std::vector<ClaimTarget> targets;  // the headline targets, judged by claims
  // A real suite (harmonia_real.h): apps are programs whose class is measured
  // after the runs; fewer CUs running a program this much faster makes it THRASH.
  bool real = false;
  double thrash_gain_min = 1.02;
};

// The config as written (configs/experiments/harmonia*.json), declared once.
struct HarmoniaAppParams : EntryParams {
  std::string cls;
};
struct HarmoniaProgramParams : EntryParams {};
struct HarmoniaVariantParams {
  std::string name;
  Json params = Json::object();
};
struct HarmoniaParams : ExperimentParamsBase<> {
  Json policy_params = Json::object();
  std::vector<HarmoniaVariantParams> variants;
  OracleSpaceParams oracle;
  std::string core_sweep_app;
  std::vector<std::string> core_sweep_levels, stress_apps;
  double thrash_gain_min = 1.02;
  std::vector<HarmoniaAppParams> apps;
  std::vector<HarmoniaProgramParams> programs;
};
void describe(ParamVisitor& v, HarmoniaParams& p);

// A grid point's CU count and clocks (defaults: all CUs, the top levels).
struct PointValues {
  double cus = 0, sm_mhz = 0, mem_mhz = 0;
};
PointValues values_of(const HarmoniaConfig& c, const OraclePoint& p);

const std::vector<ClaimLimits>& harmonia_claim_limits();
std::string harmonia_run_id(const HarmoniaApp& a, const std::string& run);

struct Harmonia {
  using Config = HarmoniaConfig;
  using Params = HarmoniaParams;
  static Config load(const ExperimentOptions& opt, const std::string& shipped_config);
  static std::vector<RunSpec> plan(const Config& c, const RunReports& done, size_t stage);
  static ExperimentSummary analyse(const Config& c, const RunReports& reports,
                                   const std::vector<ExperimentRuns>& stages);
};

}  // namespace gpupm
