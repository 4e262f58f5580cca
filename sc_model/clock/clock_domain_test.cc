// ClockDomain: edge times, cycle skipping, wake(), blocks called only when due
// (add_when_due), epochs (on_every) and period changes. Each TEST elaborates
// one design (ctest runs each in its own process).
#include "gpupm/clock/clock_domain.h"
#include "gpupm/clock/time_now.h"

#include "support/sc_bench.h"

#include <gtest/gtest.h>
#include <tlm_utils/simple_initiator_socket.h>

#include <functional>
#include <vector>

namespace gpupm {
namespace {

using sc_core::sc_time;
using sc_core::sc_time_stamp;

sc_time femtoseconds(uint64_t v) { return sc_time::from_value(v); }  // the resolution is 1 fs

// Records every tick; next_busy_cycle is whatever the test sets.
struct Recorder : Tickable {
  struct Tick {
    uint64_t cycle;
    sc_time at;
  };
  std::function<uint64_t(uint64_t)> next = [](uint64_t c) { return c + 1; };
  std::function<void(uint64_t)> on_tick;  // runs inside tick(), after the record
  std::vector<Tick> ticks;
  uint64_t next_busy = 0;  // what add_when_due() reads
  void tick(uint64_t cycle) override {
    ticks.push_back({cycle, sc_time_stamp()});
    next_busy = next(cycle);
    if (on_tick) on_tick(cycle);
  }
  uint64_t next_busy_cycle(uint64_t now) const override { return next(now); }
};

// A thread that runs the test's script and can send period changes.
struct Script : test::ScBench {
  tlm_utils::simple_initiator_socket<Script> period_out{"period_out"};
  Script(sc_core::sc_module_name name, ClockDomain& clock) : ScBench(name) { period_out.bind(clock.period_in); }
  void set_period(sc_time p) {
    ClockPeriodMsg m;
    m.period = p;
    send(period_out, m);
  }
};

using ClockDomainTest = test::ScTest;

const uint64_t kP = 1428571;  // 700 MHz: 1428.571 ps in fs

TEST_F(ClockDomainTest, TicksAtExactEdgeTimes) {
  ClockDomain clock("clock", sc_time(1428.571, sc_core::SC_PS));
  Recorder r;
  clock.add(&r);
  ASSERT_EQ(clock.period().value(), kP);
  sc_core::sc_start(femtoseconds(100 * kP + kP / 2));
  ASSERT_EQ(r.ticks.size(), 101u);
  for (uint64_t c = 0; c <= 100; ++c) {
    EXPECT_EQ(r.ticks[c].cycle, c);
    EXPECT_EQ(r.ticks[c].at, femtoseconds(c * kP)) << c;
  }
  EXPECT_EQ(clock.ticks_run(), 101u);
  EXPECT_EQ(clock.cycle(), 100u);
  EXPECT_EQ(clock.cycles_elapsed(), 100u);
}

TEST_F(ClockDomainTest, SkipsIdleCyclesAndWakesAtTheNextEdge) {
  ClockDomain clock("clock", femtoseconds(kP));
  Recorder r;
  r.next = [](uint64_t c) { return c + 1000; };
  clock.add(&r);
  Script s("script", clock);
  uint64_t elapsed_mid_skip = 0;
  s.body = [&] {
    sc_core::wait(femtoseconds(2500 * kP + kP / 2));  // between edges 2500 and 2501
    elapsed_mid_skip = clock.cycles_elapsed();
    clock.wake();
    s.wait_until(femtoseconds(3200 * kP));  // exactly on (skipped) edge 3200
    clock.wake();
  };
  sc_core::sc_start(femtoseconds(4300 * kP));
  std::vector<uint64_t> want = {0, 1000, 2000, 2501, 3200, 4200};
  ASSERT_EQ(r.ticks.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(r.ticks[i].cycle, want[i]);
    EXPECT_EQ(r.ticks[i].at, femtoseconds(want[i] * kP)) << i;
  }
  EXPECT_EQ(clock.ticks_run(), want.size());
  EXPECT_EQ(elapsed_mid_skip, 2500u);
  EXPECT_EQ(clock.cycles_elapsed(), 4300u);
}

TEST_F(ClockDomainTest, EpochCallbacksFireWhileSkipping) {
  ClockDomain clock("clock", femtoseconds(kP));
  Recorder r;
  r.next = [](uint64_t) { return kNever; };
  clock.add(&r);
  std::vector<uint64_t> at64, at100;
  std::vector<sc_time> times64;
  clock.on_every(64, [&](uint64_t c) {
    at64.push_back(c);
    times64.push_back(sc_time_stamp());
  });
  clock.on_every(100, [&](uint64_t c) { at100.push_back(c); });
  Script s("script", clock);
  s.body = [&] {
    sc_core::wait(femtoseconds(100 * kP + kP / 2));
    clock.wake();
  };
  sc_core::sc_start(femtoseconds(640 * kP - kP / 2));
  ASSERT_EQ(at64.size(), 10u);
  for (uint64_t j = 1; j <= 10; ++j) {
    EXPECT_EQ(at64[j - 1], 64 * j - 1);
    EXPECT_EQ(times64[j - 1], femtoseconds((64 * j - 1) * kP));
  }
  EXPECT_EQ(at100, (std::vector<uint64_t>{99, 199, 299, 399, 499, 599}));
  // Ticks: cycle 0, the 16 epoch ends (none shared), and 101 after the wake.
  EXPECT_EQ(clock.ticks_run(), 1u + 10u + 6u + 1u);
  EXPECT_EQ(clock.cycles_elapsed(), 639u);
}

TEST_F(ClockDomainTest, PeriodChangeAppliesFromTheNextEdge) {
  ClockDomain clock("clock", femtoseconds(kP));
  Recorder r;
  clock.add(&r);
  Script s("script", clock);
  const uint64_t kSlow = 2000000, kFast = 1000000;  // 2 ns, then 1 ns
  const sc_time t_fast = femtoseconds(10 * kP + 20 * kSlow + 9 * kP / 10);
  s.body = [&] {
    sc_core::wait(femtoseconds(10 * kP + kP / 3));  // mid-cycle, after edge 10
    s.set_period(femtoseconds(kSlow));
    EXPECT_EQ(clock.period(), femtoseconds(kSlow));
    // Mid-cycle again, later after the last edge than the new (shorter) period.
    s.wait_until(t_fast);
    s.set_period(femtoseconds(kFast));
  };
  sc_core::sc_start(femtoseconds(10 * kP + 20 * kSlow) + femtoseconds(40 * kFast));
  for (size_t i = 0; i < r.ticks.size(); ++i) ASSERT_EQ(r.ticks[i].cycle, i);  // no gap, no repeat
  for (uint64_t c = 0; c <= 10; ++c) EXPECT_EQ(r.ticks[c].at, femtoseconds(c * kP)) << c;
  for (uint64_t c = 11; c <= 30; ++c) EXPECT_EQ(r.ticks[c].at, femtoseconds(10 * kP + (c - 10) * kSlow)) << c;
  // The first edge after the second change is not before the message nor more
  // than one new period after it; from then on the edges are kFast apart.
  ASSERT_GT(r.ticks.size(), 40u);
  EXPECT_GE(r.ticks[31].at, t_fast);
  EXPECT_LE(r.ticks[31].at, t_fast + femtoseconds(kFast));
  for (size_t c = 32; c < r.ticks.size(); ++c) EXPECT_EQ(r.ticks[c].at - r.ticks[c - 1].at, femtoseconds(kFast)) << c;
  EXPECT_EQ(clock.ticks_run(), r.ticks.size());
}

TEST_F(ClockDomainTest, PeriodChangeDuringASkip) {
  ClockDomain clock("clock", femtoseconds(kP));
  Recorder r;
  r.next = [](uint64_t c) { return c < 1000 ? 1000 : kNever; };
  clock.add(&r);
  Script s("script", clock);
  const uint64_t kSlow = 2000000;
  uint64_t elapsed = 0;
  s.body = [&] {
    sc_core::wait(femtoseconds(100 * kP + kP / 2));  // edges 1..100 were skipped at the old period
    s.set_period(femtoseconds(kSlow));
    s.wait_until(femtoseconds(100 * kP + 450 * kSlow + kSlow / 2));
    elapsed = clock.cycles_elapsed();
  };
  sc_core::sc_start(femtoseconds(100 * kP + 1000 * kSlow));
  ASSERT_GE(r.ticks.size(), 2u);
  EXPECT_EQ(r.ticks.front().cycle, 0u);
  EXPECT_EQ(r.ticks.back().cycle, 1000u);
  EXPECT_EQ(r.ticks.back().at, femtoseconds(100 * kP + 900 * kSlow));
  for (const auto& t : r.ticks)
    if (t.cycle > 100) {
      EXPECT_EQ(t.at, femtoseconds(100 * kP + (t.cycle - 100) * kSlow)) << t.cycle;
    }
  EXPECT_LE(clock.ticks_run(), 3u);  // still skipping after the change
  EXPECT_EQ(elapsed, 550u);
  EXPECT_EQ(clock.cycles_elapsed(), 1000u + 100u);
}

TEST_F(ClockDomainTest, WhenDueBlocksAreCalledOnlyWhenDueOrWoken) {
  ClockDomain clock("clock", femtoseconds(kP));
  Recorder busy, every, lazy;  // busy keeps the domain ticking at every edge
  busy.next = [](uint64_t c) { return c + 1; };
  every.next = lazy.next = [](uint64_t c) { return c + 10; };
  clock.add(&busy);
  clock.add(&every);
  const size_t lazy_handle = clock.add_when_due(&lazy, lazy.next_busy);
  Script s("script", clock);
  s.body = [&] {
    sc_core::wait(femtoseconds(25 * kP + kP / 2));  // between edges 25 and 26
    clock.wake(lazy_handle);
  };
  sc_core::sc_start(femtoseconds(50 * kP + kP / 2));
  EXPECT_EQ(busy.ticks.size(), 51u);
  EXPECT_EQ(every.ticks.size(), 51u);  // add(): called at every edge the domain ticks
  std::vector<uint64_t> got;
  for (const auto& t : lazy.ticks) got.push_back(t.cycle);
  EXPECT_EQ(got, (std::vector<uint64_t>{0, 10, 20, 26, 36, 46}));
}

std::vector<uint64_t> cycles_of(const Recorder& r) {
  std::vector<uint64_t> cycles;
  for (const auto& t : r.ticks) cycles.push_back(t.cycle);
  return cycles;
}

TEST_F(ClockDomainTest, WhenDueBlocksChooseTheNextEdge) {
  ClockDomain clock("clock", femtoseconds(kP));
  Recorder every10, every15, idle;  // idle never asks for an edge: the others' answers alone set them
  every10.next = [](uint64_t c) { return c + 10; };
  every15.next = [](uint64_t c) { return c + 15; };
  idle.next = [](uint64_t) { return kNever; };
  clock.add_when_due(&every10, every10.next_busy);
  clock.add_when_due(&every15, every15.next_busy);
  clock.add(&idle);
  sc_core::sc_start(femtoseconds(50 * kP + kP / 2));
  EXPECT_EQ(cycles_of(every10), (std::vector<uint64_t>{0, 10, 20, 30, 40, 50}));
  EXPECT_EQ(cycles_of(every15), (std::vector<uint64_t>{0, 15, 30, 45}));  // also due while the other is not
  const std::vector<uint64_t> edges = {0, 10, 15, 20, 30, 40, 45, 50};
  EXPECT_EQ(cycles_of(idle), edges);
  EXPECT_EQ(clock.ticks_run(), edges.size());
}

TEST_F(ClockDomainTest, AWakeInsideItsOwnTickCallsTheBlockAtTheNextEdge) {
  ClockDomain clock("clock", femtoseconds(kP));
  Recorder lazy;
  lazy.next = [](uint64_t c) { return c + 10; };
  const size_t handle = clock.add_when_due(&lazy, lazy.next_busy);
  lazy.on_tick = [&](uint64_t c) {
    if (c == 10) clock.wake(handle);  // e.g. an SM whose finished CTA brings it a new one
  };
  sc_core::sc_start(femtoseconds(30 * kP + kP / 2));
  EXPECT_EQ(cycles_of(lazy), (std::vector<uint64_t>{0, 10, 11, 21}));
}

// Two domains whose edges meet every 6 ns, `later` running after `earlier`
// (runs_after). `later` is built first, so SystemC alone would run it first at
// time 0. Both blocks' ticks go to one log.
struct MeetingDomains {
  ClockDomain later{"later", sc_time(3, sc_core::SC_NS)};
  ClockDomain earlier{"earlier", sc_time(2, sc_core::SC_NS)};
  Recorder early_block, late_block;
  std::vector<std::pair<sc_time, char>> log;

