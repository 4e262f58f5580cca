// The SM-allocation summary: summary.json (profiles, queues, pairs, the pairing
// model, averages, claims) and summary.md (applications, queues, rankings,
// pairing, the claims of docs/papers.md#sm-allocation-claims).
#include "gpupm/experiment/sm_allocation/sm_allocation_analysis.h"

#include "gpupm/experiment/format_stats.h"

#include <algorithm>
#include <sstream>

namespace gpupm {

namespace {

// Per application: its class and profile figures; the Markdown rows beside.
Json apps_json(const SmAllocationAnalysis& a) {
  Json apps = Json::object();
  for (const SmAllocationApp& app : a.config.used) {
    const AppProfile& p = a.profile(app.name);
    const ProfilePoint& full = p.points.back();
    apps[app.name] = {{"intended_class", app.cls},
                      {"class", p.cls},
                      {"opt", p.opt},
                      {"pow_ef_at_opt", p.at(p.opt).pow_ef},
                      {"full_gpu",
                       {{"ipc", full.ipc},
                        {"mbu", full.mbu},
                        {"l2_hit_rate", full.l2_hit_rate},
                        {"l2_l1_gbps", full.l2_l1_gbps},
                        {"mcr", full.mcr},
                        {"power_w", full.power_w}}}};
    if (a.config.real) apps[app.name].erase("intended_class");  // a program's class is only measured
  }
  return apps;
}

std::string apps_md(const SmAllocationAnalysis& a, int& class_match) {
  std::ostringstream md;
  for (const SmAllocationApp& app : a.config.used) {
    const AppProfile& p = a.profile(app.name);
    const ProfilePoint& full = p.points.back();
    const bool match = p.cls == app.cls || a.config.real;  // a real suite intends no class
    class_match += match;
    uint32_t best_ipc_n = p.points.front().n;
    for (const ProfilePoint& x : p.points)
      if (x.ipc > p.at(best_ipc_n).ipc) best_ipc_n = x.n;
    md << "| " << app.name << " | " << (a.config.real ? "-" : app.cls) << " | " << p.cls
       << (match ? "" : " (**differs**)") << " | " << fixed(full.mbu, 2) << " | " << fixed(full.l2_hit_rate, 2) << " | "
       << fixed(full.l2_l1_gbps, 0) << " | " << fixed(full.mcr, 3) << " | " << best_ipc_n << " | " << p.opt << " | "
       << fixed(p.at(p.opt).pow_ef * 1e3, 1) << " | " << fixed(full.pow_ef * 1e3, 1) << " |\n";
  }
  return md.str();
}

std::string queues_md(const SmAllocationAnalysis& a) {
  std::ostringstream md;
  md << "| queue | sm-allocation pairs (SMs) |";
  for (const std::string& l : a.labels)
    if (l != "baseline") md << " " << l << " |";
  md << "\n|---|---|";
  for (size_t i = 1; i < a.labels.size(); ++i) md << "---|";
  md << "\n";
  for (const SmAllocationQueue& q : a.config.queues) {
    const Json& qj = a.queues[q.name];
    md << "| " << q.name << " | ";
    for (const Json& p : qj["policies"]["sm-allocation"]["pairs"])
      md << p["pair"].get<std::string>() << " " << p["sms"][0].get<uint32_t>() << "/" << p["sms"][1].get<uint32_t>()
         << "; ";
    md << "|";
    for (const std::string& l : a.labels) {
      if (l == "baseline") continue;
      const Json& x = qj["policies"][l];
      md << " " << pct(x["throughput"].get<double>()) << " / " << pct(x["power"].get<double>()) << " / "
         << pct(x["efficiency"].get<double>()) << " / " << pct(x["energy"].get<double>()) << " |";
    }
    md << "\n";
  }
  md << "| **mean** | |";
  for (const std::string& l : a.labels) {
    if (l == "baseline") continue;
    md << " " << pct(a.avg(l, "throughput")) << " / " << pct(a.avg(l, "power")) << " / " << pct(a.avg(l, "efficiency"))
       << " / " << pct(a.avg(l, "energy")) << " |";
  }
  return md.str();
}

std::string rankings_md(const SmAllocationAnalysis& a) {
  std::ostringstream md;
  md << "\n\nBest throughput among the concurrent policies (queues):";
  for (const PolicyRun& p : sm_allocation_policies())
    if (p.ranked) md << " " << p.key << " " << a.averages[p.key]["best_throughput_queues"].get<int>() << ";";
  md << " best power efficiency:";
  for (const PolicyRun& p : sm_allocation_policies())
    if (p.ranked) md << " " << p.key << " " << a.averages[p.key]["best_efficiency_queues"].get<int>() << ";";
  const std::vector<double>& err = a.pairing_err;
  md << "\n\nPairing (sm-allocation, ilp-smra, perf-aging: exhaustive minimum predicted slowdown; even split and "
        "aging-power: first come, first served): the predicted pair slowdown at the even split is off by "
     << fixed(mean(err) * 100, 0) << "% on average (max "
     << fixed(err.empty() ? 0.0 : *std::max_element(err.begin(), err.end()) * 100, 0) << "%) against the " << err.size()
     << " even-split pair runs (`pairing_model` in summary.json). "
     << "With the even split's first come, first served pairs the partition alone (sm-allocation-fcfs) gives "
     << pct(a.avg("sm-allocation-fcfs", "throughput")) << " throughput and "
     << pct(a.avg("sm-allocation-fcfs", "efficiency"))
     << " power efficiency; the rest of sm-allocation's gain is the pairing's.";
  return md.str();
}

}  // namespace

ExperimentSummary SmAllocation::analyse(const SmAllocationConfig& c, const RunReports& reports,
                                        const std::vector<ExperimentRuns>& stages) {
  const SmAllocationAnalysis a(c, reports);
  const std::vector<Claim> claims = judge_sm_allocation_claims(a);
  const ExperimentRuns runs = all_stages(stages);
  const uint32_t K = c.sms;
  Json queue_order = Json::array();
  for (const SmAllocationQueue& q : c.queues) queue_order.push_back(q.name);
  ExperimentSummary s;
  s.json = summary_header("sm-allocation", runs);
  s.json.update({{"gpu", c.gpu_name},
                 {"sms", K},
                 {"step", c.step},
                 {"profiles", a.profiles_file.rel},
                 {"class_thresholds", class_thresholds_json(c.thresholds)},
                 {"policy_params", c.policy_params},
                 {"policies", a.labels},
                 {"apps", apps_json(a)},
                 {"queue_order", queue_order},
                 {"queues", a.queues},
                 {"pairs", a.pair_json},
                 {"pairing_model", a.pairing},
                 {"averages", a.averages},
                 {"targets", targets_json(c.targets, claims)},
                 {"claims", claims_json(claims)}});
  if (c.real) s.json["suite"] = "real";
  int class_match = 0;
  const std::string app_rows = apps_md(a, class_match);
  const ClassThresholds& t = c.thresholds;
  std::ostringstream md;
  md << "# Power-aware SM allocation on gpupm" << (c.real ? ": real programs" : "") << "\n\n"
     << runs_sentence(runs) << " " << K << "-SM GPU (`" << c.gpu_name << "`), profiles at n = " << c.step << ", "
     << 2 * c.step << ", ..., " << K << " SMs (`" << a.profiles_file.rel << "`), suite "
     << (c.real ? "of CUDA programs (`configs/experiments/sm_allocation_real.json`)"
                : "`configs/workloads/sm_allocation/`")
     << ". Each pair runs until its slower member finishes, the other "
        "re-spawned meanwhile; a queue's throughput is its instructions over its SM cycles (pairs one after another), "
        "its power the energy over the time. Ratios are against the even split (`baseline`, "
     << K / 2 << "/" << K - K / 2 << ").\n\n## Applications (profiles)\n\n"
     << "| app | intended class | class (on " << K
     << " SMs) | MBU | L2 hit | L2->L1 GB/s | MCR | best-IPC n | opt (best IPC/W) | "
        "IPC/W at opt (x1e3) | IPC/W at "
     << K << " |\n|---|---|---|---|---|---|---|---|---|---|---|\n"
     << app_rows << "\nClasses (on " << K << " SMs): A if MBU < " << fixed(t.active_mbu, 2) << " and L2->L1 < "
     << fixed(t.active_l2_l1_gbps, 0) << " GB/s; otherwise C if the L2 hit rate is >= " << fixed(t.cache_l2_hit, 2)
     << ", MC if >= " << fixed(t.mixed_l2_hit, 2) << ", else M. "
     << (c.real ? "Each program's class is measured by these rules, not assigned."
                : std::to_string(class_match) + "/" + std::to_string(c.used.size()) +
                      " applications land in their intended class.")
     << "\n\n## Queues (throughput / power / power efficiency / energy vs even split)\n\n"
     << queues_md(a) << rankings_md(a) << "\n\n## Targets\n\n"
     << targets_markdown(s.json["targets"]) << "\n## Claims (docs/papers.md#sm-allocation-claims)\n\n"
     << claims_markdown(claims)
     << "\nPlots: throughput.png, power.png, efficiency.png, energy.png, profiles.png "
        "(scripts/plot_sm_allocation.py).\n";
  s.markdown = md.str();
  return s;
}

}  // namespace gpupm
