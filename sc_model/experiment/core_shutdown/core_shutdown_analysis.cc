#include "gpupm/experiment/core_shutdown/core_shutdown_analysis.h"

#include "gpupm/experiment/format_stats.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace gpupm {

CoreShutdownAnalysis::CoreShutdownAnalysis(const CoreShutdownConfig& c, const RunReports& r) : config(c), reports(r) {
  const Json& count = r[core_shutdown_run_id(c.apps.front(), "baseline")].gpu_config()["sm"]["count"];
  n_sms = count.is_number() ? count.get<uint32_t>() : 32u;
  alpha = c.policy_params.value("alpha", 0.05);
  for (const CoreShutdownApp& a : c.apps) add_app(a);
}

void CoreShutdownAnalysis::add_app(const CoreShutdownApp& a) {
  const std::string b = core_shutdown_run_id(a, "baseline");
  const IntervalView base = reports[b].total();
  double base_time = base.sim_time_s(), base_energy = base.energy_j();
  Json j = {{"class", a.cls}, {"memory_intensive", a.memory}};
  j["baseline"] = {{"time_s", base_time},
                   {"energy_j", base_energy},
                   {"ipc", base.field(report_key::kIpc)},
                   {"mbu", base.field(report_key::kDramUtilisation)},
                   {"l2_hit_rate", base.field(report_key::kL2HitRate)}};
  for (const auto& p : core_shutdown_policies()) {
    const std::string id = core_shutdown_run_id(a, p);
    const IntervalView t = reports[id].total();
    j[p] = {{"speedup", base_time / t.sim_time_s()},
            {"energy", t.energy_j() / base_energy},
            {"l2_hit_rate", t.field(report_key::kL2HitRate)},
            {"sm_leakage_j", t.field(report_key::kEnergy)[report_key::kByComponent]["sm_leakage"]}};
  }
  j["oracles"] = oracles_json(a, base_time, base_energy);
  const Json& trace = reports[core_shutdown_run_id(a, "core-shutdown")].policy_trace();
  std::vector<LaunchTrace> lt = read_launch_traces(trace);
  Json launches = Json::array();
  for (size_t i = 0; i < lt.size(); ++i) launches.push_back(launch_json(a, lt[i], i));
  j["core_shutdown_launches"] = launches;
  double total_us = base_time > 0 ? reports.time(core_shutdown_run_id(a, "core-shutdown")) * 1e6 : 0;
  j["core_shutdown_mean_active_sms"] = mean_active_sms(trace, total_us, n_sms);
  apps[a.name] = j;
  collect_claim_material(a, j, lt);
}

Json CoreShutdownAnalysis::oracles_json(const CoreShutdownApp& a, double base_time, double base_energy) const {
  Json oj = Json::object();
  for (const OracleSpace& o : config.oracles) {
    std::vector<OracleOutcome> xs;
    std::vector<OraclePoint> pts = o.points();
    Json sweep = Json::array();
    for (const auto& p : pts) {
      const IntervalView t = reports[core_shutdown_run_id(a, point_run_name(o, p))].total();
      xs.push_back({t.sim_time_s(), t.energy_j()});
      sweep.push_back({{"point", point_label(p)},
                       {"time_s", t.field(report_key::kSimTime)},
                       {"energy_j", t.field(report_key::kEnergy)[report_key::kEnergyTotal]},
                       {"ipc", t.field(report_key::kIpc)},
                       {"l2_hit_rate", t.field(report_key::kL2HitRate)},
                       {"mbu", t.field(report_key::kDramUtilisation)},
                       {"sm_leakage_j", t.field(report_key::kEnergy)[report_key::kByComponent]["sm_leakage"]}});
    }
    int best = oracle_best(o.objective, {base_time, base_energy}, xs);
    // The baseline is a point of every space (all SMs, nominal V/F): if nothing beats it, it is the answer.
    bool beaten = best >= 0 && xs[size_t(best)].energy_j < base_energy;
    double best_energy = best >= 0 ? std::min(1.0, xs[size_t(best)].energy_j / base_energy) : 1.0;
    double best_speedup = beaten ? base_time / xs[size_t(best)].time_s : 1.0;
    std::string label = beaten ? point_label(pts[size_t(best)]) : "baseline";
    oj[o.name] = {{"objective", o.objective.kind}, {"max_loss", o.objective.max_loss}, {"best", label},
                  {"energy", best_energy},         {"speedup", best_speedup},          {"sweep", sweep}};
  }
  return oj;
}

