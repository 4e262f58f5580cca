// The core shut-down analysis on hand-made reports: ratios to the baseline, the
// oracle's pick, the launch knee from the static SM sweep, claims judged
// against the config's tolerances.
#include "gpupm/experiment/core_shutdown/core_shutdown.h"
#include "gpupm/common/data_dir.h"

#include "gpupm/experiment/analysis_test_support.h"

#include <gtest/gtest.h>

namespace gpupm {
namespace {

using analysis_test::claim;
using analysis_test::kOneStage;

// A report with what the core shut-down analysis reads: one launch (`launches` alike).
Json core_shutdown_report(double time_s, double energy_j, const Json& trace = Json(), int launches = 1) {
  Json total = {{"sim_time_s", time_s},
                {"energy_j", {{"total", energy_j}, {"by_component", {{"sm_leakage", 0.1 * time_s}}}}},
                {"ipc", 1.0},
                {"l2_hit_rate", 0.4},
                {"dram_bandwidth_utilisation", 0.7}};
  Json kernels = Json::array();
  for (int i = 0; i < launches; ++i)
    kernels.push_back({{"sim_time_s", time_s / launches}, {"dram_bandwidth_utilisation", 0.7}});
  Json r = {{"config", {{"gpu", {{"sm", {{"count", 32}}}}}}}, {"kernels", kernels}, {"total", total}};
  if (!trace.is_null()) r["policy_trace"] = trace;
  return r;
}

struct CoreShutdownRuns {
  CoreShutdownConfig config;
  RunReports reports;

  CoreShutdownRuns() {
    const std::string shipped = data_file("configs/experiments/core_shutdown.json");
    const CoreShutdownParams params = read_experiment_params<CoreShutdownParams>(shipped);
    config.claims = ClaimBook(params.claims);
    config.targets = claim_targets(params.targets);
    const Json space = {{"name", "oracle-sm"},
                        {"objective", {{"kind", "min_energy"}, {"max_loss", 0.02}}},
                        {"axes", {{"sms", {{"from", 16}, {"to", 32}, {"step", 16}}}}}};
    JsonReader o(space, "test", "oracle");
    config.oracles = {parse_oracle_space(o)};
    config.apps = {{"sp", "K-BW-sat", "", true, {}}};
    // The search settles on 16 SMs in 3 steps; at 16 SMs the launch takes as long as at 32.
    const Json trace =
        Json::array({{{"event", "sample"}, {"why", "launch"}, {"kernel", "k"}, {"launch", 0}, {"time_us", 0.0}},
                     {{"event", "search"}, {"time_us", 1.0}},
                     {{"event", "settle"}, {"setting", 16}, {"steps", 3}, {"time_us", 2.0}},
                     {{"event", "end"}, {"setting", 16}, {"time_us", 10.0}}});
    set_runs(trace, 0.8, 1.01e-5, 0.9);
  }

