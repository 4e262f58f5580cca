// VoteArbiter: counting, plurality and strict majority, Table I's mapping (I1
// fixed), one step per epoch, the five-state rule, busy timing, advance().
#include "gpupm/controllers/vote_arbiter.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <random>
#include <string>

namespace gpupm {
namespace {

constexpr int kSms = 15;
constexpr uint32_t kArbiterEpoch = 4096;

class VoteArbiterTest : public ::testing::Test {
 protected:
  VoteArbiter arb;   // 15 SMs
  VoteArbiterIn in;  // CSR fields; votes_valid low

  // One epoch's votes: the first `comp` SMs vote COMP, the next `mem` MEM, the rest NONE.
  VoteArbiterIn ballot(int comp, int mem) const {
    VoteArbiterIn v = in;
    v.votes_valid = true;
    for (int i = 0; i < kSms; ++i)
      v.votes[i] = uint8_t(i < comp ? VfVote::kComp : i < comp + mem ? VfVote::kMem : VfVote::kNone);
    return v;
  }

  static char code(VfLevelCode l) { return "LNH"[size_t(l)]; }
  std::string levels() const { return {code(arb.out().sm_level), '/', code(arb.out().mem_level)}; }

  // One epoch per character, a unanimous C(OMP), M(EM) or 0 (NONE); returns
  // "sm/mem" levels after each, e.g. "H/N N/N".
  std::string run(const std::string& winners) {
    std::string trace;
    for (char w : winners) {
      arb.step(w == 'C' ? ballot(kSms, 0) : w == 'M' ? ballot(0, kSms) : ballot(0, 0));
      trace += (trace.empty() ? "" : " ") + levels();
      arb.advance(kArbiterEpoch - 1);
    }
    return trace;
  }

