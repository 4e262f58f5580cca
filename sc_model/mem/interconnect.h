// The crossbar between the SM ports and the L2 slices, clocked at the L2 clock.
//
// Request side: each slice input holds icnt_queue credits. A request takes one
// when it is accepted (END_REQ) and returns it when its L2 lookup is done, so the
// credits cover the icnt_latency cycles in flight as well as the wait for the
// lookup. A request that finds no credit is parked, per slice in arrival order,
// and accepted when a credit frees. Request bandwidth is not limited beyond the
// one lookup per L2 cycle per slice.
//
// Response side: a response leaves its slice at slice_out_flits flits per L2
// cycle, reaches the SM port icnt_latency cycles after its last flit left, and
// enters the SM at sm_in_flits flits per cycle; it is delivered in the cycle its
// last flit enters. A read response is line_bytes/flit_bytes flits, a write
// acknowledgement one flit, an atomic transaction's the flits of its sectors' data. With response_crossbar "blocking"
// each slice has slice_out_flits output ports of a flit a cycle (GPGPU-Sim's sub-partitions: a response takes its
// line's), the SM port's sm_in_flits a cycle are shared by all of them at the crossbar (in an order rotating each
// cycle), an output whose head response finds its SM port full sends nothing that cycle (head-of-line blocking), and a
// response is delivered icnt_latency cycles after its last flit crossed. The outputs' queues are not bounded: the
// blocking delays responses but does not hold back the L2 (GPGPU-Sim's blocked replies also fill its L2 queues).
#pragma once

#include "gpupm/mem/mem_config.h"
#include "gpupm/mem/mem_request.h"
#include "gpupm/mem/ring.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace gpupm {

class RequestNetwork {
 public:
  explicit RequestNetwork(const MemConfig& cfg);

  bool has_credit(uint32_t slice) const { return used_[slice] < capacity_ && parked_[slice].empty(); }
  void stage(uint32_t id, uint32_t slice);  // accepted between edges
  void park(uint32_t id, uint32_t slice);   // no credit yet
  void enter_staged(uint64_t l2_cycle) {    // staged requests enter the network
    if (!staged_.empty()) enter_staged_now(l2_cycle);
  }
  // The request at this slice's input that may be looked up in cycle l2_cycle.
  // Inline, like the other per-cycle checks of the memory path: asked per slice every L2 cycle.
  uint32_t ready_head(uint32_t slice, uint64_t l2_cycle) const {
    const Ring<Timed>& in = input_[slice];
    return !in.empty() && in.front().ready <= l2_cycle ? in.front().id : kNoRequest;
  }
  void pop_head(uint32_t slice);  // lookup done: its credit frees
  // Accepts parked requests while credits last, appending their ids to `accepted`.
  void admit_parked(uint32_t slice, uint64_t l2_cycle, std::vector<uint32_t>& accepted);

  uint64_t next_ready() const;  // earliest L2 cycle a head is ready; kNever if none
  bool has_staged() const { return !staged_.empty(); }
  bool empty() const;

 private:
  struct Staged {
    uint32_t id, slice;
  };
  void enter_staged_now(uint64_t l2_cycle);
  uint32_t capacity_;
  uint32_t latency_;
  std::vector<uint32_t> used_;
  std::vector<Ring<Timed>> input_;
  std::vector<Ring<uint32_t>> parked_;
  std::vector<Staged> staged_;
};

class ResponseNetwork {
 public:
  ResponseNetwork(const MemConfig& cfg, const RequestPool& pool);

  void set_ports(uint32_t ports);
  // Flits of the response to `r`: a write's acknowledgement one, a read the line's, an atomic transaction
  // the data of its sectors (GPGPU-Sim's reply carries the transaction's bytes, not the line).
  uint32_t flits_of(const MemRequest& r) const { return r.write ? 1 : r.atomic ? data_flits(r) : read_flits_; }
  // Flits of the data `r` carries: its sectors', or the line's.
  uint32_t data_flits(const MemRequest& r) const {
    if (!r.sectors) return read_flits_;
    return std::max(1u, (uint32_t(__builtin_popcount(r.sectors)) * 32 + flit_bytes_ - 1) / flit_bytes_);
  }
  // The response to request `id` leaves the L2 data array of `slice` at cycle `ready`.
  void push(uint32_t slice, uint32_t id, uint64_t ready);
  // One L2 cycle; calls deliver(id) for each response fully received by its port.
  template <class Deliver>
  void step(uint64_t l2_cycle, Deliver&& deliver);

