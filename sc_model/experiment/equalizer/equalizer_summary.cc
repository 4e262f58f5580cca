// The Equalizer summary: summary.json (per kernel, geomeans by category,
// targets, claims) and summary.md (the paper's Fig. 7 and 8 tables, targets,
// claims, per kernel).
#include "gpupm/experiment/equalizer/equalizer_analysis.h"

#include "gpupm/experiment/equalizer/equalizer_real.h"
#include "gpupm/experiment/format_stats.h"

#include <sstream>

namespace gpupm {

namespace {

const std::vector<const char*> kCategoryRows = {"compute", "memory", "cache", "unsaturated", "all"};

// The targets for the whole suite (performance and energy mode); words and limits from the config.
Json targets(const EqualizerAnalysis& a) {
  const std::map<std::string, EqualizerTarget>& t = a.config.targets;
  auto target = [&](const char* key, bool ok, const std::string& measured) {
    return Json{{"target", t.at(key).text}, {"measured", measured}, {"pass", ok}};
  };
  // Whole-suite geomeans over the baseline: each Equalizer mode's and each static policy's.
  auto speedup = [&](const char* policy) { return a.geomean_speedup("all", policy); };
  auto energy = [&](const char* policy) { return a.geomean_energy("all", policy); };
  double perf_speedup = speedup("equalizer-perf"), perf_energy = energy("equalizer-perf");
  double saver_speedup = speedup("equalizer-energy"), saver_energy = energy("equalizer-energy");
  return Json::array(
      {target("perf_speedup", perf_speedup >= t.at("perf_speedup").limit, pct(perf_speedup)),
       target("perf_energy", perf_energy <= t.at("perf_energy").limit, pct(perf_energy)),
       target("perf_vs_static",
              perf_speedup > speedup("sm-high") && perf_speedup > speedup("mem-high") &&
                  perf_energy < energy("sm-high") && perf_energy < energy("mem-high"),
              "see overall table"),
       target("energy_saving", saver_energy <= t.at("energy_saving").limit, pct(saver_energy)),
       target("energy_perf", saver_speedup >= t.at("energy_perf").limit, pct(saver_speedup)),
       target("energy_vs_static_best", saver_energy < energy("static-best") && saver_speedup >= speedup("static-best"),
              pct(saver_energy) + " vs " + pct(energy("static-best")))});
}

Json geomean_by_category(const EqualizerAnalysis& a) {
  Json cats = Json::object();
  for (const char* cat : kCategoryRows) {
    if (!a.has_cat(cat)) continue;
    Json row = Json::object();
    for (auto& [p, v] : a.speed.at(cat))
      row[p] = {{"speedup", geomean(v)}, {"energy", geomean(a.energy.at(cat).at(p))}, {"n", v.size()}};
    cats[cat] = row;
  }
  return cats;
}

std::string table_md(const EqualizerAnalysis& a, const std::vector<std::string>& cols) {
  std::ostringstream md;
  md << "| category |";
  for (const auto& p : cols) md << " " << p << " speed-up | " << p << " energy |";
  md << "\n|---|";
  for (size_t i = 0; i < cols.size(); ++i) md << "---|---|";
  md << "\n";
  for (const char* cat : kCategoryRows) {
    if (!a.has_cat(cat)) continue;
    md << "| " << cat << " |";
    for (const auto& p : cols)
      md << " " << pct(a.geomean_speedup(cat, p)) << " | " << pct(a.geomean_energy(cat, p)) << " |";
    md << "\n";
  }
  return md.str();
}

std::string per_kernel_md(const EqualizerAnalysis& a) {
  std::ostringstream md;
  md << "| kernel | category | eq-perf | eq-perf energy | eq-energy | eq-energy energy | SM-high | mem-high | best "
        "CTAs / max |\n"
     << "|---|---|---|---|---|---|---|---|---|\n";
  for (const EqualizerKernel& k : a.config.kernels) {
    const Json& j = a.kernels[k.name];
    md << "| " << k.name << " | " << k.category << " | " << pct(j["speedup"]["equalizer-perf"]) << " | "
       << pct(j["energy"]["equalizer-perf"]) << " | " << pct(j["speedup"]["equalizer-energy"]) << " | "
       << pct(j["energy"]["equalizer-energy"]) << " | " << pct(j["speedup"]["sm-high"]) << " | "
       << pct(j["speedup"]["mem-high"]) << " | " << j["best_static_ctas"].get<int>() << " / " << k.max_ctas << " |\n";
  }
  return md.str();
}

// The summary of the analysis' kernels; MEASURED (real suite: the programs'
// measured kernel categories) labels it with the suite, null for the synthetic one.
ExperimentSummary summarise(const EqualizerConfig& c, const RunReports& reports, const ExperimentRuns& runs,
                            const Json& measured) {
  const EqualizerAnalysis a(c, reports);
  const std::vector<Claim> claims = judge_equalizer_claims(a);
  ExperimentSummary s;
  s.json = summary_header("equalizer", runs);
  if (!measured.is_null()) s.json.update({{"suite", "real"}, {"programs", measured}});
  s.json["kernels"] = a.kernels;
  s.json["geomean_by_category"] = geomean_by_category(a);
  s.json["targets"] = targets(a);
  s.json["claims"] = claims_json(claims);
  std::ostringstream md;
  md << "# Equalizer on gpupm" << (measured.is_null() ? "" : ": real programs") << "\n\n"
     << runs_sentence(runs) << " Speed-up and energy are geometric means relative to the baseline.\n\n";
  if (!measured.is_null())
    md << "Each kernel's category is measured from its baseline counters by the paper's rule "
          "(sc_model/experiment/equalizer/equalizer_real.h), not assigned.\n\n";
  md << "## Performance mode (paper Fig. 7)\n\n"
     << table_md(a, {"sm-high", "mem-high", "equalizer-perf"}) << "\n## Energy mode (paper Fig. 8)\n\n"
     << table_md(a, {"sm-low", "mem-low", "static-best", "equalizer-energy"}) << "\n## Targets\n\n"
     << targets_markdown(s.json["targets"]) << "\n## Claims (docs/papers.md#equalizer-claims)\n\n"
     << claims_markdown(claims) << "\n## Per kernel\n\n"
     << per_kernel_md(a) << "\nPlots: speedup.png, energy.png, residency.png (scripts/plot_equalizer.py).\n";
  s.markdown = md.str();
  return s;
}

}  // namespace

ExperimentSummary Equalizer::analyse(const EqualizerConfig& c, const RunReports& reports,
                                     const std::vector<ExperimentRuns>& stages) {
  if (!c.real) return summarise(c, reports, stages.front(), Json());
  const ProgramKernels kernels = split_program_kernels(c, reports);
  return summarise(kernels.config, kernels.reports, all_stages(stages), kernels.measured);
}

}  // namespace gpupm
