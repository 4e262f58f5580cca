// StaggerUnit: report strobe timing, 0 -> 1 detection, the window (expiry,
// re-stamping), the k_min boundary, ranks, the three policies, hold timing
// through the two-stage pipeline, reloads, the trigger pulse and counter,
// advance() == steps, enable low.
#include "gpupm/controllers/stagger_unit.h"

#include <gtest/gtest.h>

#include <random>
#include <stdexcept>

namespace gpupm {
namespace {

class StaggerTest : public ::testing::Test {
 protected:
  StaggerUnit u;  // 15 SMs, report every 10 cycles, 3-slot window
  StaggerIn in;   // k_min 9, step 50, cumulative, 2 groups

  // Steps (with `noise` as sm_active: ignored off the strobe) up to the next
  // strobe cycle, then the strobe's edge with `active`.
  const StaggerOut& report(uint32_t active, uint32_t noise = 0x7fff) {
    StaggerIn n = in;
    n.sm_active = noise;
    while (u.cycles_to_strobe() > 0) u.step(n);
    StaggerIn s = in;
    s.sm_active = active;
    return u.step(s);
  }
  static uint32_t first(int n) { return (1u << n) - 1; }
};

TEST_F(StaggerTest, ReportCounterAndStrobe) {
  EXPECT_EQ(u.cycles_to_strobe(), 9u);
  in.sm_active = 0x7fff;
  in.k_min = 16;
  for (int t = 0; t < 9; ++t) {
    const StaggerOut& o = u.step(in);  // not a strobe: inputs ignored
    EXPECT_EQ(o.report_count, t + 1);
    EXPECT_EQ(o.last_active, 0u);
    EXPECT_EQ(o.pending, 0u);
    EXPECT_EQ(u.cycles_to_strobe(), uint32_t(8 - t));
  }
  const StaggerOut& o = u.step(in);  // cycle 9: the strobe
  EXPECT_EQ(o.report_count, 0);
  EXPECT_EQ(o.last_active, 0x7fffu);
  EXPECT_EQ(o.pending, 0x7fffu);  // reset reads as inactive: a launch is a transition
  EXPECT_FALSE(o.trigger);
  EXPECT_EQ(u.cycles_to_strobe(), 9u);
  in.k_min = 9;
  EXPECT_TRUE(report(0).trigger);  // 15 pending at age 1 >= 9
}

TEST_F(StaggerTest, OnlyZeroToOneIsATransition) {
  in.k_min = 63;
  EXPECT_EQ(report(0b0011).pending, 0b0011u);
  EXPECT_EQ(report(0b0111).pending, 0b0111u);  // SMs 0, 1 still active: not new
  EXPECT_EQ(report(0b0101).pending, 0b0111u);  // 1 -> 0 is not a transition
  const StaggerOut& o = report(0b0111);        // SM 1 again 0 -> 1: re-stamped
  EXPECT_EQ(o.age[1], 0);
  EXPECT_EQ(o.age[2], 2);
  EXPECT_EQ(o.last_active, 0b0111u);
  EXPECT_EQ(report(0).pending, 0b0010u);  // SMs 0 (age 3) and 2 expired
}

TEST_F(StaggerTest, WindowExpiresAfterWindowSlots) {
  in.k_min = 63;
  for (uint8_t w = 1; w <= 3; ++w) {
    u = StaggerUnit(StaggerParams{15, 10, w});
    const StaggerOut* o = &report(0b1);
    for (int slot = 0; slot < w; ++slot) {
      EXPECT_EQ(o->pending, 1u) << int(w) << " " << slot;
      EXPECT_EQ(o->age[0], slot);
      o = &report(0b1);
    }
    EXPECT_EQ(o->pending, 0u) << int(w);
    EXPECT_EQ(o->age[0], 0);
  }
}

TEST_F(StaggerTest, KMinBoundary) {
  in.k_min = 9;
  report(0);
  EXPECT_FALSE(report(first(8)).trigger);  // 8 = k_min - 1
  u = StaggerUnit();
  EXPECT_TRUE(report(first(9)).trigger);  // 9 = k_min
  // Across the window: 5 + 4 within three slots trigger, four slots apart do not.
  u = StaggerUnit();
  report(first(5));
  report(first(5));
  EXPECT_TRUE(report(first(9)).trigger);
  u = StaggerUnit();
  report(first(5));
  report(first(5));
  report(first(5));
  const StaggerOut& o = report(first(9));
  EXPECT_FALSE(o.trigger);
  EXPECT_EQ(o.pending, first(9) & ~first(5));
  // k_min above the SM count never triggers; k_min 0 triggers with nothing pending.
  u = StaggerUnit();
  in.k_min = 16;
  EXPECT_FALSE(report(first(15)).trigger);
  in.k_min = 0;
  const StaggerOut& z = report(first(15));
  EXPECT_TRUE(z.trigger);
  EXPECT_EQ(z.pending, 0u);
}

TEST_F(StaggerTest, TriggerClearsPendingAndPulsesOneCycle) {
  const StaggerOut& o = report(first(10));
  EXPECT_TRUE(o.trigger);
  EXPECT_EQ(o.pending, 0u);
  EXPECT_EQ(o.triggers, 1);
  EXPECT_EQ(o.age[3], 0);
  EXPECT_FALSE(u.step(in).trigger);
  EXPECT_EQ(u.out().triggers, 1);
}

// Holds load at the edge after the detecting one: cycle t+2 .. t+1+hold.
TEST_F(StaggerTest, HoldTimingThroughThePipeline) {
  in.policy = StaggerPolicy::kCumulative;
  in.step_cycles = 3;
  report(0b11 << 7);                                   // SMs 7, 8 at age 1 at the next strobe
  const StaggerOut& d = report(first(7) | 0b11 << 7);  // SMs 0..6 new: 9 pending
  ASSERT_TRUE(d.trigger);
  EXPECT_EQ(d.hold, 0u);  // cycle t+1: nothing loaded yet
  // Ranks: SMs 7, 8 (older) 0, 1; then SMs 0..6 ranks 2..8.
  const StaggerOut& l = u.step(in);  // the edge ending t+1 loads
  EXPECT_FALSE(l.trigger);
  EXPECT_EQ(l.hold_count[7], 0);
  EXPECT_EQ(l.hold_count[8], 3);
  for (int i = 0; i < 7; ++i) EXPECT_EQ(l.hold_count[i], 3 * (i + 2)) << i;
  EXPECT_EQ(l.hold, 0x17fu);  // rank 0 (SM 7) gets 0: not held
  // SM 8: held in cycles t+2 .. t+4 (three cycles), then free.
  int held = 1;
  while (u.step(in).hold >> 8 & 1) ++held;
  EXPECT_EQ(held, 3);
  EXPECT_EQ(u.out().hold_count[8], 0);
  EXPECT_EQ(u.out().hold_count[0], 3 * 2 - 3);
}

TEST_F(StaggerTest, RanksOlderFirstThenSmId) {
  in.k_min = 6;
  in.step_cycles = 1;
  report(1u << 13);                                        // SM 13: age 2 by the third report
  report(1u << 13 | 1u << 12 | 1u << 4);                   // SMs 4, 12: age 1
  report(1u << 13 | 1u << 12 | 1u << 4 | 1u << 6 | 0b11);  // SMs 0, 1, 6: age 0; 6 pending
  ASSERT_TRUE(u.out().trigger);
  const StaggerOut& o = u.step(in);
  EXPECT_EQ(o.hold_count[13], 0);
  EXPECT_EQ(o.hold_count[4], 1);
  EXPECT_EQ(o.hold_count[12], 2);
  EXPECT_EQ(o.hold_count[0], 3);
  EXPECT_EQ(o.hold_count[1], 4);
  EXPECT_EQ(o.hold_count[6], 5);
}

TEST_F(StaggerTest, Policies) {
  auto holds = [&](StaggerPolicy p, uint8_t groups) {
    u = StaggerUnit();
    in.policy = p;
    in.groups = groups;
    in.step_cycles = 50;
    report(first(12));
    const StaggerOut& o = u.step(in);
    std::vector<int> h;
    for (int i = 0; i < 12; ++i) h.push_back(o.hold_count[i]);
    return h;
  };
  EXPECT_EQ(holds(StaggerPolicy::kUniform, 2), std::vector<int>(12, 50));
  EXPECT_EQ(holds(StaggerPolicy::kCumulative, 2),
            (std::vector<int>{0, 50, 100, 150, 200, 250, 300, 350, 400, 450, 500, 550}));
  EXPECT_EQ(holds(StaggerPolicy::kGrouped, 3), (std::vector<int>{0, 50, 100, 0, 50, 100, 0, 50, 100, 0, 50, 100}));
  EXPECT_EQ(holds(StaggerPolicy::kGrouped, 5), (std::vector<int>{0, 50, 100, 150, 200, 0, 50, 100, 150, 200, 0, 50}));
  EXPECT_EQ(holds(StaggerPolicy::kGrouped, 0), std::vector<int>(12, 0));  // 0 reads as 1
  EXPECT_EQ(holds(StaggerPolicy::kGrouped, 1), std::vector<int>(12, 0));
  EXPECT_EQ(holds(StaggerPolicy(3), 2), holds(StaggerPolicy::kCumulative, 2));         // reserved
  EXPECT_EQ(holds(StaggerPolicy::kGrouped, 0x0a), holds(StaggerPolicy::kGrouped, 2));  // [2:0]
}

TEST_F(StaggerTest, MaximumHoldFitsWithoutSaturation) {
  u = StaggerUnit(StaggerParams{32, 10, 3});
  in.step_cycles = 255;
  in.k_min = 32;
  report(0xffffffffu);
  const StaggerOut& o = u.step(in);
  EXPECT_EQ(o.hold_count[31], 255 * 31);
  EXPECT_EQ(o.hold, 0xfffffffeu);
}

// 64 SMs (6-bit ranks): step x 63 still fits the 14-bit counters.
TEST_F(StaggerTest, MaximumHoldFitsWithoutSaturationAt64Sms) {
  u = StaggerUnit(StaggerParams{64, 10, 3});
  in.step_cycles = 255;
  in.k_min = 63;
  for (unsigned t = 0; t < 9; ++t) u.step(in);
  in.sm_active = ~0ull;
  ASSERT_TRUE(u.step(in).trigger);
  const StaggerOut& o = u.step(in);
  EXPECT_EQ(o.hold_count[63], 255 * 63);
  EXPECT_EQ(o.hold, ~1ull);
}

TEST_F(StaggerTest, ReloadWhileHoldingAndCountdown) {
  in.step_cycles = 100;
  report(first(9));
  u.step(in);
  EXPECT_EQ(u.out().hold_count[8], 800);
  // SMs 0..8 go idle, then SMs 4..12 come back: SMs 4..8 are reloaded, 0..3 keep counting.
  report(0);
  const uint16_t before3 = u.out().hold_count[3];
  const StaggerOut& d = report(first(13) & ~first(4));
  ASSERT_TRUE(d.trigger);
  const StaggerOut& o = u.step(in);
  EXPECT_EQ(o.hold_count[3], before3 - 11);  // the rest of the slot, the strobe, the load edge
  for (int i = 4; i < 13; ++i) EXPECT_EQ(o.hold_count[i], 100 * (i - 4)) << i;
  EXPECT_FALSE(o.hold >> 4 & 1);  // reloaded with 0: released
}

TEST_F(StaggerTest, TriggerCounterSaturates) {
  u = StaggerUnit(StaggerParams{4, 1, 1});  // a strobe every cycle
  in.k_min = 0;                             // predicts at every strobe
  for (int t = 0; t < 0xffff; ++t) u.step(in);
  EXPECT_EQ(u.out().triggers, 0xffff);
  EXPECT_TRUE(u.step(in).trigger);
  EXPECT_EQ(u.out().triggers, 0xffff);
}

TEST_F(StaggerTest, BackToBackDetectionsWithReportPeriodOne) {
  u = StaggerUnit(StaggerParams{4, 1, 1});
  in.k_min = 2;
  in.step_cycles = 10;
  in.sm_active = 0b0011;
  EXPECT_TRUE(u.step(in).trigger);   // SMs 0, 1
  in.sm_active = 0b1100;             // SMs 2, 3 rise in the very next report
  const StaggerOut& o = u.step(in);  // loads the first set, detects the second
  EXPECT_TRUE(o.trigger);
  EXPECT_EQ(o.hold_count[1], 10);
  EXPECT_EQ(o.hold_count[3], 0);
  const StaggerOut& p = u.step(in);
  EXPECT_FALSE(p.trigger);
  EXPECT_EQ(p.hold_count[1], 9);
  EXPECT_EQ(p.hold_count[3], 10);
  EXPECT_EQ(p.triggers, 2);
}

TEST_F(StaggerTest, EnableLowTracksButNeverTriggers) {
  in.enable = false;
  const StaggerOut& o = report(first(15));
  EXPECT_FALSE(o.trigger);
  EXPECT_EQ(o.pending, first(15));
  report(first(15));
  report(first(15));
  EXPECT_EQ(report(first(15)).pending, 0u);  // expired
  EXPECT_EQ(u.out().triggers, 0);
  EXPECT_EQ(u.out().hold, 0u);
}

TEST_F(StaggerTest, AdvanceEqualsSteps) {
  std::mt19937 rng(7);
  for (const StaggerParams p : {StaggerParams{15, 10, 3}, StaggerParams{4, 1, 1}, StaggerParams{32, 16, 2}}) {
    StaggerUnit a(p), b(p);
    for (int t = 0; t < 20000;) {
      StaggerIn s;
      s.sm_active = uint32_t(rng());
      s.k_min = uint8_t(rng() % 6);
      s.step_cycles = uint8_t(rng() % 8);
      s.policy = StaggerPolicy(rng() % 4);
      s.groups = uint8_t(rng() % 8);
      a.step(s);
      b.step(s);
      ++t;
      const uint32_t n = uint32_t(rng() % (a.cycles_to_strobe() + 1));
      a.advance(n);
      StaggerIn held = s;
      held.sm_active = uint32_t(rng());  // not read off the strobe
      for (uint32_t i = 0; i < n; ++i) b.step(held);
      t += int(n);
      ASSERT_EQ(a.out().hold_count, b.out().hold_count) << t;
      ASSERT_EQ(a.out().hold, b.out().hold);
      ASSERT_EQ(a.out().trigger, b.out().trigger);
      ASSERT_EQ(a.out().report_count, b.out().report_count);
      ASSERT_EQ(a.out().pending, b.out().pending);
      ASSERT_EQ(a.out().triggers, b.out().triggers);
      ASSERT_EQ(a.cycles_to_strobe(), b.cycles_to_strobe());
    }
  }
}

TEST_F(StaggerTest, AdvanceRefusesToSkipAStrobe) {
  EXPECT_THROW(u.advance(10), std::logic_error);
  EXPECT_NO_THROW(u.advance(9));
  EXPECT_EQ(u.cycles_to_strobe(), 0u);
  EXPECT_THROW(u.advance(1), std::logic_error);
  EXPECT_NO_THROW(u.advance(0));
}

TEST_F(StaggerTest, RejectsParametersOutOfRange) {
  EXPECT_THROW(StaggerUnit(StaggerParams{0, 10, 3}), std::invalid_argument);
  EXPECT_THROW(StaggerUnit(StaggerParams{65, 10, 3}), std::invalid_argument);
  EXPECT_THROW(StaggerUnit(StaggerParams{15, 0, 3}), std::invalid_argument);
  EXPECT_THROW(StaggerUnit(StaggerParams{15, 17, 3}), std::invalid_argument);
  EXPECT_THROW(StaggerUnit(StaggerParams{15, 10, 4}), std::invalid_argument);
  EXPECT_THROW(StaggerUnit(StaggerParams{15, 10, 0}), std::invalid_argument);
}

}  // namespace
}  // namespace gpupm
