// The voltage-noise paper's claims (docs/papers.md#voltage-noise-claims) judged on
// the runs; each claim's text and tolerance come from the config (ClaimBook).
#include "experiment/voltage_noise/voltage_noise_analysis.h"

#include "experiment/format_stats.h"

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
  double lo = 1, hi = 0;
  int class_ok = 0, class_n = 0;
  std::string miss;
  for (const VoltageNoiseKernel& k : a.config.kernels) {
    const Json& j = a.kernels[k.name];
    double w = j["baseline"]["worst_droop"];
    lo = std::min(lo, w), hi = std::max(hi, w);
    if (k.paper_class == "-") continue;
    ++class_n;
    if (j["measured_class"] == k.paper_class)
      ++class_ok;
    else
      miss += " " + k.name + "=" + j["measured_class"].get<std::string>();
  }
  judged("13a", percent(lo) + " .. " + percent(hi),
         lo >= limit("13a", "low_min") && lo <= limit("13a", "low_max") && hi >= limit("13a", "high_min") &&
             hi <= limit("13a", "high_max"),
         "range off");
  if (class_n == 0 && a.config.real)
    claims.push_back(book.not_judged("13b", "no program here stands for one the paper classifies"));
  else
    judged("13b", std::to_string(class_ok) + " of " + std::to_string(class_n) + " match",
           class_n > 0 && class_ok == class_n, "mismatches:" + miss);
}

void VoltageNoiseJudge::large_droop_share() {
  double big = 0, all = 0;
  for (const VoltageNoiseKernel& k : a.config.kernels)
    for (const Json& e : a.noise(voltage_noise_run_id(k, "baseline"))["events_by_threshold"]) {
      double t = e["threshold"], n = e["events"];
      if (std::abs(t - limit("12", "small_droop")) < 1e-9) all += n;
      if (std::abs(t - limit("12", "large_droop")) < 1e-9) big += n;
    }
  double share = all > 0 ? big / all : 0;
  judged("12", percent(share), share >= limit("12", "share_min") && share <= limit("12", "share_max"),
         "outside the band");
}

void VoltageNoiseJudge::smoothing_levels() {
  double l1 = a.class_reduction("first_order", "local"), g1 = a.class_reduction("first_order", "global");
  double l2 = a.class_reduction("second_order", "local"), g2 = a.class_reduction("second_order", "global");
  if (a.config.real && (std::isnan(l1) || std::isnan(l2)))
    claims.push_back(book.not_judged("15", std::string("no program measured ") +
                                               (std::isnan(l1) ? "first" : "second") + "-order dominant"));
  else
    judged("15",
           "first-order: local " + percent(l1) + " vs global " + percent(g1) + "; second-order: global " + percent(g2) +
               " vs local " + percent(l2),
           !std::isnan(l1) && !std::isnan(l2) && l1 > g1 && g2 > l2,
           "a level does not win on its class (or a class is empty)");
  double h = a.reduction("hierarchical");
  judged("16a", percent(h), h >= limit("16a", "reduction_min"), "below target");
  const double wb = a.chip_worst.at("baseline"), wh = a.chip_worst.at("hierarchical");
  double chip = 1.0 - wh / std::max(1e-12, wb);
  judged("16b", percent(wb) + " -> " + percent(wh) + " (" + percent(chip) + ")", chip >= limit("16b", "reduction_min"),
         "below");
  const double eb = a.emergencies.at("baseline"), eh = a.emergencies.at("hierarchical");
  double removed = eb > 0 ? 1.0 - eh / eb : 0.0;
  judged("16c", percent(removed) + " (" + fixed(eb, 0) + " -> " + fixed(eh, 0) + ")",
         eb > 0 && removed >= limit("16c", "removed_min"), "fewer removed");
  double sh = a.slowdown("hierarchical"), sl = a.slowdown("local"), sg = a.slowdown("global");
  judged("17", percent(sh) + " / " + percent(sl) + " / " + percent(sg), sh <= limit("17", "slowdown_max"), "too slow");
  judged("15b",
         "local " + percent(a.reduction("local")) + ", global " + percent(a.reduction("global")) + ", hierarchical " +
             percent(h),
         a.reduction("local") < h && a.reduction("global") < h, "a single level matches or beats both");
}

void VoltageNoiseJudge::guardband_energy() {
  if (a.energy.empty()) return;
  double cs = a.energy["core_energy_saving_mean"], ps = a.energy["processor_energy_saving_mean"];
  judged("20",
         fixed(a.guardband.v_nom, 2) + " V -> " + fixed(a.guardband.v_new, 3) + " V: core " + percent(cs) +
             ", processor " + percent(ps),
         cs >= limit("20", "core_min") && ps >= limit("20", "processor_min") && cs > ps, "smaller saving");
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
  if (runs)
    judged("24", std::to_string(runs) + " runs in lockstep, 0 mismatches", true);
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
