// DroopPredictor: the three increments each alone, prefix admission and its
// monotonicity, the liveness rule (max_block), enable low, full-scale values,
// idle() == steps without candidates.
#include "gpupm/controllers/droop_predictor.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

namespace gpupm {
namespace {

constexpr uint8_t kOff = 255;  // a threshold that never fires (an estimate is at most 252)

class DroopPredTest : public ::testing::Test {
 protected:
  DroopPredictor dp{DroopPredParams{4}};
  DroopPredIn in;

  void SetUp() override {
    in.weight = {10, 20, 30, 40};  // ALU, SFU, LDST, other
    in.t2 = in.t3 = in.t4 = kOff;
    in.max_block = 7;
  }
  // `n` ALU candidates in slots 0..n-1.
  DroopPredIn alu(int n) const {
    DroopPredIn v = in;
    v.cand_valid = uint8_t((1u << n) - 1);
    v.cand_class.fill(DispatchClass::kAlu);
    return v;
  }
  // Commits admitted estimates (in ALU units of 10) oldest first: history h2, h1, h0.
  void history(int a2, int a1, int a0) {
    for (int n : {a2, a1, a0}) dp.step(alu(n));
  }
};

TEST_F(DroopPredTest, ResetStateIsZero) {
  const DroopPredOut o = dp.regs();
  EXPECT_EQ(o.h0 | o.h1 | o.h2 | o.block_count, 0);
  EXPECT_EQ(dp.eval(alu(0)).admit, 0);
  EXPECT_FALSE(dp.eval(alu(0)).predict);
}

TEST_F(DroopPredTest, EstimateIsTheSumOfClassWeights) {
  DroopPredIn v = in;
  v.cand_class = {DispatchClass::kAlu, DispatchClass::kSfu, DispatchClass::kLdst, DispatchClass::kOther};
  EXPECT_EQ(DroopPredictor::estimate(v, 0xf), 100);
  EXPECT_EQ(DroopPredictor::estimate(v, 0x5), 40);
  EXPECT_EQ(DroopPredictor::estimate(v, 0), 0);
  v.weight = {0xff, 0x40, 0x3f, 0x7f};  // bits above [5:0] ignored
  EXPECT_EQ(DroopPredictor::estimate(v, 0xf), 63 + 0 + 63 + 63);
}

TEST_F(DroopPredTest, HistoryShiftsTheAdmittedEstimates) {
  history(1, 2, 3);
  EXPECT_EQ(dp.regs().h0, 30);
  EXPECT_EQ(dp.regs().h1, 20);
  EXPECT_EQ(dp.regs().h2, 10);
  dp.step(alu(4));
  EXPECT_EQ(dp.regs().h0, 40);
  EXPECT_EQ(dp.regs().h2, 20);
}

// Each threshold fires alone: the history makes only its increment large.
TEST_F(DroopPredTest, D2AloneFires) {
  history(2, 2, 0);  // h2 = h1 = 20, h0 = 0: P_new = 20 -> d2 = 20, d3 = d4 = 0
  in.t2 = 15;
  in.t3 = in.t4 = 0;
  DroopPredOut o = dp.eval(alu(2));
  EXPECT_TRUE(o.predict);
  EXPECT_EQ(o.admit, 0b01);  // 10 - 0 <= 15
  EXPECT_TRUE(o.throttled);
  in.t2 = 20;  // d2 == t2 is not an excess
  o = dp.eval(alu(2));
  EXPECT_FALSE(o.predict);
  EXPECT_EQ(o.admit, 0b11);
  EXPECT_FALSE(o.throttled);
}

TEST_F(DroopPredTest, D3AloneFires) {
  history(2, 0, 2);  // h2 = 20, h1 = 0, h0 = 20
  in.t3 = 15;
  in.t2 = in.t4 = 0;
  DroopPredOut o = dp.eval(alu(2));
  EXPECT_TRUE(o.predict);
  EXPECT_EQ(o.admit, 0b01);
  in.t3 = 20;
  EXPECT_FALSE(dp.eval(alu(2)).predict);
}

TEST_F(DroopPredTest, D4AloneFires) {
  history(0, 2, 2);  // h2 = 0, h1 = h0 = 20
  in.t4 = 15;
  in.t2 = in.t3 = 0;
  DroopPredOut o = dp.eval(alu(2));
  EXPECT_TRUE(o.predict);
  EXPECT_EQ(o.admit, 0b01);
  in.t4 = 20;
  EXPECT_FALSE(dp.eval(alu(2)).predict);
}

TEST_F(DroopPredTest, NoCandidatesNeverPredict) {
  history(4, 4, 4);
  in.t2 = in.t3 = in.t4 = 0;
  const DroopPredOut o = dp.eval(alu(0));
  EXPECT_FALSE(o.predict);
  EXPECT_FALSE(o.throttled);
}

// The admitted prefix is cut at every slot in turn (from idle, one ALU = 10).
TEST_F(DroopPredTest, PrefixCutAtEachSlot) {
  for (int k = 0; k <= 4; ++k) {
    in.t2 = in.t3 = in.t4 = uint8_t(10 * k + 5);
    const DroopPredOut o = dp.eval(alu(4));
    EXPECT_EQ(o.admit, (1u << k) - 1) << k;
    EXPECT_EQ(o.predict, k < 4) << k;
  }
  // Gaps: the prefix is over the valid candidates in slot order.
  DroopPredIn v = alu(4);
  v.cand_valid = 0b1010;
  v.t2 = v.t3 = v.t4 = 15;
  EXPECT_EQ(dp.eval(v).admit, 0b0010);
  // A heavy early slot blocks the light later ones (prefix, not best fit).
  v.cand_valid = 0b0011;
  v.cand_class[0] = DispatchClass::kOther;  // 40
  v.t2 = v.t3 = v.t4 = 30;
  EXPECT_EQ(dp.eval(v).admit, 0);
}

TEST_F(DroopPredTest, CandidatesAboveTheSlotCountAreIgnored) {
  DroopPredictor two{DroopPredParams{2}};
  DroopPredIn v = alu(4);
  const DroopPredOut o = two.eval(v);
  EXPECT_EQ(o.admit, 0b11);
  EXPECT_FALSE(o.throttled);
  two.step(v);
  EXPECT_EQ(two.regs().h0, 20);
}

// Admit bits of a prefix do not change when later-slot candidates are added,
// from random states and inputs.
TEST_F(DroopPredTest, AdmissionIsMonotone) {
  std::mt19937 rng(3);
  for (int iter = 0; iter < 20000; ++iter) {
    DroopPredIn v;
    v.cand_valid = uint8_t(rng() & 0xf);
    for (auto& c : v.cand_class) c = DispatchClass(rng() & 3);
    for (auto& w : v.weight) w = uint8_t(rng() & 0x3f);
    v.t2 = uint8_t(rng() % 80), v.t3 = uint8_t(rng() % 100), v.t4 = uint8_t(rng() % 120);
    v.max_block = uint8_t(rng() & 7);
    v.enable = rng() % 8 != 0;
    const DroopPredOut full = dp.eval(v);
    EXPECT_EQ(full.admit & ~v.cand_valid, 0);
    EXPECT_EQ(full.throttled, full.admit != v.cand_valid);
    for (int k = 0; k < 4; ++k) {
      DroopPredIn shorter = v;
      shorter.cand_valid &= uint8_t((1u << k) - 1);
      const uint8_t m = uint8_t((1u << k) - 1);
      ASSERT_EQ(dp.eval(shorter).admit, full.admit & m) << "iter " << iter << " prefix " << k;
    }
    dp.step(v);
  }
}

// Liveness: a candidate that keeps being presented waits at most max_block
// cycles; never more than max_block consecutive throttled (or blocked) cycles;
// a ramp from idle to full issue reaches full issue within max_block + 1
// cycles whatever the thresholds, and stays there once the thresholds allow it.
TEST_F(DroopPredTest, LivenessBoundsThrottling) {
  std::mt19937 rng(11);
  for (int iter = 0; iter < 3000; ++iter) {
    DroopPredictor d{DroopPredParams{uint8_t(1 + rng() % 4)}};
    const int slots = d.params().slots;
    DroopPredIn v;
    for (auto& w : v.weight) w = uint8_t(rng() & 0x3f);
    v.t2 = uint8_t(rng() % 70), v.t3 = uint8_t(rng() % 70), v.t4 = uint8_t(rng() % 70);
    if (iter % 4 == 0) v.t2 = v.t3 = v.t4 = 0;
    v.max_block = uint8_t(rng() & 7);
    // Per slot a queue of instructions of random classes: the head is the candidate.
    std::vector<std::vector<DispatchClass>> q(slots);
    for (auto& s : q)
      for (int i = 0; i < 20; ++i) s.push_back(DispatchClass(rng() & 3));
    std::vector<int> waited(slots, 0);
    int throttled_run = 0, cycles = 0;
    bool reached_full = false;
    while (std::any_of(q.begin(), q.end(), [](auto& s) { return !s.empty(); })) {
      v.cand_valid = 0;
      for (int s = 0; s < slots; ++s)
        if (!q[s].empty()) v.cand_valid |= uint8_t(1u << s), v.cand_class[s] = q[s].front();
      const DroopPredOut o = d.step(v);
      ASSERT_EQ(o.admit & ~v.cand_valid, 0);
      throttled_run = o.throttled ? throttled_run + 1 : 0;
      ASSERT_LE(throttled_run, v.max_block) << "iter " << iter;
      ASSERT_EQ(o.block_count, throttled_run);
      if (cycles <= v.max_block && o.admit == v.cand_valid) reached_full = true;
      for (int s = 0; s < slots; ++s) {
        if (!(v.cand_valid >> s & 1)) continue;
        if (o.admit >> s & 1) {
          q[s].erase(q[s].begin());
          waited[s] = 0;
        } else {
          ASSERT_LT(++waited[s], v.max_block + 1) << "slot " << s << " starves, iter " << iter;
        }
      }
      ASSERT_LT(++cycles, 20 * (v.max_block + 1) + 1) << "iter " << iter;
    }
    EXPECT_TRUE(reached_full) << iter;
  }
}

TEST_F(DroopPredTest, RampToFullIssueCompletesAndStays) {
  // Thresholds at least one candidate's weight: the ramp climbs without a forced
  // pass and then issues fully every cycle.
  in.t2 = 10, in.t3 = 20, in.t4 = 30;
  in.max_block = 7;
  std::vector<uint8_t> admits;
  for (int t = 0; t < 8; ++t) admits.push_back(dp.step(alu(4)).admit);
  EXPECT_EQ(admits, (std::vector<uint8_t>{0b1, 0b11, 0b111, 0b1111, 0b1111, 0b1111, 0b1111, 0b1111}));
  EXPECT_EQ(dp.regs().block_count, 0);
}

TEST_F(DroopPredTest, MaxBlockZeroNeverThrottles) {
  in.t2 = in.t3 = in.t4 = 0;
  in.max_block = 0;
  for (int t = 0; t < 5; ++t) {
    const DroopPredOut o = dp.step(alu(4));
    EXPECT_TRUE(o.predict || t > 2);
    EXPECT_EQ(o.admit, 0xf);
    EXPECT_FALSE(o.throttled);
  }
}

TEST_F(DroopPredTest, BlockedCyclesThenForcedPass) {
  in.t2 = in.t3 = in.t4 = 0;
  in.max_block = 3;
  for (int t = 0; t < 3; ++t) {
    const DroopPredOut o = dp.step(alu(2));
    EXPECT_EQ(o.admit, 0) << t;
    EXPECT_EQ(o.block_count, t + 1);
    EXPECT_EQ(o.h0, 0);
  }
  DroopPredOut o = dp.step(alu(2));  // block_count == max_block: everything passes
  EXPECT_EQ(o.admit, 0b11);
  EXPECT_TRUE(o.predict);
  EXPECT_FALSE(o.throttled);
  EXPECT_EQ(o.block_count, 0);
  EXPECT_EQ(o.h0, 20);
  // Partial throttling counts as well; an idle cycle clears the count.
  in.t2 = in.t3 = in.t4 = 10;
  dp.idle(3);
  o = dp.step(alu(2));
  EXPECT_EQ(o.admit, 0b01);
  EXPECT_EQ(o.block_count, 1);
  dp.step(alu(0));
  EXPECT_EQ(dp.regs().block_count, 0);
  // max_block's bits above [2:0] are ignored: 0x08 reads as 0.
  in.max_block = 0x08;
  in.t2 = in.t3 = in.t4 = 0;
  EXPECT_EQ(dp.eval(alu(2)).admit, 0b11);
}

TEST_F(DroopPredTest, BlockCountSaturatesAtSevenThroughMaxBlock) {
  in.t2 = in.t3 = in.t4 = 0;
  in.max_block = 7;
  for (int t = 0; t < 7; ++t) EXPECT_EQ(dp.step(alu(1)).block_count, t + 1);
  EXPECT_EQ(dp.step(alu(1)).block_count, 0);  // the 8th cycle passes
  // Lowering max_block below the count forces the next cycle.
  for (int t = 0; t < 5; ++t) dp.step(alu(1));
  EXPECT_EQ(dp.regs().block_count, 5);
  in.max_block = 2;
  EXPECT_EQ(dp.eval(alu(1)).admit, 1);
}

TEST_F(DroopPredTest, EnableLowAdmitsEverythingButStillPredicts) {
  in.t2 = in.t3 = in.t4 = 0;
  in.enable = false;
  const DroopPredOut o = dp.step(alu(3));
  EXPECT_TRUE(o.predict);
  EXPECT_EQ(o.admit, 0b111);
  EXPECT_FALSE(o.throttled);
  EXPECT_EQ(o.h0, 30);
  EXPECT_EQ(o.block_count, 0);
}

TEST_F(DroopPredTest, FullScaleEstimateDoesNotWrap) {
  in.weight = {63, 63, 63, 63};
  in.t2 = in.t3 = in.t4 = 251;
  DroopPredOut o = dp.step(alu(4));  // 252 - 0 > 251: one throttled cycle
  EXPECT_TRUE(o.predict);
  EXPECT_EQ(o.admit, 0b0111);
  EXPECT_EQ(o.h0, 189);
  in.t2 = in.t3 = in.t4 = 255;
  o = dp.step(alu(4));
  EXPECT_EQ(o.admit, 0xf);
  EXPECT_EQ(o.h0, 252);
  dp.step(alu(4));
  dp.step(alu(4));
  EXPECT_EQ(dp.regs().h2, 252);
  in.t2 = in.t3 = in.t4 = 0;  // full scale held: no increment
  EXPECT_FALSE(dp.eval(alu(4)).predict);
}

TEST_F(DroopPredTest, EvalHasNoSideEffectAndStepReturnsEval) {
  std::mt19937 rng(5);
  for (int t = 0; t < 2000; ++t) {
    DroopPredIn v = alu(int(rng() % 5));
    v.t2 = uint8_t(rng() % 40), v.t3 = uint8_t(rng() % 50), v.t4 = uint8_t(rng() % 60);
    v.max_block = uint8_t(rng() % 8);
    const DroopPredOut e = dp.eval(v);
    EXPECT_EQ(dp.eval(v).admit, e.admit);
    const DroopPredOut before = dp.regs();
    const DroopPredOut s = dp.step(v);
    EXPECT_EQ(s.admit, e.admit);
    EXPECT_EQ(s.predict, e.predict);
    EXPECT_EQ(s.throttled, e.throttled);
    EXPECT_EQ(s.h1, before.h0);
    EXPECT_EQ(s.h0, DroopPredictor::estimate(v, e.admit));
  }
}

TEST_F(DroopPredTest, IdleEqualsStepsWithoutCandidates) {
  std::mt19937 rng(9);
  for (uint64_t n : {0ull, 1ull, 2ull, 3ull, 4ull, 7ull, 1000ull}) {
    for (int rep = 0; rep < 50; ++rep) {
      DroopPredictor a{DroopPredParams{4}}, b{DroopPredParams{4}};
      DroopPredIn v = alu(4);
      v.t2 = uint8_t(rng() % 40), v.t3 = uint8_t(rng() % 40), v.t4 = uint8_t(rng() % 40);
      for (int t = 0; t < int(rng() % 10); ++t) {
        v.cand_valid = uint8_t(rng() & 0xf);
        a.step(v);
        b.step(v);
      }
      a.idle(n);
      DroopPredIn none = v;
      none.cand_valid = 0;
      for (uint64_t i = 0; i < n; ++i) b.step(none);
      EXPECT_EQ(a.regs().h0, b.regs().h0);
      EXPECT_EQ(a.regs().h1, b.regs().h1);
      EXPECT_EQ(a.regs().h2, b.regs().h2);
      EXPECT_EQ(a.regs().block_count, b.regs().block_count);
    }
  }
}

TEST_F(DroopPredTest, RejectsSlotCountsOutsideOneToFour) {
  EXPECT_THROW(DroopPredictor{DroopPredParams{0}}, std::invalid_argument);
  EXPECT_THROW(DroopPredictor{DroopPredParams{5}}, std::invalid_argument);
  EXPECT_NO_THROW(DroopPredictor{DroopPredParams{1}});
}

}  // namespace
}  // namespace gpupm