  MeetingDomains() {
    later.runs_after(earlier);
    early_block.on_tick = [this](uint64_t) { log.push_back({sc_time_stamp(), 'e'}); };
    late_block.on_tick = [this](uint64_t) { log.push_back({sc_time_stamp(), 'l'}); };
  }
  // Expects `earlier`'s tick first at every time both ticked; returns how many such times.
  int shared_edges_in_order() const {
    int shared = 0;
    for (size_t i = 0; i + 1 < log.size(); ++i) {
      if (log[i].first != log[i + 1].first) continue;
      ++shared;
      EXPECT_EQ(log[i].second, 'e') << "at " << log[i].first;
      EXPECT_EQ(log[i + 1].second, 'l') << "at " << log[i].first;
    }
    return shared;
  }
};

// Edges of two domains at the same time run in the order runs_after() asks,
// not in the order SystemC's timed queue happens to give them (a queue a
// platform's own events share).
TEST_F(ClockDomainTest, CoincidingEdgesRunInTheOrderAsked) {
  MeetingDomains d;
  d.earlier.add(&d.early_block);
  d.later.add(&d.late_block);
  sc_core::sc_start(sc_time(25, sc_core::SC_NS));
  ASSERT_EQ(d.early_block.ticks.size(), 13u);  // 0, 2, ..., 24 ns
  ASSERT_EQ(d.late_block.ticks.size(), 9u);    // 0, 3, ..., 24 ns
  EXPECT_EQ(d.shared_edges_in_order(), 5);     // 0, 6, 12, 18, 24 ns
  for (uint64_t c = 0; c < d.late_block.ticks.size(); ++c) EXPECT_EQ(d.late_block.ticks[c].cycle, c);
  EXPECT_EQ(d.later.ticks_run(), 9u);  // no edge run twice
  EXPECT_EQ(d.earlier.ticks_run(), 13u);
}

// The same while the earlier domain skips idle cycles and is woken: it runs at
// a shared edge only when due, and a skipped edge stays skipped.
TEST_F(ClockDomainTest, CoincidingEdgesKeepTheOrderWhileSkipping) {
  MeetingDomains d;
  d.early_block.next = [](uint64_t c) { return c < 6 ? c + 3 : c + 1; };  // due at 0, 3, 6, 7, ... (0, 6, 12, 14 ns)
  d.earlier.add_when_due(&d.early_block, d.early_block.next_busy);
  d.later.add(&d.late_block);
  sc_core::sc_start(sc_time(19, sc_core::SC_NS));
  std::vector<uint64_t> early_cycles;
  for (const auto& t : d.early_block.ticks) early_cycles.push_back(t.cycle);
  EXPECT_EQ(early_cycles, (std::vector<uint64_t>{0, 3, 6, 7, 8, 9}));
  EXPECT_EQ(d.shared_edges_in_order(), 4);   // 0, 6, 12, 18 ns
  EXPECT_EQ(d.late_block.ticks.size(), 7u);  // 0, 3, ..., 18 ns
}

// A wake that the earlier domain's edge sends at a shared time finds the later
// domain's edge at that time still to run: that edge serves it, whichever
// domain's process SystemC runs first, and no extra edge follows (a wake that
// re-aimed would add one a period later).
TEST_F(ClockDomainTest, AWakeAtASharedEdgeIsServedByThatEdge) {
  MeetingDomains d;
  d.late_block.next = [](uint64_t c) { return c + 2; };  // due at 0, 6, 12 ns
  d.earlier.add(&d.early_block);
  d.later.add(&d.late_block);
  d.early_block.on_tick = [&d](uint64_t c) {
    if (c == 3) d.later.wake();  // at 6 ns, e.g. a request for the memory
  };
  sc_core::sc_start(sc_time(13, sc_core::SC_NS));
  EXPECT_EQ(cycles_of(d.late_block), (std::vector<uint64_t>{0, 2, 4}));
  EXPECT_EQ(d.later.ticks_run(), 3u);
}

// The inline form matches the library's to_seconds() rounding bit for bit, at
// exact halves (500 fs past a whole picosecond) too.
TEST_F(ClockDomainTest, RoundedPicosecondsAreTheLibrarysRounding) {
  uint64_t v = 1;
  for (int i = 0; i < 200000; ++i) {
    v = v * 6364136223846793005ull + 1442695040888963407ull;  // a 64-bit LCG
    const uint64_t fs = (v >> 20) % 20000000000000ull;        // up to 20 s
    for (uint64_t value : {fs, fs / 1000 * 1000 + 500}) {
      const sc_time t = femtoseconds(value);
      ASSERT_EQ(rounded_picoseconds(t), uint64_t(t.to_seconds() * 1e12 + 0.5)) << value;
    }
  }
}

}  // namespace
}  // namespace gpupm
