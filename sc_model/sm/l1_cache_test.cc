// L1Cache: set-associative tag array with true LRU. Lines map to set line % sets.
#include "gpupm/sm/l1_cache.h"

#include <gtest/gtest.h>

#include <initializer_list>

namespace gpupm {
namespace {

constexpr uint32_t kSets = 4, kWays = 4;

// The n-th line of set s.
uint64_t line(uint32_t set, uint64_t n) { return n * kSets + set; }

void fill_all(L1Cache& c, std::initializer_list<uint64_t> lines) {
  for (uint64_t l : lines) c.fill(l);
}

TEST(L1Cache, EvictsInLeastRecentlyFilledOrder) {
  L1Cache c(kSets, kWays);
  fill_all(c, {line(0, 0), line(0, 1), line(0, 2), line(0, 3)});
  for (uint64_t n = 0; n < 4; ++n) EXPECT_TRUE(c.contains(line(0, n)));
  c.fill(line(0, 4));  // evicts n=0
  EXPECT_FALSE(c.contains(line(0, 0)));
  EXPECT_TRUE(c.contains(line(0, 1)));
  c.fill(line(0, 5));  // then n=1
  EXPECT_FALSE(c.contains(line(0, 1)));
  for (uint64_t n : {2, 3, 4, 5}) EXPECT_TRUE(c.contains(line(0, n))) << n;
}

TEST(L1Cache, HitRefreshesLru) {
  L1Cache c(kSets, kWays);
  fill_all(c, {line(0, 0), line(0, 1), line(0, 2), line(0, 3)});
  EXPECT_TRUE(c.access(line(0, 0)));   // 0 becomes most recent: 1 is the LRU now
  EXPECT_FALSE(c.access(line(0, 9)));  // a miss changes nothing
  c.fill(line(0, 4));
  EXPECT_TRUE(c.contains(line(0, 0)));
  EXPECT_FALSE(c.contains(line(0, 1)));
  EXPECT_TRUE(c.access(line(0, 2)));  // order now 3, 0, 4, 2
  c.fill(line(0, 5));
  EXPECT_FALSE(c.contains(line(0, 3)));
  c.fill(line(0, 6));
  EXPECT_FALSE(c.contains(line(0, 0)));
  for (uint64_t n : {2, 4, 5, 6}) EXPECT_TRUE(c.contains(line(0, n))) << n;
}

TEST(L1Cache, InvalidateFreesTheWay) {
  L1Cache c(kSets, kWays);
  fill_all(c, {line(0, 0), line(0, 1), line(0, 2), line(0, 3)});
  c.invalidate(line(0, 1));
  c.invalidate(line(0, 7));  // not present: no effect
  EXPECT_FALSE(c.contains(line(0, 1)));
  EXPECT_FALSE(c.access(line(0, 1)));
  c.fill(line(0, 4));  // takes the freed way: nothing valid is evicted
  for (uint64_t n : {0, 2, 3, 4}) EXPECT_TRUE(c.contains(line(0, n))) << n;
  c.clear();
  for (uint64_t n : {0, 2, 3, 4}) EXPECT_FALSE(c.contains(line(0, n))) << n;
}

TEST(L1Cache, FillOfPresentLineDoesNotDuplicate) {
  L1Cache c(kSets, kWays);
  // A second copy of 0 would take a way; after the access refreshes the first
  // copy, filling 2 and 3 would then evict 1. Without a copy the set holds all four.
  fill_all(c, {line(0, 0), line(0, 1), line(0, 0)});
  EXPECT_TRUE(c.access(line(0, 0)));
  fill_all(c, {line(0, 2), line(0, 3)});
  for (uint64_t n = 0; n < 4; ++n) EXPECT_TRUE(c.contains(line(0, n))) << n;
  // Invalidating 0 must leave no stale copy behind.
  c.invalidate(line(0, 0));
  EXPECT_FALSE(c.contains(line(0, 0)));
}

TEST(L1Cache, SetsAreIndependent) {
  L1Cache c(kSets, kWays);
  fill_all(c, {line(1, 0), line(2, 0), line(3, 0)});
  for (uint64_t n = 0; n < 10; ++n) c.fill(line(0, n));  // thrash set 0
  EXPECT_TRUE(c.contains(line(1, 0)));
  EXPECT_TRUE(c.contains(line(2, 0)));
  EXPECT_TRUE(c.contains(line(3, 0)));
  for (uint64_t n = 0; n < 6; ++n) EXPECT_FALSE(c.contains(line(0, n))) << n;
  for (uint64_t n = 6; n < 10; ++n) EXPECT_TRUE(c.contains(line(0, n))) << n;
  // Each set holds its own `ways` lines.
  fill_all(c, {line(1, 1), line(1, 2), line(1, 3)});
  for (uint64_t n = 0; n < 4; ++n) EXPECT_TRUE(c.contains(line(1, n))) << n;
}

// A unified L1/shared array lends ways to shared memory: fewer active ways hold
// fewer lines per set, the lines of the ways given up are gone, and ways given
// back start empty.
TEST(L1Cache, ActiveWaysBoundWhatASetHolds) {
  L1Cache c(kSets, kWays);
  fill_all(c, {line(0, 0), line(0, 1), line(0, 2), line(0, 3)});
  c.set_active_ways(2);
  EXPECT_EQ(c.active_ways(), 2u);
  EXPECT_TRUE(c.contains(line(0, 0)));
  EXPECT_TRUE(c.contains(line(0, 1)));
  EXPECT_FALSE(c.contains(line(0, 2)));  // its way went to shared memory
  EXPECT_FALSE(c.contains(line(0, 3)));
  c.fill(line(0, 4));  // two ways: evicts the LRU of 0, 1
  EXPECT_FALSE(c.contains(line(0, 0)));
  EXPECT_TRUE(c.contains(line(0, 1)));
  EXPECT_TRUE(c.contains(line(0, 4)));
  c.set_active_ways(kWays);
  fill_all(c, {line(0, 5), line(0, 6)});  // the returned ways take new lines, nothing evicted
  for (uint64_t n : {1, 4, 5, 6}) EXPECT_TRUE(c.contains(line(0, n))) << n;
}

}  // namespace
}  // namespace gpupm
