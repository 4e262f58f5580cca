// L1Cache: set-associative tag array with true LRU. Lines map to set line % sets.
#include "gpupm/sm/l1_cache.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <initializer_list>
#include <vector>

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

// Allocate-on-miss (GPGPU-Sim's L1): a miss takes its way at once, the line is no
// hit until its fill, and a set whose ways all wait for fills takes no more misses.
TEST(L1Cache, AllocateOnMissReservesTheWayUntilTheFill) {
  L1Cache c(kSets, kWays, L1Policy{true, false});
  for (uint64_t n = 0; n < kWays; ++n) EXPECT_TRUE(c.reserve(line(0, n))) << n;
  EXPECT_FALSE(c.access(line(0, 0)));  // waiting for its fill: no hit
  EXPECT_FALSE(c.contains(line(0, 0)));
  EXPECT_FALSE(c.reserve(line(0, 4)));  // every way waits: no room for a fifth miss
  EXPECT_TRUE(c.reserve(line(1, 0)));   // another set is not affected
  c.fill(line(0, 2));
  EXPECT_TRUE(c.access(line(0, 2)));
  EXPECT_TRUE(c.reserve(line(0, 4)));  // the one valid way is the only victim
  EXPECT_FALSE(c.contains(line(0, 2)));
  EXPECT_FALSE(c.reserve(line(0, 5)));
}

// The LRU stamp is the miss's: of two lines filled in the other order, the one
// that missed first is evicted first (the fill-time policy evicts the other).
TEST(L1Cache, AllocateOnMissStampsAtTheMiss) {
  for (bool on_miss : {true, false}) {
    L1Cache c(kSets, kWays, L1Policy{on_miss, false});
    auto miss = [&](uint64_t n) {
      if (on_miss) {
        EXPECT_TRUE(c.reserve(line(0, n)));
      }
    };
    for (uint64_t n = 0; n < kWays; ++n) miss(n);
    for (uint64_t n : {1, 0, 2, 3}) c.fill(line(0, n));  // line 0 filled after line 1
    miss(4);
    c.fill(line(0, 4));
    EXPECT_EQ(c.contains(line(0, 0)), !on_miss) << on_miss;
    EXPECT_EQ(c.contains(line(0, 1)), on_miss) << on_miss;
  }
}

// A line invalidated (a store) while it waits for its fill frees its way, and the
// fill then brings nothing in.
TEST(L1Cache, AllocateOnMissInvalidatedLineIsNotFilled) {
  L1Cache c(kSets, kWays, L1Policy{true, false});
  for (uint64_t n = 0; n < kWays; ++n) ASSERT_TRUE(c.reserve(line(0, n)));
  c.invalidate(line(0, 1));
  c.fill(line(0, 1));
  EXPECT_FALSE(c.contains(line(0, 1)));
  EXPECT_TRUE(c.reserve(line(0, 7)));  // the freed way
}

// is_newest_hit: the latest hit's line while a hit on it would change no LRU order.
// Any other stamp since (a fill, a miss reserving its way, a merged miss on a waiting
// line, a hit on another line) ends it, as does its line leaving.
TEST(L1Cache, TheNewestHitLastsUntilAnotherStamp) {
  L1Cache c(kSets, kWays);
  EXPECT_FALSE(c.is_newest_hit(line(0, 0)));  // nothing hit yet
  fill_all(c, {line(0, 0), line(0, 1), line(1, 0)});
  EXPECT_FALSE(c.is_newest_hit(line(1, 0)));  // filled, not hit
  EXPECT_TRUE(c.access(line(0, 0)));
  EXPECT_TRUE(c.is_newest_hit(line(0, 0)));
  EXPECT_FALSE(c.is_newest_hit(line(0, 1)));
  EXPECT_TRUE(c.access(line(1, 0)));  // another set's hit is newer
  EXPECT_FALSE(c.is_newest_hit(line(0, 0)));
  EXPECT_TRUE(c.is_newest_hit(line(1, 0)));
  c.fill(line(2, 0));
  EXPECT_FALSE(c.is_newest_hit(line(1, 0)));
  EXPECT_FALSE(c.access(line(3, 0)));  // a miss stamps nothing
  EXPECT_TRUE(c.access(line(0, 1)));
  EXPECT_FALSE(c.access(line(0, 7)));
  EXPECT_TRUE(c.is_newest_hit(line(0, 1)));
}

