// Algorithm 1 (decide): every branch under both threshold readings, at the
// boundaries of each comparison (docs/papers.md#equalizer-algorithm-1).
#include "gpupm/controllers/eq_decision.h"

#include <gtest/gtest.h>

#include <set>

namespace gpupm {
namespace {

constexpr auto kExact = ThresholdMode::kExactSums;
constexpr auto kTrunc = ThresholdMode::kTruncatedAverages;
using B = EqBranch;

struct Case {
  const char* what;
  EqSums sums;  // active, waiting, xalu, xmem
  uint8_t w_cta;
  ThresholdMode mode;
  EqBranch branch;
  uint8_t samples_log2 = kDefaultEpochSamplesLog2;
};

// With W_cta = 4: exact thresholds are S > 128 (line 7/10) and S > 64 (line 12);
// truncated ones are S >= 160 and S >= 96.
const Case kCases[] = {
    {"S_mem = 32*W_cta + 1", {1536, 0, 0, 129}, 4, kExact, B::kMemDefinite},
    {"S_mem = 32*W_cta is only likely", {1536, 0, 0, 128}, 4, kExact, B::kMemLikely},
    {"mem is tested before comp", {1536, 0, 500, 129}, 4, kExact, B::kMemDefinite},
    {"S_alu = 32*W_cta + 1", {1536, 0, 129, 0}, 4, kExact, B::kCompDefinite},
    {"S_alu = 32*W_cta falls through", {1536, 0, 128, 0}, 4, kExact, B::kDegenerateNone},
    {"S_mem = 65: nMem > 2", {1536, 0, 0, 65}, 4, kExact, B::kMemLikely},
    {"S_mem = 64: not > 2", {1536, 0, 0, 64}, 4, kExact, B::kDegenerateNone},
    {"2*S_wait = S_active + 1", {201, 101, 10, 5}, 4, kExact, B::kUnsatComp},
    {"2*S_wait == S_active", {200, 100, 10, 5}, 4, kExact, B::kDegenerateNone},
    {"unsaturated, S_alu < S_mem", {200, 101, 10, 30}, 4, kExact, B::kUnsatMem},
    {"unsaturated tie S_alu == S_mem -> MEM", {200, 101, 20, 20}, 4, kExact, B::kUnsatMem},
    {"S_active == 0", {0, 0, 0, 0}, 4, kExact, B::kIdle},
    {"S_active == 1 is not idle", {1, 0, 0, 0}, 4, kExact, B::kDegenerateNone},
    {"W_cta is 5 bits: 36 reads as 4", {1536, 0, 0, 129}, 36, kExact, B::kMemDefinite},
    {"W_cta = 2: 65 > 64 is definite", {1536, 0, 65, 0}, 2, kExact, B::kCompDefinite},
    {"4 samples: S_mem = 4*W_cta + 1", {192, 0, 0, 17}, 4, kExact, B::kMemDefinite, 2},
    {"4 samples: S_mem = 4*W_cta", {192, 0, 0, 16}, 4, kExact, B::kMemLikely, 2},
    {"exact 95: likely", {1536, 0, 0, 95}, 4, kExact, B::kMemLikely},
    {"exact: 2*63 > 100", {100, 63, 0, 0}, 4, kExact, B::kUnsatMem},
    {"exact: 63 > 40", {200, 150, 63, 40}, 4, kExact, B::kUnsatComp},
    {"exact: 31 active is not idle", {31, 0, 0, 0}, 4, kExact, B::kDegenerateNone},
    {"exact: 2*31 > 31", {31, 31, 0, 0}, 4, kExact, B::kUnsatMem},

    {"floor(160/32) = 5 > 4", {1536, 0, 0, 160}, 4, kTrunc, B::kMemDefinite},
    {"floor(159/32) = 4 is only likely", {1536, 0, 0, 159}, 4, kTrunc, B::kMemLikely},
    {"floor(160/32) = 5 > 4 (alu)", {1536, 0, 160, 0}, 4, kTrunc, B::kCompDefinite},
    {"floor(159/32) = 4 (alu) falls through", {1536, 0, 159, 0}, 4, kTrunc, B::kDegenerateNone},
    {"floor(96/32) = 3 > 2", {1536, 0, 0, 96}, 4, kTrunc, B::kMemLikely},
    {"floor(95/32) = 2 is not", {1536, 0, 0, 95}, 4, kTrunc, B::kDegenerateNone},
    {"floor(65/32) = 2 is not", {1536, 0, 0, 65}, 4, kTrunc, B::kDegenerateNone},
    {"nW 1, nA 3: 2 > 3 fails", {100, 63, 0, 0}, 4, kTrunc, B::kDegenerateNone},
    {"nW 2, nA 3: 4 > 3", {100, 64, 0, 0}, 4, kTrunc, B::kUnsatMem},
    {"nALU 3 > nMem 0", {200, 150, 100, 0}, 4, kTrunc, B::kUnsatComp},
    {"63 vs 40 truncate to a tie -> MEM", {200, 150, 63, 40}, 4, kTrunc, B::kUnsatMem},
    {"31 active averages to 0: idle", {31, 0, 0, 0}, 4, kTrunc, B::kIdle},
    {"31 active, all waiting: still idle", {31, 31, 0, 0}, 4, kTrunc, B::kIdle},
    {"32 active is not idle", {32, 0, 0, 0}, 4, kTrunc, B::kDegenerateNone},
    {"4 samples: floor(20/4) = 5 > 4", {192, 0, 0, 20}, 4, kTrunc, B::kMemDefinite, 2},
    {"4 samples: floor(19/4) = 4 is only likely", {192, 0, 0, 19}, 4, kTrunc, B::kMemLikely, 2},
};

// Alg. 1's action per outcome: the block change and the frequency request.
EqDecision expected(EqBranch b) {
  switch (b) {
    case B::kMemDefinite: return {-1, VfVote::kMem, b};
    case B::kCompDefinite: return {0, VfVote::kComp, b};
    case B::kMemLikely: return {0, VfVote::kMem, b};
    case B::kUnsatComp: return {+1, VfVote::kComp, b};
    case B::kUnsatMem: return {+1, VfVote::kMem, b};
    case B::kIdle: return {0, VfVote::kComp, b};
    case B::kDegenerateNone: break;
  }
  return {0, VfVote::kNone, B::kDegenerateNone};
}

TEST(EqSmDecide, EveryCaseTakesItsBranchAndAction) {
  for (const Case& c : kCases) {
    SCOPED_TRACE(c.what);
    const EqDecision got = decide(c.sums, c.w_cta, c.mode, c.samples_log2);
    const EqDecision want = expected(c.branch);
    EXPECT_STREQ(branch_name(got.branch), branch_name(want.branch));
    EXPECT_EQ(got.block_delta, want.block_delta);
    EXPECT_EQ(got.vote, want.vote);
  }
}

TEST(EqSmDecide, TableCoversAllSevenBranchesInBothModes) {
  std::set<EqBranch> seen[2];
  for (const Case& c : kCases) seen[size_t(c.mode)].insert(c.branch);
  EXPECT_EQ(seen[size_t(kExact)].size(), 7u);
  EXPECT_EQ(seen[size_t(kTrunc)].size(), 7u);
}

}  // namespace
}  // namespace gpupm
