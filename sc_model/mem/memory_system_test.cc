// MemorySystem in simulation: a bench of SM stand-ins (on the shared
// test::ScBench) drives sm_in with the protocol of memory_system.h. Each test
// elaborates one design (one process per test under ctest), at the platform's
// femtosecond resolution (test::ScTest).
#include "gpupm/mem/memory_system.h"

#include "gpupm/mem/address_map.h"
#include "gpupm/mem/ratio_clock.h"
#include "gpupm/protocol/memory_access.h"
#include "support/sc_bench.h"

#include <gtest/gtest.h>
#include <tlm_utils/simple_initiator_socket.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <random>
#include <vector>

namespace gpupm {
namespace {

using sc_core::SC_PS;
using sc_core::sc_time;
using sc_core::sc_time_stamp;
using sc_core::SC_US;

// 924 MHz DRAM command clock (1082 ps). A function, not a global:
// sc_time's constructor must not run before the simulation context exists.
sc_time mem_period() { return sc_time(1082, SC_PS); }
const sc_time kNow;  // a job due at once

struct Job {
  sc_time at;  // not before this time
  uint64_t addr = 0;
  bool write = false;
  uint8_t sectors = 0;  // the 32 B sectors it touches (LineSectors); 0: the whole line
  bool atomic = false;  // an atomic transaction on them
};

// Stand-in for the SMs: one initiator socket per port; each port keeps up to
// `window` requests in flight and sends no new request until END_REQ.
class MemoryBench : public test::ScBench {
 public:
  struct Response {
    uint32_t port;
    uint64_t addr;
    bool write;
    sc_time sent, received;
  };

  MemoryBench(sc_core::sc_module_name name, uint32_t ports, MemorySystem& mem, ClockDomain& clock)
      : ScBench(name), clock_ctl("clock_ctl") {
    for (uint32_t p = 0; p < ports; ++p) {
      auto port = std::make_unique<Port>();
      port->socket = std::make_unique<Socket>(sc_core::sc_gen_unique_name("sm"));
      port->socket->register_nb_transport_bw(this, &MemoryBench::nb_transport_bw, int(p));
      port->socket->bind(mem.sm_in);
      ports_.push_back(std::move(port));
    }
    clock_ctl.bind(clock.period_in);
    SC_HAS_PROCESS(MemoryBench);
    SC_METHOD(issue);
    sensitive << kick_;
  }

  void set_source(uint32_t port, uint32_t window, std::function<bool(Job&)> source) {
    Port& p = *ports_[port];
    p.window = window;
    p.source = std::move(source);
    p.has_job = false;
    kick_.notify(sc_core::SC_ZERO_TIME);
  }
  void set_jobs(uint32_t port, uint32_t window, std::vector<Job> jobs) {
    auto queue = std::make_shared<std::vector<Job>>(std::move(jobs));
    auto next = std::make_shared<size_t>(0);
    set_source(port, window, [queue, next](Job& j) {
      if (*next == queue->size()) return false;
      j = (*queue)[(*next)++];
      return true;
    });
  }
  // Ports [0, ports) read consecutive lines, each with `window` in flight.
  void read_stream(uint32_t ports, uint32_t window) {
    for (uint32_t p = 0; p < ports; ++p)
      set_source(p, window, [this](Job& j) {
        j = Job{kNow, next_stream_line_++ * 128, false};
        return true;
      });
  }
  void stop_all() {
    for (uint32_t p = 0; p < ports_.size(); ++p) set_source(p, 0, nullptr);
  }
  void set_period(sc_time period) {
    ClockPeriodMsg msg;
    msg.period = period;
    send(clock_ctl, msg);
  }

  tlm_utils::simple_initiator_socket<MemoryBench> clock_ctl;
  std::vector<Response> responses;
  std::vector<tlm::tlm_sync_enum> fw_status;  // one per BEGIN_REQ, in order
  std::vector<sc_time> late_end_req;          // END_REQs on the backward path
  uint64_t read_bytes = 0;

 private:
  using Socket = tlm_utils::simple_initiator_socket_tagged<MemoryBench>;
  struct Port {
    std::unique_ptr<Socket> socket;
    std::function<bool(Job&)> source;
    uint32_t window = 0, in_flight = 0;
    bool awaiting_end_req = false;
    bool has_job = false;
    Job job;
  };

