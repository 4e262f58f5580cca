// Droop statistics on synthetic voltage traces: worst droop, histogram,
// emergencies, and the first-/second-order split with the zero-phase filter.
#include "gpupm/common/json_reader.h"
#include "gpupm/vr/droop_stats.h"

#include <gtest/gtest.h>

#include <cmath>
#include <algorithm>
#include <functional>

namespace gpupm {
namespace {

constexpr double kStatsDt = 1.0 / 700e6;

// Pushes `cycles` samples; volt(sm, n) gives each SM's voltage (set-point 1 V).
void feed(DroopStats& s, uint32_t sms, uint64_t cycles, const std::function<double(uint32_t, uint64_t)>& volt) {
  std::vector<double> v(sms);
  for (uint64_t n = 0; n < cycles; ++n) {
    for (uint32_t i = 0; i < sms; ++i) v[i] = volt(i, n);
    s.push(kStatsDt, 1.0, v);
  }
  s.finish();
}

// A second-order-like droop: a 1 MHz half-cosine dip (700 cycles wide).
double slow_dip(uint64_t n, uint64_t at, double depth) {
  double t = double(n) - double(at);
  if (std::abs(t) > 350) return 0;
  return depth * 0.5 * (1 + std::cos(M_PI * t / 350));
}
// A first-order-like droop: a 100 MHz ring of a few cycles.
double fast_dip(uint64_t n, uint64_t at, double depth) {
  double t = double(n) - double(at);
  if (t < -3 || t > 3) return 0;
  return depth * std::cos(2 * M_PI * t / 7) * std::exp(-std::abs(t) / 3);
}

TEST(DroopStats, FlatSupplyHasNoDroop) {
  DroopStats s(4, DroopStatsConfig{});
  feed(s, 4, 20000, [](uint32_t, uint64_t) { return 1.0; });
  EXPECT_EQ(s.cycles(), 20000u);
  EXPECT_NEAR(s.worst_droop(), 0.0, 1e-12);
  EXPECT_EQ(s.emergencies(), 0u);
  EXPECT_EQ(s.first_order() + s.second_order() + s.balanced(), 0u);
  EXPECT_EQ(s.histogram()[0], 20000u);
}

TEST(DroopStats, SlowGlobalDroopIsSecondOrderAndAnEmergency) {
  DroopStats s(15, DroopStatsConfig{});
  // All SMs, 9% deep, centred on a block boundary of the settling window.
  const uint64_t at = DroopStats::kBlock;
  feed(s, 15, 12000, [&](uint32_t i, uint64_t n) { return 1.0 - slow_dip(n, at, 0.09 - 0.001 * i); });
  EXPECT_NEAR(s.worst_droop(), 0.09, 1e-9);
  EXPECT_EQ(s.worst_sm(), 0u);
  EXPECT_EQ(s.worst_cycle(), at);
  EXPECT_EQ(s.emergencies(), 1u);
  EXPECT_EQ(s.second_order(), 1u);
  EXPECT_EQ(s.first_order(), 0u);
  EXPECT_GT(s.max_second_order(), 0.08);
  EXPECT_LT(s.max_first_order(), 0.01);
  EXPECT_NEAR(s.worst_by_sm()[14], 0.076, 1e-9);
  auto j = s.to_json();
  EXPECT_EQ(j["emergencies_by_sm"][0], 1);
  EXPECT_EQ(j["split"]["largest"][0]["class"], "second_order");
  EXPECT_EQ(j["split"]["largest"][0]["cycle"], at);
}

TEST(DroopStats, FastLocalDroopIsFirstOrder) {
  DroopStats s(15, DroopStatsConfig{});
  feed(s, 15, 9000, [&](uint32_t i, uint64_t n) { return i == 3 ? 1.0 - fast_dip(n, 3000, 0.06) : 1.0; });
  EXPECT_NEAR(s.worst_droop(), 0.06, 1e-9);
  EXPECT_EQ(s.worst_sm(), 3u);
  EXPECT_EQ(s.first_order(), 1u);
  EXPECT_EQ(s.second_order(), 0u);
  EXPECT_EQ(s.emergencies(), 0u) << "6% is below the 8% margin";
  EXPECT_GT(s.max_first_order(), 0.04);
}

TEST(DroopStats, MixedDroopIsBalanced) {
  DroopStats s(2, DroopStatsConfig{});
  feed(s, 2, 9000, [&](uint32_t, uint64_t n) { return 1.0 - slow_dip(n, 5000, 0.03) - fast_dip(n, 5000, 0.03); });
  EXPECT_NEAR(s.worst_droop(), 0.06, 2e-3);
  EXPECT_EQ(s.balanced(), 1u);
}

TEST(DroopStats, ZeroPhaseSplitMatchesAWholeTraceFilter) {
  // The windowed settling gives the same components as filtering the whole
  // trace forward and backward at once (the reference below).
  DroopStatsConfig cfg;
  cfg.split_threshold = 0.02;
  std::vector<double> trace;
  for (uint64_t n = 0; n < 15000; ++n)
    trace.push_back(1.0 - slow_dip(n, 5100, 0.05) - fast_dip(n, 5150, 0.02) - slow_dip(n, 9000, 0.03) -
                    fast_dip(n, 9000, 0.03) - 0.004 * std::sin(n * 0.9));
  DroopStats s(1, cfg);
  feed(s, 1, trace.size(), [&](uint32_t, uint64_t n) { return trace[n]; });
  // reference: same biquad, whole trace
  double k = std::tan(M_PI * cfg.split_cutoff_hz * kStatsDt), norm = 1.0 / (1.0 + M_SQRT2 * k + k * k);
  double b0 = k * k * norm, b1 = 2 * b0, b2 = b0, a1 = 2 * (k * k - 1) * norm, a2 = (1 - M_SQRT2 * k + k * k) * norm;
  auto pass = [&](std::vector<double> x, bool reverse) {
    if (reverse) std::reverse(x.begin(), x.end());
    std::vector<double> y(x.size());
    double z1 = x[0] * (1 - b0), z2 = x[0] * (b2 - a2);
    for (size_t i = 0; i < x.size(); ++i) {
      y[i] = b0 * x[i] + z1;
      z1 = b1 * x[i] - a1 * y[i] + z2;
      z2 = b2 * x[i] - a2 * y[i];
    }
    if (reverse) std::reverse(y.begin(), y.end());
    return y;
  };
  std::vector<double> lp = pass(pass(trace, false), true);
  double max_first = 0, max_second = 0;
  for (size_t n = 0; n < trace.size(); ++n) {
    max_first = std::max(max_first, lp[n] - trace[n]);
    max_second = std::max(max_second, 1.0 - lp[n]);
  }
  EXPECT_NEAR(s.max_first_order(), max_first, 1e-6);
  EXPECT_NEAR(s.max_second_order(), max_second, 1e-6);
  auto j = s.to_json();
  ASSERT_EQ(j["split"]["largest"].size(), 2u);
  size_t at = j["split"]["largest"][0]["cycle"];
  EXPECT_NEAR(j["split"]["largest"][0]["second_order"].get<double>(), 1.0 - lp[at], 1e-6);
}

TEST(DroopStats, EmergenciesPerSmAndHistogram) {
  DroopStatsConfig cfg;
  cfg.margin = 0.05;
  DroopStats s(3, cfg);
  // SM 1 crosses 5% twice (two dips 2000 cycles apart), SM 2 once, SM 0 never.
  feed(s, 3, 8000, [&](uint32_t i, uint64_t n) {
    if (i == 1) return 1.0 - slow_dip(n, 2000, 0.06) - slow_dip(n, 4000, 0.07);
    if (i == 2) return 1.0 - slow_dip(n, 4000, 0.055);
    return 1.0 - 0.012;
  });
  auto j = s.to_json();
  EXPECT_EQ(j["emergencies_by_sm"], Json::parse("[0, 2, 1]"));
  EXPECT_EQ(s.emergencies(), 2u);  // chip-wide: the two dips
  uint64_t total = 0;
  for (uint64_t c : s.histogram()) total += c;
  EXPECT_EQ(total, 8000u);
  EXPECT_GT(s.histogram()[2], 6000u) << "most cycles sit at SM 0's constant 1.2% (bin 1%..1.5%)";
  EXPECT_GT(s.emergency_cycles(), 100u);
}

TEST(DroopStats, StartCycleLeavesEarlierCyclesOutAndTraceRecordsTheWindow) {
  DroopStatsConfig cfg;
  cfg.start_cycle = 3000;
  cfg.trace_start = 1990;
  cfg.trace_cycles = 20;
  DroopStats s(2, cfg);
  // A 10% dip at cycle 2000 (not counted), a 5% one at 6000 (counted).
  feed(s, 2, 9000, [&](uint32_t, uint64_t n) { return 1.0 - slow_dip(n, 2000, 0.10) - slow_dip(n, 6000, 0.05); });
  EXPECT_EQ(s.cycles(), 6000u);
  EXPECT_NEAR(s.worst_droop(), 0.05, 1e-9);
  EXPECT_EQ(s.worst_cycle(), 6000u);
  EXPECT_EQ(s.emergencies(), 0u);
  const std::string& t = s.trace_csv();
  EXPECT_EQ(std::count(t.begin(), t.end(), '\n'), 21);  // header + 20 rows
  EXPECT_EQ(t.rfind("cycle,time_ns,v_set,amps,droop", 0), 0u);
  EXPECT_NE(t.find("\n2000,"), std::string::npos);
  EXPECT_NE(t.find(",0.900000,"), std::string::npos) << "SM voltage at the bottom of the dip";
}

}  // namespace
}  // namespace gpupm
