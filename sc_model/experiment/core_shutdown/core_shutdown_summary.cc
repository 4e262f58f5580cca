// The core shut-down summary: summary.json (per application, averages, claims)
// and summary.md (per-application table, averages, the claims of docs/papers.md#core-shutdown-claims).
#include "experiment/core_shutdown/core_shutdown_analysis.h"

#include "experiment/format_stats.h"

#include <sstream>

namespace gpupm {

namespace {

std::string app_row(const CoreShutdownAnalysis& a, const CoreShutdownApp& app) {
  const Json& j = a.apps[app.name];
  std::ostringstream row;
  row << "| " << app.name << " | " << app.cls << " | " << fixed(j["baseline"]["time_s"].get<double>() * 1e6, 0)
      << " | " << fixed(j["baseline"]["mbu"].get<double>(), 2) << " | " << pct(j["core-shutdown"]["speedup"]) << " | "
      << pct(j["core-shutdown"]["energy"]) << " | " << pct(j["core-dvfs"]["speedup"].get<double>()) << " | "
      << pct(j["core-dvfs"]["energy"]) << " | ";
  for (const OracleSpace& o : a.config.oracles) {
    const Json& oj = j["oracles"][o.name];
    row << oj["best"].get<std::string>() << ": " << pct(oj["speedup"].get<double>()) << " / "
        << pct(oj["energy"].get<double>()) << " | ";
  }
  std::string finals;
  for (const Json& l : j["core_shutdown_launches"])
    finals += (finals.empty() ? "" : " ") + std::to_string(l["final_sms"].get<uint32_t>());
  row << finals << " | " << fixed(j["core_shutdown_mean_active_sms"].get<double>(), 1) << " |\n";
  return row.str();
}

std::string apps_md(const CoreShutdownAnalysis& a) {
  std::ostringstream md;
  md << "| app | class | base us | MBU | core shut-down perf | energy | core DVFS perf | energy |";
  for (const OracleSpace& o : a.config.oracles) md << " " << o.name << " (best: perf / energy) |";
  md << " final SMs per launch | mean active SMs |\n|---|---|---|---|---|---|---|---|";
  for (size_t i = 0; i < a.config.oracles.size(); ++i) md << "---|";
  md << "---|---|\n";
  for (const CoreShutdownApp& app : a.config.apps) md << app_row(a, app);
  return md.str();
}

}  // namespace

ExperimentSummary CoreShutdown::analyse(const CoreShutdownConfig& c, const RunReports& reports,
                                        const std::vector<ExperimentRuns>& stages) {
  const CoreShutdownAnalysis a(c, reports);
  const std::vector<Claim> claims = judge_core_shutdown_claims(a);
  const double cs = mean(a.mem_saving_cs), dvfs = mean(a.mem_saving_dvfs), oracle = mean(a.mem_saving_oracle);
  ExperimentSummary s;
  s.json = summary_header("core-shutdown", stages.front());
  s.json.update({{"policy_params", c.policy_params},
                 {"sms", a.n_sms},
                 {"apps", a.apps},
                 {"averages",
                  {{"memory_intensive_energy_saving", {{"core-shutdown", cs}, {"core-dvfs", dvfs}, {"oracle-sm", oracle}}},
                   {"memory_intensive_speedup_geomean", geomean(a.cs_speed_mem)}}},
                 {"claims", claims_json(claims)}});
  std::ostringstream md;
  md << "# Core shut-down on gpupm\n\n" << runs_sentence(stages.front())
     << " 32-SM GTX480-like GPU (`configs/gpu/gtx480_32sm.json`), suite "
     << "`configs/workloads/core_shutdown/`, IPC margin alpha = " << fixed(a.alpha, 2)
     << ". Speed-up and energy are relative to the baseline (all SMs, top V/F state).\n\n"
     << "## Per application\n\n" << apps_md(a)
     << "\nMemory-intensive applications, mean energy saving: core shut-down " << fixed(cs * 100, 1) << "%, core DVFS "
     << fixed(dvfs * 100, 1) << "%, oracle-sm " << fixed(oracle * 100, 1)
     << "% (paper: 21%, 9%, within 8%). Geomean speed-up of core shut-down on them: " << pct(geomean(a.cs_speed_mem))
     << ".\n\n## Claims (docs/papers.md#core-shutdown-claims)\n\n" << claims_markdown(claims)
     << "\nPlots: energy.png, speedup.png, sm_sweep.png, trace.png (scripts/plot_core_shutdown.py).\n";
  s.markdown = md.str();
  return s;
}

}  // namespace gpupm
