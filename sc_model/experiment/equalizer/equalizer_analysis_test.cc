// Equalizer's analysis on hand-made reports: the numbers summary.json gives,
// claims judged against the config's tolerances, and the Markdown tables.
#include "gpupm/experiment/equalizer/equalizer.h"
#include "gpupm/common/data_dir.h"
#include "gpupm/experiment/equalizer/equalizer_analysis.h"
#include "gpupm/experiment/equalizer/equalizer_real.h"

#include "gpupm/experiment/analysis_test_support.h"

#include <gtest/gtest.h>

namespace gpupm {
namespace {

using analysis_test::claim;
using analysis_test::kOneStage;

// A report with what the Equalizer analysis reads.
Json equalizer_report(double time_s, double energy_j, const std::string& policy, double sm_high = 0.0,
                      double mem_high = 0.0) {
  Json total = {{"sim_time_s", time_s},
                {"energy_j", {{"total", energy_j}}},
                {"vf_residency", {{"sm", {{"high", sm_high}}}, {"mem", {{"high", mem_high}}}}},
                {"warp_states", {{"excess_alu", 9.0}, {"excess_mem", 3.0}, {"waiting", 1.0}, {"active", 4.0}}},
                {"l1_hit_rate", 0.5}};
  return {{"config", {{"policy", {{"name", policy}}}, {"gpu", {{"controller_impl", "cpp"}}}}},
          {"kernels", Json::array({{{"sim_time_s", time_s}}})},
          {"total", total}};
}

EqualizerKernel kernel(const std::string& name, const std::string& category) {
  EqualizerKernel k;
  k.name = name;
  k.category = category;
  k.w_cta = 8;
  k.max_ctas = 2;
  k.launches = 1;
  return k;
}

// Three kernels, one per category the static claims need; the speed-up of
// each policy over the baseline (time 1 s, energy 1 J) as given.
struct EqualizerRuns {
  EqualizerConfig config;
  RunReports reports;