  static ::testing::AssertionResult same_state(const VoteArbiter& a, const VoteArbiter& b) {
    if (a.out() == b.out() && a.sm_busy_count() == b.sm_busy_count() && a.mem_busy_count() == b.mem_busy_count())
      return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << "registers differ";
  }
};

TEST_F(VoteArbiterTest, ResetIsNormalAndIdle) {
  EXPECT_TRUE(arb.out() == VoteArbiterOut{});
  EXPECT_EQ(levels(), "N/N");
  EXPECT_FALSE(arb.out().busy);
}

TEST_F(VoteArbiterTest, CountsTheFirstNVotesReservedAsNone) {
  std::array<uint8_t, kMaxVoters> votes{};
  votes.fill(1);
  const uint8_t first[] = {1, 2, 0, 3, 1};
  std::copy(std::begin(first), std::end(first), votes.begin());
  const VoteCounts c = count_votes(votes, 5);
  EXPECT_EQ(c.comp, 2);
  EXPECT_EQ(c.mem, 1);
  EXPECT_EQ(c.none, 2);
  EXPECT_EQ(count_votes(votes, 64).comp, 61);
}

TEST_F(VoteArbiterTest, PluralityNeedsAStrictLeadOverNoneToo) {
  struct Case {
    uint8_t comp, mem, none;
    VfVote winner;
  } cases[] = {
      {6, 5, 4, VfVote::kComp}, {5, 6, 4, VfVote::kMem},  {5, 5, 5, VfVote::kNone}, {4, 4, 7, VfVote::kNone},
      {6, 3, 6, VfVote::kNone}, {7, 7, 1, VfVote::kNone}, {3, 5, 7, VfVote::kNone}, {1, 0, 0, VfVote::kComp},
  };
  for (const Case& c : cases)
    EXPECT_EQ(resolve_votes({c.comp, c.mem, c.none}, c.comp + c.mem + c.none, VoteRule::kPlurality), c.winner)
        << int(c.comp) << "/" << int(c.mem) << "/" << int(c.none);
}

TEST_F(VoteArbiterTest, StrictMajorityNeedsMoreThanHalfOfAllSms) {
  const auto strict = VoteRule::kStrictMajority;
  EXPECT_EQ(resolve_votes({8, 0, 7}, 15, strict), VfVote::kComp);
  EXPECT_EQ(resolve_votes({7, 4, 4}, 15, strict), VfVote::kNone);  // a plurality, not a majority
  EXPECT_EQ(resolve_votes({0, 8, 7}, 15, strict), VfVote::kMem);
  EXPECT_EQ(resolve_votes({8, 0, 8}, 16, strict), VfVote::kNone);
  EXPECT_EQ(resolve_votes({9, 0, 7}, 16, strict), VfVote::kComp);
  in.rule = strict;
  EXPECT_EQ(arb.step(ballot(7, 4)).winner, VfVote::kNone);
  EXPECT_EQ(arb.step(ballot(0, 8)).winner, VfVote::kMem);
}

TEST_F(VoteArbiterTest, StepRegistersCountsWinnerAndPulses) {
  const VoteArbiterOut o = arb.step(ballot(6, 5));
  EXPECT_TRUE(o.decided);
  EXPECT_EQ(o.counts.comp, 6);
  EXPECT_EQ(o.counts.mem, 5);
  EXPECT_EQ(o.counts.none, 4);
  EXPECT_EQ(o.winner, VfVote::kComp);
  EXPECT_TRUE(o.sm_changed);
  EXPECT_FALSE(o.mem_changed);
  const VoteArbiterOut next = arb.step(in);
  EXPECT_FALSE(next.decided);
  EXPECT_FALSE(next.sm_changed);
  EXPECT_EQ(next.winner, VfVote::kComp);  // held
  EXPECT_EQ(next.counts.comp, 6);
}

TEST_F(VoteArbiterTest, TableOneMappingWithI1Fixed) {
  struct Case {
    VfMode mode;
    const char* winner;
    const char* levels;
  } cases[] = {
      {VfMode::kPerformance, "C", "H/N"},
      {VfMode::kPerformance, "M", "N/H"},
      {VfMode::kEnergy, "C", "N/L"},
      {VfMode::kEnergy, "M", "L/N"},  // memory maintained (I1)
  };
  for (const Case& c : cases) {
    arb.reset();
    in.mode = c.mode;
    EXPECT_EQ(run(c.winner), c.levels) << int(c.mode) << c.winner;
  }
}

TEST_F(VoteArbiterTest, OneLevelPerEpochSoLowToHighTakesTwo) {
  in.mode = VfMode::kEnergy;
  ASSERT_EQ(run("M"), "L/N");
  in.mode = VfMode::kPerformance;
  EXPECT_EQ(run("CC"), "N/N H/N");
}

TEST_F(VoteArbiterTest, LevelsSaturateAtHighAndLow) {
  EXPECT_EQ(run("CC"), "H/N H/N");
  const VoteArbiterOut o = arb.step(ballot(kSms, 0));
  EXPECT_EQ(o.action, ArbiterAction::kAtLimit);
  EXPECT_FALSE(o.sm_changed || o.busy);
  arb.reset();
  in.mode = VfMode::kEnergy;
  EXPECT_EQ(run("MMM"), "L/N L/N L/N");
  EXPECT_EQ(arb.out().action, ArbiterAction::kAtLimit);
}

TEST_F(VoteArbiterTest, FiveStateRuleInPerformanceMode) {
  EXPECT_EQ(run("CMMCC"), "H/N N/N N/H N/N H/N");
  arb.reset();
  run("CM");
  EXPECT_EQ(arb.out().action, ArbiterAction::kRestoreOther);
}

TEST_F(VoteArbiterTest, FiveStateRuleInEnergyMode) {
  in.mode = VfMode::kEnergy;
  EXPECT_EQ(run("MCCMM"), "L/N N/N N/L N/N L/N");
}

TEST_F(VoteArbiterTest, NoneWinnerMaintainsLevels) {
  EXPECT_EQ(run("C00"), "H/N H/N H/N");
  EXPECT_EQ(arb.out().action, ArbiterAction::kNone);
}

TEST_F(VoteArbiterTest, RandomVotesStayInTheModesThreeStates) {
  std::mt19937 rng(11);
  for (VfMode mode : {VfMode::kPerformance, VfMode::kEnergy}) {
    arb.reset();
    in.mode = mode;
    for (int e = 0; e < 3000; ++e) {
      in.rule = VoteRule(rng() & 1);
      const int comp = rng() % (kSms + 1), mem = rng() % (kSms + 1 - comp);
      const VfVote w = VfVote(rng() % 3);  // also unanimous epochs, to reach the limits
      const VoteArbiterOut before = arb.out();
      const VoteArbiterOut& o = arb.step(w == VfVote::kNone   ? ballot(comp, mem)
                                         : w == VfVote::kComp ? ballot(kSms, 0)
                                                              : ballot(0, kSms));
      const int moved =
          std::abs(int(o.sm_level) - int(before.sm_level)) + std::abs(int(o.mem_level) - int(before.mem_level));
      ASSERT_LE(moved, 1) << e;
      ASSERT_TRUE(o.sm_level == VfLevelCode::kNormal || o.mem_level == VfLevelCode::kNormal) << e;
      const VfLevelCode forbidden = mode == VfMode::kPerformance ? VfLevelCode::kLow : VfLevelCode::kHigh;
      ASSERT_TRUE(o.sm_level != forbidden && o.mem_level != forbidden) << e;
      arb.advance(kArbiterEpoch - 1);
    }
  }
}

TEST_F(VoteArbiterTest, BusyForExactlyTransitionCyclesIgnoresVotes) {
  ASSERT_TRUE(arb.step(ballot(kSms, 0)).sm_busy);  // cycle 1: SM to HIGH
  for (int cycle = 2; cycle <= 512; ++cycle) ASSERT_TRUE(arb.step(in).busy) << cycle;
  const VoteArbiterOut ignored = arb.step(ballot(0, kSms));  // presented in cycle 512
  EXPECT_EQ(ignored.action, ArbiterAction::kIgnoredBusy);
  EXPECT_TRUE(ignored.decided);
  EXPECT_EQ(ignored.winner, VfVote::kMem);
  EXPECT_EQ(levels(), "H/N");
  EXPECT_FALSE(ignored.busy);
  EXPECT_EQ(arb.step(ballot(0, kSms)).action, ArbiterAction::kRestoreOther);  // cycle 513
  EXPECT_EQ(levels(), "N/N");

  arb.reset();
  in.sm_transition_cycles = 0x1000 | 3;  // 12 bits
  EXPECT_TRUE(arb.step(ballot(kSms, 0)).busy);
  EXPECT_TRUE(arb.step(in).busy);
  EXPECT_TRUE(arb.step(in).busy);
  EXPECT_FALSE(arb.step(in).busy);
}

TEST_F(VoteArbiterTest, MemoryDomainHasItsOwnLatency) {
  EXPECT_FALSE(arb.step(ballot(0, kSms)).busy);  // default 0 cycles
  EXPECT_EQ(levels(), "N/H");
  EXPECT_EQ(arb.step(ballot(kSms, 0)).action, ArbiterAction::kRestoreOther);  // the next cycle
  arb.reset();
  in.mem_transition_cycles = 100;
  const VoteArbiterOut o = arb.step(ballot(0, kSms));
  EXPECT_TRUE(o.mem_busy && o.busy && !o.sm_busy);
  for (int cycle = 2; cycle <= 100; ++cycle) ASSERT_TRUE(arb.step(in).mem_busy) << cycle;
  EXPECT_EQ(arb.step(ballot(kSms, 0)).action, ArbiterAction::kIgnoredBusy);
  EXPECT_EQ(arb.step(ballot(kSms, 0)).action, ArbiterAction::kRestoreOther);
}

TEST_F(VoteArbiterTest, AdvanceEqualsSteps) {
  VoteArbiter skipping;
  std::mt19937 rng(5);
  uint32_t pending = 0;
  for (uint32_t t = 0; t < 40 * kArbiterEpoch; ++t) {
    in.mode = VfMode(rng() % 2);
    in.sm_transition_cycles = rng() % 0x1000;
    in.mem_transition_cycles = rng() % 0x1000;
    const bool epoch = t % 512 == 0;  // often enough to meet busy and quiet cycles
    const VoteArbiterIn now = epoch ? ballot(rng() % (kSms + 1), rng() % 8) : in;
    if (epoch || rng() % 100 == 0) {
      skipping.advance(pending);  // both now at the start of cycle t
      pending = 0;
      ASSERT_TRUE(same_state(skipping, arb)) << t;
      skipping.step(now);
    } else {
      ++pending;
    }
    arb.step(now);
  }
  skipping.advance(pending);
  EXPECT_TRUE(same_state(skipping, arb));
}

TEST_F(VoteArbiterTest, RejectsVoterCountsOutsideOneTo64) {
  EXPECT_THROW(VoteArbiter{VoteArbiterParams{0}}, std::invalid_argument);
  EXPECT_THROW(VoteArbiter{VoteArbiterParams{65}}, std::invalid_argument);
  EXPECT_NO_THROW(VoteArbiter{VoteArbiterParams{64}});
}

}  // namespace
}  // namespace gpupm