  // The application's five runs (in place of any before): core shut-down's with `trace`, each of
  // `launches` launches.
  void set_runs(const Json& trace, double shutdown_energy_j, double dvfs_time_s, double dvfs_energy_j,
                int launches = 1) {
    const CoreShutdownApp& a = config.apps.front();
    reports = RunReports();
    reports.add(core_shutdown_run_id(a, "baseline"), core_shutdown_report(1e-5, 1.0, Json(), launches));
    reports.add(core_shutdown_run_id(a, "core-shutdown"),
                core_shutdown_report(1e-5, shutdown_energy_j, trace, launches));
    reports.add(core_shutdown_run_id(a, "core-dvfs"),
                core_shutdown_report(dvfs_time_s, dvfs_energy_j, Json(), launches));
    reports.add(core_shutdown_run_id(a, "oracle-sm_sms-16"), core_shutdown_report(1e-5, 0.75, Json(), launches));
    reports.add(core_shutdown_run_id(a, "oracle-sm_sms-32"), core_shutdown_report(1e-5, 1.0, Json(), launches));
  }
};

}  // namespace

TEST(CoreShutdownAnalysis, RatiosOracleAndKnee) {
  CoreShutdownRuns s;
  ExperimentSummary out = CoreShutdown::analyse(s.config, s.reports, kOneStage);
  const Json& app = out.json["apps"]["sp"];
  EXPECT_NEAR(app["core-shutdown"]["energy"].get<double>(), 0.8, 1e-12);
  EXPECT_EQ(app["oracles"]["oracle-sm"]["best"], "sms=16");
  EXPECT_NEAR(app["oracles"]["oracle-sm"]["energy"].get<double>(), 0.75, 1e-12);
  const Json& launch = app["core_shutdown_launches"][0];
  EXPECT_EQ(launch["knee_sms"], 16);  // the fewest SMs within alpha of the best time
  EXPECT_EQ(launch["settles"], Json::array({16}));
  EXPECT_EQ(out.json["sms"], 32);
  EXPECT_NE(
      out.markdown.find("| sp | K-BW-sat | 10 | 0.70 | +0.0% | -20.0% | -1.0% | -10.0% | sms=16: +0.0% / -25.0% | "),
      std::string::npos)
      << out.markdown;
}

TEST(CoreShutdownAnalysis, ClaimsJudgedAgainstTheConfigTolerances) {
  CoreShutdownRuns s;
  Json summary = CoreShutdown::analyse(s.config, s.reports, kOneStage).json;
  EXPECT_EQ(claim(summary, "C1")["verdict"], "n/a");   // no compute application
  EXPECT_EQ(claim(summary, "C2")["verdict"], "pass");  // settled on the knee in 3 steps
  Json c4a = claim(summary, "C4a");
  EXPECT_EQ(c4a["measured"], "20.0% (max 20.0%)");
  EXPECT_EQ(c4a["verdict"], "pass");  // >= 15%
  EXPECT_EQ(c4a["tolerance"], ">= 15%");
  EXPECT_EQ(claim(summary, "C4b")["verdict"], "pass");                    // 5 points behind the oracle
  EXPECT_EQ(claim(summary, "C3")["claim"], "cache-thrash kernels gain");  // none in this suite
  Json c8 = claim(summary, "C8");                                         // the launch ends on 16 SMs
  EXPECT_EQ(c8["measured"], "1 of 1 programs; memory-bound launches ending below 32 SMs: sp 1/1");
  EXPECT_EQ(c8["verdict"], "pass");
  const Json& targets = summary["targets"];  // the shipped headline targets: the search's is the third
  ASSERT_EQ(targets.size(), 3u);
  EXPECT_EQ(targets[2]["measured"], "C8: " + c8["measured"].get<std::string>());
  EXPECT_EQ(targets[2]["pass"], true);
}

// A launch too short to search (the real suite's case): every claim still has its row, n/a where nothing
// could be judged, never left out.
TEST(CoreShutdownAnalysis, ClaimsWithNothingToJudgeAreListedNotApplicable) {
  CoreShutdownRuns s;
  const Json no_search = Json::array(
      {{{"event", "sample"}, {"why", "launch"}, {"kernel", "k"}, {"launch", 0}, {"setting", 32}, {"time_us", 0.0}},
       {{"event", "tail"}, {"setting", 32}, {"time_us", 0.5}},
       {{"event", "end"}, {"setting", 32}, {"time_us", 10.0}}});
  s.set_runs(no_search, 1.0, 1e-5, 1.0);
  Json summary = CoreShutdown::analyse(s.config, s.reports, kOneStage).json;
  for (const char* id : {"C2", "C5", "C7"}) EXPECT_EQ(claim(summary, id)["verdict"], "n/a") << id;
  EXPECT_EQ(claim(summary, "C4a")["verdict"], "fail");  // 0% saving
  // The search never ran: the memory-intensive program ends its launch on all SMs.
  EXPECT_EQ(claim(summary, "C8")["measured"], "0 of 1 programs; memory-bound launches ending below 32 SMs: sp 0/1");
  EXPECT_EQ(claim(summary, "C8")["verdict"], "fail");
}

// C8 asks every memory-bound launch to end gated: one of two launches settling back on all SMs fails it,
// and so does a launch whose trace was cut before its end (no setting to read).
TEST(CoreShutdownAnalysis, TheSearchRunsOnlyWhenEveryMemoryBoundLaunchEndsGated) {
  auto launch = [](int n, double t0, bool ended) {
    Json l = Json::array({{{"event", "sample"}, {"why", "launch"}, {"kernel", "k"}, {"launch", n}, {"time_us", t0}},
                          {{"event", "settle"}, {"setting", 16}, {"steps", 3}, {"time_us", t0 + 1}}});
    if (ended) l.push_back({{"event", "end"}, {"setting", n == 0 ? 16 : 32}, {"time_us", t0 + 4}});
    return l;
  };
  for (const bool second_ends : {true, false}) {
    CoreShutdownRuns s;
    Json trace = launch(0, 0.0, true);
    for (const Json& e : launch(1, 5.0, second_ends)) trace.push_back(e);
    s.set_runs(trace, 0.8, 1e-5, 0.9, 2);
    const Json c8 = claim(CoreShutdown::analyse(s.config, s.reports, kOneStage).json, "C8");
    EXPECT_EQ(c8["measured"], "0 of 1 programs; memory-bound launches ending below 32 SMs: sp 1/2") << second_ends;
    EXPECT_EQ(c8["verdict"], "fail") << second_ends;
  }
}

// A launch under the MBU rule is a compute launch: keeping every SM there is right, and C8 leaves it out;
// with no memory-intensive program at all C8 has nothing to judge.
TEST(CoreShutdownAnalysis, TheSearchClaimSkipsComputeLaunchesAndComputePrograms) {
  CoreShutdownRuns s;
  s.config.classification.mbu_min = 0.8;  // above the reports' 0.7: no launch is memory-bound
  EXPECT_EQ(claim(CoreShutdown::analyse(s.config, s.reports, kOneStage).json, "C8")["measured"],
            "0 of 1 programs; memory-bound launches ending below 32 SMs: sp 0/0");
  s.config.apps.front().memory = false;
  EXPECT_EQ(claim(CoreShutdown::analyse(s.config, s.reports, kOneStage).json, "C8")["verdict"], "n/a");
}

}  // namespace gpupm
