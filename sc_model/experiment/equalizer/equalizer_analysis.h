// What the Equalizer summary and claims read from the runs' reports: per-kernel
// speed-ups and energies against the baseline, their geometric means per
// category, the CTA sweeps and the policy traces.
#pragma once

#include "gpupm/experiment/equalizer/equalizer.h"

#include <map>
#include <set>

namespace gpupm {

class EqualizerAnalysis {
 public:
  EqualizerAnalysis(const EqualizerConfig& config, const RunReports& reports);

  const EqualizerConfig& config;
  const RunReports& reports;
  Json kernels = Json::object();  // summary.json's "kernels"
  // category ("all" too) -> policy ("static-best" too) -> the kernels' values
  std::map<std::string, std::map<std::string, std::vector<double>>> speed, energy;
  size_t lockstep_runs = 0;  // Equalizer runs made with the controllers in lockstep (C4)

  double time(const EqualizerKernel& k, const std::string& run) const;
  double speedup(const EqualizerKernel& k, const std::string& run) const;       // speed-up over the baseline
  double energy_ratio(const EqualizerKernel& k, const std::string& run) const;  // energy over the baseline's
  IntervalView total(const EqualizerKernel& k, const std::string& run) const;
  double warp_state(const EqualizerKernel& k, const char* state) const;  // the baseline's
  double residency(const EqualizerKernel& k, const std::string& run, const char* domain, const char* level) const;
  const Json& trace(const EqualizerKernel& k, const std::string& run) const;
  // Energy mode's static best (docs/papers.md#equalizer-metrics): SM-low or mem-low within 5% of
  // baseline performance, the one saving more; else baseline.
  std::string static_best(const EqualizerKernel& k) const;
  int best_ctas(const EqualizerKernel& k) const;  // the fastest static CTA count
  // Sum over a kernel's launches of the fastest static CTA count for each
  // launch (from the CTA sweep); `bests` collects the winning counts.
  double per_invocation_optimum(const EqualizerKernel& k, std::set<int>* bests = nullptr) const;
  const EqualizerKernel* find(const std::string& name) const;

  double geomean_speedup(const std::string& cat, const std::string& policy) const;  // geomean speed-up
  double geomean_energy(const std::string& cat, const std::string& policy) const;   // geomean energy
  bool has_cat(const std::string& cat) const;

 private:
  void add_kernel(const EqualizerKernel& k);
};

// D-claims read the Equalizer traces: per epoch num_blocks[] and levels.
struct TraceChecks {
  int block_violations = 0, level_jumps = 0, five_state_violations = 0, mode_violations = 0;
};
TraceChecks check_traces(const EqualizerAnalysis& a);
// Mean numBlocks over SMs per epoch of a run's trace.
std::vector<double> mean_blocks(const Json& trace);

std::vector<Claim> judge_equalizer_claims(const EqualizerAnalysis& a);

}  // namespace gpupm
