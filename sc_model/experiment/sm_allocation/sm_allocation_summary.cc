// The SM-allocation summary: summary.json (profiles, queues, pairs, the pairing
// model, averages, claims) and summary.md (applications, queues, rankings,
// pairing, the claims of docs/papers.md#sm-allocation-claims).
#include "gpupm/experiment/sm_allocation/sm_allocation_analysis.h"

#include "gpupm/experiment/format_stats.h"

#include <algorithm>
#include <optional>
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

std::string apps_header_md(uint32_t sms) {
  return "| app | intended class | class (on " + std::to_string(sms) +
         " SMs) | MBU | L2 hit | L2->L1 GB/s | MCR | best-IPC n | opt (best IPC/W) | IPC/W at opt (x1e3) | IPC/W at " +
         std::to_string(sms) + " |\n|---|---|---|---|---|---|---|---|---|---|---|\n";
}

std::string queues_md(const SmAllocationAnalysis& a) {
  std::ostringstream md;
  md << "| queue | sm-allocation pairs (SMs) |";
  for (const std::string& l : a.labels)
    if (l != "baseline") md << " " << l << " |";
  md << "\n|---|---|";
  for (size_t i = 1; i < a.labels.size(); ++i) md << "---|";
  md << "\n";
  for (const SmAllocationQueue& q : a.queues_run()) {
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

// What summary.json holds per GPU (the config's gpu at its top, pascal_gpu under "pascal").
Json gpu_json(const SmAllocationAnalysis& a) {
  Json queue_order = Json::array();
  for (const SmAllocationQueue& q : a.queues_run()) queue_order.push_back(q.name);
  return {{"gpu", a.config.gpu_name},   {"sms", a.config.sms},
          {"step", a.config.step},      {"profiles", a.profiles_file.rel},
          {"apps", apps_json(a)},       {"queue_order", queue_order},
          {"queues", a.queues},         {"pairs", a.pair_json},
          {"pairing_model", a.pairing}, {"averages", a.averages}};
}

// The queues as run, each with what it is made of; those the measured classes could not fill.
std::string queue_list_md(const SmAllocationAnalysis& a) {
  std::ostringstream md;
  for (const SmAllocationQueue& q : a.queues_run()) {
    md << "- **" << q.name << "**" << (q.kind.empty() ? "" : " (" + q.kind + ")") << ":";
    for (const std::string& app : q.apps) md << " " << app;
    md << "\n";
  }
  for (const std::string& why : a.built.unbuilt) md << "- not built: " << why << "\n";
  return md.str();
}

// The paper's results table (docs/papers.md#sm-allocation-results): sm-allocation against
// each policy, each figure given for one of its two GPUs; ours on both.
struct PaperFigure {
  const char* against;  // a policy key
  const char* metric;   // an averages key
  const char* fermi;
  const char* pascal;
};
const PaperFigure kPaperFigures[] = {
    {"baseline", "throughput", "+25%", "-"},    {"baseline", "power", "+11%", "-"},
    {"baseline", "efficiency", "-", "+11%"},    {"baseline", "energy", "-", "-9%"},
    {"ilp-smra", "throughput", "+18%", "-"},    {"ilp-smra", "power", "about +3%", "-10%"},
    {"ilp-smra", "efficiency", "+16%", "-"},    {"ilp-smra", "energy", "-", "-8%"},
    {"aging-power", "throughput", "-", "+16%"}, {"aging-power", "power", "+4.5%", "-"},
    {"aging-power", "efficiency", "-", "+18%"}, {"aging-power", "energy", "-14%", "-"},
    {"perf-aging", "throughput", "-", "+3%"},   {"perf-aging", "power", "-", "-7%"},
    {"perf-aging", "efficiency", "+12%", "-"},  {"perf-aging", "energy", "-11%", "-"},
};

// sm-allocation's mean METRIC over AGAINST's (both as ratios to the even split).
double against(const SmAllocationAnalysis& a, const char* policy, const char* metric) {
  return a.avg("sm-allocation", metric) / a.avg(policy, metric);
}

std::string queues_best(const SmAllocationAnalysis& a, const char* key) {
  return std::to_string(a.averages["sm-allocation"][key].get<int>()) + "/" + std::to_string(a.queues_run().size());
}

std::string two_gpus_md(const SmAllocationAnalysis& a, const SmAllocationAnalysis& pascal, Json& rows) {
  std::ostringstream md;
  md << "| sm-allocation against | metric (mean) | paper, Fermi | gpupm, " << a.config.gpu_name
     << " | paper, Pascal | gpupm, " << pascal.config.gpu_name << " |\n|---|---|---|---|---|---|\n";
  for (const PaperFigure& f : kPaperFigures) {
    const double ours = against(a, f.against, f.metric), theirs = against(pascal, f.against, f.metric);
    md << "| " << f.against << " | " << f.metric << " | " << f.fermi << " | " << pct(ours) << " | " << f.pascal << " | "
       << pct(theirs) << " |\n";
    rows.push_back({{"against", f.against},
                    {"metric", f.metric},
                    {"paper_fermi", f.fermi},
                    {"paper_pascal", f.pascal},
                    {"gpu", ours - 1.0},
                    {"pascal_gpu", theirs - 1.0}});
  }
  md << "| (best among the concurrent policies) | throughput, queues | 7/9 | "
     << queues_best(a, "best_throughput_queues") << " | 5/9 | " << queues_best(pascal, "best_throughput_queues")
     << " |\n"
     << "| | power efficiency, queues | 7/9 | " << queues_best(a, "best_efficiency_queues") << " | 6/9 | "
     << queues_best(pascal, "best_efficiency_queues") << " |\n";
  return md.str();
}

// summary.md's part on `pascal_gpu`: its profiles and queues, and both GPUs beside the paper's columns.
std::string pascal_md(const SmAllocationAnalysis& a, const SmAllocationAnalysis& pascal, Json& rows) {
  int class_match = 0;
  const uint32_t K = pascal.config.sms;
  std::ostringstream md;
  md << "\n## The second GPU: " << pascal.config.gpu_name << " (`pascal_gpu`)\n\n"
     << "The same queues (built from the first GPU's classes), profiles at n = " << pascal.config.step << ", ..., " << K
     << " SMs (`" << pascal.profiles_file.rel << "`), the even split " << K / 2 << "/" << K - K / 2 << ".\n\n"
     << apps_header_md(K) << apps_md(pascal, class_match) << "\n"
     << queues_md(pascal) << rankings_md(pascal) << "\n\n## Both GPUs beside the paper's columns\n\n"
     << "Each figure is sm-allocation's mean ratio to the even split over the other policy's (as C2 computes it); "
        "the paper gives each for one of its GPUs.\n\n"
     << two_gpus_md(a, pascal, rows);
  return md.str();
}

}  // namespace

ExperimentSummary SmAllocation::analyse(const SmAllocationConfig& c, const RunReports& reports,
                                        const std::vector<ExperimentRuns>& stages) {
  const SmAllocationAnalysis a(c, reports);
  const BuiltQueues& built = a.built;
  std::optional<SmAllocationAnalysis> pascal;
  if (c.pascal) pascal.emplace(*c.pascal, reports, &built);
  const std::vector<Claim> claims = judge_sm_allocation_claims(a, pascal ? &*pascal : nullptr);
  const ExperimentRuns runs = all_stages(stages);
  const uint32_t K = c.sms;
  ExperimentSummary s;
  s.json = summary_header("sm-allocation", runs);
  s.json.update(gpu_json(a));
  s.json.update({{"class_thresholds", class_thresholds_json(c.thresholds)},
                 {"policy_params", c.policy_params},
                 {"policies", a.labels},
                 {"targets", targets_json(c.targets, claims)},
                 {"claims", claims_json(claims)}});
  if (!built.unbuilt.empty()) s.json["unbuilt_queues"] = built.unbuilt;
  if (c.real) s.json["suite"] = "real";
  Json paper_columns = Json::array();
  const std::string second = pascal ? pascal_md(a, *pascal, paper_columns) : std::string();
  if (pascal) {
    s.json["pascal"] = gpu_json(*pascal);
    s.json["paper_columns"] = paper_columns;
  }
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
        "its power the energy over the time, its energy that of its own work (its programs once each, "
        "as the sequential run does it: the runs' energy per instruction times those instructions). Ratios are "
        "against the even split (`baseline`, "
     << K / 2 << "/" << K - K / 2 << ").\n\n## Applications (profiles)\n\n"
     << apps_header_md(K) << app_rows << "\nClasses (on " << K << " SMs): A if MBU < " << fixed(t.active_mbu, 2)
     << " and L2->L1 < " << fixed(t.active_l2_l1_gbps, 0)
     << " GB/s; otherwise C if the L2 hit rate is >= " << fixed(t.cache_l2_hit, 2)
     << ", MC if >= " << fixed(t.mixed_l2_hit, 2) << ", else M. "
     << (c.real ? "Each program's class is measured by these rules, not assigned."
                : std::to_string(class_match) + "/" + std::to_string(c.used.size()) +
                      " applications land in their intended class.")
     << "\n\n## Queues (throughput / power / power efficiency / energy vs even split)\n\n"
     << queue_list_md(a) << "\n"
     << queues_md(a) << rankings_md(a) << second << "\n\n## Targets\n\n"
     << targets_markdown(s.json["targets"]) << "\n## Claims (docs/papers.md#sm-allocation-claims)\n\n"
     << claims_markdown(claims) << "\nPlots: throughput.png, power.png, efficiency.png, energy.png, profiles.png"
     << (pascal ? " (the second GPU's: pascal_*.png)" : "") << " (scripts/plot_sm_allocation.py).\n";
  s.markdown = md.str();
  return s;
}

}  // namespace gpupm