// Launch I's search, and its knee from the static SM sweep: the smallest count
// whose time for this launch is within alpha of the best time (the rule the search applies).
Json CoreShutdownAnalysis::launch_json(const CoreShutdownApp& a, const LaunchTrace& l, size_t i) const {
  Json lj = {{"kernel", l.kernel},         {"launch", l.launch},
             {"final_sms", l.final_sms},   {"settles", l.settles},
             {"steps", l.steps},           {"searches", l.searches},
             {"drifts", l.drifts},         {"windows", l.windows},
             {"woke_early", l.woke_early}, {"settle_time_us", l.settle_time_us}};
  for (const OracleSpace& o : config.oracles) {
    if (o.axes.size() != 1 || o.axes[0].param != "sms") continue;
    double t_all = -1;
    std::vector<std::pair<uint32_t, double>> tv;
    for (const auto& p : o.points()) {
      const ReportView run = reports[core_shutdown_run_id(a, point_run_name(o, p))];
      if (!run.kernels().is_array() || i >= run.kernel_count()) continue;
      uint32_t n = p[0].second.get<uint32_t>();
      double t = run.kernel(i).sim_time_s();
      tv.push_back({n, t});
      if (n == n_sms) t_all = t;
    }
    double t_best = t_all;
    for (auto& [n, t] : tv) t_best = std::min(t_best, t);
    uint32_t knee = n_sms;
    for (auto& [n, t] : tv)
      if (t <= t_best / (1.0 - alpha) && n < knee) knee = n;
    lj["knee_sms"] = knee;
    lj["static_time_s"] = Json::array();
    for (auto& [n, t] : tv) lj["static_time_s"].push_back({n, t});
    if (t_all > 0) lj["static_peak_gain"] = t_all / t_best;
  }
  return lj;
}

void CoreShutdownAnalysis::collect_claim_material(const CoreShutdownApp& a, const Json& j,
                                                  const std::vector<LaunchTrace>& lt) {
  collect_savings(a, j, lt);
  collect_searches(a, j, lt);
  collect_search_ends(a, lt);
  collect_leakage(a, j["oracles"]);
  collect_invocations(a, lt);
}

// C1 (compute applications untouched), C3, C4 and C6 (savings and speed-ups).
void CoreShutdownAnalysis::collect_savings(const CoreShutdownApp& a, const Json& j,
                                           const std::vector<LaunchTrace>& lt) {
  const ClaimBook& book = config.claims;
  const Json& oj = j["oracles"];
  double shutdown_energy = j["core-shutdown"]["energy"].get<double>(),
         shutdown_speedup = j["core-shutdown"]["speedup"].get<double>();
  double dvfs_energy = j["core-dvfs"]["energy"].get<double>();
  double oracle_energy = oj.contains("oracle-sm") ? oj["oracle-sm"]["energy"].get<double>() : 1.0;
  bool thrash = a.cls.find("CACHE") != std::string::npos;
  if (!a.memory) {
    const double within = book.limit("C1", "within");
    bool untouched = std::fabs(shutdown_energy - 1) <= within && std::fabs(shutdown_speedup - 1) <= within;
    for (const auto& l : lt) untouched &= l.final_sms == n_sms && l.searches == 0;
    compute_untouched &= untouched;
    compute_detail += a.name + " energy " + pct(shutdown_energy) + ", perf " + pct(shutdown_speedup) + "; ";
  } else {
    mem_saving_shutdown.push_back(1 - shutdown_energy);
    mem_saving_dvfs.push_back(1 - dvfs_energy);
    mem_saving_oracle.push_back(1 - oracle_energy);
    mem_speedup_shutdown.push_back(shutdown_speedup);
    if (thrash) {
      ++thrash_n;
      thrash_gain.push_back(shutdown_speedup);
      if (j["core-shutdown"]["l2_hit_rate"].get<double>() > j["baseline"]["l2_hit_rate"].get<double>()) ++l2_better;
      gap_cache += dvfs_energy - shutdown_energy;
      ++n_cache;
    } else {
      nonthrash_loss.push_back(shutdown_speedup);
      gap_other += dvfs_energy - shutdown_energy;
      ++n_other;
    }
  }
}

