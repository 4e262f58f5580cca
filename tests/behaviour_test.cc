// Behaviour the GTX480 model must show on the shipped workloads. Nothing here
// is written into the model: each property emerges from the instruction
// streams, the scoreboard, the LSU, the caches and DRAM.
#include <gtest/gtest.h>

#include "support/report_runner.h"

using gpupm::test::run_sim;
using gpupm::test::sim_time;

namespace {

double time_of(const std::string& workload, const std::string& args) {
  auto r = run_sim(workload, args, "beh");
  EXPECT_EQ(r.status, 0) << r.output;
  return r.status == 0 ? sim_time(r.report) : 0.0;
}

nlohmann::json total_of(const std::string& workload, const std::string& args) {
  auto r = run_sim(workload, args, "beh");
  EXPECT_EQ(r.status, 0) << r.output;
  return r.status == 0 ? r.report["total"] : nlohmann::json();
}

std::string ctas(int n) { return "--policy static --set policy.ctas_per_sm=" + std::to_string(n); }

}  // namespace

// 1. Compute-bound: SM clock +15% gives >= +13%; memory clock +-15% moves it <= 2%.
TEST(Behaviour, ComputeBoundFollowsSmClockOnly) {
  double base = time_of("compute", "--policy baseline");
  EXPECT_GE(base / time_of("compute", "--policy sm-high"), 1.13);
  EXPECT_NEAR(base / time_of("compute", "--policy mem-high"), 1.0, 0.02);
  EXPECT_NEAR(base / time_of("compute", "--policy mem-low"), 1.0, 0.02);
}

// 2. Streaming: >= 85% of peak DRAM bandwidth; memory clock +15% gives >= +10%;
//    SM clock +-15% moves it <= 3%; performance saturates before max CTAs.
TEST(Behaviour, StreamingIsBandwidthBound) {
  auto base = total_of("streaming", "--policy baseline");
  EXPECT_GE(base["dram_bandwidth_utilisation"].get<double>(), 0.85);
  double t = base["sim_time_s"].get<double>();
  EXPECT_GE(t / time_of("streaming", "--policy mem-high"), 1.10);
  EXPECT_NEAR(t / time_of("streaming", "--policy sm-high"), 1.0, 0.03);
  EXPECT_NEAR(t / time_of("streaming", "--policy sm-low"), 1.0, 0.03);
  // max CTAs is 6: half of them already deliver (within 5%) the full speed
  EXPECT_LE(time_of("streaming", ctas(3)), 1.05 * t);
}

// 3. Cache-sensitive: L1 hit rate falls as resident CTAs rise, and the best
//    fixed CTA count (below max) is >= 1.3x faster than max CTAs.
TEST(Behaviour, CacheSensitiveBestBelowMaxCtas) {
  const auto sweep = gpupm::test::sweep_cta_limits(6, [](int n) { return total_of("cache_sensitive", ctas(n)); });
  ASSERT_EQ(sweep.l1_hit.size(), 6u);
  for (size_t n = 1; n < sweep.l1_hit.size(); ++n)
    EXPECT_LE(sweep.l1_hit[n], sweep.l1_hit[n - 1] + 0.005)
        << "L1 hit rate rose from " << n << " to " << n + 1 << " CTAs";
  EXPECT_LT(sweep.best_n, 6);
  EXPECT_GE(sweep.speedup_over_max, 1.3) << "best fixed count " << sweep.best_n;
}

// 4. The warp states partition the active warps (averages over all samples).
TEST(Behaviour, WarpStatesPartitionActiveWarps) {
  auto r = run_sim("demo", "--policy baseline", "beh");
  ASSERT_EQ(r.status, 0) << r.output;
  for (const auto& k : r.report["kernels"]) {
    const auto& w = k["warp_states"];
    double sum = w["waiting"].get<double>() + w["issued"].get<double>() + w["excess_alu"].get<double>() +
                 w["excess_mem"].get<double>() + w["others"].get<double>();
    EXPECT_NEAR(sum, w["active"].get<double>(), 1e-9) << k["name"];
    EXPECT_LE(w["active"].get<double>(), 48.0);
    EXPECT_GT(w["samples"].get<int>(), 0);
  }
}

// 5. Energy: leakage is proportional to time at a fixed voltage, and the SM
//    domain's dynamic energy per instruction grows with V^2 (an SM-high run of
//    a compute kernel does the same instructions at 1.15 V).
TEST(Behaviour, EnergyScalesWithVoltageAndTime) {
  auto base = total_of("compute", "--policy baseline");
  auto memhi = total_of("compute", "--policy mem-high");
  auto smhi = total_of("compute", "--policy sm-high");
  auto leak_rate = [](const nlohmann::json& t) {
    return t["energy_j"]["by_component"]["sm_leakage"].get<double>() / t["sim_time_s"].get<double>();
  };
  EXPECT_NEAR(leak_rate(base) / leak_rate(memhi), 1.0, 1e-6);
  EXPECT_NEAR(leak_rate(smhi) / leak_rate(base), 1.15, 1e-3);  // leakage ~ V (exponent 1)
  double per_inst_base =
      base["energy_j"]["by_component"]["sm_dynamic"].get<double>() / base["instructions"].get<double>();
  double per_inst_hi =
      smhi["energy_j"]["by_component"]["sm_dynamic"].get<double>() / smhi["instructions"].get<double>();
  // Per-cycle clock energy also scales by V^2; the cycle count differs by well under 1%.
  EXPECT_NEAR(per_inst_hi / per_inst_base, 1.3225, 0.01);
}
