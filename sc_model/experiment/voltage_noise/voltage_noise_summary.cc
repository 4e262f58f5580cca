// The voltage-noise summary: summary.json (per kernel, per design, guardband,
// packages, claims) and summary.md (Fig. 19 and 20 tables, packages, claims).
#include "gpupm/experiment/voltage_noise/voltage_noise_analysis.h"

#include "gpupm/experiment/format_stats.h"

#include <sstream>

namespace gpupm {

namespace {

const std::vector<const char*> kSmoothed = {"local", "global", "hierarchical"};

Json modes_json(const VoltageNoiseAnalysis& a) {
  Json modes = Json::object();
  for (const auto& [mode, sets] : voltage_noise_modes())
    modes[mode] = {{"worst_droop_reduction_geomean", a.reduction(mode)},
                   {"slowdown_geomean", a.slowdown(mode)},
                   {"emergencies", a.emergencies.at(mode)},
                   {"chip_worst_droop", a.chip_worst.at(mode)}};
  return modes;
}

std::string designs_md(const VoltageNoiseAnalysis& a) {
  std::ostringstream md;
  md << "| design | geomean worst-droop reduction | geomean slowdown | emergencies | chip worst |\n"
     << "|---|---|---|---|---|\n";
  for (const auto& [mode, sets] : voltage_noise_modes())
    md << "| " << mode << " | " << percent(a.reduction(mode)) << " | " << percent(a.slowdown(mode)) << " | "
       << fixed(a.emergencies.at(mode), 0) << " | " << percent(a.chip_worst.at(mode)) << " |\n";
  return md.str();
}

std::string kernels_md(const VoltageNoiseAnalysis& a) {
  std::ostringstream md;
  md << "| kernel | paper class | our class | baseline worst | local | global | hierarchical | "
        "local time | global time | hier. time | emergencies base / hier. "
        "|\n|---|---|---|---|---|---|---|---|---|---|---|\n";
  for (const VoltageNoiseKernel& k : a.config.kernels) {
    const Json& j = a.kernels[k.name];
    md << "| " << k.name << " | " << k.paper_class << " | " << j["measured_class"].get<std::string>() << " | "
       << percent(j["baseline"]["worst_droop"]) << " | ";
    for (const char* m : kSmoothed) md << percent(j[m]["worst_droop"]) << " (" << pct(j[m]["droop_ratio"]) << ") | ";
    for (const char* m : kSmoothed) md << pct(j[m]["time_ratio"]) << " | ";
    md << j["baseline"]["emergencies"].get<double>() << " / " << j["hierarchical"]["emergencies"].get<double>()
       << " |\n";
  }
  return md.str();
}

std::string guardband_md(const VoltageNoiseAnalysis& a) {
  if (a.energy.empty()) return "";
  const Json& e = a.energy;
  const Guardband& g = a.guardband;
  std::ostringstream md;
  md << "\n## Guardband and energy (Fig. 20)\n\nWorst case over the suite " << percent(e["worst_baseline"]) << " -> "
     << percent(e["worst_hierarchical"]) << ": the SM supply drops from " << fixed(g.v_nom, 2) << " V to "
     << fixed(g.v_new, 3)
     << " V (V x (1 - removed droop), docs/papers.md#voltage-noise-results). Hierarchical smoothing at that voltage "
        "against "
     << "the baseline at " << fixed(g.v_nom, 2) << " V: core (SM domain) energy "
     << percent(e["core_energy_saving_mean"]) << " saved, processor (SM + L2/NoC/MC) "
     << percent(e["processor_energy_saving_mean"]) << " saved (means), time " << pct(e["time_ratio_geomean"])
     << " (paper: 11.8% and 7.8%).\n";
  return md.str();
}

std::string packages_md(const Json& packages) {
  if (packages.empty()) return "";
  std::ostringstream md;
  md << "\n## Package sensitivity\n\n| package | worst baseline | worst hierarchical | worst-case reduction | mean "
        "reduction |\n|---|---|---|---|---|\n";
  for (auto& [name, p] : packages.items())
    md << "| " << name << " | " << percent(p["worst_baseline"]) << " | " << percent(p["worst_hierarchical"]) << " | "
       << percent(p["worst_case_reduction"]) << " | " << percent(p["mean_reduction"]) << " |\n";
  return md.str();
}

// Runs of stage 0 made with the controller blocks in lockstep (claim 24).
size_t lockstep_runs(const RunReports& reports, const ExperimentRuns& runs) {
  size_t n = 0;
  for (const RunOutcome& o : runs.outcomes) n += reports[o.id].controller_impl() == "lockstep";
  return n;
}

}  // namespace

ExperimentSummary VoltageNoise::analyse(const VoltageNoiseConfig& c, const RunReports& reports,
                                        const std::vector<ExperimentRuns>& stages) {
  const VoltageNoiseAnalysis a(c, reports);
  const ExperimentRuns& runs = stages.front();
  const size_t lowv_runs = stages.size() > 1 ? stages[1].outcomes.size() : 0;
  const std::vector<Claim> claims = judge_voltage_noise_claims(a, lockstep_runs(reports, runs));
  ExperimentSummary s;
  s.json = summary_header("voltage-noise", runs);
  s.json["runs"] = runs.outcomes.size() + lowv_runs;
  if (c.real) s.json["suite"] = "real";
  s.json.update({{"emergency_margin", c.margin},
                 {"kernels", a.kernels},
                 {"modes", modes_json(a)},
                 {"guardband", a.energy},
                 {"packages", a.packages},
                 {"targets", targets_json(c.targets, claims)},
                 {"claims", claims_json(claims)}});
  std::ostringstream md;
  md << "# Voltage noise on gpupm" << (c.real ? ": real programs" : "") << "\n\n"
     << runs_sentence(runs) << " Plus " << lowv_runs << " runs at the lowered supply. PDN "
     << "`" << c.pdn.substr(c.pdn.rfind('/') + 1) << "`, emergency margin " << percent(c.margin, 0)
     << ". Droop ratios and time ratios are relative to the same kernel without smoothing.\n\n"
     << (c.real ? "Each kernel is a whole program (its droop statistics are the run's). Its class is measured from "
                  "its baseline droops by the paper's rule (a kind > 60% of them, measured_droop_class in "
                  "voltage_noise_analysis.h); the paper class is the Fig. 6 class of the program it stands for.\n\n"
                : "")
     << "## Summary (Fig. 19)\n\n"
     << designs_md(a) << "\n## Per kernel\n\n"
     << kernels_md(a) << guardband_md(a) << packages_md(a.packages) << "\n## Targets\n\n"
     << targets_markdown(s.json["targets"]) << "\n## Claims (docs/papers.md#voltage-noise-claims)\n\n"
     << claims_markdown(claims)
     << "\nPlots: droop.png (Fig. 19a), time.png (Fig. 19b), packages.png (scripts/plot_voltage_noise.py).\n";
  s.markdown = md.str();
  return s;
}

}  // namespace gpupm
