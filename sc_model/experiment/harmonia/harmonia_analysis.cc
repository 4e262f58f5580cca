#include "gpupm/experiment/harmonia/harmonia_analysis.h"

#include "gpupm/experiment/format_stats.h"

#include <algorithm>

namespace gpupm {

namespace {

// One outcome per launch of a run: (time, energy).
std::vector<Outcome> launches_of(const ReportView& run) {
  std::vector<Outcome> v;
  for (size_t i = 0; i < run.kernel_count(); ++i) v.push_back({run.kernel(i).sim_time_s(), run.kernel(i).energy_j()});
  return v;
}

double domain_power(const ReportView& run, const char* domain) {
  return run.total().energy_of_domain(domain) / run.sim_time_s();
}

Outcome outcome_of(const ReportView& run) { return {run.sim_time_s(), run.energy_j()}; }

}  // namespace

Json relative_to(const Outcome& o, const Outcome& base) {
  return Json{{"speedup", base.time / o.time},
              {"energy", o.energy / base.energy},
              {"ed2p", o.ed2p() / base.ed2p()},
              {"power", (o.energy / o.time) / (base.energy / base.time)}};
}

HarmoniaAnalysis::HarmoniaAnalysis(const HarmoniaConfig& c, const RunReports& r)
    : config(c),
      reports(r),
      points(c.oracle.points()),
      H(c.variants.front().name),
      stress_(c.stress_apps.begin(), c.stress_apps.end()) {
  for (const HarmoniaVariant& v : c.variants) names.push_back(v.name);
  names.push_back("oracle");
  names.push_back("static-oracle");
  for (const HarmoniaApp& a : c.apps) add_app(a);
  add_core_sweep();
}

double HarmoniaAnalysis::geomean_ed2p(const std::string& name) const { return geomean(values_at(ed2p, name)); }

void HarmoniaAnalysis::collect(const HarmoniaApp& a, const std::string& n, const Json& r) {
  ed2p[n].push_back(r["ed2p"].get<double>());
  energy[n].push_back(r["energy"].get<double>());
  speed[n].push_back(r["speedup"].get<double>());
  if (!stress_.count(a.name)) {
    speed2[n].push_back(r["speedup"].get<double>());
    ed2p2[n].push_back(r["ed2p"].get<double>());
  }
}

void HarmoniaAnalysis::add_app(const HarmoniaApp& a) {
  const ReportView base = reports[harmonia_run_id(a, "baseline")];
  const Outcome ob = outcome_of(base);
  Json j = {{"class", a.cls},
            {"baseline",
             {{"time_s", ob.time},
              {"energy_j", ob.energy},
              {"power_w", ob.energy / ob.time},
              {"l2_hit_rate", base.total().field(report_key::kL2HitRate)},
              {"dram_bandwidth_utilisation", base.total().field(report_key::kDramUtilisation)}}}};
  for (const HarmoniaVariant& v : config.variants) {
    Json r = variant_json(a, v, ob);
    collect(a, v.name, r);
    j[v.name] = r;
  }
  std::vector<OracleOutcome> whole;
  for (const OraclePoint& p : points)
    whole.push_back({reports.time(harmonia_run_id(a, point_run_name(config.oracle, p))),
                     reports.energy(harmonia_run_id(a, point_run_name(config.oracle, p)))});
  Json ro = oracle_json(a, ob);
  collect(a, "oracle", ro);
  j["oracle"] = ro;
  int sb = oracle_best(config.oracle.objective, {}, whole);
  Json rs = relative_to({whole[size_t(sb)].time_s, whole[size_t(sb)].energy_j}, ob);
  rs["point"] = point_label(points[size_t(sb)]);
  collect(a, "static-oracle", rs);
  j["static-oracle"] = rs;
  // Energy-optimal vs ED^2-optimal static points (claim 5).
  OracleObjective min_e{"max_perf_per_w", 0};
  int se = oracle_best(min_e, {}, whole);
  energy_opt[a.name] = {{"energy_optimal", point_label(points[size_t(se)])},
                        {"energy_optimal_slowdown", 1.0 - ob.time / whole[size_t(se)].time_s},
                        {"energy_optimal_energy", whole[size_t(se)].energy_j / ob.energy},
                        {"ed2p_optimal", rs["point"]},
                        {"ed2p_optimal_slowdown", 1.0 - rs["speedup"].get<double>()},
                        {"ed2p_optimal_energy", rs["energy"]}};
  Json sweep = Json::array();
  for (size_t i = 0; i < points.size(); ++i)
    sweep.push_back({{"point", point_label(points[i])}, {"time_s", whole[i].time_s}, {"energy_j", whole[i].energy_j}});
  j["static_grid"] = sweep;
  apps[a.name] = j;
}

Json HarmoniaAnalysis::variant_json(const HarmoniaApp& a, const HarmoniaVariant& v, const Outcome& ob) {
  const ReportView run = reports[harmonia_run_id(a, v.name)];
  Json r = relative_to(outcome_of(run), ob);
  std::map<std::string, KernelTrace> kt = read_harmonia_trace(run.policy_trace());
  Json final_cfg = Json::object();  // kernels run more than once (not the one-off init)
  for (const auto& [k, t] : kt)
    if (t.ran.size() > 1) final_cfg[k] = t.ran.back();
  r["final"] = final_cfg;
  r["residency"] = harmonia_residency(kt);
  if (v.name == H) {
    const ReportView base = reports[harmonia_run_id(a, "baseline")];
    sm_saving_w += domain_power(base, "sm") - domain_power(run, "sm");
    mem_saving_w += domain_power(base, "mem") - domain_power(run, "mem");
    add_convergence(kt, r);
  }
  return r;
}

// Invocations from the first one Harmonia acts on (after the warm-up ones) to
// the CG decision, then to the last change, of the paper's iterative kernels.
void HarmoniaAnalysis::add_convergence(const std::map<std::string, KernelTrace>& kt, Json& r) {
  Json conv = Json::object();
  for (const auto& [k, t] : kt) {
    if (t.ran.size() < 5 || t.first_cg < 0) continue;
    int warm = 0;
    while (warm < int(t.events.size()) && t.events[size_t(warm)] == "warmup") ++warm;
    int cg = t.first_cg + 1 - warm, fg = std::max(0, t.last_change - t.first_cg);
    cg_iters.push_back(cg);
    fg_iters.push_back(fg);
    conv[k] = {{"cg_iterations", cg}, {"fg_iterations", fg}, {"events", t.events}};
  }
  r["convergence"] = conv;
}

// The per-invocation oracle: each launch at its ED^2-optimal grid point, combined.
Json HarmoniaAnalysis::oracle_json(const HarmoniaApp& a, const Outcome& ob) const {
  std::vector<std::vector<Outcome>> per_point;  // [point][launch]
  for (const OraclePoint& p : points)
    per_point.push_back(launches_of(reports[harmonia_run_id(a, point_run_name(config.oracle, p))]));
  const size_t nl = per_point.front().size();
  Outcome ko;
  std::map<std::string, std::map<std::string, int>> picks;  // kernel -> point label -> launches
  const Json& kernels = reports[harmonia_run_id(a, "baseline")].kernels();
  for (size_t l = 0; l < nl; ++l) {
    std::vector<OracleOutcome> xs;
    for (const auto& pp : per_point) xs.push_back({pp[l].time, pp[l].energy});
    int b = oracle_best(config.oracle.objective, {}, xs);
    ko.time += xs[size_t(b)].time_s;
    ko.energy += xs[size_t(b)].energy_j;
    ++picks[kernels[l]["name"].get<std::string>()][point_label(points[size_t(b)])];
  }
  Json ro = relative_to(ko, ob);
  ro["picks"] = picks;
  return ro;
}

void HarmoniaAnalysis::add_core_sweep() {
  if (config.core_sweep_app.empty()) return;
  for (const HarmoniaApp& a : config.apps) {
    if (a.name != config.core_sweep_app) continue;
    for (const std::string& l : config.core_sweep_levels) {
      const IntervalView t = reports[harmonia_run_id(a, "core_" + l)].total();
      core_sweep.push_back({{"sm_level", l},
                            {"mhz", config.sm_mhz.count(l) ? config.sm_mhz.at(l) : 0.0},
                            {"time_s", t.field(report_key::kSimTime)},
                            {"time_s_l2_on_memory_clock", reports.time(harmonia_run_id(a, "core_l2mem_" + l))},
                            {"l2_hit_rate", t.field(report_key::kL2HitRate)},
                            {"dram_bandwidth_utilisation", t.field(report_key::kDramUtilisation)}});
    }
  }
}

}  // namespace gpupm
