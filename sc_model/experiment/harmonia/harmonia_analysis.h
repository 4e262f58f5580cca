// What the Harmonia summary and claims read from the runs' reports: per
// application each variant, the per-invocation and static oracles and the
// energy- vs ED^2-optimal static points against the baseline; the core sweep
// of claim 7; per variant the ratios the geomeans are taken over.
#pragma once

#include "gpupm/experiment/harmonia/harmonia.h"
#include "gpupm/experiment/harmonia/harmonia_trace.h"

#include <set>

namespace gpupm {

// A run's (or a combination's) time and energy.
struct Outcome {
  double time = 0, energy = 0;
  double ed2p() const { return energy * time * time; }
};

struct HarmoniaAnalysis {
  HarmoniaAnalysis(const HarmoniaConfig& config, const RunReports& reports);

  const HarmoniaConfig& config;
  const RunReports& reports;
  std::vector<OraclePoint> points;  // the static grid
  std::string H;                    // Harmonia itself: the first variant
  std::vector<std::string> names;   // the variants, "oracle", "static-oracle"
  Json apps = Json::object();       // summary.json's "apps"
  // name -> per application; "2": without the stress applications
  std::map<std::string, std::vector<double>> ed2p, energy, speed, speed2, ed2p2;
  double sm_saving_w = 0, mem_saving_w = 0;  // Harmonia's power saving by domain, summed over applications
  std::vector<int> cg_iters, fg_iters;       // convergence of the iterative kernels
  Json energy_opt = Json::object();          // application -> energy- vs ED^2-optimal static points
  Json core_sweep = Json::array();           // claim 7's application at each CU clock

  double geomean_ed2p(const std::string& name) const;  // geomean ED^2 ratio

 private:
  std::set<std::string> stress_;
  void add_app(const HarmoniaApp& a);
  void collect(const HarmoniaApp& a, const std::string& name, const Json& r);
  Json variant_json(const HarmoniaApp& a, const HarmoniaVariant& v, const Outcome& base);
  void add_convergence(const std::map<std::string, KernelTrace>& kt, Json& r);
  Json oracle_json(const HarmoniaApp& a, const Outcome& base) const;
  void add_core_sweep();
};

// The baseline-relative figures of O: speedup, energy, ed2p, power.
Json relative_to(const Outcome& o, const Outcome& base);

std::vector<Claim> judge_harmonia_claims(const HarmoniaAnalysis& a);

}  // namespace gpupm
