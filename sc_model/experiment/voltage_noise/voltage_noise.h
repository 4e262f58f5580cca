// The voltage-noise paper's evaluation (docs/papers.md#voltage-noise-results): the
// noisy suite with the PDN on, under no smoothing, the local droop predictor,
// global staggering and both; the guardband the new worst case allows and the
// energy of running at it; package sensitivity; the claims of section 5.
// Config: configs/experiments/voltage_noise.json; plots: scripts/plot_voltage_noise.py.
#pragma once

#include "gpupm/experiment/claims.h"
#include "gpupm/experiment/experiment_params.h"
#include "gpupm/experiment/runner.h"

#include <string>
#include <utility>
#include <vector>

namespace gpupm {

// A kernel of the synthetic suite, or a program of the real one; paper_class is
// the paper's Fig. 6 class of what it stands for ("-": none given), only
// compared with the class measured from its baseline droops.
struct VoltageNoiseKernel {
  std::string name, paper_class, file;
};
struct VoltageNoisePackage {
  std::string name, pdn;
};
struct VoltageNoiseConfig {
  std::string gpu, pdn;
  std::vector<std::string> gpu_sets;  // --set overrides of the GPU config every run gets
  double margin = 0.08;
  std::vector<VoltageNoisePackage> packages;
  std::vector<VoltageNoiseKernel> kernels;
  ClaimBook claims;
  std::vector<ClaimTarget> targets;  // the headline targets, judged by claims
  bool real = false;                 // kernels are programs (configs/workloads/cuda/), each run whole
};

// The config as written (configs/experiments/voltage_noise*.json), declared once.
struct VoltageNoiseEntryParams : EntryParams {
  std::string paper_class = "-";
};
struct VoltageNoiseProgramParams : VoltageNoiseEntryParams {};
struct VoltageNoisePackageParams {
  std::string name, pdn;
};
struct VoltageNoiseParams : ExperimentParamsBase<> {
  std::string pdn;
  double margin = 0.08;
  Json gpu_sets = Json::object();
  std::vector<VoltageNoisePackageParams> packages;
  std::vector<VoltageNoiseEntryParams> kernels;
  std::vector<VoltageNoiseProgramParams> programs;
};
void describe(ParamVisitor& v, VoltageNoiseParams& p);

// The four designs of Fig. 19, as --set overrides of the GPU config.
const std::vector<std::pair<std::string, std::vector<std::string>>>& voltage_noise_modes();
const std::vector<ClaimLimits>& voltage_noise_claim_limits();
// The run of kernel K in MODE (on PACKAGE, when not the default one).
std::string voltage_noise_run_id(const VoltageNoiseKernel& k, const std::string& mode, const std::string& package = "");

// The supply the smoothing's removed worst-case droop allows (docs/papers.md#voltage-noise-results).
struct Guardband {
  size_t nominal = 0;  // the SM domain's nominal V/F level
  double v_nom = 1.0, v_new = 1.0;
};
// From the default package's baseline and hierarchical runs (stage 0).
Guardband voltage_noise_guardband(const VoltageNoiseConfig& c, const RunReports& reports);
// The chip-wide worst droop of MODE over the suite (default package).
double chip_worst_droop(const VoltageNoiseConfig& c, const RunReports& reports, const std::string& mode);

struct VoltageNoise {
  using Config = VoltageNoiseConfig;
  using Params = VoltageNoiseParams;
  static Config load(const ExperimentOptions& opt, const std::string& shipped_config);
  // Stage 0: every mode on the default package, baseline and hierarchical on
  // the others; stage 1: hierarchical at the lowered supply.
  static std::vector<RunSpec> plan(const Config& c, const RunReports& done, size_t stage);
  static ExperimentSummary analyse(const Config& c, const RunReports& reports,
                                   const std::vector<ExperimentRuns>& stages);
};

}  // namespace gpupm