TEST(L1Cache, TheNewestHitEndsWithAMissOfAllocateOnMiss) {
  L1Cache c(kSets, kWays, L1Policy{true, false});
  for (uint64_t n : {0, 1}) ASSERT_TRUE(c.reserve(line(0, n)));
  c.fill(line(0, 0));
  EXPECT_TRUE(c.access(line(0, 0)));
  EXPECT_TRUE(c.is_newest_hit(line(0, 0)));
  c.touch_waiting(line(0, 1));  // merged into line 1's miss
  EXPECT_FALSE(c.is_newest_hit(line(0, 0)));
  EXPECT_TRUE(c.access(line(0, 0)));
  ASSERT_TRUE(c.reserve(line(0, 2)));
  EXPECT_FALSE(c.is_newest_hit(line(0, 0)));
}

// A line gone (invalidated, cleared, its way given to shared memory) is no newest
// hit, nor is the same line missed again into the same way and waiting for its fill.
TEST(L1Cache, TheNewestHitEndsWhenItsLineGoes) {
  L1Cache c(kSets, kWays);
  fill_all(c, {line(0, 0), line(0, 1), line(0, 2), line(0, 3)});
  EXPECT_TRUE(c.access(line(0, 1)));
  c.invalidate(line(0, 1));
  EXPECT_FALSE(c.is_newest_hit(line(0, 1)));
  EXPECT_TRUE(c.access(line(0, 3)));
  c.set_active_ways(2);  // way 3, line 3's, goes to shared memory
  EXPECT_FALSE(c.is_newest_hit(line(0, 3)));
  EXPECT_TRUE(c.access(line(0, 0)));
  c.clear();
  EXPECT_FALSE(c.is_newest_hit(line(0, 0)));

  L1Cache one_way(1, 1, L1Policy{true, false});
  ASSERT_TRUE(one_way.reserve(5));
  one_way.fill(5);
  EXPECT_TRUE(one_way.access(5));
  one_way.invalidate(5);
  ASSERT_TRUE(one_way.reserve(5));  // the same way, the newest stamp, but waiting
  EXPECT_FALSE(one_way.is_newest_hit(5));
}

// Fermi's hash against GPGPU-Sim's byte-address formula (gpu-cache.cc,
// FERMI_HASH_SET_FUNCTION), written out here on addresses: strides that map one
// set linearly spread over several.
TEST(L1Cache, FermiHashIsGpgpuSimsSetIndex) {
  auto gpgpusim = [](uint64_t addr, uint32_t sets) {
    uint32_t lower = uint32_t(addr >> 7) & 0x1F;
    uint32_t upper =
        uint32_t((addr & 0xE000) >> 13) | uint32_t((addr & 0x20000) >> 14) | uint32_t((addr & 0x80000) >> 15);
    uint32_t set = lower ^ upper;
    if (sets == 64) set |= uint32_t((addr & 0x1000) >> 7);
    return set;
  };
  for (uint32_t sets : {32u, 64u})
    for (uint64_t addr = 0; addr < (uint64_t(1) << 21); addr += 128 * 37)
      ASSERT_EQ(L1Cache::fermi_set(addr >> 7, sets), gpgpusim(addr, sets)) << addr << " " << sets;
  // Values worked by hand from the formula: line bits 0-4 XOR address bits 13-15, 17, 19.
  EXPECT_EQ(L1Cache::fermi_set(0x2000 >> 7, 32), 1u);    // bit 13 alone
  EXPECT_EQ(L1Cache::fermi_set(0x2080 >> 7, 32), 0u);    // bit 13 XOR line bit 0
  EXPECT_EQ(L1Cache::fermi_set(0x20000 >> 7, 32), 8u);   // bit 17
  EXPECT_EQ(L1Cache::fermi_set(0x80000 >> 7, 32), 16u);  // bit 19
  EXPECT_EQ(L1Cache::fermi_set(0x1000 >> 7, 64), 32u);   // bit 12 on top with 64 sets
  EXPECT_EQ(L1Cache::fermi_set(0x1000 >> 7, 32), 0u);    // ignored with 32
  // 8 KB apart: set 0 of 64 every time linearly; hashed, 8 different sets.
  std::vector<uint32_t> hashed;
  for (uint64_t k = 0; k < 8; ++k) hashed.push_back(L1Cache::fermi_set(k * 64, 64));
  std::sort(hashed.begin(), hashed.end());
  EXPECT_EQ(std::unique(hashed.begin(), hashed.end()) - hashed.begin(), 8);
  // A cache indexed by the hash puts those lines in different sets: all 8 stay.
  L1Cache c(64, 1, L1Policy{false, true});
  for (uint64_t k = 0; k < 8; ++k) c.fill(k * 64);
  for (uint64_t k = 0; k < 8; ++k) EXPECT_TRUE(c.contains(k * 64)) << k;
}

}  // namespace
}  // namespace gpupm
