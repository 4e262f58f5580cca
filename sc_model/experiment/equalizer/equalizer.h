// The Equalizer paper's evaluation (docs/papers.md#equalizer-metrics to #equalizer-claims)
// on the 27-kernel suite: static points, Equalizer in both modes, CTA sweeps,
// CTA-only Equalizer and DynCTA on the cache kernels. Config:
// configs/experiments/equalizer.json; plots: scripts/plot_equalizer.py.
#pragma once

#include "gpupm/experiment/claims.h"
#include "gpupm/experiment/experiment_params.h"
#include "gpupm/experiment/runner.h"

#include <map>
#include <string>
#include <vector>

namespace gpupm {

// A kernel of a real program (launches of one .entry): its CTA shape, and the
// Table II kernel it stands for when the config says so (its "paper_kernels"),
// under whose name the claims about that kernel judge it.
struct EqualizerProgramKernel {
  std::string kernel;
  uint32_t w_cta = 0, max_ctas = 0;
  std::string paper_id;
};

// A kernel of the synthetic suite, or a program of the real one (its kernels
// in program_kernels; its category measured after the runs, equalizer_real.h).
struct EqualizerKernel {
  std::string name, category, file;
  double fraction = 0;
  uint32_t w_cta = 0, max_ctas = 0, launches = 0;
  std::vector<EqualizerProgramKernel> program_kernels;  // real suite only
};

// One of the targets for the whole suite: its words and its limit (a
// ratio to the baseline; none for a comparison with other policies).
struct EqualizerTarget {
  std::string text;
  double limit = 0;
};

// How a real suite's kernels are picked and classified (the config's "classification").
struct EqualizerClassification {
  double kernel_share_min = 0;  // a kernel's least share of its program's baseline time
  double cache_gain_min = 0;  // a memory kernel is cache-sensitive when its best CTA count is this much faster than max
};

struct EqualizerConfig {
  std::string gpu;
  std::vector<EqualizerKernel> kernels;    // those --only keeps, in the config's order
  bool real = false;                       // kernels are programs (configs/workloads/cuda/<suite>/)
  EqualizerClassification classification;  // real suite only
  ClaimBook claims;
  std::map<std::string, EqualizerTarget> targets;  // by key: perf_speedup, perf_energy, ...
};

// The config as written (configs/experiments/equalizer*.json), declared once.
struct EqualizerKernelParams : EntryParams {
  std::string category = "compute";
  double fraction = 0;
};
struct EqualizerProgramParams : EntryParams {
  Json paper_kernels = Json::object();  // {"<its kernel>": "<Table II id>"}, checked against the program's kernels
};
struct EqualizerParams : ExperimentParamsBase<std::map<std::string, EqualizerTarget>> {
  EqualizerClassification classification;
  std::vector<EqualizerKernelParams> kernels;
  std::vector<EqualizerProgramParams> programs;
};
void describe(ParamVisitor& v, EqualizerParams& p);

// The policies every kernel runs under, the baseline first.
const std::vector<std::string>& equalizer_policies();
// What each claim of the config's "claims" holds: its tolerance numbers.
const std::vector<ClaimLimits>& equalizer_claim_limits();
// The run of kernel K named WHAT (a policy, "ctas<N>", "dyncta", "eqcta").
std::string equalizer_run_id(const EqualizerKernel& k, const std::string& what);

// Adds kernel K's run WHAT under POLICY (EXTRA: more `gpupm run` arguments) to SPECS.
void add_equalizer_run(std::vector<RunSpec>& specs, const EqualizerConfig& c, const EqualizerKernel& k,
                       const std::string& what, const std::string& policy, std::vector<std::string> extra = {});
// Adds kernel K's DynCTA-like and CTA-only Equalizer runs (claims D6, D7).
void add_cta_control_runs(std::vector<RunSpec>& specs, const EqualizerConfig& c, const EqualizerKernel& k);

struct Equalizer {
  using Config = EqualizerConfig;
  using Params = EqualizerParams;
  static Config load(const ExperimentOptions& opt, const std::string& shipped_config);
  static std::vector<RunSpec> plan(const Config& c, const RunReports& done, size_t stage);
  static ExperimentSummary analyse(const Config& c, const RunReports& reports,
                                   const std::vector<ExperimentRuns>& stages);
};

}  // namespace gpupm
