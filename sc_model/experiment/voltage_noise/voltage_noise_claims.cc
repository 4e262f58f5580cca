// The voltage-noise paper's claims (docs/papers.md#voltage-noise-claims) judged on
// the runs; each claim's text and tolerance come from the config (ClaimBook).
#include "gpupm/experiment/voltage_noise/voltage_noise_analysis.h"

#include "gpupm/experiment/format_stats.h"

#include <algorithm>
#include <cmath>

namespace gpupm {

namespace {

struct VoltageNoiseJudge {
  const VoltageNoiseAnalysis& a;
  const ClaimBook& book;
  std::vector<Claim> claims;

  double limit(const char* id, const char* name) const { return book.limit(id, name); }
  void judged(const char* id, std::string measured, bool ok, std::string note_if_fail = "") {
    claims.push_back(book.judged(id, std::move(measured), ok, std::move(note_if_fail)));
  }
  void droop_range_and_classes();
  void large_droop_share();
  void smoothing_levels();
  void guardband_energy();
  void packages();
  void lockstep(size_t runs);
};

void VoltageNoiseJudge::droop_range_and_classes() {
  double least = 1, most = 0;  // the kernels' worst droops
  int class_ok = 0, class_n = 0;
  std::string miss;
  for (const VoltageNoiseKernel& k : a.config.kernels) {
    const Json& j = a.kernels[k.name];
    double worst = j["baseline"]["worst_droop"];
    least = std::min(least, worst), most = std::max(most, worst);
    if (k.paper_class == "-") continue;
    ++class_n;
    if (j["measured_class"] == k.paper_class) ++class_ok;
    else miss += " " + k.name + "=" + j["measured_class"].get<std::string>();
  }
  judged("13a", percent(least) + " .. " + percent(most),
         least >= limit("13a", "low_min") && least <= limit("13a", "low_max") && most >= limit("13a", "high_min") &&
             most <= limit("13a", "high_max"),
         "range off");
  if (class_n == 0 && a.config.real)
    claims.push_back(book.not_judged("13b", "no program here stands for one the paper classifies"));
  else
    judged("13b", std::to_string(class_ok) + " of " + std::to_string(class_n) + " match",
           class_n > 0 && class_ok == class_n, "mismatches:" + miss);
}

void VoltageNoiseJudge::large_droop_share() {
  double large = 0, all = 0;  // droop events past each threshold
  for (const VoltageNoiseKernel& k : a.config.kernels)
    for (const Json& e : a.noise(voltage_noise_run_id(k, "baseline"))["events_by_threshold"]) {
      double threshold = e["threshold"], events = e["events"];
      if (std::abs(threshold - limit("12", "small_droop")) < 1e-9) all += events;
      if (std::abs(threshold - limit("12", "large_droop")) < 1e-9) large += events;
    }
  double share = all > 0 ? large / all : 0;
  judged("12", percent(share), share >= limit("12", "share_min") && share <= limit("12", "share_max"),
         "outside the band");
}

void VoltageNoiseJudge::smoothing_levels() {
  // Each smoothing level's droop reduction on the kernels whose noise is of one order.
  double local_first = a.class_reduction("first_order", "local"),
         global_first = a.class_reduction("first_order", "global");
  double local_second = a.class_reduction("second_order", "local");
  double global_second = a.class_reduction("second_order", "global");
  if (a.config.real && (std::isnan(local_first) || std::isnan(local_second)))
    claims.push_back(book.not_judged("15", std::string("no program measured ") +
                                               (std::isnan(local_first) ? "first" : "second") + "-order dominant"));
  else
    judged("15",
           "first-order: local " + percent(local_first) + " vs global " + percent(global_first) +
               "; second-order: global " + percent(global_second) + " vs local " + percent(local_second),
           !std::isnan(local_first) && !std::isnan(local_second) && local_first > global_first &&
               global_second > local_second,
           "a level does not win on its class (or a class is empty)");
  double hierarchical = a.reduction("hierarchical");
  judged("16a", percent(hierarchical), hierarchical >= limit("16a", "reduction_min"), "below target");
  const double worst_before = a.chip_worst.at("baseline"), worst_after = a.chip_worst.at("hierarchical");
  double chip = 1.0 - worst_after / std::max(1e-12, worst_before);
  judged("16b", percent(worst_before) + " -> " + percent(worst_after) + " (" + percent(chip) + ")",
         chip >= limit("16b", "reduction_min"), "below");
  const double emergencies_before = a.emergencies.at("baseline"), emergencies_after = a.emergencies.at("hierarchical");
  double removed = emergencies_before > 0 ? 1.0 - emergencies_after / emergencies_before : 0.0;
  judged("16c", percent(removed) + " (" + fixed(emergencies_before, 0) + " -> " + fixed(emergencies_after, 0) + ")",
         emergencies_before > 0 && removed >= limit("16c", "removed_min"), "fewer removed");
  double slow_hierarchical = a.slowdown("hierarchical"), slow_local = a.slowdown("local");
  double slow_global = a.slowdown("global");
  judged("17", percent(slow_hierarchical) + " / " + percent(slow_local) + " / " + percent(slow_global),
         slow_hierarchical <= limit("17", "slowdown_max"), "too slow");
  judged("15b",
         "local " + percent(a.reduction("local")) + ", global " + percent(a.reduction("global")) + ", hierarchical " +
             percent(hierarchical),
         a.reduction("local") < hierarchical && a.reduction("global") < hierarchical,
         "a single level matches or beats both");
}

void VoltageNoiseJudge::guardband_energy() {
  if (a.energy.empty()) return;
  double core_saving = a.energy["core_energy_saving_mean"], processor_saving = a.energy["processor_energy_saving_mean"];
  judged("20",
         fixed(a.guardband.v_nom, 2) + " V -> " + fixed(a.guardband.v_new, 3) + " V: core " + percent(core_saving) +
             ", processor " + percent(processor_saving),
         core_saving >= limit("20", "core_min") && processor_saving >= limit("20", "processor_min") &&
             core_saving > processor_saving,
         "smaller saving");
}

void VoltageNoiseJudge::packages() {
  const Json& p = a.packages;
  if (p.empty()) return;
  std::string m;
  for (auto& [name, q] : p.items())
    m += name + " " + percent(q["worst_case_reduction"].get<double>()) + "/" +
         percent(q["mean_reduction"].get<double>()) + "; ";
  bool iii_worst = p.contains("III") && p.contains("I") && p.contains("II") &&
                   p["III"]["mean_reduction"] < p["I"]["mean_reduction"] &&
                   p["III"]["mean_reduction"] < p["II"]["mean_reduction"];
  judged("22", m, iii_worst, "III not the lowest");
}

void VoltageNoiseJudge::lockstep(size_t runs) {
  if (runs) judged("24", std::to_string(runs) + " runs in lockstep, 0 mismatches", true);
  else
    claims.push_back(book.not_judged("24",
                                     "rerun with --set gpu.controller_impl=lockstep (a mismatch stops the run); the "
                                     "block testbenches check it too"));
}

}  // namespace

std::vector<Claim> judge_voltage_noise_claims(const VoltageNoiseAnalysis& a, size_t lockstep_runs) {
  VoltageNoiseJudge j{a, a.config.claims, {}};
  j.droop_range_and_classes();
  j.large_droop_share();
  j.smoothing_levels();
  j.guardband_energy();
  j.packages();
  j.lockstep(lockstep_runs);
  j.claims.push_back(a.config.claims.not_judged(
      "1-7", "checked by the PDN tests (ctest -R Pdn) and `gpupm impedance`, docs/voltage_noise.md"));
  j.claims.push_back(
      a.config.claims.not_judged("14", "scripts/train_droop_predictor.py prints the frontier and the chosen point"));
  j.claims.push_back(a.config.claims.not_judged(
      "19", "checked by the test Smoothing.UniformStaggerKeepsTheAlignment (policy uniform)"));
  return j.claims;
}

}  // namespace gpupm
