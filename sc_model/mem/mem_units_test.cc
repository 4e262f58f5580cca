// Unit tests of the memory block's parts that need no simulation: the L2
// clock fraction, the address map, the DRAM channel (FR-FCFS order, timing,
// bandwidth), the L2 slice's stalls and the config reader.
#include "gpupm/common/json_reader.h"
#include "gpupm/mem/address_map.h"
#include "gpupm/mem/dram_channel.h"
#include "gpupm/mem/interconnect.h"
#include "gpupm/mem/l2_slice.h"
#include "gpupm/mem/mem_config.h"
#include "gpupm/mem/ratio_clock.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>
#include <vector>

namespace gpupm {
namespace {

TEST(RatioClock, GtxRatioIsExactlyTwentyFiveOfThirtyThreeEdges) {
  RatioClock l2 = RatioClock::from_ratio(700.0 / 924.0);
  EXPECT_EQ(l2.p(), 25u);
  EXPECT_EQ(l2.q(), 33u);
  uint64_t edges = 0;
  for (uint64_t c = 0; c < 33 * 1000; ++c) {
    if (!l2.is_edge(c)) continue;
    EXPECT_EQ(l2.cmd_of(edges), c);
    EXPECT_EQ(l2.index_at(c), edges);
    EXPECT_EQ(l2.first_at_or_after(c), edges);
    ++edges;
  }
  EXPECT_EQ(edges, 25u * 1000);
  EXPECT_EQ(l2.edges_through(33 * 1000 - 1), 25u * 1000);
  EXPECT_EQ(l2.first_at_or_after(1), 1u);  // edge 1 is at command cycle 2
  EXPECT_EQ(RatioClock::from_ratio(1.0).p(), 1u);
  EXPECT_EQ(RatioClock::from_ratio(1.0).q(), 1u);
}

// The L2 following the SM clock (l2_clock "core"): the ratio changes mid-run and
// may exceed 1 (several L2 edges on one command edge); edge indices stay continuous.
TEST(RatioClock, RetimedRatioKeepsTheEdgeCountContinuous) {
  RatioClock l2 = RatioClock::from_ratio(1000.0 / 1375.0);  // 8/11
  ASSERT_EQ(l2.p(), 8u);
  ASSERT_EQ(l2.q(), 11u);
  EXPECT_EQ(l2.index_at(1100), 800u);
  l2.retime(1100, RatioClock::from_ratio(1000.0 / 475.0));  // 40/19: memory clock lowered
  EXPECT_EQ(l2.p(), 40u);
  EXPECT_EQ(l2.q(), 19u);
  EXPECT_EQ(l2.index_at(1100), 800u);       // the change point keeps its index
  EXPECT_EQ(l2.index_at(1099), 799u);       // before it, the old ratio
  EXPECT_EQ(l2.index_at(1100 + 19), 840u);  // 40 edges per 19 command cycles after it
  EXPECT_EQ(l2.first_at_or_after(1101), 801u);
  EXPECT_EQ(l2.index_at(1101), 802u);  // two L2 edges on command cycle 1101
  EXPECT_TRUE(l2.is_edge(1101));
  EXPECT_EQ(l2.cmd_of(801), 1101u);
  EXPECT_EQ(l2.cmd_of(802), 1101u);
  EXPECT_EQ(l2.cmd_of(800), 1100u);        // edge 800 belongs to the old ratio
  for (uint64_t k = 801; k < 1000; ++k) {  // cmd_of is the first command cycle reaching edge k
    uint64_t c = l2.cmd_of(k);
    EXPECT_GE(l2.index_at(c), k);
    EXPECT_LT(l2.index_at(c - 1), k);
  }
  l2.retime(1200, RatioClock::from_ratio(1000.0 / 475.0));  // same ratio: nothing changes
  EXPECT_EQ(l2.index_at(1100 + 19 * 10), 800u + 400u);
  l2.retime(1300, RatioClock::from_ratio(300.0 / 475.0));  // and back below 1
  uint64_t k0 = 800 + (1300 - 1100) * 40 / 19;
  EXPECT_EQ(l2.index_at(1300), k0);
  EXPECT_EQ(l2.index_at(1300 + 19), k0 + 12);
}

TEST(AddressMap, InterleavesSixChannelsAndWalksRowsBeforeBanks) {
  MemConfig c;  // 256 B interleave = 2 lines, 16 lines per row, 16 banks
  AddressMap map(c);
  for (uint64_t line = 0; line < 24; ++line) {
    EXPECT_EQ(map.place(line).channel, line / 2 % 6) << line;
    EXPECT_EQ(map.place(line).local_line, line / 12 * 2 + line % 2) << line;
    EXPECT_EQ(map.global_line(map.place(line).channel, map.place(line).local_line), line);
  }
  EXPECT_EQ(map.column(15), 15u);
  EXPECT_EQ(map.dram(15).bank, 0u);
  EXPECT_EQ(map.dram(16).bank, 1u);
  EXPECT_EQ(map.dram(16 * 16).bank, 0u);
  EXPECT_EQ(map.dram(16 * 16).row, 1u);
}

// place() against the definition in plain divisions, for chunks of a power of two
// lines and not, six and eight channels, hashed and not, small lines and large.
TEST(AddressMap, PlaceIsTheDivisionsOfTheDefinition) {
  for (uint32_t interleave : {256u, 384u})
    for (uint32_t channels : {6u, 8u})
      for (bool hashed : {false, true}) {
        MemConfig c;
        c.interleave_bytes = interleave;
        c.channels = channels;
        c.hashed_channels = hashed;
        const AddressMap map(c);
        const uint64_t per_chunk = interleave / c.line_bytes;
        uint64_t x = 12345;
        for (int i = 0; i < 20000; ++i) {
          x = x * 6364136223846793005ull + 1442695040888963407ull;
          const uint64_t line = i < 5000 ? uint64_t(i) : x >> 24;  // below 2^40 lines
          const uint64_t chunk = line / per_chunk, run = chunk / channels;
          const uint64_t rotation = hashed ? (run * 0x9E3779B97F4A7C15ull) >> 40 : 0;
          const LinePlace place = map.place(line);
          ASSERT_EQ(place.channel, (chunk + rotation) % channels) << line;
          ASSERT_EQ(place.local_line, run * per_chunk + line % per_chunk) << line;
        }
      }
}

// Hashed channel indexing: every run of `channels` chunks still covers each
// channel once (the inverse holds), and a stride of whole runs, which camps on
// one channel under consecutive indexing, spreads over all of them.
TEST(AddressMap, HashedChannelsSpreadRunStridesAndInvert) {
  MemConfig c;
  c.channels = 12;
  c.hashed_channels = true;
  AddressMap map(c);
  for (uint64_t run = 0; run < 50; ++run) {
    std::set<uint32_t> seen;
    for (uint64_t line = run * 24; line < run * 24 + 24; ++line) {
      seen.insert(map.place(line).channel);
      EXPECT_EQ(map.place(line).local_line, line / 24 * 2 + line % 2) << line;
      EXPECT_EQ(map.global_line(map.place(line).channel, map.place(line).local_line), line) << line;
    }
    EXPECT_EQ(seen.size(), 12u) << run;
  }
  MemConfig plain = c;
  plain.hashed_channels = false;
  AddressMap consecutive(plain);
  std::set<uint32_t> hashed_hits, consecutive_hits;
  for (uint64_t k = 0; k < 240; ++k) {  // a grid-stride walk: 960 runs per step
    hashed_hits.insert(map.place(k * 960 * 24).channel);
    consecutive_hits.insert(consecutive.place(k * 960 * 24).channel);
  }
  EXPECT_EQ(consecutive_hits.size(), 1u);
  EXPECT_EQ(hashed_hits.size(), 12u);
}

// Runs a channel and records every command with its cycle.
struct ChannelRun {
  explicit ChannelRun(const MemConfig& c) : cfg(c), ch(c) {}
  struct Issued {
    uint64_t cycle;
    DramCommand cmd;
  };
  void step() {
    DramCommand cmd = ch.step(cycle);
    if (cmd.op != DramOp::kNone) log.push_back({cycle, cmd});
    uint32_t tag;
    uint64_t done;
    while (ch.pop_read_done(cycle, &tag, &done)) read_tags.push_back(tag);
    ++cycle;
  }
  void run_until_idle(uint64_t limit) {
    while (!ch.idle() && cycle < limit) step();
  }
  std::vector<DramOp> ops() const {
    std::vector<DramOp> v;
    for (const Issued& i : log) v.push_back(i.cmd.op);
    return v;
  }
  MemConfig cfg;
  DramChannel ch;
  uint64_t cycle = 0;
  std::vector<Issued> log;
  std::vector<uint32_t> read_tags;
};

TEST(DramChannel, UnloadedReadIsActivateThenReadAfterTrcd) {
  ChannelRun run{MemConfig{}};
  run.ch.enqueue(3, 7, false, 42);
  run.run_until_idle(1000);
  const DramTiming t;
  ASSERT_EQ(run.log.size(), 2u);
  EXPECT_EQ(run.log[0].cmd.op, DramOp::kActivate);
  EXPECT_EQ(run.log[0].cycle, 0u);
  EXPECT_EQ(run.log[1].cmd.op, DramOp::kRead);
  EXPECT_EQ(run.log[1].cycle, t.tRCD);
  EXPECT_EQ(run.ch.next_read_done(), kNever);
  EXPECT_EQ(run.read_tags, std::vector<uint32_t>{42});
  // Data complete tCL + burst after the RD: popped in that cycle, the run stops after it.
  EXPECT_EQ(run.cycle, t.tRCD + t.tCL + run.ch.burst_cycles() + 1);
}

TEST(DramChannel, FrFcfsServesYoungerRowHitBeforeOlderRowMiss) {
  ChannelRun run{MemConfig{}};
  run.ch.enqueue(0, 0, false, 1);
  while (run.log.size() < 2) run.step();  // ACT row 0, RD: row 0 stays open
  run.ch.enqueue(0, 1, false, 2);         // older, row miss
  run.ch.enqueue(0, 0, false, 3);         // younger, row hit
  run.run_until_idle(1000);
  std::vector<DramOp> expected = {DramOp::kActivate,  DramOp::kRead,     DramOp::kRead,
                                  DramOp::kPrecharge, DramOp::kActivate, DramOp::kRead};
  EXPECT_EQ(run.ops(), expected);
  EXPECT_EQ(run.read_tags, (std::vector<uint32_t>{1, 3, 2}));
}

TEST(DramChannel, OldestFirstAmongRowHitsAndAcrossBanks) {
  ChannelRun run{MemConfig{}};
  run.ch.enqueue(0, 5, false, 1);
  run.ch.enqueue(1, 5, false, 2);  // other bank: its ACT goes while bank 0 waits tRCD
  run.ch.enqueue(0, 5, false, 3);
  run.run_until_idle(1000);
  std::vector<DramOp> expected = {DramOp::kActivate, DramOp::kActivate, DramOp::kRead, DramOp::kRead, DramOp::kRead};
  EXPECT_EQ(run.ops(), expected);
  EXPECT_EQ(run.log[1].cycle, MemConfig{}.t.tRRD);
  EXPECT_EQ(run.read_tags, (std::vector<uint32_t>{1, 3, 2}));  // bank 0 opened first
}

// Of two row commands that can both go, the older request's goes first: a PRE
// for an older row miss before a younger request's ACT, and the other way round.
TEST(DramChannel, OldestRowCommandGoesFirst) {
  for (bool pre_older : {true, false}) {
    ChannelRun run{MemConfig{}};
    run.ch.enqueue(0, 0, false, 1);
    while (run.log.size() < 2) run.step();  // ACT row 0, RD: bank 0 stays open
    run.run_until_idle(1000);
    const uint64_t quiet = run.cycle + 100;  // every bank timing has expired by then
    while (run.cycle < quiet) run.step();
    if (pre_older) run.ch.enqueue(0, 1, false, 2);  // row miss on open bank 0: PRE first
    run.ch.enqueue(1, 3, false, 3);                 // closed bank 1: ACT first
    if (!pre_older) run.ch.enqueue(0, 1, false, 2);
    while (run.log.size() < 3) run.step();
    EXPECT_EQ(run.log[2].cmd.op, pre_older ? DramOp::kPrecharge : DramOp::kActivate) << pre_older;
    EXPECT_EQ(run.log[2].cycle, quiet) << pre_older;
  }
}

// A younger row hit keeps its bank open: an older row miss on that bank gets no
// PRE while the hit waits for the data bus, though the PRE's own timing allows it.
TEST(DramChannel, YoungerRowHitHoldsBackThePrechargeOfItsBank) {
  ChannelRun run{MemConfig{}};
  run.ch.enqueue(0, 0, false, 1);
  run.ch.enqueue(1, 3, false, 2);
  run.run_until_idle(1000);  // banks 0 and 1 stay open on rows 0 and 3
  const uint64_t quiet = run.cycle + 100;
  while (run.cycle < quiet) run.step();
  run.ch.enqueue(0, 1, false, 3);  // oldest: row miss on bank 0
  run.ch.enqueue(1, 3, false, 4);  // row hit on bank 1: goes first
  run.ch.enqueue(0, 0, false, 5);  // youngest: row hit on bank 0, waits for the bus
  run.run_until_idle(quiet + 1000);
  ASSERT_EQ(run.log.size(), 9u);
  std::vector<DramOp> expected = {DramOp::kRead, DramOp::kRead, DramOp::kPrecharge, DramOp::kActivate, DramOp::kRead};
  const std::vector<DramOp> ops = run.ops();
  EXPECT_EQ(std::vector<DramOp>(ops.begin() + 4, ops.end()), expected);
  EXPECT_EQ(run.log[4].cmd.bank, 1u);
  EXPECT_EQ(run.log[5].cmd.bank, 0u);
  EXPECT_EQ(run.read_tags, (std::vector<uint32_t>{1, 2, 4, 5, 3}));
}

// A PRE turns the other mode's row hits into misses, and an ACT turns the queued
// requests of its row into hits, in both queues: a write that hit the open row
// when it came is served after its bank was closed and opened for a read.
TEST(DramChannel, RowHitsFollowTheBankAcrossBothQueues) {
  ChannelRun run{MemConfig{}};
  run.ch.enqueue(0, 0, false, 1);
  while (run.log.size() < 2) run.step();  // ACT row 0, RD: row 0 stays open
  run.ch.enqueue(0, 1, false, 2);         // a read of another row
  run.ch.enqueue(0, 0, true, 3);          // a write hitting the open row, held while reads wait
  run.run_until_idle(1000);
  std::vector<DramOp> expected = {DramOp::kActivate, DramOp::kRead,      DramOp::kPrecharge, DramOp::kActivate,
                                  DramOp::kRead,     DramOp::kPrecharge, DramOp::kActivate,  DramOp::kWrite};
  EXPECT_EQ(run.ops(), expected);
  EXPECT_EQ(run.log.back().cmd.row, 0u);

  ChannelRun opened{MemConfig{}};
  opened.ch.enqueue(2, 5, false, 1);
  opened.ch.enqueue(2, 5, true, 2);  // queued while bank 2 is closed: a hit once the read opens row 5
  opened.run_until_idle(1000);
  EXPECT_EQ(opened.ops(), (std::vector<DramOp>{DramOp::kActivate, DramOp::kRead, DramOp::kWrite}));
}

// Replays a command log and checks every DramTiming constraint independently.
void check_timing(const MemConfig& cfg, const std::vector<ChannelRun::Issued>& log) {
  const DramTiming& t = cfg.t;
  const uint64_t burst = cfg.line_bytes / (cfg.bus_bytes * cfg.data_rate);
  constexpr int64_t kLongAgo = -1000000;
  struct BankState {
    bool open = false;
    uint64_t row = 0;
    int64_t act = kLongAgo, pre = kLongAgo, rd = kLongAgo, wr_data_end = kLongAgo;
  };
  std::vector<BankState> banks(cfg.banks);
  int64_t last_act = kLongAgo, last_col = kLongAgo, bus_end = kLongAgo, wr_end = kLongAgo;
  int64_t last_cycle = -1;
  for (const auto& i : log) {
    int64_t c = int64_t(i.cycle);
    ASSERT_GT(c, last_cycle) << "two commands in one cycle";
    last_cycle = c;
    BankState& b = banks[i.cmd.bank];
    switch (i.cmd.op) {
      case DramOp::kActivate:
        ASSERT_FALSE(b.open) << c;
        ASSERT_GE(c, b.pre + t.tRP) << "tRP at " << c;
        ASSERT_GE(c, b.act + t.tRC) << "tRC at " << c;
        ASSERT_GE(c, last_act + t.tRRD) << "tRRD at " << c;
        b.open = true, b.row = i.cmd.row, b.act = c, last_act = c;
        break;
      case DramOp::kPrecharge:
        ASSERT_TRUE(b.open) << c;
        ASSERT_GE(c, b.act + t.tRAS) << "tRAS at " << c;
        ASSERT_GE(c, b.rd + t.tRTP) << "tRTP at " << c;
        ASSERT_GE(c, b.wr_data_end + t.tWR) << "tWR at " << c;
        b.open = false, b.pre = c;
        break;
      case DramOp::kRead:
      case DramOp::kWrite: {
        bool write = i.cmd.op == DramOp::kWrite;
        ASSERT_TRUE(b.open && b.row == i.cmd.row) << "column command to a closed row at " << c;
        ASSERT_GE(c, b.act + t.tRCD) << "tRCD at " << c;
        ASSERT_GE(c, last_col + t.tCCD) << "tCCD at " << c;
        int64_t start = c + (write ? t.tWL : t.tCL);
        ASSERT_GE(start, bus_end) << "data bus overlap at " << c;
        if (!write) {
          ASSERT_GE(c, wr_end + t.tWTR) << "tWTR at " << c;
        }
        bus_end = start + int64_t(burst);
        last_col = c;
        if (write) {
          b.wr_data_end = wr_end = bus_end;
        } else {
          b.rd = c;
        }
        break;
      }
      case DramOp::kNone: break;
    }
  }
}

// The scheduler's per-bank hit and miss counts, which it trusts to find the
// request it picks, match its queues after every step: random traffic of reads
// and writes over 1-64 banks, few rows (hits, conflicts, write drains) or far
// apart, queues and drain marks of any size, and cycles left out between steps.
TEST(DramChannel, CountsFollowTheQueues) {
  std::mt19937 rng(11);
  for (int config = 0; config < 60; ++config) {
    MemConfig cfg;
    cfg.banks = config % 5 == 0 ? 64 : 1 + rng() % 16;
    cfg.mc_queue = 1 + rng() % 40;
    cfg.mc_write_queue = 2 + rng() % 40;
    cfg.write_drain_high = 1 + rng() % cfg.mc_write_queue;
    cfg.write_drain_low = rng() % cfg.write_drain_high;
    const uint64_t row_base = config % 3 == 0 ? (uint64_t(1) << 35) - 8 : 0;
    ChannelRun run{cfg};
    uint32_t tag = 0;
    while (run.cycle < 4000) {
      for (uint32_t k = rng() % 4; k > 0; --k) {
        const bool write = rng() % 3 == 0;
        if ((write ? run.ch.free_write_slots() : run.ch.free_read_slots()) == 0) continue;
        run.ch.enqueue(rng() % cfg.banks, row_base + rng() % 4, write, tag++);
      }
      run.step();
      run.cycle += rng() % 3 == 0 ? rng() % 20 : 0;  // a tick planned later
      ASSERT_TRUE(run.ch.counts_match_queues()) << "config " << config << ", cycle " << run.cycle;
    }
    run.run_until_idle(run.cycle + 100000);
    ASSERT_TRUE(run.ch.idle()) << config;
    EXPECT_TRUE(run.ch.counts_match_queues()) << config;
    EXPECT_EQ(run.ch.counters().reads + run.ch.counters().writes, tag) << config;
    check_timing(cfg, run.log);
  }
}

TEST(DramChannel, RandomMixedTrafficMeetsEveryTimingConstraint) {
  MemConfig cfg;
  ChannelRun run{cfg};
  std::mt19937 rng(7);
  uint32_t issued = 0;
  while (run.cycle < 20000) {
    while (run.ch.free_read_slots() > 0 && run.ch.free_write_slots() > 0 && issued < 3000) {
      run.ch.enqueue(rng() % 4, rng() % 3, rng() % 3 == 0, issued++);
    }
    run.step();
  }
  run.run_until_idle(100000);
  check_timing(cfg, run.log);
  const DramCounters& n = run.ch.counters();
  EXPECT_EQ(n.reads + n.writes, issued);
  EXPECT_EQ(run.read_tags.size(), n.reads);
  EXPECT_GT(n.precharges, 100u);  // row conflicts really happened
}

double stream_bus_utilisation(bool write) {
  MemConfig cfg;
  AddressMap map(cfg);
  ChannelRun run{cfg};
  uint64_t next_line = 0;
  const uint64_t cycles = 20000;
  while (run.cycle < cycles) {
    while (run.ch.free_read_slots() > 0 && run.ch.free_write_slots() > 0) {
      DramLocation at = map.dram(next_line++);
      run.ch.enqueue(at.bank, at.row, write, 0);
    }
    run.step();
  }
  check_timing(cfg, run.log);
  return double(run.ch.counters().bus_busy) / double(cycles);
}

TEST(DramChannel, SequentialStreamKeepsTheDataBusBusy) {
  EXPECT_GE(stream_bus_utilisation(false), 0.97);
  EXPECT_GE(stream_bus_utilisation(true), 0.97);
}

// parse_mem_config as a GPU config reader would call it.
MemConfig parse(const std::string& text) {
  Json j = parse_json_text(text, "gpu.json");
  JsonReader r(j, "gpu.json", "mem");
  MemConfig c = parse_mem_config(r);
  r.finish();
  return c;
}

// Parsing `text` must fail with an InputError whose message contains `needle`.
testing::AssertionResult fails_with(const std::string& text, const std::string& needle) {
  try {
    parse(text);
  } catch (const InputError& e) {
    if (std::string(e.what()).find(needle) != std::string::npos) return testing::AssertionSuccess();
    return testing::AssertionFailure() << "message: " << e.what();
  }
  return testing::AssertionFailure() << "no error";
}

// One response of a test: the slice it leaves, its SM port and its line (which
// picks a blocking crossbar's sub-partition output).
struct TestResponse {
  uint32_t slice, port;
  uint64_t line;
};

// Runs `responses` (ids in their order) through a network of `channels` slices
// and two SM ports (1 flit a cycle per port, 2 per slice, no latency): (id, cycle
// delivered) in delivery order.
std::vector<std::pair<uint32_t, uint64_t>> deliveries(bool blocking, uint32_t channels,
                                                      const std::vector<TestResponse>& responses) {
  MemConfig cfg;
  cfg.channels = channels;
  cfg.icnt_latency = 0;
  cfg.slice_out_flits = 2;
  cfg.sm_in_flits = 1;
  cfg.blocking_responses = blocking;
  RequestPool pool(8);
  ResponseNetwork net(cfg, pool);
  net.set_ports(2);
  for (const TestResponse& r : responses) {
    const uint32_t id = pool.alloc();
    pool[id].port = r.port;
    pool[id].local_line = r.line;
    net.push(r.slice, id, 0);
  }
  std::vector<std::pair<uint32_t, uint64_t>> out;
  for (uint64_t c = 0; c < 40 && !net.empty(); ++c) net.step(c, [&](uint32_t id) { out.push_back({id, c}); });
  return out;
}

// Two slices each send a 4-flit read response to SM port 0 and then one to port 1.
// Queued: both slices pour their port-0 responses into port 0's queue in two
// cycles and go on to port 1, port 0 delivering one response every 4 cycles.
// Blocking: port 0 takes one flit a cycle in all, so the output that loses it
// waits, and port 1's responses wait behind the port-0 ones (head-of-line blocking).
std::vector<std::pair<uint32_t, uint64_t>> deliveries(bool blocking) {
  return deliveries(blocking, 2, {{0, 0, 0}, {0, 1, 0}, {1, 0, 0}, {1, 1, 0}});
}

TEST(ResponseNetwork, QueuedPortsTakeEveryFlitTheSlicesSend) {
  // ids: slice 0 -> 0 (port 0), 1 (port 1); slice 1 -> 2 (port 0), 3 (port 1)
  // id 0 crosses in cycles 0-1 and enters port 0 in 1-4; id 2 crosses with it
  // and queues behind it (5-8); the port-1 responses cross in cycles 2-3.
  const std::vector<std::pair<uint32_t, uint64_t>> want = {{0, 4}, {1, 6}, {2, 8}, {3, 10}};
  EXPECT_EQ(deliveries(false), want);
}

TEST(ResponseNetwork, BlockingCrossbarHoldsASliceBehindItsFullPort) {
  // Each slice has two outputs of a flit a cycle; all four responses are of line
  // 0, so each slice's go out of one. Port 0 passes one flit a cycle to the two
  // slices in turn (the outputs' priority rotates with the cycle: ids 2 and 0
  // done in cycles 6 and 7), and the port-1 responses wait behind them though
  // port 1 is idle: they share it from cycle 7 (done at 13 and 14).
  const std::vector<std::pair<uint32_t, uint64_t>> want = {{2, 6}, {0, 7}, {3, 13}, {1, 14}};
  EXPECT_EQ(deliveries(true), want);
}

// A slice's two sub-partition outputs move independently: a response of line 1
// to port 1 does not wait behind one of line 0 to port 0 (each a flit a cycle).
TEST(ResponseNetwork, BlockingCrossbarSubPartitionsAreSeparateOutputs) {
  for (uint64_t second_line : {1u, 0u}) {
    const auto got = deliveries(true, 1, {{0, 0, 0}, {0, 1, second_line}});
    std::vector<uint64_t> done(2, 0);
    for (const auto& [id, cycle] : got) done[id] = cycle;
    EXPECT_EQ(done[0], 3u) << second_line;
    EXPECT_EQ(done[1], second_line == 1 ? 3u : 7u) << second_line;  // same output: behind the first
  }
}

// A head that stalled (no DRAM read slot) is looked up again each L2 cycle, and the
// retry skips the tag search while no line came in: a host copy that brings its
// line in makes the next lookup a hit.
TEST(L2Slice, AStalledMissHitsOnceAHostCopyBringsItsLineIn) {
  MemConfig cfg;
  cfg.mc_queue = 1;
  RequestPool pool(8);
  ResponseNetwork responses(cfg, pool);
  responses.set_ports(1);
  DramChannel dram(cfg);
  L2Slice slice(cfg, 0);
  const uint32_t first = pool.alloc(), second = pool.alloc();
  pool[first].local_line = 0;
  pool[second].local_line = 1;
  EXPECT_EQ(slice.lookup(first, 0, pool, dram, responses), L2Outcome::kMiss);  // takes the one DRAM slot
  EXPECT_EQ(slice.lookup(second, 1, pool, dram, responses), L2Outcome::kStall);
  EXPECT_EQ(slice.lookup(second, 2, pool, dram, responses), L2Outcome::kStall);
  slice.install_copy(1);
  EXPECT_EQ(slice.lookup(second, 3, pool, dram, responses), L2Outcome::kHit);
}

TEST(MemConfigParse, EmptyObjectGivesTheDefaultsAndKeysOverride) {
  MemConfig d;
  MemConfig c = parse("{}");
  EXPECT_EQ(c.channels, d.channels);
  EXPECT_EQ(c.t.tRC, d.t.tRC);
  EXPECT_DOUBLE_EQ(c.l2_clock_ratio, d.l2_clock_ratio);
  c = parse(R"({"channels": 8, "l2_clock_ratio": 0.5, "dram_timing": {"tCL": 10}})");
  EXPECT_EQ(c.channels, 8u);
  EXPECT_DOUBLE_EQ(c.l2_clock_ratio, 0.5);
  EXPECT_EQ(c.t.tCL, 10u);
  EXPECT_EQ(c.t.tRCD, d.t.tRCD);
}

TEST(MemConfigParse, RejectsUnknownKeysAndBadValuesNamingThePath) {
  EXPECT_TRUE(fails_with(R"({"chanels": 6})", "gpu.json: mem.chanels: unknown key"));
  EXPECT_TRUE(fails_with(R"({"channels": 0})", "gpu.json: mem.channels: expected"));
  EXPECT_TRUE(fails_with(R"({"dram_timing": {"tXYZ": 1}})", "mem.dram_timing.tXYZ: unknown key"));
  EXPECT_TRUE(fails_with(R"({"dram_timing": {"tRC": 30}})", "mem.dram_timing.tRC: expected tRC >= tRAS + tRP"));
  EXPECT_TRUE(fails_with(R"({"row_bytes": 2000})", "mem.row_bytes: expected"));
  EXPECT_TRUE(fails_with(R"({"line_bytes": 96})", "mem.line_bytes: expected a power of two"));
  EXPECT_TRUE(fails_with(R"({"dram_timing": 3})", "mem.dram_timing: expected an object"));
}

}  // namespace
}  // namespace gpupm
