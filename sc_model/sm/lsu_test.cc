// Lsu in plain C++: the latch, the one-line-per-cycle slot, the L1D, MSHR
// merging, the miss queue and their back-pressure.
#include "gpupm/sm/lsu.h"

#include <gtest/gtest.h>

#include <memory>
#include <vector>

namespace gpupm {
namespace {

Inst mem_inst(InstClass op, uint64_t line, uint8_t lines = 1) {
  Inst in;
  in.op = op;
  in.line = line;
  in.lines = lines;
  return in;
}
Inst load(uint64_t line, uint8_t lines = 1) { return mem_inst(InstClass::Load, line, lines); }
Inst store(uint64_t line, uint8_t lines = 1) { return mem_inst(InstClass::Store, line, lines); }

class LsuTest : public ::testing::Test {
 protected:
  SmConfig cfg;  // GTX480 defaults unless a test changes them before lsu()
  std::vector<Lsu::LoadDone> done;

  Lsu& lsu() {
    if (!lsu_) lsu_ = std::make_unique<Lsu>(cfg);
    return *lsu_;
  }
  void cycle(uint64_t c) { lsu().cycle(c, done); }
  // Accepts `in` at cycle c and runs that cycle.
  void issue(uint64_t c, const Inst& in, uint16_t warp = 0, uint64_t index = 0) {
    ASSERT_TRUE(lsu().can_accept());
    lsu().accept(warp, index, in);
    cycle(c);
  }
  std::vector<LineRequest> take_requests() {
    std::vector<LineRequest> out;
    while (lsu().has_request()) {
      out.push_back(lsu().front_request());
      lsu().pop_request();
    }
    return out;
  }
  // Brings `line` into the L1 (miss, then fill at cycle c) and forgets the traffic.
  void prime(uint64_t line, uint64_t c) {
    issue(c, load(line), 47, 999);
    take_requests();
    lsu().fill(line, c + 1, done);
    done.clear();
  }

