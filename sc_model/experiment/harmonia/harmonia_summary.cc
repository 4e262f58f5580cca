// The Harmonia summary: summary.json (per application, averages per variant,
// static optima, core sweep, power saving, claims) and summary.md
// (per-application table with geomeans, the claims of docs/papers.md#harmonia-claims).
#include "gpupm/experiment/harmonia/harmonia_analysis.h"
#include "gpupm/experiment/harmonia/harmonia_real.h"

#include "gpupm/experiment/format_stats.h"

#include <algorithm>
#include <sstream>

namespace gpupm {

namespace {

Json averages_json(const HarmoniaAnalysis& a) {
  Json averages = Json::object();
  for (const std::string& n : a.names) {
    const std::vector<double>& speed = values_at(a.speed, n);
    averages[n] = {{"ed2p_geomean", geomean(values_at(a.ed2p, n))},
                   {"ed2p_geomean2", geomean(values_at(a.ed2p2, n))},
                   {"energy_geomean", geomean(values_at(a.energy, n))},
                   {"speedup_geomean", geomean(speed)},
                   {"speedup_geomean2", geomean(values_at(a.speed2, n))},
                   {"worst_speedup", *std::min_element(speed.begin(), speed.end())}};
  }
  return averages;
}

// "sms {8, 16, 32}", ...: the oracle grid's axes.
std::vector<std::string> oracle_axes(const OracleSpace& oracle) {
  std::vector<std::string> axes;
  for (const OracleAxis& ax : oracle.axes) {
    std::vector<std::string> vals;
    for (const Json& v : ax.values) vals.push_back(v.is_string() ? v.get<std::string>() : v.dump());
    axes.push_back(ax.param + " {" + join(vals) + "}");
  }
  return axes;
}

std::string apps_md(const HarmoniaAnalysis& a) {
  std::ostringstream md;
  md << "| app | class | base us |";
  for (const std::string& n : a.names) md << " " << n << " ED^2 / energy / perf |";
  md << " static-oracle point |\n|---|---|---|";
  for (size_t i = 0; i < a.names.size(); ++i) md << "---|";
  md << "---|\n";
  for (const HarmoniaApp& app : a.config.apps) {
    const Json& j = a.apps[app.name];
    md << "| " << app.name << " | " << app.cls << " | " << fixed(j["baseline"]["time_s"].get<double>() * 1e6, 0);
    for (const std::string& n : a.names)
      md << " | " << pct(j[n]["ed2p"].get<double>()) << " / " << pct(j[n]["energy"].get<double>()) << " / "
         << pct(j[n]["speedup"].get<double>());
    md << " | " << j["static-oracle"]["point"].get<std::string>() << " |\n";
  }
  md << "| **geomean** | | |";
  for (const std::string& n : a.names)
    md << " " << pct(geomean(values_at(a.ed2p, n))) << " / " << pct(geomean(values_at(a.energy, n))) << " / "
       << pct(geomean(values_at(a.speed, n))) << " |";
  md << " |\n| geomean2 (without " << join(a.config.stress_apps) << ") | | |";
  for (const std::string& n : a.names)
    md << " " << pct(geomean(values_at(a.ed2p2, n))) << " / | / " << pct(geomean(values_at(a.speed2, n))) << " |";
  md << " |\n";
  return md.str();
}

// A real suite's measured categories: per program its class, per kernel the predictor's and the grid's bins.
std::string programs_md(const Json& measured) {
  std::ostringstream md;
  md << "\n## Measured categories (harmonia_real.h)\n\n"
     << "| program | class | thrash gain | kernel | time share | predicted compute / bandwidth | grid compute / "
        "bandwidth |\n|---|---|---|---|---|---|---|\n";
  auto sens = [](const Json& s) {
    return s.is_null() ? std::string("-")
                       : fixed(s["comp"].get<double>(), 2) + " " + s["comp_bin"].get<std::string>() + " / " +
                             fixed(s["bw"].get<double>(), 2) + " " + s["bw_bin"].get<std::string>();
  };
  for (auto p = measured.begin(); p != measured.end(); ++p)
    for (auto k = p.value()["kernels"].begin(); k != p.value()["kernels"].end(); ++k) {
      const bool first = k == p.value()["kernels"].begin();
      md << "| " << (first ? p.key() : "") << " | " << (first ? p.value()["class"].get<std::string>() : "") << " | "
         << (first ? fixed(p.value()["thrash_gain"].get<double>(), 3) : "") << " | " << k.key() << " | "
         << percent(k.value()["time_share"].get<double>()) << " | " << sens(k.value()["predicted"]) << " | "
         << sens(k.value()["grid"]) << " |\n";
    }
  return md.str();
}

// The summary's first paragraph: the runs, GPU, suite and what the columns are.
std::string intro_md(const HarmoniaConfig& c, const ExperimentRuns& runs, const std::vector<std::string>& axes) {
  std::ostringstream md;
  md << "# Harmonia on gpupm" << (c.real ? ": real programs" : "") << "\n\n"
     << runs_sentence(runs) << " HD7970-like GPU (`configs/gpu/hd7970_like.json`), "
     << (c.real ? "programs `configs/workloads/cuda/harmonia/`" : "suite `configs/workloads/harmonia/`") << ". "
     << "Per application ED^2 / energy / performance relative to the baseline (boost clock, all CUs, top memory "
        "clock). "
     << "`oracle`: the ED^2-optimal static point per kernel invocation over the grid " << join(axes, " x ")
     << " (the paper's oracle, transitions free); `static-oracle`: the best single grid point per application.\n\n";
  if (c.real)
    md << "Each program's class is measured, not assigned: Table 3's sensitivity bins of its longest kernel from "
          "its counters at the top configuration, and the grid for THRASH "
          "(sc_model/experiment/harmonia/harmonia_real.h)."
          "\n\n";
  return md.str();
}

}  // namespace

ExperimentSummary Harmonia::analyse(const HarmoniaConfig& config, const RunReports& reports,
                                    const std::vector<ExperimentRuns>& stages) {
  const Json measured = config.real ? measure_harmonia_programs(config, reports) : Json();
  const HarmoniaConfig c = config.real ? with_measured_classes(config, measured) : config;
  const HarmoniaAnalysis a(c, reports);
  const std::vector<Claim> claims = judge_harmonia_claims(a);
  const std::vector<std::string> axes = oracle_axes(c.oracle);
  ExperimentSummary s;
  s.json = summary_header("harmonia", stages.front());
  if (c.real) s.json.update({{"suite", "real"}, {"programs", measured}});
  s.json.update({{"variants", a.names},
                 {"stress_apps", c.stress_apps},
                 {"oracle_grid", axes},
                 {"apps", a.apps},
                 {"averages", averages_json(a)},
                 {"static_optima", a.energy_opt},
                 {"core_sweep", a.core_sweep},
                 {"power_saving_w", {{"cu_domain", a.sm_saving_w}, {"memory_side", a.mem_saving_w}}},
                 {"targets", targets_json(c.targets, claims)},
                 {"claims", claims_json(claims)}});
  std::ostringstream md;
  md << intro_md(c, stages.front(), axes) << apps_md(a) << (c.real ? programs_md(measured) : "") << "\n## Targets\n\n"
     << targets_markdown(s.json["targets"]) << "\n## Claims (docs/papers.md#harmonia-claims)\n\n"
     << claims_markdown(claims)
     << "\nPlots: ed2p.png, energy.png, perf.png, residency.png, core_sweep.png (scripts/plot_harmonia.py).\n";
  s.markdown = md.str();
  return s;
}

}  // namespace gpupm