  void issue() {
    for (uint32_t p = 0; p < ports_.size(); ++p) {
      Port& port = *ports_[p];
      while (!port.awaiting_end_req && port.in_flight < port.window) {
        if (!port.has_job && !(port.source && port.source(port.job))) break;
        port.has_job = true;
        if (port.job.at > sc_time_stamp()) {
          kick_.notify(port.job.at - sc_time_stamp());
          break;
        }
        port.has_job = false;
        send_request(port);
      }
    }
  }

  void send_request(Port& port) {
    std::unique_ptr<tlm::tlm_generic_payload> gp;
    if (free_.empty()) {
      gp = std::make_unique<tlm::tlm_generic_payload>();
    } else {
      gp = std::move(free_.back());
      free_.pop_back();
    }
    gp->set_command(port.job.write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
    gp->set_address(port.job.addr);
    gp->set_data_ptr(line_);
    gp->set_data_length(128);
    gp->set_streaming_width(128);
    gp->set_byte_enable_ptr(nullptr);
    gp->set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    tlm::tlm_generic_payload* raw = gp.get();
    sent_at_[raw] = sc_time_stamp();
    in_use_[raw] = std::move(gp);
    tlm::tlm_phase phase = tlm::BEGIN_REQ;
    sc_time delay = sc_core::SC_ZERO_TIME;
    LineSectors part;
    part.sectors = port.job.sectors;
    part.atomic = port.job.atomic;
    if (part.sectors) raw->set_extension(&part);
    tlm::tlm_sync_enum s = (*port.socket)->nb_transport_fw(*raw, phase, delay);
    if (part.sectors) raw->clear_extension(&part);
    fw_status.push_back(s);
    ASSERT_NE(s, tlm::TLM_COMPLETED) << "request rejected";
    if (s == tlm::TLM_UPDATED) {
      ASSERT_EQ(phase, tlm::END_REQ);
    }
    port.awaiting_end_req = s == tlm::TLM_ACCEPTED;
    ++port.in_flight;
  }

  tlm::tlm_sync_enum nb_transport_bw(int p, tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase, sc_time&) {
    Port& port = *ports_[p];
    kick_.notify(sc_core::SC_ZERO_TIME);
    if (phase == tlm::END_REQ) {
      EXPECT_TRUE(port.awaiting_end_req);
      port.awaiting_end_req = false;
      late_end_req.push_back(sc_time_stamp());
      return tlm::TLM_ACCEPTED;
    }
    EXPECT_EQ(phase, tlm::BEGIN_RESP);
    EXPECT_EQ(gp.get_response_status(), tlm::TLM_OK_RESPONSE);
    responses.push_back({uint32_t(p), gp.get_address(), gp.is_write(), sent_at_[&gp], sc_time_stamp()});
    if (gp.is_read()) read_bytes += gp.get_data_length();
    --port.in_flight;
    free_.push_back(std::move(in_use_[&gp]));
    in_use_.erase(&gp);
    return tlm::TLM_COMPLETED;
  }

  std::vector<std::unique_ptr<Port>> ports_;
  std::vector<std::unique_ptr<tlm::tlm_generic_payload>> free_;
  std::map<tlm::tlm_generic_payload*, std::unique_ptr<tlm::tlm_generic_payload>> in_use_;
  std::map<tlm::tlm_generic_payload*, sc_time> sent_at_;
  unsigned char line_[128] = {};
  uint64_t next_stream_line_ = 0;
  sc_core::sc_event kick_;
};

class MemorySystemTest : public test::ScTest {};

// The design under test plus the bench.
struct Platform {
  explicit Platform(const MemConfig& c, uint32_t ports = 1, sc_time period = mem_period())
      : cfg(c), clock("mem_clock", period), mem("mem", cfg, clock), bench("bench", ports, mem, clock) {}
  MemConfig cfg;
  ClockDomain clock;
  MemorySystem mem;
  MemoryBench bench;
};

// Reference L2 edge arithmetic for the GTX480 ratio 700/924 = 25/33, written
// independently of RatioClock: command cycle c is an L2 edge when
// floor(25c/33) steps (cycle 0 is one).
struct L2Edges {
  std::vector<uint64_t> cmd;  // cmd[k] = command cycle of L2 edge k
  L2Edges() {
    for (uint64_t c = 0; cmd.size() < 200000; ++c)
      if (c == 0 || c * 25 / 33 != (c - 1) * 25 / 33) cmd.push_back(c);
  }
  uint64_t first_at_or_after(uint64_t c) const {
    return uint64_t(std::lower_bound(cmd.begin(), cmd.end(), c) - cmd.begin());
  }
};

// Expected unloaded latency (memory_system.h) of a request sent at `sent`:
// arrival edge c0, L2 entry k0, lookup k1 = k0 + icnt; hit kr = k1 + l2_latency;
// miss to a closed bank: ACT at cmd(k1)+1, data done d = cmd(k1)+1+tRCD+tCL+burst,
// kr = first L2 edge >= d, + dram_latency + l2_latency; delivered
// kd = kr + ceil(F/slice_out)-1 + icnt + ceil(F/sm_in)-1 with F = 4 flits.
sc_time expected_latency(const MemConfig& c, sc_time sent, bool miss) {
  L2Edges l2;
  uint64_t c0 = uint64_t(std::ceil(sent / mem_period()));
  uint64_t k1 = l2.first_at_or_after(c0) + c.icnt_latency;
  uint64_t kr = k1 + c.l2_latency;
  if (miss) {
    uint64_t burst = c.line_burst_cycles(false);
    uint64_t d = l2.cmd[k1] + 1 + c.t.tRCD + c.t.tCL + burst;
    kr = l2.first_at_or_after(d) + c.dram_latency + c.l2_latency;
  }
  uint64_t flits = c.line_bytes / c.flit_bytes;
  auto ceil_div = [](uint64_t a, uint64_t b) { return (a + b - 1) / b; };
  uint64_t kd = kr + ceil_div(flits, c.slice_out_flits) - 1 + c.icnt_latency + ceil_div(flits, c.sm_in_flits) - 1;
  return mem_period() * double(l2.cmd[kd]) - sent;
}

TEST_F(MemorySystemTest, UnloadedMissAndHitLatencyMatchTheParameters) {
  MemConfig cfg;
  ASSERT_NEAR(cfg.l2_clock_ratio, 25.0 / 33.0, 1e-12);
  Platform p(cfg);
  const MemActivity& a = p.mem.activity();                         // a live view: readers may keep it
  const sc_time t0 = mem_period() * 1000.0 + sc_time(541, SC_PS);  // between edges
  const sc_time t1 = mem_period() * 3000.0 + sc_time(541, SC_PS);
  p.bench.set_jobs(0, 1, {{t0, 0x1000, false}, {t1, 0x1000, false}});
  sc_core::sc_start(mem_period() * 5000.0);

  ASSERT_EQ(p.bench.responses.size(), 2u);
  sc_time miss = p.bench.responses[0].received - p.bench.responses[0].sent;
  sc_time hit = p.bench.responses[1].received - p.bench.responses[1].sent;
  EXPECT_EQ(miss, expected_latency(cfg, t0, true));
  EXPECT_EQ(hit, expected_latency(cfg, t1, false));
  // GTX480 numbers: hit 140 L2 cycles, miss 140 + 100 + ~22 (DRAM) L2 cycles.
  EXPECT_NEAR(hit.to_seconds() * 1e9, 200.0, 3.0);
  EXPECT_NEAR(miss.to_seconds() * 1e9, 375.0, 5.0);
  std::cout << "unloaded L2 hit " << hit << ", L2 miss " << miss << "\n";

  EXPECT_EQ(a.reads, 2u);
  EXPECT_EQ(a.l2_hits, 1u);
  EXPECT_EQ(a.l2_misses, 1u);
  EXPECT_EQ(a.dram_activates, 1u);
  EXPECT_EQ(a.dram_reads, 1u);
  EXPECT_EQ(a.dram_bus_busy, 4u);
  EXPECT_EQ(a.read_responses, 2u);
  EXPECT_EQ(a.read_latency_sum_ps, uint64_t((miss + hit).to_seconds() * 1e12 + 0.5));
  EXPECT_EQ(a.icnt_flits, 2u * (1 + 4));
  // l2_cycles moves at each tick; activity() brings it up to now (idle edges too).
  EXPECT_LT(a.l2_cycles, 25u * 5000 / 33 + 1);
  EXPECT_EQ(&p.mem.activity(), &a);
  EXPECT_EQ(a.l2_cycles, 25u * 5000 / 33 + 1);  // edges through command cycle 5000
  EXPECT_TRUE(p.mem.idle());
  // Idle stretches are skipped: far fewer edges evaluated than elapsed.
  EXPECT_LT(p.clock.ticks_run(), 1000u);
}

// Bytes per second the bench received in the next `span`.
double measure_bandwidth(Platform& p, sc_time span) {
  uint64_t before = p.bench.read_bytes;
  sc_core::sc_start(span);
  return double(p.bench.read_bytes - before) / span.to_seconds();
}

TEST_F(MemorySystemTest, SequentialStreamSaturatesNearPeakAndScalesWithMemoryClock) {
  MemConfig cfg;
  Platform p(cfg, 15);
  p.bench.read_stream(15, 64);
  sc_core::sc_start(sc_time(5, SC_US));
  double bw = measure_bandwidth(p, sc_time(20, SC_US));
  double peak = cfg.peak_bandwidth_bytes_per_s(p.clock.frequency_hz());
  std::cout << "stream: " << bw / 1e9 << " GB/s of " << peak / 1e9 << " GB/s peak = " << bw / peak << "\n";
  EXPECT_GE(bw / peak, 0.90);

  MemActivity a = p.mem.activity();
  double utilisation = double(a.dram_bus_busy) / (cfg.channels * double(p.clock.cycles_elapsed()));
  EXPECT_GT(utilisation, 0.85);
  EXPECT_EQ(a.l2_hits, 0u);

  p.bench.set_period(sc_time(941, SC_PS));  // 1.15x memory clock
  sc_core::sc_start(sc_time(5, SC_US));
  double fast = measure_bandwidth(p, sc_time(20, SC_US));
  std::cout << "at 1.15x memory clock: " << fast / 1e9 << " GB/s, ratio " << fast / bw << "\n";
  EXPECT_NEAR(fast / bw, 1082.0 / 941.0, 0.03);
}

// GPGPU-Sim's GTX480: a line is read into its sectored L2 as four 32 B requests, each a 64 B DRAM atom, so a
// read stream keeps the data bus as busy as before and moves half the bytes.
TEST_F(MemorySystemTest, SectorRequestsOfWholeAtomsHalveAStreamsBandwidth) {
  MemConfig cfg;
  cfg.l2_sector_bytes = 32;
  cfg.dram_atom_bytes = 64;
  EXPECT_EQ(MemConfig{}.line_burst_cycles(false), 4u);
  EXPECT_EQ(cfg.line_burst_cycles(false), 8u);
  EXPECT_EQ(cfg.line_burst_cycles(true), 4u);  // a write-back is the whole line: two atoms
  Platform p(cfg, 15);
  p.bench.read_stream(15, 64);
  sc_core::sc_start(sc_time(5, SC_US));
  const MemActivity before = p.mem.activity();
  const uint64_t cycles_before = p.clock.cycles_elapsed();
  const double bw = measure_bandwidth(p, sc_time(20, SC_US));
  const double peak = cfg.peak_bandwidth_bytes_per_s(p.clock.frequency_hz());
  const MemActivity& after = p.mem.activity();
  const double utilisation = double(after.dram_bus_busy - before.dram_bus_busy) /
                             (cfg.channels * double(p.clock.cycles_elapsed() - cycles_before));
  std::cout << "stream, 32 B sectors of 64 B atoms: " << bw / peak << " of peak, bus busy " << utilisation << "\n";
  EXPECT_NEAR(bw / peak, 0.5, 0.01);  // the data bus full: half of it moves data
  EXPECT_GT(utilisation, 0.99);
}

TEST(MemConfigRules, AnAtomIsWholeBusCyclesAndSectorsOfAnAtomCostOne) {
  MemConfig cfg;
  cfg.dram_atom_bytes = 48;  // bus 8 B x 4 transfers: 32 B a command cycle
  ASSERT_TRUE(check_mem_config(cfg).has_value());
  EXPECT_EQ(check_mem_config(cfg)->key, "dram_atom_bytes");
  cfg.dram_atom_bytes = 64;
  EXPECT_FALSE(check_mem_config(cfg).has_value());
  EXPECT_EQ(cfg.line_burst_cycles(false), 4u);  // no sectors: a line is one burst
  cfg.l2_sector_bytes = 128;
  EXPECT_EQ(cfg.line_burst_cycles(false), 4u);  // one sector of two atoms
  cfg.l2_sector_bytes = 16;
  EXPECT_EQ(cfg.line_burst_cycles(false), 16u);  // eight sectors of one atom each
  EXPECT_EQ(cfg.line_burst_cycles(true), 4u);
  cfg.dram_atom_bytes = 256;  // larger than a line: a line costs one atom
  EXPECT_EQ(cfg.line_burst_cycles(true), 8u);
  EXPECT_EQ(cfg.line_burst_cycles(false), 64u);
}

TEST(MemConfigRules, TheL2DataPortDividesALine) {
  MemConfig cfg;
  cfg.l2_data_port_bytes = 48;
  ASSERT_TRUE(check_mem_config(cfg).has_value());
  EXPECT_EQ(check_mem_config(cfg)->key, "l2_data_port_bytes");
  cfg.l2_data_port_bytes = 32;
  EXPECT_FALSE(check_mem_config(cfg).has_value());
}

double mean_read_latency_ns(const MemActivity& before, const MemActivity& after) {
  return double(after.read_latency_sum_ps - before.read_latency_sum_ps) /
         double(after.read_responses - before.read_responses) / 1000.0;
}

TEST_F(MemorySystemTest, ReadLatencyGrowsWithLoad) {
  // Light load sees the unloaded latency (row hits make it a little shorter);
  // near saturation requests queue at the controllers and MSHRs.
  Platform p(MemConfig{}, 15);
  struct Load {
    uint32_t ports, window;
  };
  std::vector<double> latency;
  for (Load load : {Load{1, 1}, Load{15, 16}, Load{15, 40}, Load{15, 64}}) {
    p.bench.stop_all();
    sc_core::sc_start(sc_time(2, SC_US));  // drain
    p.bench.read_stream(load.ports, load.window);
    sc_core::sc_start(sc_time(3, SC_US));  // warm up
    MemActivity before = p.mem.activity();
    sc_core::sc_start(sc_time(10, SC_US));
    latency.push_back(mean_read_latency_ns(before, p.mem.activity()));
    std::cout << load.ports << " ports x " << load.window << " in flight: mean read latency " << latency.back()
              << " ns\n";
  }
  for (size_t i = 1; i < latency.size(); ++i) EXPECT_GT(latency[i], latency[i - 1]);
  EXPECT_GT(latency.back(), 1.25 * latency.front());
}

TEST_F(MemorySystemTest, FullSliceInputBackPressuresAndSendsEndReqLater) {
  MemConfig cfg;
  cfg.icnt_queue = 2;
  Platform p(cfg, 3);
  AddressMap map(cfg);
  const sc_time t0 = mem_period() * 100.0 + sc_time(541, SC_PS);
  for (uint32_t port = 0; port < 3; ++port)  // three lines of slice 0, same instant
    p.bench.set_jobs(port, 1, {{t0, map.global_line(0, port) * 128, false}});
  sc_core::sc_start(mem_period() * 2000.0);

  std::vector<tlm::tlm_sync_enum> expected = {tlm::TLM_UPDATED, tlm::TLM_UPDATED, tlm::TLM_ACCEPTED};
  EXPECT_EQ(p.bench.fw_status, expected);
  ASSERT_EQ(p.bench.late_end_req.size(), 1u);
  // The credit frees at the first lookup: L2 edge first_at_or_after(101) + icnt_latency.
  L2Edges l2;
  uint64_t lookup = l2.first_at_or_after(101) + cfg.icnt_latency;
  EXPECT_EQ(p.bench.late_end_req[0], mem_period() * double(l2.cmd[lookup]));
  EXPECT_EQ(p.bench.responses.size(), 3u);
  EXPECT_EQ(p.mem.activity().reads, 3u);
  EXPECT_TRUE(p.mem.idle());
}

TEST_F(MemorySystemTest, DirtyEvictionWritesBackAndWriteMissReadsNothing) {
  MemConfig cfg;
  Platform p(cfg);
  AddressMap map(cfg);
  // Nine full-line writes to set 0 of slice 0 (8 ways): the ninth evicts the first.
  auto addr = [&](uint64_t j) { return map.global_line(0, j * cfg.l2_sets) * cfg.line_bytes; };
  std::vector<Job> jobs;
  for (uint64_t j = 0; j < 9; ++j) jobs.push_back({kNow, addr(j), true});
  p.bench.set_jobs(0, 1, jobs);
  sc_core::sc_start(sc_time(5, SC_US));
  MemActivity a = p.mem.activity();
  EXPECT_EQ(p.bench.responses.size(), 9u);
  EXPECT_EQ(a.writes, 9u);
  EXPECT_EQ(a.l2_misses, 9u);
  EXPECT_EQ(a.dram_reads, 0u);
  EXPECT_EQ(a.dram_writes, 1u);
  EXPECT_EQ(a.icnt_flits, 9u * (4 + 1));

  // Reading the evicted line misses (and evicts the next dirty LRU line);
  // reading the last written one hits.
  p.bench.set_jobs(0, 1, {{kNow, addr(0), false}, {kNow, addr(8), false}});
  sc_core::sc_start(sc_time(5, SC_US));
  a = p.mem.activity();
  EXPECT_EQ(p.bench.responses.size(), 11u);
  EXPECT_EQ(a.dram_reads, 1u);
  EXPECT_EQ(a.dram_writes, 2u);
  EXPECT_EQ(a.l2_hits, 1u);
  EXPECT_TRUE(p.mem.idle());
}

// 16 ports keeping 16 requests each in flight to slice 0, the i-th to its line i (mod `lines` unless 0), the
// response side wide enough (8 flits a cycle out of the slice and into each port) that only the slice bounds
// them: the memory's activity after `warmup` and 20 us later.
std::pair<MemActivity, MemActivity> slice0_stream(MemConfig cfg, bool write, uint64_t lines, sc_time warmup,
                                                  uint8_t sectors = 0, bool atomic = false) {
  cfg.slice_out_flits = cfg.sm_in_flits = 8;
  cfg.icnt_queue = 64;
  Platform p(cfg, 16);
  AddressMap map(cfg);
  auto next = std::make_shared<uint64_t>(0);
  const uint64_t line_bytes = cfg.line_bytes;
  for (uint32_t port = 0; port < 16; ++port)
    p.bench.set_source(port, 16, [next, map, line_bytes, write, lines, sectors, atomic](Job& j) {
      const uint64_t i = (*next)++;
      j = Job{kNow, map.global_line(0, lines ? i % lines : i) * line_bytes, write, sectors, atomic};
      return true;
    });
  sc_core::sc_start(warmup);
  const MemActivity before = p.mem.activity();
  sc_core::sc_start(sc_time(20, SC_US));
  return {before, p.mem.activity()};
}

// L2 hits per L2 cycle that slice 0 finishes re-reading 32 of its lines, with its lookup port of
// `lookups_per_cycle` lookups of `sector_bytes`; the requests on `sectors` only if not 0 (atomic transactions,
// or writes).
double slice_hits_per_l2_cycle(uint32_t sector_bytes, uint32_t lookups_per_cycle, uint8_t sectors = 0,
                               bool write = false) {
  MemConfig cfg;
  cfg.l2_sector_bytes = sector_bytes;
  cfg.l2_lookups_per_cycle = lookups_per_cycle;
  const auto [before, after] = slice0_stream(cfg, write, 32, sc_time(5, SC_US), sectors, !write);  // past the 32 misses
  EXPECT_EQ(after.l2_misses, before.l2_misses);
  return double(after.l2_hits - before.l2_hits) / double(after.l2_cycles - before.l2_cycles);
}

// A whole line is one lookup: the port starts one a cycle.
TEST_F(MemorySystemTest, SliceLooksUpALineACycleByDefault) {
  const double rate = slice_hits_per_l2_cycle(0, 1);
  std::cout << "slice hits per L2 cycle, whole lines: " << rate << "\n";
  EXPECT_GT(rate, 0.95);
  EXPECT_LE(rate, 1.0);
}

// GPGPU-Sim's sectored L2: a 128 B line is four 32 B sector lookups, two a cycle (a channel's two sub-partitions).
TEST_F(MemorySystemTest, SectoredSliceTakesALinesSectorsAtItsLookupRate) {
  const double rate = slice_hits_per_l2_cycle(32, 2);
  std::cout << "slice hits per L2 cycle, 4 sectors at 2 a cycle: " << rate << "\n";
  EXPECT_GT(rate, 0.475);
  EXPECT_LE(rate, 0.5);
}

// A write of one sector (a store's LineSectors) is one sector lookup: up to two a cycle (1.87 measured: the
// requests' arrival at the slice bounds it too), where a whole line's four take two cycles (0.5).
TEST_F(MemorySystemTest, APartialWriteLooksUpOnlyItsSectors) {
  const double rate = slice_hits_per_l2_cycle(32, 2, 0x4, true);
  std::cout << "slice one-sector writes per L2 cycle: " << rate << "\n";
  EXPECT_GT(rate, 1.8);
  EXPECT_LE(rate, 2.0);
}

// An atomic transaction holds the sectored port a whole cycle per sector it touches (GPGPU-Sim performs it in
// one sub-partition, a sector a cycle): on three sectors, one every three L2 cycles, where a line's four
// sector lookups go two a cycle (0.5 lines a cycle) and three lookups would take 1.5 cycles.
TEST_F(MemorySystemTest, AtomicTransactionsHoldTheSlicePortACyclePerSector) {
  const double rate = slice_hits_per_l2_cycle(32, 2, 0xB);
  std::cout << "slice atomic transactions on three sectors per L2 cycle: " << rate << "\n";
  EXPECT_GT(rate, 0.95 / 3);
  EXPECT_LE(rate, 1.0 / 3);
}

// Lines slice 0 takes per L2 cycle from ports writing new lines, each evicting a dirty one once the slice is
// full, with GPGPU-Sim's sector lookups (32 B, 2 a cycle) and a data port of `data_port_bytes`; the DRAM bus
// (32 B x 4 a command cycle) and its write queue wide enough that only the lookup port bounds them.
double slice_writes_per_l2_cycle(uint32_t data_port_bytes) {
  MemConfig cfg;
  cfg.mc_write_queue = 64;
  cfg.write_drain_high = 48;
  cfg.bus_bytes = 32;
  cfg.l2_sector_bytes = 32;
  cfg.l2_lookups_per_cycle = 2;
  cfg.l2_data_port_bytes = data_port_bytes;
  const auto [before, after] = slice0_stream(cfg, true, 0, sc_time(20, SC_US));  // the slice full of dirty lines
  EXPECT_GT(after.dram_writes, before.dram_writes);
  return double(after.l2_misses - before.l2_misses) / double(after.l2_cycles - before.l2_cycles);
}

// Without a data port a written line takes its four sector lookups, two a cycle.
TEST_F(MemorySystemTest, ADirtyVictimsReadOutIsFreeByDefault) {
  const double rate = slice_writes_per_l2_cycle(0);
  std::cout << "slice writes per L2 cycle, read-out free: " << rate << "\n";
  EXPECT_NEAR(rate, 0.5, 0.02);
}

// With GPGPU-Sim's 32 B data port, the dirty victim's read-out takes four lookups more.
TEST_F(MemorySystemTest, ADirtyVictimsReadOutHoldsTheL2DataPort) {
  const double rate = slice_writes_per_l2_cycle(32);
  std::cout << "slice writes per L2 cycle, read-out through a 32 B port: " << rate << "\n";
  EXPECT_NEAR(rate, 0.25, 0.01);
}

// With l2_copy_fill, a host copy leaves its lines in the L2: a read of one hits. A set whose ways are all
// dirty keeps them (no write-back is lost): the copied line is left out and its read misses.
TEST_F(MemorySystemTest, HostCopiesFillTheL2ButNeverEvictADirtyLine) {
  MemConfig cfg;
  cfg.l2_copy_fill = true;
  Platform p(cfg);
  AddressMap map(cfg);
  auto addr = [&](uint64_t set, uint64_t j) { return map.global_line(0, set + j * cfg.l2_sets) * cfg.line_bytes; };
  std::vector<Job> writes;
  for (uint64_t j = 0; j < cfg.l2_ways; ++j) writes.push_back({kNow, addr(0, j), true});
  p.bench.set_jobs(0, 1, writes);
  sc_core::sc_start(sc_time(5, SC_US));
  p.mem.host_copied(addr(0, cfg.l2_ways), 4);  // set 0: all ways dirty
  p.mem.host_copied(addr(1, 0), 128);          // set 1's line
  p.bench.set_jobs(0, 1, {{kNow, addr(1, 0), false}, {kNow, addr(0, cfg.l2_ways), false}});
  sc_core::sc_start(sc_time(5, SC_US));
  const MemActivity& a = p.mem.activity();
  EXPECT_EQ(a.l2_hits, 1u);
  EXPECT_EQ(a.l2_misses, cfg.l2_ways + 1u);
  EXPECT_EQ(a.dram_reads, 1u);   // the left-out line
  EXPECT_EQ(a.dram_writes, 1u);  // its miss evicted one dirty line, written back
}

// Without it (the default) a copy changes nothing: the read misses.
TEST_F(MemorySystemTest, HostCopiesLeaveTheL2ColdByDefault) {
  Platform p(MemConfig{});
  p.mem.host_copied(0x4000, 128);
  p.bench.set_jobs(0, 1, {{kNow, 0x4000, false}});
  sc_core::sc_start(sc_time(5, SC_US));
  EXPECT_EQ(p.mem.activity().l2_hits, 0u);
  EXPECT_EQ(p.mem.activity().l2_misses, 1u);
}

TEST_F(MemorySystemTest, MissesToOneLineMergeIntoOneDramRead) {
  Platform p(MemConfig{}, 4);
  for (uint32_t port = 0; port < 4; ++port) p.bench.set_jobs(port, 1, {{kNow, 0x2000, false}});
  sc_core::sc_start(sc_time(2, SC_US));
  const MemActivity& a = p.mem.activity();
  EXPECT_EQ(p.bench.responses.size(), 4u);
  EXPECT_EQ(a.dram_reads, 1u);
  EXPECT_EQ(a.l2_misses, 4u);
}

// Random reads and writes over 16 MB (beyond the 768 KB L2) with tiny MSHR,
// controller and input queues, so every stall path runs: everything sent must
// come back exactly once and the counters must balance.
TEST_F(MemorySystemTest, RandomTrafficWithTinyQueuesCompletesAndBalances) {
  MemConfig cfg;
  cfg.l2_mshrs = 2;
  cfg.mc_queue = 2;
  cfg.icnt_queue = 3;
  Platform p(cfg, 8);
  auto rng = std::make_shared<std::mt19937_64>(11);
  auto left = std::make_shared<uint32_t>(8 * 1500);
  for (uint32_t port = 0; port < 8; ++port)
    p.bench.set_source(port, 16, [rng, left](Job& j) {
      if (*left == 0) return false;
      --*left;
      j = Job{kNow, (*rng)() % (16u << 20) / 128 * 128, (*rng)() % 10 < 3};
      return true;
    });
  sc_core::sc_start(sc_time(1000, SC_US));
  const MemActivity& a = p.mem.activity();
  EXPECT_EQ(p.bench.responses.size(), 8u * 1500);
  EXPECT_EQ(a.reads + a.writes, 8u * 1500);
  EXPECT_EQ(a.read_responses, a.reads);
  EXPECT_EQ(a.l2_hits + a.l2_misses, a.reads + a.writes);
  EXPECT_LE(a.dram_reads, a.l2_misses);
  EXPECT_GT(a.dram_writes, 0u);
  EXPECT_TRUE(p.mem.idle());
  uint64_t order = 0;  // same seed, same run: compare across processes by eye
  for (const auto& r : p.bench.responses) order = order * 1000003 + r.addr + r.received.value();
  std::cout << "response order hash " << order << ", hits " << a.l2_hits << ", DRAM reads " << a.dram_reads
            << ", writes " << a.dram_writes << "\n";
}

// An initiator that sends one hand-made payload.
struct RawInitiator : sc_core::sc_module {
  explicit RawInitiator(sc_core::sc_module_name n) : sc_module(n), socket("socket") {}
  tlm::tlm_sync_enum send(tlm::tlm_generic_payload& gp) {
    tlm::tlm_phase phase = tlm::BEGIN_REQ;
    sc_time delay = sc_core::SC_ZERO_TIME;
    return socket->nb_transport_fw(gp, phase, delay);
  }
  tlm_utils::simple_initiator_socket<RawInitiator> socket;
};

TEST_F(MemorySystemTest, MalformedRequestsCompleteAtOnceWithAnError) {
  Platform p(MemConfig{});
  RawInitiator sm("raw");  // port 1, beside the bench's port 0
  sm.socket.bind(p.mem.sm_in);
  sc_core::sc_start(sc_core::SC_ZERO_TIME);
  unsigned char data[128];
  auto request = [&](uint64_t addr, unsigned length, tlm::tlm_command cmd) {
    tlm::tlm_generic_payload gp;
    gp.set_command(cmd);
    gp.set_address(addr);
    gp.set_data_ptr(data);
    gp.set_data_length(length);
    EXPECT_EQ(sm.send(gp), tlm::TLM_COMPLETED);
    return gp.get_response_status();
  };
  const uint64_t beyond = uint64_t(1) << 40;
  EXPECT_EQ(request(beyond, 128, tlm::TLM_READ_COMMAND), tlm::TLM_ADDRESS_ERROR_RESPONSE);
  EXPECT_EQ(request(0, 64, tlm::TLM_READ_COMMAND), tlm::TLM_ADDRESS_ERROR_RESPONSE);
  EXPECT_EQ(request(64, 128, tlm::TLM_WRITE_COMMAND), tlm::TLM_ADDRESS_ERROR_RESPONSE);
  EXPECT_EQ(request(0, 128, tlm::TLM_IGNORE_COMMAND), tlm::TLM_COMMAND_ERROR_RESPONSE);
  EXPECT_EQ(p.mem.activity().reads + p.mem.activity().writes, 0u);
  EXPECT_TRUE(p.mem.idle());
}

}  // namespace
}  // namespace gpupm
