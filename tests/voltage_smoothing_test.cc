// Hierarchical voltage smoothing in whole runs (docs/voltage_noise.md): the
// global stagger spreads a kernel launch and cuts its droop, a stagger without
// relative skew does not (specs claim 19), the local predictor throttles
// dispatch ramps, and bad smoothing input exits 2. Short suite kernels.
#include <gtest/gtest.h>

#include "support/report_runner.h"
#include "support/test_support.h"

namespace gpupm {
namespace {

const std::string kArgs = " --set workload.kernels[0].grid_ctas=90 --pdn ";

test::RunResult kmn(const std::string& extra, const std::string& tag) {
  return test::run_sim(test::source_path("configs/workloads/voltage_noise/kmn.json"),
                       kArgs + test::source_path("configs/pdn/package_default.json") + " " + extra, tag);
}
double worst(const test::RunResult& r) { return r.report["voltage_noise"]["worst_droop"].get<double>(); }
const nlohmann::json& smoothing(const test::RunResult& r) { return r.report["voltage_noise"]["smoothing"]; }

TEST(Smoothing, GlobalStaggerSpreadsTheLaunchAndCutsItsDroop) {
  auto base = kmn("", "st_base");
  auto glob = kmn("--set gpu.smoothing.global.enabled=true", "st_glob");
  ASSERT_EQ(base.status, 0) << base.output;
  ASSERT_EQ(glob.status, 0) << glob.output;
  EXPECT_FALSE(smoothing(base)["global"]["enabled"].get<bool>());
  EXPECT_EQ(smoothing(base)["global"]["triggers"], 0);
  // The launch is a global alignment: every SM goes from 0 to >= 1 active warps
  // when its first instruction line comes back. One trigger; the cumulative
  // policy holds the r-th pending SM 50 r cycles, so the holds sum to 50 x n(n-1)/2.
  const auto& g = smoothing(glob)["global"];
  EXPECT_GE(g["triggers"].get<uint64_t>(), 1u);
  const uint64_t held = g["held_sm_cycles"].get<uint64_t>();
  bool triangular = false;
  for (uint64_t n = 9; n <= 15; ++n) triangular |= held == 50 * n * (n - 1) / 2 * g["triggers"].get<uint64_t>();
  EXPECT_TRUE(triangular) << held;
  EXPECT_LT(worst(glob), 0.85 * worst(base));
  EXPECT_LT(test::sim_time(glob.report), 1.03 * test::sim_time(base.report));
  // Same work either way.
  EXPECT_EQ(glob.report["total"]["instructions"], base.report["total"]["instructions"]);
}

// Delaying every pending SM by the same 50 cycles keeps them aligned: in a
// linear network that removes nothing (here it adds a second aligned restart).
TEST(Smoothing, UniformStaggerKeepsTheAlignment) {
  auto base = kmn("", "un_base");
  auto uni = kmn("--set gpu.smoothing.global.enabled=true --set gpu.smoothing.global.policy=uniform", "un_uni");
  auto cum = kmn("--set gpu.smoothing.global.enabled=true", "un_cum");
  ASSERT_EQ(uni.status, 0) << uni.output;
  ASSERT_EQ(cum.status, 0) << cum.output;
  EXPECT_GE(smoothing(uni)["global"]["triggers"].get<uint64_t>(), 1u);
  EXPECT_GT(worst(uni), 0.95 * worst(base));
  EXPECT_LT(worst(cum), 0.85 * worst(uni));
}

TEST(Smoothing, LocalPredictorThrottlesDispatchRamps) {
  auto base = kmn("", "lo_base");
  auto loc = kmn("--set gpu.smoothing.local.enabled=true", "lo_loc");
  ASSERT_EQ(loc.status, 0) << loc.output;
  EXPECT_EQ(smoothing(base)["local"]["throttled_cycles"], 0);
  EXPECT_GT(smoothing(loc)["local"]["throttled_cycles"].get<uint64_t>(), 100u);
  // Ramps limited, not work removed: the same instructions in about the same time.
  EXPECT_EQ(loc.report["total"]["instructions"], base.report["total"]["instructions"]);
  EXPECT_LT(test::sim_time(loc.report), 1.03 * test::sim_time(base.report));
  // A tighter predictor throttles more.
  auto tight =
      kmn("--set gpu.smoothing.local.enabled=true --set gpu.smoothing.local.t2=8 "
          "--set gpu.smoothing.local.t3=8 --set gpu.smoothing.local.t4=8",
          "lo_tight");
  ASSERT_EQ(tight.status, 0) << tight.output;
  EXPECT_GT(smoothing(tight)["local"]["throttled_cycles"].get<uint64_t>(),
            2 * smoothing(loc)["local"]["throttled_cycles"].get<uint64_t>());
}

TEST(Smoothing, BadSmoothingInputExitsTwoNamingThePath) {
  auto r = kmn("--set gpu.smoothing.global.policy=zigzag", "bad_policy");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("smoothing.global.policy"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("cumulative"), std::string::npos) << r.output;
  auto t = kmn("--set gpu.smoothing.local.t2=300", "bad_t2");
  EXPECT_EQ(t.status, 2) << t.output;
  EXPECT_NE(t.output.find("smoothing.local.t2"), std::string::npos) << t.output;
}

}  // namespace
}  // namespace gpupm
