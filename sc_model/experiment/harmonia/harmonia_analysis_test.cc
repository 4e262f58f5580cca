// The Harmonia analysis on hand-made reports: ED^2, energy and performance
// against the baseline, the per-invocation and static oracles, claims judged
// against the config's tolerances.
#include "gpupm/experiment/harmonia/harmonia.h"
#include "gpupm/common/data_dir.h"

#include "gpupm/experiment/analysis_test_support.h"

#include <gtest/gtest.h>

namespace gpupm {
namespace {

using analysis_test::claim;
using analysis_test::kOneStage;

// A report with what the Harmonia analysis reads: one launch of kernel "k".
Json harmonia_report(double time_s, double energy_j, const Json& trace = Json()) {
  Json energy = {{"total", energy_j}, {"by_domain", {{"sm", 0.6 * energy_j}, {"mem", 0.4 * energy_j}}}};
  Json r = {
      {"kernels", Json::array({{{"name", "k"}, {"sim_time_s", time_s}, {"energy_j", {{"total", energy_j}}}}})},
      {"total",
       {{"sim_time_s", time_s}, {"energy_j", energy}, {"l2_hit_rate", 0.3}, {"dram_bandwidth_utilisation", 0.5}}}};
  if (!trace.is_null()) r["policy_trace"] = trace;
  return r;
}

struct HarmoniaRuns {
  HarmoniaConfig config;
  RunReports reports;

  HarmoniaRuns() {
    const std::string shipped = data_file("configs/experiments/harmonia.json");
    config.claims = ClaimBook(read_experiment_params<HarmoniaParams>(shipped).claims);
    const Json space = {{"name", "oracle"}, {"objective", {{"kind", "min_ed2p"}}}, {"axes", {{"sms", {16, 32}}}}};
    JsonReader o(space, "test", "oracle");
    config.oracle = parse_oracle_space(o);
    config.variants = {{"harmonia", {}}, {"harmonia-cg", {}}};
    config.sms = 32;
    config.sm_mhz = {{"s0", 500}, {"s1", 1000}};
    config.mem_mhz = {{"m0", 475}, {"m1", 1375}};
    config.apps = {{"bfs", "H-THRASH", ""}};
    const HarmoniaApp& a = config.apps.front();
    Json ran = {{"cus", 16}, {"sm_mhz", 1000}, {"mem_mhz", 1375}};
    Json trace = Json::array();
    for (int i = 0; i < 2; ++i)
      trace.push_back({{"kernel", "k"}, {"ran", ran}, {"next", ran}, {"kernel_us", 1.0}, {"event", "fg"}});
    reports.add(harmonia_run_id(a, "baseline"), harmonia_report(1.0, 1.0));
    reports.add(harmonia_run_id(a, "harmonia"), harmonia_report(1.0, 0.8, trace));
    reports.add(harmonia_run_id(a, "harmonia-cg"), harmonia_report(1.1, 0.8, trace));
    for (const OraclePoint& p : config.oracle.points())
      reports.add(harmonia_run_id(a, point_run_name(config.oracle, p)),
                  harmonia_report(1.0, p[0].second == 16 ? 0.7 : 1.0));
  }
};

}  // namespace

TEST(HarmoniaAnalysis, RatiosAndOracles) {
  HarmoniaRuns s;
  ExperimentSummary out = Harmonia::analyse(s.config, s.reports, kOneStage);
  const Json& app = out.json["apps"]["bfs"];
  EXPECT_NEAR(app["harmonia"]["ed2p"].get<double>(), 0.8, 1e-12);
  EXPECT_NEAR(app["harmonia-cg"]["speedup"].get<double>(), 1 / 1.1, 1e-12);
  EXPECT_EQ(app["harmonia"]["final"]["k"]["cus"], 16);
  EXPECT_EQ(app["harmonia"]["residency"]["cus"]["16"], 1.0);
  EXPECT_EQ(app["static-oracle"]["point"], "sms=16");
  EXPECT_NEAR(app["oracle"]["energy"].get<double>(), 0.7, 1e-12);
  EXPECT_EQ(out.json["variants"], Json::array({"harmonia", "harmonia-cg", "oracle", "static-oracle"}));
  EXPECT_NE(out.markdown.find("| bfs | H-THRASH | 1000000 | -20.0% / -20.0% / +0.0% |"), std::string::npos)
      << out.markdown;
}

TEST(HarmoniaAnalysis, ClaimsJudgedAgainstTheConfigTolerances) {
  HarmoniaRuns s;
  Json summary = Harmonia::analyse(s.config, s.reports, kOneStage).json;
  Json c2a = claim(summary, "C2a");
  EXPECT_EQ(c2a["verdict"], "pass");  // 20% >= 8%
  EXPECT_EQ(c2a["tolerance"], ">= 8%");
  EXPECT_EQ(claim(summary, "C2b")["measured"], "20.0% on bfs (H-THRASH)");
  EXPECT_EQ(claim(summary, "C2d")["verdict"], "fail");  // 10 points behind the oracle, 5 allowed
  EXPECT_EQ(claim(summary, "C3")["verdict"], "pass");   // CG alone: same energy, slower
}

}  // namespace gpupm