// C2 (each search against the launch's knee) and C3 (the static peak gain of cache-thrash launches).
void CoreShutdownAnalysis::collect_searches(const CoreShutdownApp& a, const Json& j,
                                            const std::vector<LaunchTrace>& lt) {
  const ClaimBook& book = config.claims;
  const Json& launches = j["core_shutdown_launches"];
  const bool thrash = a.cls.find("CACHE") != std::string::npos;
  for (size_t i = 0; i < lt.size() && i < launches.size(); ++i) {
    const Json& lj = launches[i];
    for (uint32_t s : lt[i].steps) steps_bad += s > book.limit("C2", "steps_max");
    if (thrash && lj.contains("static_peak_gain")) thrash_peak_gain.push_back(lj["static_peak_gain"].get<double>());
    if (a.memory && lt[i].searches == 1 && lt[i].drifts == 0 && lj.contains("knee_sms") && !lt[i].settles.empty()) {
      ++knee_n;
      int off_by = int(lt[i].settles[0]) - lj["knee_sms"].get<int>();
      knee_ok += std::abs(off_by) <= book.limit("C2", "knee_within_sms");
      knee_detail += a.name + (lt.size() > 1 ? "/" + lt[i].kernel + "#" + std::to_string(lt[i].launch) : "") + " " +
                     std::to_string(lt[i].settles[0]) + " vs " + std::to_string(lj["knee_sms"].get<int>()) + "; ";
    }
  }
}

// C8: a memory-intensive program's memory-bound launches (baseline MBU above the class rule's
// mbu_min; its compute launches rightly keep every SM) and those of them that end gated.
void CoreShutdownAnalysis::collect_search_ends(const CoreShutdownApp& a, const std::vector<LaunchTrace>& lt) {
  if (!a.memory) return;
  const ReportView base = reports[core_shutdown_run_id(a, "baseline")];
  size_t bound = 0, gated = 0;
  for (size_t i = 0; i < lt.size() && i < base.kernel_count(); ++i) {
    if (base.kernel(i).dram_utilisation() <= config.classification.mbu_min) continue;
    ++bound;
    gated += lt[i].ended && lt[i].final_sms < n_sms;
  }
  ++mem_programs;
  mem_programs_gated += bound > 0 && gated == bound;
  gated_detail += a.name + " " + std::to_string(gated) + "/" + std::to_string(bound) + "; ";
}

// Leakage vs gated SMs (C5), over the static SM sweep: SM leakage power saved
// against the fraction of SMs gated.
void CoreShutdownAnalysis::collect_leakage(const CoreShutdownApp& a, const Json& oj) {
  const IntervalView base = reports[core_shutdown_run_id(a, "baseline")].total();
  double base_leakage_w = base.energy_of_component("sm_leakage") / base.sim_time_s();
  if (oj.contains("oracle-sm"))
    for (const Json& p : oj["oracle-sm"]["sweep"]) {
      double sms = std::stod(p["point"].get<std::string>().substr(4));
      double leakage_w = p["sm_leakage_j"].get<double>() / p["time_s"].get<double>();
      leak_vs_gated.push_back({1.0 - sms / n_sms, 1.0 - leakage_w / base_leakage_w});
    }
}

// C7: the settled SM counts of launches of the same kernel.
void CoreShutdownAnalysis::collect_invocations(const CoreShutdownApp& a, const std::vector<LaunchTrace>& lt) {
  const ClaimBook& book = config.claims;
  std::map<std::string, std::vector<uint32_t>> per_kernel;
  for (const auto& l : lt)
    if (!l.settles.empty()) per_kernel[l.kernel].push_back(l.settles.back());
  for (auto& [k, v] : per_kernel) {
    if (v.size() < 2) continue;
    uint32_t lo = *std::min_element(v.begin(), v.end()), hi = *std::max_element(v.begin(), v.end());
    std::string s = k + " {";
    for (size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + std::to_string(v[i]);
    s += "}";
    if (a.cls.find("PHASE") != std::string::npos && k.find("k2") == std::string::npos) {
      phase_varies |= hi - lo >= book.limit("C7", "phase_span_min");
      phase_detail += s + " ";
    } else {
      stable_ok &= hi - lo <= book.limit("C7", "stable_span_max");
      stable_detail += s + " ";
    }
  }
}

}  // namespace gpupm
