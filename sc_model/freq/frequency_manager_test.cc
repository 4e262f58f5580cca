// FrequencyManager with real clock domains and a VoltageRegulator: levels,
// transition timing, voltage ramps, refusals, residency and before_change.
#include "gpupm/freq/frequency_manager.h"

#include "gpupm/clock/clock_domain.h"
#include "gpupm/vr/voltage_regulator.h"

#include <gtest/gtest.h>

#include "support/dvfs_fixture.h"

#include <memory>
#include <vector>

namespace gpupm {
namespace {

using sc_core::SC_NS;
using sc_core::SC_PS;
using sc_core::sc_time;
using sc_core::sc_time_stamp;

DvfsConfig dvfs() { return test::three_level_dvfs(785.4, 1062.6); }

sc_time period(double mhz) { return sc_time(1e6 / mhz, SC_PS); }

// Records the tick times of a clock domain (busy every cycle).
struct EdgeLog : Tickable {
  std::vector<sc_time> at;
  void tick(uint64_t) override { at.push_back(sc_time_stamp()); }
  uint64_t next_busy_cycle(uint64_t now) const override { return now + 1; }
};

// The DVFS bench, recording the SM clock's edges.
struct FrequencyManagerBench : test::DvfsBench {
  EdgeLog sm_edges;
  explicit FrequencyManagerBench(sc_core::sc_module_name name) : DvfsBench(name, dvfs()) { sm_clock.add(&sm_edges); }
};

class FrequencyManagerTest : public test::ScTest {
 protected:
  void SetUp() override { b = std::make_unique<FrequencyManagerBench>("bench"); }
  std::unique_ptr<FrequencyManagerBench> b;
};

TEST_F(FrequencyManagerTest, StepUpRampsVoltageThenChangesTheClock) {
  const sc_time p0 = period(700), p1 = period(805);
  const sc_time t0 = p0 * 100.0, ramp = p0 * 512.0, t1 = t0 + ramp;
  std::vector<double> volts;
  b->body = [&] {
    EXPECT_EQ(b->fm.level(Domain::Sm), 1u);
    EXPECT_DOUBLE_EQ(b->vr.voltage(Domain::Sm), 1.0);
    b->wait_until(t0);
    EXPECT_TRUE(b->request(Domain::Sm, 2));
    EXPECT_TRUE(b->fm.in_transition(Domain::Sm));
    EXPECT_EQ(b->sm_clock.period(), p0);
    b->wait_until(t0 + ramp * 0.25);
    volts.push_back(b->vr.voltage(Domain::Sm));
    EXPECT_FALSE(b->request(Domain::Sm, 0));        // refused during the transition
    EXPECT_FALSE(b->request(Domain::Sm, 0, true));  // even when immediate
    EXPECT_EQ(b->fm.level(Domain::Sm), 1u);
    b->wait_until(t0 + ramp * 0.5);
    volts.push_back(b->vr.voltage(Domain::Sm));
    b->wait_until(t1 - sc_time::from_value(1));
    EXPECT_EQ(b->sm_clock.period(), p0);
    b->wait_until(t1 + p1);
    EXPECT_EQ(b->sm_clock.period(), p1);
    EXPECT_FALSE(b->fm.in_transition(Domain::Sm));
    volts.push_back(b->vr.voltage(Domain::Sm));
  };
  sc_core::sc_start(t1 + p1 * 20.5);
  ASSERT_EQ(volts.size(), 3u);
  EXPECT_NEAR(volts[0], 1.0 + 0.15 * 0.25, 1e-12);
  EXPECT_NEAR(volts[1], 1.0 + 0.15 * 0.5, 1e-12);
  EXPECT_DOUBLE_EQ(volts[2], 1.15);
  EXPECT_EQ(b->fm.level(Domain::Sm), 2u);
  EXPECT_EQ(b->fm.transitions(Domain::Sm), 1u);
  // Edges 0..612 at the old period, then the new one.
  const auto& at = b->sm_edges.at;
  ASSERT_EQ(at.size(), 613u + 20u);
  for (size_t c = 0; c <= 612; ++c) EXPECT_EQ(at[c], p0 * double(c)) << c;
  for (size_t c = 613; c < at.size(); ++c) EXPECT_EQ(at[c], t1 + p1 * double(c - 612)) << c;
}

TEST_F(FrequencyManagerTest, StepDownChangesTheClockAtOnceAndRampsTheVoltage) {
  const sc_time p0 = period(700), p1 = period(595);
  const sc_time t0 = p0 * 10.0, ramp = p0 * 512.0;
  b->body = [&] {
    b->wait_until(t0);
    EXPECT_TRUE(b->request(Domain::Sm, 0));
    EXPECT_EQ(b->sm_clock.period(), p1);
    EXPECT_EQ(b->fm.level(Domain::Sm), 0u);
    EXPECT_DOUBLE_EQ(b->vr.voltage(Domain::Sm), 1.0);
    b->wait_until(t0 + ramp * 0.75);
    EXPECT_NEAR(b->vr.voltage(Domain::Sm), 1.0 - 0.15 * 0.75, 1e-12);
    EXPECT_TRUE(b->fm.in_transition(Domain::Sm));
    EXPECT_TRUE(b->request(Domain::Mem, 0, true));  // the other domain is free
    b->wait_until(t0 + ramp + sc_time(1, SC_PS));
    EXPECT_FALSE(b->fm.in_transition(Domain::Sm));
    EXPECT_DOUBLE_EQ(b->vr.voltage(Domain::Sm), 0.85);
    EXPECT_TRUE(b->request(Domain::Sm, 1, true));
  };
  sc_core::sc_start(t0 + ramp + p0 * 5.0);
  const auto& at = b->sm_edges.at;
  for (size_t c = 0; c <= 10; ++c) EXPECT_EQ(at[c], p0 * double(c));
  EXPECT_EQ(at[11], t0 + p1);
  EXPECT_EQ(at[12], t0 + p1 * 2.0);
}

TEST_F(FrequencyManagerTest, ImmediateRequestsApplyAtOnce) {
  b->body = [&] {
    b->wait_until(sc_time(50, SC_NS));
    EXPECT_TRUE(b->request(Domain::Sm, 2, true));
    EXPECT_EQ(b->sm_clock.period(), period(805));
    EXPECT_DOUBLE_EQ(b->vr.voltage(Domain::Sm), 1.15);
    EXPECT_FALSE(b->fm.in_transition(Domain::Sm));
    EXPECT_TRUE(b->request(Domain::Mem, 0, true));
    EXPECT_EQ(b->mem_clock.period(), period(785.4));
    EXPECT_DOUBLE_EQ(b->vr.voltage(Domain::Mem), 0.9);
    EXPECT_TRUE(b->request(Domain::Sm, 2));  // already there: accepted, nothing to do
    EXPECT_FALSE(b->fm.in_transition(Domain::Sm));
    EXPECT_EQ(b->fm.transitions(Domain::Sm), 0u);
  };
  sc_core::sc_start(sc_time(100, SC_NS));
  EXPECT_EQ(b->fm.level(Domain::Sm), 2u);
  EXPECT_DOUBLE_EQ(b->fm.mhz(Domain::Mem), 785.4);
}

TEST_F(FrequencyManagerTest, MemoryDomainUsesTransitionNsAndResidencyAddsUp) {
  const sc_time t0(2, SC_NS), ramp(1000, SC_NS), end(5, sc_core::SC_US);
  b->body = [&] {
    b->wait_until(t0);
    EXPECT_TRUE(b->request(Domain::Mem, 2));
    b->wait_until(t0 + ramp - sc_time(1, SC_PS));
    EXPECT_EQ(b->mem_clock.period(), period(924));
    EXPECT_NEAR(b->vr.voltage(Domain::Mem), 1.1, 1e-6);
    b->wait_until(t0 + ramp + sc_time(1, SC_PS));
    EXPECT_EQ(b->mem_clock.period(), period(1062.6));
    b->wait_until(sc_time(3, sc_core::SC_US));
    EXPECT_TRUE(b->request(Domain::Mem, 0));  // down: at once, 3 us
  };
  sc_core::sc_start(end);
  std::vector<double> r = b->fm.residency(Domain::Mem);
  ASSERT_EQ(r.size(), 3u);
  EXPECT_NEAR(r[1], (t0 + ramp).to_seconds(), 1e-18);
  EXPECT_NEAR(r[2], 3e-6 - (t0 + ramp).to_seconds(), 1e-18);
  EXPECT_NEAR(r[0], 2e-6, 1e-18);
  EXPECT_NEAR(r[0] + r[1] + r[2], end.to_seconds(), 1e-18);
  std::vector<double> s = b->fm.residency(Domain::Sm);
  EXPECT_EQ(s, (std::vector<double>{0.0, end.to_seconds(), 0.0}));
}

TEST_F(FrequencyManagerTest, BeforeChangeSeesTheOldState) {
  struct Seen {
    sc_time at, sm_period;
    double sm_setpoint;
  };
  std::vector<Seen> seen;
  b->fm.before_change = [&] { seen.push_back({sc_time_stamp(), b->sm_clock.period(), b->vr.setpoint(Domain::Sm)}); };
  const sc_time p0 = period(700), t0 = p0 * 4.0, t1 = t0 + p0 * 512.0, t2 = t1 + sc_time(10, SC_NS);
  b->body = [&] {
    b->wait_until(t0);
    b->request(Domain::Sm, 2);  // before_change now and at the end of the transition
    b->wait_until(t2);
    b->request(Domain::Sm, 1, true);
  };
  sc_core::sc_start(t2 + sc_time(10, SC_NS));
  ASSERT_EQ(seen.size(), 4u);
  EXPECT_EQ(seen[0].at, t0);
  EXPECT_EQ(seen[0].sm_period, p0);
  EXPECT_DOUBLE_EQ(seen[0].sm_setpoint, 1.0);
  EXPECT_EQ(seen[1].at, t1);
  EXPECT_EQ(seen[1].sm_period, p0);  // clock not yet raised
  EXPECT_DOUBLE_EQ(seen[1].sm_setpoint, 1.15);
  EXPECT_EQ(seen[2].at, t2);
  EXPECT_EQ(seen[2].sm_period, period(805));
  EXPECT_DOUBLE_EQ(seen[2].sm_setpoint, 1.15);
  // A step is settled again right after, from the new state.
  EXPECT_EQ(seen[3].at, t2);
  EXPECT_EQ(seen[3].sm_period, p0);
  EXPECT_DOUBLE_EQ(seen[3].sm_setpoint, 1.0);
}

}  // namespace
}  // namespace gpupm
