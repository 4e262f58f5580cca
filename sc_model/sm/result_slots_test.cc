#include "gpupm/sm/result_slots.h"

#include <gtest/gtest.h>

#include <map>
#include <random>

namespace gpupm {
namespace {

// GPGPU-Sim's case on one pipe: a mul (result stage 4) taken at cycle 0 returns
// at 4, so an fma (stage 1) ready at 3 waits a cycle; one ready at 4 goes at once.
TEST(ResultSlots, AnInstructionWaitsForAFreeResultCycle) {
  ResultSlots slots(1);
  EXPECT_EQ(slots.take(0, 0, 4), 0u);
  EXPECT_EQ(slots.taken(4), 1u);
  EXPECT_EQ(slots.take(3, 3, 1), 4u);  // 3 + 1 = 4 is taken: enters at 4, returns at 5
  EXPECT_EQ(slots.take(4, 4, 2), 4u);  // returns at 6
  EXPECT_EQ(slots.take(4, 4, 1), 6u);  // 5 and 6 taken: returns at 7
}

// Two pipes: two results a cycle, the third waits.
TEST(ResultSlots, EachPipeReturnsOneResultACycle) {
  ResultSlots slots(2);
  EXPECT_EQ(slots.take(0, 0, 4), 0u);
  EXPECT_EQ(slots.take(0, 3, 1), 3u);  // the second result at 4
  EXPECT_EQ(slots.take(1, 3, 1), 4u);  // 4 is full: returns at 5
  EXPECT_EQ(slots.taken(4), 2u);
}

// Against a map of results per cycle, over many random instructions with the
// clock jumping ahead (past the ring's span too), so forgotten cycles are reused.
TEST(ResultSlots, AgreesWithACountOfResultsPerCycle) {
  for (uint32_t per_cycle : {1u, 2u, 3u}) {
    ResultSlots slots(per_cycle);
    std::map<uint64_t, uint32_t> results;
    std::mt19937_64 rng(5 + per_cycle);
    uint64_t now = 0;
    for (int step = 0; step < 100000; ++step) {
      now += rng() % 100 == 0 ? ResultSlots::kSpan + rng() % 50 : rng() % 3;
      const uint64_t earliest = now + rng() % 4;
      const uint32_t stage = 1 + uint32_t(rng() % 1000);
      uint64_t expected = earliest;
      while (results[expected + stage] >= per_cycle) ++expected;
      ASSERT_EQ(slots.take(now, earliest, stage), expected) << "step " << step << ", " << per_cycle << " a cycle";
      ++results[expected + stage];
    }
  }
}

}  // namespace
}  // namespace gpupm