  uint64_t next_ready() const;  // earliest L2 cycle with a flit to move; kNever if none
  bool empty() const;

 private:
  struct Packet {
    uint32_t id = kNoRequest;
    uint32_t port = 0;
    uint32_t flits = 0;
    uint32_t sent = 0;  // flits of this packet already through the stage
    uint64_t ready = 0;
  };
  // Moves up to `budget` flits of ready packets, head first; calls done(packet)
  // for each packet whose last flit went through.
  template <class Done>
  static void drain(Ring<Packet>& queue, uint64_t l2_cycle, uint32_t budget, Done&& done);
  static uint64_t head_ready(const std::vector<Ring<Packet>>& queues);

  void cross_blocking(uint64_t l2_cycle);
  // A packet reaches SM port `port` (ready: its first flit may enter at that L2 cycle;
  // crossed: every flit is through already, the blocking crossbar's): the cycle it is
  // delivered in follows from the port's earlier packets (a FIFO taking port_flits_ a
  // cycle), so it is worked out now and the port filed under it once it is the front.
  void arrive(uint32_t port, uint32_t id, uint32_t flits, uint64_t ready, bool crossed);
  void file(uint32_t port, uint64_t due) {
    wheel_[(due & wheel_mask_) * words_ + port / 64] |= uint64_t(1) << (port % 64);
  }
  template <class Deliver>
  void deliver_due(uint64_t l2_cycle, Deliver&& deliver);

  const RequestPool& pool_;
  uint32_t latency_;
  uint32_t slice_flits_, port_flits_;
  uint32_t read_flits_, flit_bytes_;
  bool blocking_;
  std::vector<Ring<Packet>> slice_out_;
  struct Arrival {
    uint32_t id;
    uint64_t ready;  // its first flit's cycle at the port (next_ready() reports the fronts')
    uint64_t due;    // the cycle its last flit enters: delivered then
  };
  std::vector<Ring<Arrival>> port_in_;
  std::vector<uint64_t> port_last_;  // per port: the cycle its latest packet is delivered in
  std::vector<uint32_t> port_used_;  // per port: flits of that cycle taken
  // Ports whose front packet is due in cycle t: words_ 64-bit masks at slot t & wheel_mask_.
  // A front is never more than icnt_latency + read_flits cycles ahead, fewer than the slots.
  std::vector<uint64_t> wheel_;
  uint64_t wheel_mask_ = 0;
  uint32_t words_ = 0;
  std::vector<uint32_t> port_room_;  // blocking: flits each SM port may still take this cycle
};

template <class Done>
void ResponseNetwork::drain(Ring<Packet>& queue, uint64_t l2_cycle, uint32_t budget, Done&& done) {
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

template <class Deliver>
void ResponseNetwork::step(uint64_t l2_cycle, Deliver&& deliver) {
  if (blocking_) {
    cross_blocking(l2_cycle);
  } else {
    for (Ring<Packet>& out : slice_out_)
      drain(out, l2_cycle, slice_flits_, [&](Packet p) { arrive(p.port, p.id, p.flits, l2_cycle + latency_, false); });
  }
  deliver_due(l2_cycle, deliver);
}

// The ports whose front is due now, in port order, each delivering every packet due
// (the memory system ticks every cycle while a port holds a packet: next_ready()).
template <class Deliver>
void ResponseNetwork::deliver_due(uint64_t l2_cycle, Deliver&& deliver) {
  uint64_t* slot = &wheel_[(l2_cycle & wheel_mask_) * words_];
  for (uint32_t w = 0; w < words_; ++w) {
    while (slot[w] != 0) {
      const uint32_t port = w * 64 + uint32_t(__builtin_ctzll(slot[w]));
      slot[w] &= slot[w] - 1;
      Ring<Arrival>& in = port_in_[port];
      while (!in.empty() && in.front().due <= l2_cycle) {
        const uint32_t id = in.front().id;
        in.pop_front();
        deliver(id);
      }
      if (!in.empty()) file(port, in.front().due);
    }
  }
}

}  // namespace gpupm
