// What the core shut-down summary and claims read from the runs' reports: per
// application the dynamic policies and the oracles against the baseline, each
// launch's search from the trace against the static SM sweep's knee, and the
// material of the claims of docs/papers.md#core-shutdown-claims.
#pragma once

#include "gpupm/experiment/core_shutdown/core_shutdown.h"
#include "gpupm/experiment/core_shutdown/core_shutdown_trace.h"

#include <utility>

namespace gpupm {

struct CoreShutdownAnalysis {
  CoreShutdownAnalysis(const CoreShutdownConfig& config, const RunReports& reports);

  const CoreShutdownConfig& config;
  const RunReports& reports;
  uint32_t n_sms = 32;
  double alpha = 0.05;         // the IPC margin of the policies
  Json apps = Json::object();  // summary.json's "apps"

  // Memory-intensive applications: energy savings and speed-ups.
  std::vector<double> mem_saving_shutdown, mem_saving_dvfs, mem_saving_oracle, mem_speedup_shutdown;
  std::vector<double> thrash_gain, thrash_peak_gain, nonthrash_loss;  // cache-thrash (C3) and the others (C4c)
  std::vector<std::pair<double, double>> leak_vs_gated;               // (gated fraction, SM leakage power saving) (C5)
  int knee_ok = 0, knee_n = 0, steps_bad = 0, l2_better = 0, thrash_n = 0;
  std::string knee_detail;
  double gap_cache = 0, gap_other = 0;  // DVFS minus core shut-down energy, summed (C6)
  int n_cache = 0, n_other = 0;
  bool compute_untouched = true;  // C1
  std::string compute_detail;
  bool phase_varies = false, stable_ok = true;  // C7
  std::string phase_detail, stable_detail;
  // C8: the memory-intensive programs, those whose memory-bound launches all end gated, and per
  // program its memory-bound launches ending gated / all.
  int mem_programs = 0, mem_programs_gated = 0;
  std::string gated_detail;

 private:
  void add_app(const CoreShutdownApp& a);
  Json oracles_json(const CoreShutdownApp& a, double base_time, double base_energy) const;
  Json launch_json(const CoreShutdownApp& a, const LaunchTrace& l, size_t i) const;
  void collect_claim_material(const CoreShutdownApp& a, const Json& j, const std::vector<LaunchTrace>& lt);
  void collect_savings(const CoreShutdownApp& a, const Json& j, const std::vector<LaunchTrace>& lt);
  void collect_searches(const CoreShutdownApp& a, const Json& j, const std::vector<LaunchTrace>& lt);
  void collect_search_ends(const CoreShutdownApp& a, const std::vector<LaunchTrace>& lt);
  void collect_leakage(const CoreShutdownApp& a, const Json& oracles);
  void collect_invocations(const CoreShutdownApp& a, const std::vector<LaunchTrace>& lt);
};

std::vector<Claim> judge_core_shutdown_claims(const CoreShutdownAnalysis& a);

}  // namespace gpupm
