// InstructionCache: hits, misses merged per line, and the LRU order that its tag
// array's shortcut for a repeated hit (no lookup) must leave as a lookup would.
#include "gpupm/sm/instruction_cache.h"

#include <gtest/gtest.h>

#include <vector>

namespace gpupm {
namespace {

constexpr uint32_t kLineBytes = 128;

// One set of two ways: every line competes for the same two places.
InstructionCache two_way_set() { return InstructionCache(2 * kLineBytes, 2, kLineBytes); }

// A miss on `line` by warp 0, answered at once.
void miss_and_fill(InstructionCache& cache, uint64_t line) {
  ASSERT_FALSE(cache.fetch(line, 0));
  ASSERT_TRUE(cache.has_request());
  EXPECT_EQ(cache.front_request(), line);
  cache.pop_request();
  EXPECT_EQ(cache.fill(line), std::vector<uint16_t>{0});
}

TEST(InstructionCache, MissesOfOneLineShareOneRequest) {
  InstructionCache cache = two_way_set();
  EXPECT_FALSE(cache.fetch(7, 0));
  EXPECT_FALSE(cache.fetch(7, 3));
  EXPECT_TRUE(cache.owns(7));
  cache.pop_request();
  EXPECT_FALSE(cache.has_request());
  EXPECT_EQ(cache.fill(7), (std::vector<uint16_t>{0, 3}));
  EXPECT_TRUE(cache.fetch(7, 1));
  EXPECT_EQ(cache.hits(), 1u);
  EXPECT_EQ(cache.misses(), 2u);
}

TEST(InstructionCache, RepeatedHitsKeepTheLruOrder) {
  InstructionCache cache = two_way_set();
  ASSERT_NO_FATAL_FAILURE(miss_and_fill(cache, 1));
  ASSERT_NO_FATAL_FAILURE(miss_and_fill(cache, 2));
  for (int i = 0; i < 3; ++i) EXPECT_TRUE(cache.fetch(1, 0));  // 1 the newest, 2 the LRU
  ASSERT_NO_FATAL_FAILURE(miss_and_fill(cache, 3));            // evicts 2
  EXPECT_TRUE(cache.fetch(1, 0));
  EXPECT_FALSE(cache.fetch(2, 0));
  EXPECT_EQ(cache.hits(), 4u);
}

// Hits on two lines in turn: each must refresh its own line.
TEST(InstructionCache, HitsOnAlternatingLinesEachRefresh) {
  InstructionCache cache = two_way_set();
  ASSERT_NO_FATAL_FAILURE(miss_and_fill(cache, 1));
  ASSERT_NO_FATAL_FAILURE(miss_and_fill(cache, 2));
  EXPECT_TRUE(cache.fetch(1, 0));
  EXPECT_TRUE(cache.fetch(2, 0));
  EXPECT_TRUE(cache.fetch(1, 0));                    // 2 the LRU now
  ASSERT_NO_FATAL_FAILURE(miss_and_fill(cache, 3));  // evicts 2
  EXPECT_TRUE(cache.fetch(1, 0));
  EXPECT_FALSE(cache.fetch(2, 0));
}

// After a fill the line hit before it is no longer the newest: its next hit must
// refresh it, or the next fill would evict it instead of the filled line.
TEST(InstructionCache, AHitAfterAFillRefreshesTheLine) {
  InstructionCache cache = two_way_set();
  ASSERT_NO_FATAL_FAILURE(miss_and_fill(cache, 1));
  ASSERT_NO_FATAL_FAILURE(miss_and_fill(cache, 2));
  EXPECT_TRUE(cache.fetch(1, 0));
  ASSERT_NO_FATAL_FAILURE(miss_and_fill(cache, 3));  // evicts 2; 3 the newest
  EXPECT_TRUE(cache.fetch(1, 0));
  ASSERT_NO_FATAL_FAILURE(miss_and_fill(cache, 4));  // evicts 3, the LRU now
  EXPECT_TRUE(cache.fetch(1, 0));
  EXPECT_FALSE(cache.fetch(3, 0));
}

TEST(InstructionCache, InvalidationEndsEveryHit) {
  InstructionCache cache = two_way_set();
  ASSERT_NO_FATAL_FAILURE(miss_and_fill(cache, 1));
  EXPECT_TRUE(cache.fetch(1, 0));
  cache.invalidate_all();
  EXPECT_FALSE(cache.fetch(1, 0));
}

}  // namespace
}  // namespace gpupm