  explicit EqualizerRuns(const std::string& shipped = data_file("configs/experiments/equalizer.json")) {
    config.kernels = {kernel("cutcp-1", "compute"), kernel("lbm-1", "memory"), kernel("kmn-1", "cache")};
    const EqualizerParams p = read_experiment_params<EqualizerParams>(shipped);
    config.claims = ClaimBook(p.claims);
    config.targets = p.targets;
    for (const EqualizerKernel& k : config.kernels) {
      for (const char* p : {"baseline", "sm-low", "mem-high", "mem-low", "equalizer-perf", "equalizer-energy"})
        reports.add(equalizer_run_id(k, p), equalizer_report(1.0, 1.0, p));
      reports.add(equalizer_run_id(k, "sm-high"), equalizer_report(1.0 / 1.02, 1.1, "sm-high"));
      for (const char* run : {"ctas1", "ctas2", "dyncta", "eqcta"})
        reports.add(equalizer_run_id(k, run), equalizer_report(1.0, 1.0, "static"));
    }
  }
  void speed_up(const std::string& kernel_name, const std::string& policy, double speedup, double energy = 1.0) {
    reports.add(kernel_name + "__" + policy, equalizer_report(1.0 / speedup, energy, policy));
  }
};

}  // namespace

TEST(EqualizerAnalysis, SpeedupsAndEnergiesAreRatiosToTheBaseline) {
  EqualizerRuns s;
  s.speed_up("cutcp-1", "equalizer-perf", 1.25, 1.5);
  ExperimentSummary out = Equalizer::analyse(s.config, s.reports, kOneStage);
  const Json& k = out.json["kernels"]["cutcp-1"];
  EXPECT_DOUBLE_EQ(k["speedup"]["equalizer-perf"].get<double>(), 1.25);
  EXPECT_DOUBLE_EQ(k["energy"]["equalizer-perf"].get<double>(), 1.5);
  EXPECT_EQ(k["baseline"]["time_s"], 1.0);
  EXPECT_EQ(k["best_static_ctas"], 1);
  // sm-low and mem-low save nothing here, so energy mode's static best is the baseline.
  EXPECT_EQ(k["static_best_energy_mode"], "baseline");
  EXPECT_NEAR(out.json["geomean_by_category"]["compute"]["equalizer-perf"]["speedup"].get<double>(), 1.25, 1e-12);
  EXPECT_EQ(out.json["geomean_by_category"]["all"]["baseline"]["n"], 3);
  EXPECT_NE(out.markdown.find("| compute | +2.0% | +10.0% | +0.0% | +0.0% | +25.0% | +50.0% |"), std::string::npos)
      << out.markdown;
  EXPECT_NE(out.markdown.find("| cutcp-1 | compute | +25.0% | +50.0% |"), std::string::npos);
  // The targets' words and limits come from the config: +7.7% (geomean over all three) misses +15%.
  const Json& speedup_target = out.json["targets"][0];
  EXPECT_EQ(speedup_target["target"], "performance mode: geomean speed-up >= +15% (paper +22%)");
  EXPECT_EQ(speedup_target["measured"], "+7.7%");
  EXPECT_EQ(speedup_target["pass"], false);
}

TEST(EqualizerAnalysis, StaticSensitivityClaimAgainstTheConfigTolerances) {
  EqualizerRuns s;
  s.speed_up("cutcp-1", "sm-high", 1.14);  // compute follows the clock, memory and cache +2%
  ExperimentSummary out = Equalizer::analyse(s.config, s.reports, kOneStage);
  Json s1 = claim(out.json, "S1");
  EXPECT_EQ(s1["verdict"], "pass");
  EXPECT_EQ(s1["measured"], "compute +14.0%, memory +2.0%, cache +2.0%");
  EXPECT_EQ(s1["tolerance"], "compute >= +10%, others < +5%");  // the shipped config's words
  EXPECT_EQ(s1["note"], "");

  s.speed_up("lbm-1", "sm-high", 1.08);  // memory speeds up beyond others_max
  Json failed = claim(Equalizer::analyse(s.config, s.reports, kOneStage).json, "S1");
  EXPECT_EQ(failed["verdict"], "fail");
  EXPECT_EQ(failed["note"], "see per-kernel table");
}

TEST(EqualizerAnalysis, LeftOutKernelsMakeTheirClaimsNotApplicable) {
  EqualizerRuns s;
  s.config.kernels.pop_back();  // no cache kernel (as with --only)
  ExperimentSummary out = Equalizer::analyse(s.config, s.reports, kOneStage);
  for (const char* id : {"S1", "S5", "P3", "E3", "D7"}) {
    Json c = claim(out.json, id);
    EXPECT_EQ(c["verdict"], "n/a") << id;
    EXPECT_EQ(c["note"], "not in this run (left out by --only, or no kernel of the suite stands for it)") << id;
  }
  EXPECT_FALSE(out.json["geomean_by_category"].contains("cache"));
  EXPECT_EQ(claim(out.json, "C4")["verdict"], "n/a");  // no run in lockstep
}

TEST(EqualizerAnalysis, LockstepRunsJudgeTheRtlClaim) {
  EqualizerRuns s;
  Json r = equalizer_report(1.0, 1.0, "equalizer-perf");
  r["config"]["gpu"]["controller_impl"] = "lockstep";
  s.reports.add("cutcp-1__equalizer-perf", r);
  Json c4 = claim(Equalizer::analyse(s.config, s.reports, kOneStage).json, "C4");
  EXPECT_EQ(c4["verdict"], "pass");
  EXPECT_EQ(c4["measured"], "1 Equalizer runs in lockstep, 0 mismatches");
}

// On the real suite the categories are measured by C1-C3's own bounds: the claims say so, not pass.
TEST(EqualizerAnalysis, RealSuiteCounterClaimsAreNotJudged) {
  EqualizerRuns s;
  s.config.real = true;
  const EqualizerAnalysis a(s.config, s.reports);
  const std::vector<Claim> claims = judge_equalizer_claims(a);
  for (const char* id : {"C1", "C2", "C3"}) {
    auto c = std::find_if(claims.begin(), claims.end(), [&](const Claim& x) { return x.id == id; });
    ASSERT_NE(c, claims.end()) << id;
    EXPECT_EQ(c->verdict, "n/a") << id;
    EXPECT_EQ(c->note.rfind("true by construction", 0), 0u) << id << ": " << c->note;
  }
}

// An epoch of an Equalizer trace: every SM at BLOCKS, nominal levels.
Json epoch(int blocks, bool launch_start = false) {
  Json e = {{"num_blocks", {blocks, blocks}}, {"sm_level", 1}, {"mem_level", 1}};
  if (launch_start) e[kLaunchStart] = true;
  return e;
}

// A real kernel's trace marks its launches (kernel_trace): the reload to the maximum at a launch
// start is no change of D1's, two changes within three epochs of one launch are (on each of the two SMs).
TEST(EqualizerAnalysis, HysteresisCheckSkipsTheReloadAtMarkedLaunchStarts) {
  EqualizerRuns s;
  Json r = equalizer_report(1.0, 1.0, "equalizer-perf");
  r["policy_trace"] = Json::array({epoch(6, true), epoch(5), epoch(5), epoch(6, true), epoch(5)});
  s.reports.add("cutcp-1__equalizer-perf", r);
  EXPECT_EQ(check_traces(EqualizerAnalysis(s.config, s.reports)).block_violations, 0);
  r["policy_trace"] = Json::array({epoch(6, true), epoch(5), epoch(4), epoch(6, true)});
  s.reports.add("cutcp-1__equalizer-perf", r);
  EXPECT_EQ(check_traces(EqualizerAnalysis(s.config, s.reports)).block_violations, 2);  // one per SM
}

}  // namespace gpupm
