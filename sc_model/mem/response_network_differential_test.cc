// ResponseNetwork beside a frozen copy of the version it replaced (each port drained
// every L2 cycle; now the cycle a packet is delivered is worked out when it reaches
// its port): on random traffic both must deliver the same responses in the same
// cycles and order, and report the same next_ready(), for both crossbars, several
// flit widths and latencies, stepped every cycle or only when next_ready() says.
#include "gpupm/mem/interconnect.h"

#include <gtest/gtest.h>

#include <random>
#include <utility>
#include <vector>

namespace gpupm {
namespace {

// The port side as it was before the delivery calendar (d45fdfa): every port's queue
// drained every step.
class DrainedResponseNetwork {
 public:
  DrainedResponseNetwork(const MemConfig& cfg, const RequestPool& pool, uint32_t ports)
      : pool_(pool),
        latency_(cfg.icnt_latency),
        slice_flits_(cfg.slice_out_flits),
        port_flits_(cfg.sm_in_flits),
        read_flits_(cfg.line_bytes / cfg.flit_bytes),
        blocking_(cfg.blocking_responses),
        slice_out_(cfg.channels * (cfg.blocking_responses ? cfg.slice_out_flits : 1), Ring<Packet>(cfg.l2_mshrs)),
        port_in_(ports, Ring<Packet>(64)),
        port_room_(ports, 0) {}

  void push(uint32_t slice, uint32_t id, uint64_t ready) {
    const MemRequest& r = pool_[id];
    const size_t queue = blocking_ ? slice * slice_flits_ + size_t(r.local_line % slice_flits_) : slice;
    slice_out_[queue].push_back({id, r.port, r.write ? 1u : read_flits_, 0, ready});
  }
  template <class Deliver>
  void step(uint64_t l2_cycle, Deliver&& deliver) {
    if (blocking_) {
      cross_blocking(l2_cycle);
    } else {
      for (Ring<Packet>& out : slice_out_)
        drain(out, l2_cycle, slice_flits_, [&](Packet p) {
          port_in_[p.port].push_back({p.id, p.port, p.flits, 0, l2_cycle + latency_});
        });
    }
    for (Ring<Packet>& in : port_in_) drain(in, l2_cycle, port_flits_, [&](Packet p) { deliver(p.id); });
  }
  uint64_t next_ready() const { return std::min(head_ready(slice_out_), head_ready(port_in_)); }

 private:
  struct Packet {
    uint32_t id = kNoRequest;
    uint32_t port = 0;
    uint32_t flits = 0;
    uint32_t sent = 0;
    uint64_t ready = 0;
  };
  template <class Done>
  static void drain(Ring<Packet>& queue, uint64_t l2_cycle, uint32_t budget, Done&& done) {
    while (budget > 0 && !queue.empty() && queue.front().ready <= l2_cycle) {
      Packet& p = queue.front();
      uint32_t n = std::min(budget, p.flits - p.sent);
      p.sent += n;
      budget -= n;
      if (p.sent < p.flits) return;
      Packet finished = p;
      queue.pop_front();
      done(finished);
    }
  }
  static uint64_t head_ready(const std::vector<Ring<Packet>>& queues) {
    uint64_t next = kNever;
    for (const Ring<Packet>& q : queues)
      if (!q.empty()) next = std::min(next, q.front().ready);
    return next;
  }
  void cross_blocking(uint64_t l2_cycle) {
    std::fill(port_room_.begin(), port_room_.end(), port_flits_);
    const size_t outputs = slice_out_.size();
    for (size_t k = 0, q = size_t(l2_cycle % outputs); k < outputs; ++k, q = q + 1 == outputs ? 0 : q + 1) {
      Ring<Packet>& out = slice_out_[q];
      if (out.empty() || out.front().ready > l2_cycle) continue;
      Packet& p = out.front();
      if (port_room_[p.port] == 0) continue;
      ++p.sent;
      --port_room_[p.port];
      if (p.sent < p.flits) continue;
      port_in_[p.port].push_back({p.id, p.port, p.flits, p.flits, l2_cycle + latency_});
      out.pop_front();
    }
  }

  const RequestPool& pool_;
  uint32_t latency_, slice_flits_, port_flits_, read_flits_;
  bool blocking_;
  std::vector<Ring<Packet>> slice_out_, port_in_;
  std::vector<uint32_t> port_room_;
};

struct Scenario {
  bool blocking;
  uint32_t latency, slice_flits, port_flits, ports;
  bool skip_idle;  // step only the cycles next_ready() allows (as the memory system does)
};

void expect_same_deliveries(const Scenario& sc, uint32_t seed) {
  MemConfig cfg;
  cfg.channels = 3;
  cfg.icnt_latency = sc.latency;
  cfg.slice_out_flits = sc.slice_flits;
  cfg.sm_in_flits = sc.port_flits;
  cfg.blocking_responses = sc.blocking;
  RequestPool pool(1024);
  ResponseNetwork now(cfg, pool);
  now.set_ports(sc.ports);
  DrainedResponseNetwork before(cfg, pool, sc.ports);
  std::mt19937 rng(seed);
  std::vector<std::pair<uint64_t, uint32_t>> got_now, got_before;
  uint64_t pushed = 0;
  for (uint64_t c = 0; c < 4000; ++c) {
    // Bursts, so ports back up, and quiet stretches, so the network drains.
    const bool busy = (c / 200) % 2 == 0;
    for (uint32_t s = 0; s < cfg.channels; ++s) {
      if (!busy || rng() % 3 != 0) continue;
      const uint32_t id = pool.alloc();
      pool[id].port = uint32_t(rng() % sc.ports);
      pool[id].write = rng() % 4 == 0;
      pool[id].local_line = rng() % 8;
      const uint64_t ready = c + rng() % 3;
      now.push(s, id, ready);
      before.push(s, id, ready);
      ++pushed;
    }
    ASSERT_EQ(now.next_ready(), before.next_ready()) << "cycle " << c;
    if (sc.skip_idle && before.next_ready() > c) continue;
    now.step(c, [&](uint32_t id) { got_now.push_back({c, id}); });
    before.step(c, [&](uint32_t id) { got_before.push_back({c, id}); });
    ASSERT_EQ(got_now, got_before) << "cycle " << c;
  }
  EXPECT_GT(got_before.size(), pushed / 2);  // the traffic got through, not stuck
}

TEST(ResponseNetworkDifferential, DeliversAsTheDrainedPortsDid) {
  const std::vector<Scenario> scenarios = {
      {false, 8, 2, 1, 15, false}, {false, 8, 2, 1, 15, true},  {false, 0, 2, 1, 4, true},
      {false, 3, 1, 2, 70, true},  {false, 5, 3, 3, 64, false}, {true, 8, 2, 1, 15, true},
      {true, 0, 2, 1, 4, false},   {true, 3, 2, 2, 70, true},   {true, 1, 1, 1, 65, true},
  };
  for (size_t i = 0; i < scenarios.size(); ++i) {
    SCOPED_TRACE("scenario " + std::to_string(i));
    for (uint32_t seed : {1u, 2u, 3u}) expect_same_deliveries(scenarios[i], seed);
  }
}

}  // namespace
}  // namespace gpupm
