// The Harmonia paper's claims (docs/papers.md#harmonia-claims)
// judged on the runs; each claim's text and tolerance come from the config.
#include "gpupm/experiment/harmonia/harmonia_analysis.h"

#include "gpupm/experiment/format_stats.h"

#include <algorithm>
#include <cmath>

namespace gpupm {

namespace {

struct HarmoniaJudge {
  const HarmoniaAnalysis& a;
  const HarmoniaConfig& c;
  const ClaimBook& book;
  std::vector<Claim> claims;

  double limit(const char* id, const char* name) const { return book.limit(id, name); }
  void judged(const char* id, std::string measured, bool ok, std::string note_if_fail) {
    claims.push_back(book.judged(id, std::move(measured), ok, std::move(note_if_fail)));
  }
  // A claim the real suite's programs cannot judge here, with the reason (the synthetic suite always judges it).
  void not_judged_on_real(const char* id, const std::string& why) {
    if (c.real) claims.push_back(book.not_judged(id, why));
  }
  const Json& harmonia(const std::string& app) const { return a.apps[app][a.H]; }
  void compute_bound(const std::string& app);
  void bandwidth_bound(const std::string& app);
  void ed2p_overall();
  void coarse_grain_only(const std::string& cg);
  void core_dvfs_only(const std::string& dv);
  void static_optima();
  void convergence();
  void core_clock_sweep();
};

// C1a: compute-bound -> lowest memory clock, no slowdown, ~10% power.
void HarmoniaJudge::compute_bound(const std::string& comp) {
  const Json& h = harmonia(comp);
  double lowest = 1e18, low_mem = 1e18;
  for (const auto& [name, mhz] : c.mem_mhz) low_mem = std::min(low_mem, mhz);
  for (auto it = h["final"].begin(); it != h["final"].end(); ++it)
    lowest = std::min(lowest, it.value()["mem_mhz"].get<double>());
  double speedup = h["speedup"].get<double>(), power_saving = 1.0 - h["power"].get<double>();
  std::string final_mem;
  for (auto it = h["final"].begin(); it != h["final"].end(); ++it)
    final_mem += fixed(it.value()["mem_mhz"].get<double>(), 0) + " MHz ";
  judged("C1a",
         comp + ": memory " + final_mem + "at the end, performance " + pct(speedup) + ", board power -" +
             fixed(power_saving * 100, 1) + "%",
         lowest <= low_mem + 1e-9 && speedup >= limit("C1a", "speedup_min") &&
             power_saving >= limit("C1a", "power_saving_min") && power_saving <= limit("C1a", "power_saving_max"),
         "see apps." + comp);
}

// C1b: bandwidth-bound -> the knee compute configuration: at the top memory
// clock, the static point with the least CU x MHz within knee_time_factor of the best time there.
void HarmoniaJudge::bandwidth_bound(const std::string& bw) {
  double best = 1e18;
  std::vector<std::pair<double, double>> top;  // (CU x MHz, time)
  const Json& grid = a.apps[bw]["static_grid"];
  double top_mem = 0;
  for (const auto& [name, mhz] : c.mem_mhz) top_mem = std::max(top_mem, mhz);
  for (size_t i = 0; i < a.points.size(); ++i) {
    PointValues pv = values_of(c, a.points[i]);
    if (pv.mem_mhz != top_mem) continue;
    double t = grid[i]["time_s"].get<double>();
    best = std::min(best, t);
    top.push_back({pv.cus * pv.sm_mhz, t});
  }
  double knee = 1e18;
  for (auto& [cu_mhz, t] : top)
    if (t <= best * limit("C1b", "knee_time_factor")) knee = std::min(knee, cu_mhz);
  const Json& h = harmonia(bw);
  double harmonia_cu_mhz = 0;
  std::string final_points;
  for (auto it = h["final"].begin(); it != h["final"].end(); ++it) {
    const Json& f = it.value();
    harmonia_cu_mhz = std::max(harmonia_cu_mhz, f["cus"].get<double>() * f["sm_mhz"].get<double>());
    final_points += fixed(f["cus"].get<double>(), 0) + " CUs x " + fixed(f["sm_mhz"].get<double>(), 0) + " MHz ";
  }
  double ratio = knee < 1e17 && knee > 0 ? harmonia_cu_mhz / knee : 0;
  judged("C1b",
         bw + ": " + final_points + "at the end = " + fixed(ratio, 2) +
             "x the static knee's CU x MHz at the top memory clock; performance " + pct(h["speedup"].get<double>()),
         ratio >= limit("C1b", "ratio_min") && ratio <= limit("C1b", "ratio_max") &&
             h["speedup"].get<double>() >= limit("C1b", "speedup_min"),
         "see apps." + bw + ".static_grid");
}

// C2: geomean ED^2, best on a thrash application, slowdown, oracle gap.
void HarmoniaJudge::ed2p_overall() {
  const std::string& H = a.H;
  double ed2p = a.geomean_ed2p(H), oracle = a.geomean_ed2p("oracle");  // geomean ED^2 over the baseline's
  double slow = 1.0 - geomean(values_at(a.speed, H)), slow2 = 1.0 - geomean(values_at(a.speed2, H));
  std::string best_app;
  double best = 2;
  for (const HarmoniaApp& app : c.apps)
    if (harmonia(app.name)["ed2p"].get<double>() < best)
      best = harmonia(app.name)["ed2p"].get<double>(), best_app = app.name;
  judged("C2a",
         fixed((1 - ed2p) * 100, 1) +
             "% (geomean2 without the stress apps: " + fixed((1 - geomean(values_at(a.ed2p2, H))) * 100, 1) + "%)",
         1 - ed2p >= limit("C2a", "improvement_min"), "below 8%");
  std::string cls = a.apps[best_app]["class"].get<std::string>();
  judged("C2b", fixed((1 - best) * 100, 1) + "% on " + best_app + " (" + cls + ")",
         cls.find("THRASH") != std::string::npos, "the best is not a thrash application");
  judged("C2c", fixed(slow * 100, 2) + "% (geomean over all), " + fixed(slow2 * 100, 2) + "% (geomean2)",
         slow2 < limit("C2c", "slowdown_max"), "slower than 1% on average");
  judged("C2d",
         "oracle " + fixed((1 - oracle) * 100, 1) + "%, Harmonia " + fixed((1 - ed2p) * 100, 1) + "%: gap " +
             fixed((ed2p - oracle) * 100, 1) + " points",
         ed2p - oracle <= limit("C2d", "gap_max"), "oracle far ahead");
}

// C3: CG only vs FG+CG.
void HarmoniaJudge::coarse_grain_only(const std::string& CG) {
  const std::string& H = a.H;
  // Harmonia (FG+CG) against CG only: energy saving, slowdown (geomean2) and worst slowdown.
  const std::vector<double>&both_speed = values_at(a.speed, H), &cg_speed = values_at(a.speed, CG);
  double both_saving = 1 - geomean(values_at(a.energy, H)), cg_saving = 1 - geomean(values_at(a.energy, CG));
  double both_slow = 1 - geomean(values_at(a.speed2, H)), cg_slow = 1 - geomean(values_at(a.speed2, CG));
  double both_worst = 1 - *std::min_element(both_speed.begin(), both_speed.end());
  double cg_worst = 1 - *std::min_element(cg_speed.begin(), cg_speed.end());
  judged("C3",
         "energy saving CG " + fixed(cg_saving * 100, 1) + "% vs FG+CG " + fixed(both_saving * 100, 1) +
             "%; slowdown (geomean2) " + fixed(cg_slow * 100, 2) + "% vs " + fixed(both_slow * 100, 2) + "%; worst " +
             fixed(cg_worst * 100, 1) + "% vs " + fixed(both_worst * 100, 1) + "%",
         std::fabs(cg_saving - both_saving) <= limit("C3", "energy_within") && cg_slow > both_slow &&
             cg_worst > both_worst,
         "see the table");
}

// C4: core DVFS alone; compute vs memory share of the power saved.
void HarmoniaJudge::core_dvfs_only(const std::string& DV) {
  double dvfs_gain = 1 - a.geomean_ed2p(DV), harmonia_gain = 1 - a.geomean_ed2p(a.H);  // ED^2 improvements
  double saved = a.sm_saving_w + a.mem_saving_w;
  double share = saved > 0 ? a.sm_saving_w / saved : 0;
  judged("C4a",
         fixed(dvfs_gain * 100, 1) + "% (" + pct(geomean(values_at(a.speed, DV))) + " performance) vs Harmonia " +
             fixed(harmonia_gain * 100, 1) + "%",
         dvfs_gain < limit("C4a", "share_of_harmonia_max") * harmonia_gain, "core DVFS too close to Harmonia");
  judged("C4b", fixed(share * 100, 1) + "% compute (CU domain) / " + fixed((1 - share) * 100, 1) + "% memory side",
         share >= limit("C4b", "share_min") && share <= limit("C4b", "share_max"),
         "the split is off (the memory side includes the L2 clock energy)");
}

// C5: energy-optimal vs ED^2-optimal static configurations.
void HarmoniaJudge::static_optima() {
  std::vector<std::string> details;
  bool ok = true;
  int n = 0;
  for (const HarmoniaApp& app : c.apps) {
    if (app.cls.find("H-MIXED") == std::string::npos && app.cls.find("H-STREAM") == std::string::npos) continue;
    const Json& e = a.energy_opt[app.name];
    double energy_loss = e["energy_optimal_slowdown"].get<double>(),
           ed2p_loss = e["ed2p_optimal_slowdown"].get<double>();
    details.push_back(app.name + ": energy-optimal " + e["energy_optimal"].get<std::string>() + " loses " +
                      fixed(energy_loss * 100, 1) + "%, ED^2-optimal " + e["ed2p_optimal"].get<std::string>() +
                      " loses " + fixed(ed2p_loss * 100, 1) + "%");
    ok &= energy_loss >= limit("C5", "energy_optimal_loss_min") && ed2p_loss <= limit("C5", "ed2p_optimal_loss_max");
    ++n;
  }
  if (n)
    judged("C5", join(details, "; "), ok,
           "the grid's energy optimum loses less (grid floor: lowest CU count and clocks)");
  else not_judged_on_real("C5", "no program measured H-MIXED or H-STREAM (the paper's LUD and DeviceMemory)");
}

// C6: convergence.
void HarmoniaJudge::convergence() {
  if (a.cg_iters.empty()) return not_judged_on_real("C6", "no kernel with >= 5 launches reached a CG decision");
  auto median = [](std::vector<int> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
  };
  int cg_median = median(a.cg_iters), fg_median = median(a.fg_iters);
  double fg_mean = 0;
  for (int x : a.fg_iters) fg_mean += x;
  fg_mean /= double(a.fg_iters.size());
  judged("C6",
         "median CG " + std::to_string(cg_median) + " (after the warm-up invocation), FG " + std::to_string(fg_median) +
             " more (mean " + fixed(fg_mean, 1) + ") over " + std::to_string(a.fg_iters.size()) +
             " kernels with >= 5 iterations",
         cg_median == limit("C6", "cg_median") && fg_median <= limit("C6", "fg_median_max"), "slower to converge");
}

// C7: a lower CU clock hurts a memory-bound kernel with a low L2 hit rate, most at low clocks.
void HarmoniaJudge::core_clock_sweep() {
  if (a.core_sweep.size() < 3) return not_judged_on_real("C7", "the core sweep's program is not among those run");
  std::vector<double> t, t_control;  // time per core level, and with the L2 on the memory clock
  for (const Json& p : a.core_sweep) {
    t.push_back(p["time_s"].get<double>());
    t_control.push_back(p["time_s_l2_on_memory_clock"].get<double>());
  }
  double top = t.back();
  std::vector<std::string> details;
  for (size_t i = 0; i < t.size(); ++i) details.push_back(c.core_sweep_levels[i] + " " + pct(top / t[i]));
  details.back() += " (control, L2 on the memory clock: " + c.core_sweep_levels.front() + " " +
                    pct(t_control.back() / t_control.front()) + ")";
  double low_step = t[0] / t[1] - 1, high_step = t[t.size() - 2] / t.back() - 1;
  double l2 = a.core_sweep.back()["l2_hit_rate"].get<double>();
  judged("C7",
         c.core_sweep_app + " (L2 hit rate " + fixed(l2, 2) + "), performance vs the top clock: " + join(details) +
             "; lowest step " + fixed(low_step * 100, 1) + "%, highest step " + fixed(high_step * 100, 1) + "%",
         top / t.front() <= limit("C7", "lowest_clock_perf_max") && low_step > high_step, "no clear low-clock penalty");
}

}  // namespace

std::vector<Claim> judge_harmonia_claims(const HarmoniaAnalysis& a) {
  const HarmoniaConfig& c = a.config;
  HarmoniaJudge j{a, c, c.claims, {}};
  std::string comp, bw;
  for (const HarmoniaApp& app : c.apps)
    if (app.cls.find("H-COMP") != std::string::npos) comp = app.name;
    else if (app.cls.find("H-STREAM") != std::string::npos) bw = app.name;
  if (!comp.empty()) j.compute_bound(comp);
  else j.not_judged_on_real("C1a", "no program measured compute-bound (compute HIGH, bandwidth LOW)");
  if (!bw.empty()) j.bandwidth_bound(bw);
  else j.not_judged_on_real("C1b", "no program measured bandwidth-bound (bandwidth HIGH, compute below HIGH)");
  j.ed2p_overall();
  if (c.variants.size() > 1) j.coarse_grain_only(c.variants[1].name);
  if (c.variants.size() > 2) j.core_dvfs_only(c.variants[2].name);
  j.static_optima();
  j.convergence();
  j.core_clock_sweep();
  return j.claims;
}

}  // namespace gpupm
