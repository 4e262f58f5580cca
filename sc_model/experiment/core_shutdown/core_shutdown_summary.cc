// The core shut-down summary: summary.json (per application, averages, claims)
// and summary.md (per-application table, averages, the claims of docs/papers.md#core-shutdown-claims).
#include "gpupm/experiment/core_shutdown/core_shutdown_analysis.h"
#include "gpupm/experiment/core_shutdown/core_shutdown_real.h"

#include "gpupm/experiment/format_stats.h"

#include <sstream>

namespace gpupm {

namespace {

std::string app_row(const CoreShutdownAnalysis& a, const CoreShutdownApp& app) {
  const Json& j = a.apps[app.name];
  std::ostringstream row;
  row << "| " << app.name << " | " << app.cls << " | " << fixed(j["baseline"]["time_s"].get<double>() * 1e6, 0) << " | "
      << fixed(j["baseline"]["mbu"].get<double>(), 2) << " | " << pct(j["core-shutdown"]["speedup"]) << " | "
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

// A real suite's measured classes: per program its class, static best and per kernel time share and MBU.
std::string measured_md(const CoreShutdownConfig& c, const Json& programs) {
  std::ostringstream md;
  md << "## Measured classes\n\nEach program's class is measured from its runs "
     << "(sc_model/experiment/core_shutdown/core_shutdown_real.h): a kernel of at least "
     << fixed(c.classification.kernel_share_min * 100, 0)
     << "% of the baseline time is memory-intensive when its MBU > " << fixed(c.classification.mbu_min, 2)
     << "; K-CACHE-thrash: the fastest static SM count at least " << pct(c.classification.thrash_gain_min)
     << " in performance over all SMs, at a higher L2 hit rate; K-PHASE: a kernel's "
     << "per-launch static knees span >= " << c.classification.phase_knee_span
     << " SMs, over its launches in which the "
     << "policy sampled at least " << c.classification.phase_min_windows << " windows.\n\n"
     << "| program | class | fastest static point (perf vs 32 SMs, L2 hit vs baseline) | kernels (time share, MBU) |\n"
     << "|---|---|---|---|\n";
  for (const CoreShutdownApp& app : c.apps) {
    const Json& p = programs[app.name];
    md << "| " << app.name << " | " << p["class"].get<std::string>() << " | ";
    if (p.contains("static_best"))
      md << p["static_best"]["point"].get<std::string>() << ": " << pct(p["static_best"]["gain"]) << ", "
         << fixed(p["static_best"]["l2_hit_rate"].get<double>(), 2) << " vs "
         << fixed(p["static_best"]["baseline_l2_hit_rate"].get<double>(), 2);
    md << " |";
    for (auto k = p["kernels"].begin(); k != p["kernels"].end(); ++k)
      md << " " << k.key() << " (" << fixed(k.value()["time_share"].get<double>() * 100, 0) << "%, "
         << fixed(k.value()["mbu"].get<double>(), 2) << ")";
    md << " |\n";
  }
  return md.str() + "\n";
}

ExperimentSummary summarise(const CoreShutdownConfig& c, const RunReports& reports,
                            const std::vector<ExperimentRuns>& stages, const Json& programs) {
  const CoreShutdownAnalysis a(c, reports);
  const std::vector<Claim> claims = judge_core_shutdown_claims(a);
  const double shutdown = mean(a.mem_saving_shutdown), dvfs = mean(a.mem_saving_dvfs),
               oracle = mean(a.mem_saving_oracle);
  ExperimentSummary s;
  s.json = summary_header("core-shutdown", stages.front());
  s.json.update(
      {{"policy_params", c.policy_params},
       {"sms", a.n_sms},
       {"apps", a.apps},
       {"averages",
        {{"memory_intensive_energy_saving", {{"core-shutdown", shutdown}, {"core-dvfs", dvfs}, {"oracle-sm", oracle}}},
         {"memory_intensive_speedup_geomean", geomean(a.mem_speedup_shutdown)}}},
       {"targets", targets_json(c.targets, claims)},
       {"claims", claims_json(claims)}});
  if (c.real) s.json.update({{"suite", "real"}, {"programs", programs}});
  std::ostringstream md;
  md << "# Core shut-down on gpupm" << (c.real ? ": real programs" : "") << "\n\n"
     << runs_sentence(stages.front()) << " 32-SM GTX480-like GPU (`configs/gpu/gtx480_32sm.json`), suite "
     << (c.real ? "of CUDA programs (`configs/experiments/core_shutdown_real.json`)"
                : "`configs/workloads/core_shutdown/`")
     << ", IPC margin alpha = " << fixed(a.alpha, 2)
     << ". Speed-up and energy are relative to the baseline (all SMs, top V/F state).\n\n"
     << (c.real ? measured_md(c, programs) : "") << "## Per application\n\n"
     << apps_md(a) << "\nMemory-intensive applications, mean energy saving: core shut-down " << fixed(shutdown * 100, 1)
     << "%, core DVFS " << fixed(dvfs * 100, 1) << "%, oracle-sm " << fixed(oracle * 100, 1)
     << "% (paper: 21%, 9%, within 8%). Geomean speed-up of core shut-down on them: "
     << pct(geomean(a.mem_speedup_shutdown)) << ".\n\n## Targets\n\n"
     << targets_markdown(s.json["targets"]) << "\n## Claims (docs/papers.md#core-shutdown-claims)\n\n"
     << claims_markdown(claims)
     << "\nPlots: energy.png, speedup.png, sm_sweep.png, trace.png (scripts/plot_core_shutdown.py).\n";
  s.markdown = md.str();
  return s;
}

}  // namespace

ExperimentSummary CoreShutdown::analyse(const CoreShutdownConfig& c, const RunReports& reports,
                                        const std::vector<ExperimentRuns>& stages) {
  if (!c.real) return summarise(c, reports, stages, Json());
  const MeasuredClasses m = measure_core_shutdown_classes(c, reports);
  return summarise(m.config, reports, stages, m.programs);
}

}  // namespace gpupm