 private:
  std::unique_ptr<Lsu> lsu_;
};

::testing::AssertionResult is_done(const Lsu::LoadDone& d, uint16_t warp, uint64_t index, uint64_t ready) {
  if (d.warp == warp && d.inst_index == index && d.ready_cycle == ready) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "got (warp " << d.warp << ", inst " << d.inst_index << ", ready "
                                       << d.ready_cycle << "), expected (" << warp << ", " << index << ", " << ready
                                       << ")";
}

// An atomic as transactions (Inst::sector_list): each of its entries is its own request, even on one line,
// carrying its sectors and tracker, never merged in an MSHR; the instruction is done when the last
// transaction's response is back (atomic_done), ready the cycle after.
TEST_F(LsuTest, AtomicTransactionsAreSeparateRequests) {
  const uint64_t lines[] = {9, 9, 9};
  const uint8_t sectors[] = {0x1, 0x1, 0x4};
  Inst in = load(9, 3);
  in.atomic = true;
  in.line_list = lines;
  in.sector_list = sectors;
  issue(0, in, 5, 77);
  cycle(1);
  cycle(2);
  const auto reqs = take_requests();
  ASSERT_EQ(reqs.size(), 3u);
  for (size_t i = 0; i < reqs.size(); ++i) {
    EXPECT_EQ(reqs[i].line, 9u);
    EXPECT_FALSE(reqs[i].write);
    EXPECT_EQ(reqs[i].sectors, sectors[i]);
    EXPECT_TRUE(reqs[i].atomic);
    EXPECT_EQ(reqs[i].tracker, reqs[0].tracker);
  }
  EXPECT_EQ(lsu().mshrs_in_use(), 0u);
  lsu().atomic_done(reqs[0].tracker, 100, done);
  lsu().atomic_done(reqs[1].tracker, 120, done);
  EXPECT_TRUE(done.empty());
  lsu().atomic_done(reqs[2].tracker, 110, done);
  ASSERT_EQ(done.size(), 1u);
  EXPECT_TRUE(is_done(done[0], 5, 77, 121));
  EXPECT_FALSE(lsu().busy());
}

TEST_F(LsuTest, LoadHitCompletesAfterHitLatency) {
  prime(5, 0);
  issue(10, load(5), 3, 42);
  ASSERT_EQ(done.size(), 1u);
  EXPECT_TRUE(is_done(done[0], 3, 42, 10 + cfg.l1_hit_latency));
  EXPECT_EQ(lsu().stats().l1_hits, 1u);
  EXPECT_FALSE(lsu().has_request());
  EXPECT_FALSE(lsu().busy());
}

TEST_F(LsuTest, MissAllocatesMshrAndEmitsOneRequest) {
  issue(0, load(7), 1, 5);
  EXPECT_TRUE(done.empty());
  EXPECT_EQ(lsu().mshrs_in_use(), 1u);
  auto reqs = take_requests();
  ASSERT_EQ(reqs.size(), 1u);
  EXPECT_EQ(reqs[0].line, 7u);
  EXPECT_FALSE(reqs[0].write);
  EXPECT_EQ(lsu().stats().l1_misses, 1u);
  EXPECT_EQ(lsu().stats().loads, 1u);
}

// An MSHR holds up to l1_mshr_merges loads (the first included, as GPGPU-Sim's
// "32:8"); one more to the same line stalls the slot until the fill.
TEST_F(LsuTest, MissesMergeUpToLimitThenStall) {
  cfg.l1_mshr_merges = 3;
  for (uint64_t c = 0; c < 3; ++c) issue(c, load(7), uint16_t(c), 10 + c);
  EXPECT_EQ(take_requests().size(), 1u);
  EXPECT_EQ(lsu().mshrs_in_use(), 1u);
  EXPECT_EQ(lsu().stats().mshr_merges, 2u);
  EXPECT_EQ(lsu().stats().l1_misses, 3u);

  issue(3, load(7), 3, 13);  // a fourth: no room in the MSHR
  EXPECT_TRUE(lsu().stalled());
  EXPECT_EQ(lsu().stats().stall_cycles, 1u);
  EXPECT_TRUE(lsu().can_accept());  // the stalled load sits in the slot, the latch is free
  lsu().accept(4, 14, load(8));
  EXPECT_FALSE(lsu().can_accept());  // latch full: back-pressure to the schedulers
  cycle(4);
  cycle(5);
  EXPECT_EQ(lsu().stats().stall_cycles, 3u);
  EXPECT_FALSE(lsu().has_request());

  lsu().fill(7, 6, done);
  ASSERT_EQ(done.size(), 3u);
  for (uint16_t w = 0; w < 3; ++w) EXPECT_TRUE(is_done(done[w], w, 10 + w, 7));
  done.clear();
  cycle(6);  // the waiting load now hits the filled line
  ASSERT_EQ(done.size(), 1u);
  EXPECT_TRUE(is_done(done[0], 3, 13, 6 + cfg.l1_hit_latency));
  EXPECT_EQ(lsu().stats().stall_cycles, 3u);
  cycle(7);  // and the latched load moves on: a new miss
  auto reqs = take_requests();
  ASSERT_EQ(reqs.size(), 1u);
  EXPECT_EQ(reqs[0].line, 8u);
}

TEST_F(LsuTest, MshrsExhaustedStall) {
  cfg.l1_mshrs = 2;
  issue(0, load(1));
  issue(1, load(2));
  issue(2, load(3));
  EXPECT_TRUE(lsu().stalled());
  lsu().accept(0, 4, load(4));
  EXPECT_FALSE(lsu().can_accept());
  cycle(3);
  cycle(4);
  EXPECT_EQ(lsu().stats().stall_cycles, 3u);
  EXPECT_EQ(lsu().mshrs_in_use(), 2u);
  EXPECT_EQ(take_requests().size(), 2u);

  lsu().fill(1, 5, done);
  EXPECT_EQ(lsu().mshrs_in_use(), 1u);
  cycle(5);  // line 3 gets the freed MSHR
  EXPECT_FALSE(lsu().stalled());
  EXPECT_EQ(lsu().mshrs_in_use(), 2u);
  cycle(6);  // line 4: none left again
  EXPECT_TRUE(lsu().stalled());
  EXPECT_EQ(lsu().stats().stall_cycles, 4u);
  auto reqs = take_requests();
  ASSERT_EQ(reqs.size(), 1u);
  EXPECT_EQ(reqs[0].line, 3u);
}

// Allocate-on-miss: a miss whose set has every way waiting for a fill stalls the
// slot (GPGPU-Sim's LINE_ALLOC_FAIL) until a fill frees one; with the fill-time
// policy the same misses all go out.
TEST_F(LsuTest, AllocateOnMissStallsWhenEverySetWayWaits) {
  cfg.l1_allocate_on_miss = true;
  const uint64_t sets = cfg.l1_sets;
  for (uint64_t n = 0; n < cfg.l1_ways; ++n) issue(n, load(n * sets));  // set 0's ways all wait
  EXPECT_EQ(take_requests().size(), cfg.l1_ways);
  issue(10, load(cfg.l1_ways * sets));  // one more line of set 0
  EXPECT_TRUE(lsu().stalled());
  EXPECT_FALSE(lsu().has_request());
  EXPECT_LT(lsu().mshrs_in_use(), cfg.l1_mshrs);  // not for want of an MSHR
  lsu().fill(0, 11, done);
  cycle(11);
  EXPECT_FALSE(lsu().stalled());
  auto reqs = take_requests();
  ASSERT_EQ(reqs.size(), 1u);
  EXPECT_EQ(reqs[0].line, cfg.l1_ways * sets);
}

// A unified L1 whose carve-out gives ways back: a miss stalled because every way
// of its set waited for a fill goes on in the next cycle, without a fill.
TEST_F(LsuTest, WaysGivenBackRetryAStalledMiss) {
  cfg.l1_allocate_on_miss = true;
  const uint64_t sets = cfg.l1_sets;
  lsu().set_l1_ways(1);
  issue(0, load(0));     // takes set 0's one way, waiting for its fill
  issue(1, load(sets));  // set 0 again: no way
  EXPECT_TRUE(lsu().stalled());
  cycle(2);
  EXPECT_TRUE(lsu().stalled());
  EXPECT_EQ(lsu().next_work_cycle(2), kNever);  // as things stand only a fill could help
  lsu().set_l1_ways(cfg.l1_ways);
  EXPECT_EQ(lsu().next_work_cycle(2), 3u);
  cycle(3);
  EXPECT_FALSE(lsu().stalled());
  EXPECT_EQ(take_requests().size(), 2u);
}

TEST_F(LsuTest, FillTimeAllocationSendsEveryMissOfASet) {
  const uint64_t sets = cfg.l1_sets;
  for (uint64_t n = 0; n <= cfg.l1_ways; ++n) issue(n, load(n * sets));
  EXPECT_FALSE(lsu().stalled());
  EXPECT_EQ(take_requests().size(), cfg.l1_ways + 1);
}

TEST_F(LsuTest, FullMissQueueStalls) {
  cfg.miss_queue = 2;
  issue(0, load(1));
  issue(1, load(2));
  issue(2, load(3));
  EXPECT_TRUE(lsu().stalled());
  EXPECT_EQ(lsu().mshrs_in_use(), 2u);  // no MSHR taken by the stalled line
  cycle(3);
  EXPECT_EQ(lsu().stats().stall_cycles, 2u);
  lsu().pop_request();  // the interconnect took one
  cycle(4);
  EXPECT_FALSE(lsu().stalled());
  EXPECT_EQ(lsu().stats().stall_cycles, 2u);
  auto reqs = take_requests();
  ASSERT_EQ(reqs.size(), 2u);
  EXPECT_EQ(reqs[1].line, 3u);
}

TEST_F(LsuTest, FourLineInstructionTakesFourCyclesInTheSlot) {
  issue(0, load(100, 4), 2, 9);
  EXPECT_EQ(lsu().stats().l1_misses, 1u);
  lsu().accept(5, 6, load(300));  // waits in the latch behind the four lines
  for (uint64_t c = 1; c < 4; ++c) {
    EXPECT_FALSE(lsu().can_accept()) << c;
    cycle(c);
    EXPECT_EQ(lsu().stats().l1_misses, c + 1);
  }
  EXPECT_FALSE(lsu().can_accept());
  auto reqs = take_requests();
  ASSERT_EQ(reqs.size(), 4u);
  for (uint64_t i = 0; i < 4; ++i) EXPECT_EQ(reqs[i].line, 100 + i);
  cycle(4);
  EXPECT_TRUE(lsu().can_accept());
  ASSERT_EQ(take_requests().size(), 1u);  // line 300

  // The instruction completes when its last line is back: fills at 20, 25, 22, 24.
  const uint64_t fills[4] = {20, 25, 22, 24};
  for (uint64_t i = 0; i < 4; ++i) {
    EXPECT_TRUE(done.empty()) << i;
    lsu().fill(100 + i, fills[i], done);
  }
  ASSERT_EQ(done.size(), 1u);
  EXPECT_TRUE(is_done(done[0], 2, 9, 26));

  // Now all four hit: the last line is looked up 3 cycles after the first.
  done.clear();
  issue(30, load(100, 4), 2, 10);
  for (uint64_t c = 31; c < 34; ++c) cycle(c);
  ASSERT_EQ(done.size(), 1u);
  EXPECT_TRUE(is_done(done[0], 2, 10, 33 + cfg.l1_hit_latency));
}

TEST_F(LsuTest, StoresAreWriteThroughWriteEvict) {
  prime(9, 0);
  issue(5, store(9));
  EXPECT_TRUE(done.empty());
  EXPECT_EQ(lsu().mshrs_in_use(), 0u);
  auto reqs = take_requests();
  ASSERT_EQ(reqs.size(), 1u);
  EXPECT_EQ(reqs[0].line, 9u);
  EXPECT_TRUE(reqs[0].write);
  issue(6, store(50, 2));  // not cached: still written through, nothing allocated
  cycle(7);
  EXPECT_EQ(take_requests().size(), 2u);
  EXPECT_EQ(lsu().mshrs_in_use(), 0u);
  EXPECT_EQ(lsu().stats().stores, 2u);
  EXPECT_EQ(lsu().stats().store_lines, 3u);

  issue(8, load(9));  // evicted by the store: a miss
  EXPECT_EQ(lsu().stats().l1_hits, 0u);
  EXPECT_EQ(lsu().stats().l1_misses, 2u);  // the priming miss and this one
  reqs = take_requests();
  ASSERT_EQ(reqs.size(), 1u);
  EXPECT_FALSE(reqs[0].write);
}

TEST_F(LsuTest, FillCompletesMergedLoadsAndLaterAccessesHit) {
  issue(0, load(4), 0, 10);
  issue(1, load(4), 1, 11);
  issue(2, load(4), 2, 12);
  EXPECT_EQ(take_requests().size(), 1u);
  lsu().fill(4, 30, done);
  ASSERT_EQ(done.size(), 3u);
  for (uint16_t w = 0; w < 3; ++w) EXPECT_TRUE(is_done(done[w], w, 10 + w, 31));
  EXPECT_EQ(lsu().mshrs_in_use(), 0u);
  done.clear();
  issue(40, load(4), 5, 20);
  ASSERT_EQ(done.size(), 1u);
  EXPECT_TRUE(is_done(done[0], 5, 20, 40 + cfg.l1_hit_latency));
  EXPECT_EQ(lsu().stats().l1_hits, 1u);
  EXPECT_FALSE(lsu().has_request());
}

// ------------------------------------------------------------ the L1 access queue

// l1_access_latency 35, hits 3 cycles after the lookup (GPGPU-Sim's GTX480 figures).
class LsuQueueTest : public LsuTest {
 protected:
  static constexpr uint64_t kL = 35;
  LsuQueueTest() {
    cfg.l1_access_latency = kL;
    cfg.l1_hit_latency = 3;
  }
  void cycles(uint64_t from, uint64_t to) {  // ticks from .. to, inclusive
    for (uint64_t c = from; c <= to; ++c) cycle(c);
  }
  // Brings `line` into the L1 from cycle c (the miss looks up at c + kL) and forgets the traffic.
  void prime_queued(uint64_t line, uint64_t c) {
    issue(c, load(line), 47, 999);
    cycles(c + 1, c + kL);
    ASSERT_EQ(take_requests().size(), 1u);
    lsu().fill(line, c + kL + 1, done);
    done.clear();
  }
};

Inst atomic_load(uint64_t line) {
  Inst in = load(line);
  in.atomic = true;
  return in;
}

// A hit is looked up kL cycles after its line entered, and is ready l1_hit_latency after that.
TEST_F(LsuQueueTest, HitWaitsForItsLookup) {
  prime_queued(5, 0);
  issue(100, load(5), 3, 42);
  EXPECT_TRUE(lsu().can_accept());  // the line left the slot at once
  EXPECT_EQ(lsu().next_work_cycle(100), 100 + kL);
  cycles(101, 100 + kL - 1);
  EXPECT_TRUE(done.empty());
  EXPECT_FALSE(lsu().stalled());
  cycle(100 + kL);
  ASSERT_EQ(done.size(), 1u);
  EXPECT_TRUE(is_done(done[0], 3, 42, 100 + kL + 3));
  EXPECT_FALSE(lsu().busy());
  EXPECT_EQ(lsu().next_work_cycle(100 + kL), kNever);
}

// A miss takes its MSHR and goes to the interconnect at its lookup, not when it enters.
TEST_F(LsuQueueTest, MissIsSentAtItsLookup) {
  issue(0, load(7));
  cycles(1, kL - 1);
  EXPECT_FALSE(lsu().has_request());
  EXPECT_EQ(lsu().mshrs_in_use(), 0u);
  cycle(kL);
  EXPECT_EQ(lsu().mshrs_in_use(), 1u);
  auto reqs = take_requests();
  ASSERT_EQ(reqs.size(), 1u);
  EXPECT_EQ(reqs[0].line, 7u);
}

// One MSHR: the second miss's lookup is refused, and the hit behind it waits with it
// (in order, as GPGPU-Sim's queue) until the fill frees the MSHR.
TEST_F(LsuQueueTest, RefusedHeadHoldsTheLinesBehindIt) {
  cfg.l1_mshrs = 1;
  prime_queued(5, 0);
  const uint64_t t = 100;
  issue(t, load(7), 1, 1);
  issue(t + 1, load(8), 2, 2);
  issue(t + 2, load(5), 3, 3);
  cycles(t + 3, t + kL);  // 7 sent at t + kL
  EXPECT_EQ(take_requests().size(), 1u);
  cycle(t + kL + 1);  // 8 refused
  EXPECT_TRUE(lsu().stalled());
  EXPECT_EQ(lsu().next_work_cycle(t + kL + 1), kNever);  // only a fill can help
  cycles(t + kL + 2, t + 60);
  EXPECT_TRUE(done.empty());  // the hit behind waits
  EXPECT_EQ(lsu().stats().stall_cycles, 60 - kL);
  lsu().fill(7, t + 61, done);
  ASSERT_EQ(done.size(), 1u);
  EXPECT_EQ(lsu().next_work_cycle(t + 60), t + 61);
  cycle(t + 61);  // 8 gets the MSHR
  EXPECT_EQ(take_requests().size(), 1u);
  cycle(t + 62);  // then the hit looks up
  ASSERT_EQ(done.size(), 2u);
  EXPECT_TRUE(is_done(done[1], 3, 3, t + 62 + 3));
}

// The slot stalls only once the queue holds l1_access_latency lines; a four-line
// load leaves the slot after its four lines entered.
TEST_F(LsuQueueTest, FullQueueStallsTheSlot) {
  cfg.l1_access_latency = 4;
  cfg.l1_mshrs = 1;
  issue(0, load(7));         // looks up at 4, takes the one MSHR
  issue(1, load(20, 4), 1);  // 20, 21, 22 enter at 1-3
  cycles(2, 3);
  cycle(4);  // 7 looks up and leaves; 23 enters: the slot is free
  EXPECT_TRUE(lsu().can_accept());
  EXPECT_EQ(take_requests().size(), 1u);
  cycle(5);               // 20 refused: no MSHR
  issue(6, load(30), 2);  // to the slot, which the full queue refuses
  lsu().accept(3, 0, load(31));
  EXPECT_FALSE(lsu().can_accept());  // back-pressure reaches the schedulers
  EXPECT_TRUE(lsu().stalled());
  EXPECT_EQ(lsu().next_work_cycle(6), kNever);
  lsu().fill(7, 10, done);
  cycle(10);  // 20 takes the MSHR and leaves; 30 enters
  EXPECT_EQ(take_requests().size(), 1u);
  EXPECT_FALSE(lsu().stalled());
  cycle(11);  // 31 to the slot: the queue (21, 22, 23, 30) is full again
  EXPECT_TRUE(lsu().stalled());
  EXPECT_EQ(lsu().next_work_cycle(11), kNever);  // 21, due since 6, waits for an MSHR
}

// Stores invalidate and write at their lookup, so a load that entered before a store
// still hits and one that entered after misses; an atomic skips the queue.
TEST_F(LsuQueueTest, StoresWriteAtTheLookupAtomicsSkipTheQueue) {
  prime_queued(9, 0);
  const uint64_t t = 100;
  issue(t, load(9), 1, 1);
  issue(t + 1, store(9));
  issue(t + 2, load(9), 2, 2);
  issue(t + 3, atomic_load(60), 3, 3);
  auto reqs = take_requests();
  ASSERT_EQ(reqs.size(), 1u);  // the atomic, at once
  EXPECT_EQ(reqs[0].line, 60u);
  cycles(t + 4, t + kL);
  EXPECT_EQ(lsu().stats().l1_hits, 1u);  // the load before the store
  cycle(t + kL + 1);
  reqs = take_requests();
  ASSERT_EQ(reqs.size(), 1u);
  EXPECT_TRUE(reqs[0].write);
  cycle(t + kL + 2);
  EXPECT_EQ(lsu().stats().l1_hits, 1u);  // the load after it misses
  reqs = take_requests();
  ASSERT_EQ(reqs.size(), 1u);
  EXPECT_EQ(reqs[0].line, 9u);
  EXPECT_FALSE(reqs[0].write);
}

// A unit ticked only in the cycles next_work_cycle() names (and after a fill or a sent
// request, as the SM is), with the cycles between added by add_skipped_cycles(), counts
// what one ticked every cycle counts and completes the same loads at the same cycles.
void expect_skipping_changes_nothing(uint32_t access_latency, bool allocate_on_miss) {
  SmConfig cfg;
  cfg.l1_access_latency = access_latency;
  cfg.l1_allocate_on_miss = allocate_on_miss;
  cfg.l1_sets = 2;  // 16 lines in 2 sets of 4 ways: refusals for want of a way
  cfg.l1_hit_latency = 2;
  cfg.l1_mshrs = 2;
  cfg.miss_queue = 2;
  Lsu every(cfg), skipping(cfg);
  std::vector<Lsu::LoadDone> done_every, done_skipping;
  uint64_t next = 0, counted = 0;  // skipping's next work cycle and the cycles it has counted
  uint64_t lcg = 12345;
  auto rnd = [&lcg](uint64_t n) {
    lcg = lcg * 6364136223846793005ull + 1442695040888963407ull;
    return (lcg >> 33) % n;
  };
  for (uint64_t c = 1; c < 3000; ++c) {
    bool outside = false;
    if (c % 7 == 0 && rnd(2) == 0) {  // memory answers something outstanding (both sent the same)
      for (uint64_t line = 0; line < 16; ++line)
        if (rnd(3) == 0) {
          every.fill(line, c, done_every);
          skipping.fill(line, c, done_skipping);
          outside = true;
        }
    }
    if (rnd(50) == 0) {  // a unified L1's carve-out changes (inside the SM's tick)
      const uint32_t ways = uint32_t(1 + rnd(cfg.l1_ways));
      every.set_l1_ways(ways);
      skipping.set_l1_ways(ways);
      outside = true;
    }
    if (every.can_accept() && rnd(3) != 0) {  // often enough to fill the queue
      ASSERT_TRUE(skipping.can_accept()) << c;
      const uint64_t kind = rnd(8);
      Inst in = kind < 2 ? store(rnd(16), uint8_t(1 + rnd(2))) : load(rnd(16), uint8_t(1 + rnd(4)));
      in.atomic = kind == 2;
      every.accept(0, c, in);
      skipping.accept(0, c, in);
      outside = true;
    }
    every.cycle(c, done_every);
    if (outside || c >= next) {
      if (c - 1 > counted) skipping.add_skipped_cycles(c - 1 - counted);
      skipping.cycle(c, done_skipping);
      counted = c;
      // As the SM: a request may go after the cycle (its retry_ is seen by
      // next_work_cycle), and one left waiting keeps the unit ticking.
      if (skipping.has_request() && rnd(3) == 0) {
        ASSERT_TRUE(every.has_request()) << c;
        ASSERT_EQ(every.front_request().line, skipping.front_request().line) << c;
        every.pop_request();
        skipping.pop_request();
      }
      next = skipping.has_request() ? c + 1 : skipping.next_work_cycle(c);
    }
    ASSERT_EQ(done_skipping.size(), done_every.size()) << c;
  }
  skipping.add_skipped_cycles(2999 - counted);
  for (size_t i = 0; i < done_every.size(); ++i) EXPECT_EQ(done_skipping[i].ready_cycle, done_every[i].ready_cycle);
  const LsuStats& a = every.stats();
  const LsuStats& b = skipping.stats();
  EXPECT_GT(a.stall_cycles, 100u);  // the script exercises the stalls
  EXPECT_EQ(b.busy_cycles, a.busy_cycles);
  EXPECT_EQ(b.stall_cycles, a.stall_cycles);
  EXPECT_EQ(b.store_stall_cycles, a.store_stall_cycles);
  EXPECT_EQ(b.l1_hits, a.l1_hits);
  EXPECT_EQ(b.l1_misses, a.l1_misses);
}

TEST(LsuSkipTest, SkippedCyclesCountAsTickedOnes) { expect_skipping_changes_nothing(0, true); }
TEST(LsuSkipTest, SkippedCyclesCountAsTickedOnesWithTheAccessQueue) { expect_skipping_changes_nothing(6, false); }
TEST(LsuSkipTest, SkippedCyclesCountAsTickedOnesWithTheAccessQueueAndAllocateOnMiss) {
  expect_skipping_changes_nothing(6, true);
}

}  // namespace
}  // namespace gpupm
