// What the voltage-noise summary and claims read from the runs' reports: per
// kernel and design the worst droop, its ratio to the baseline's, the time
// ratio and the emergencies; the guardband's energy; the package sweep.
#pragma once

#include "gpupm/experiment/voltage_noise/voltage_noise.h"

#include <map>

namespace gpupm {

struct VoltageNoiseAnalysis {
  VoltageNoiseAnalysis(const VoltageNoiseConfig& config, const RunReports& reports);

  const VoltageNoiseConfig& config;
  const RunReports& reports;
  Json kernels = Json::object();                                       // summary.json's "kernels"
  std::map<std::string, std::vector<double>> droop_ratio, time_ratio;  // mode -> per kernel
  std::map<std::string, double> emergencies, chip_worst;               // mode -> over the suite
  std::map<std::string, std::vector<double>> ratio_by_class;           // "first_order:local" -> droop ratios
  Guardband guardband;
  Json energy = Json::object();    // the hierarchical design at the lowered supply (empty without those runs)
  Json packages = Json::object();  // package -> worst and mean reductions

  double reduction(const std::string& mode) const;                                // 1 - geomean droop ratio
  double slowdown(const std::string& mode) const;                                 // geomean time ratio - 1
  double class_reduction(const std::string& cls, const std::string& mode) const;  // NaN when no kernel has the class
  const Json& noise(const std::string& id) const { return reports[id].voltage_noise(); }

 private:
  void add_kernel(const VoltageNoiseKernel& k);
  void add_lowered_supply();
  void add_packages();
};

// The class of a run's droops: first- or second-order when that kind is at
// least 60% of the split's events (docs/papers.md#voltage-noise-categories), balanced otherwise.
std::string measured_droop_class(const Json& split);

std::vector<Claim> judge_voltage_noise_claims(const VoltageNoiseAnalysis& a, size_t lockstep_runs);

}  // namespace gpupm
