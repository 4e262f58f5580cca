#include "gpupm/mem/interconnect.h"

#include "gpupm/clock/tickable.h"

#include <algorithm>

namespace gpupm {

RequestNetwork::RequestNetwork(const MemConfig& cfg)
    : capacity_(cfg.icnt_queue),
      latency_(cfg.icnt_latency),
      used_(cfg.channels, 0),
      input_(cfg.channels, Ring<Timed>(cfg.icnt_queue)),
      parked_(cfg.channels) {
  staged_.reserve(size_t(cfg.channels) * cfg.icnt_queue);
}

void RequestNetwork::stage(uint32_t id, uint32_t slice) {
  ++used_[slice];
  staged_.push_back({id, slice});
}

void RequestNetwork::park(uint32_t id, uint32_t slice) { parked_[slice].push_back(id); }

void RequestNetwork::enter_staged_now(uint64_t l2_cycle) {
  for (const Staged& s : staged_) input_[s.slice].push_back({s.id, l2_cycle + latency_});
  staged_.clear();
}

void RequestNetwork::pop_head(uint32_t slice) {
  input_[slice].pop_front();
  --used_[slice];
}

void RequestNetwork::admit_parked(uint32_t slice, uint64_t l2_cycle, std::vector<uint32_t>& accepted) {
  Ring<uint32_t>& parked = parked_[slice];
  while (!parked.empty() && used_[slice] < capacity_) {
    uint32_t id = parked.front();
    parked.pop_front();
    ++used_[slice];
    input_[slice].push_back({id, l2_cycle + latency_});
    accepted.push_back(id);
  }
}

uint64_t RequestNetwork::next_ready() const {
  uint64_t next = kNever;
  for (const Ring<Timed>& in : input_)
    if (!in.empty()) next = std::min(next, in.front().ready);
  return next;
}

bool RequestNetwork::empty() const {
  if (!staged_.empty()) return false;
  for (size_t s = 0; s < input_.size(); ++s)
    if (!input_[s].empty() || !parked_[s].empty()) return false;
  return true;
}

ResponseNetwork::ResponseNetwork(const MemConfig& cfg, const RequestPool& pool)
    : pool_(pool),
      latency_(cfg.icnt_latency),
      slice_flits_(cfg.slice_out_flits),
      port_flits_(cfg.sm_in_flits),
      read_flits_(cfg.line_bytes / cfg.flit_bytes),
      flit_bytes_(cfg.flit_bytes),
      blocking_(cfg.blocking_responses),
      // Blocking: one queue per slice output port (slice_out_flits of them, a flit a cycle each).
      slice_out_(cfg.channels * (cfg.blocking_responses ? cfg.slice_out_flits : 1), Ring<Packet>(cfg.l2_mshrs)) {}

void ResponseNetwork::set_ports(uint32_t ports) {
  port_in_.assign(ports, Ring<Arrival>(64));
  port_last_.assign(ports, 0);
  port_used_.assign(ports, 0);
  port_room_.assign(ports, 0);
  words_ = (ports + 63) / 64;
  uint64_t slots = 1;
  while (slots < uint64_t(latency_) + read_flits_ + 2) slots <<= 1;
  wheel_mask_ = slots - 1;
  wheel_.assign(slots * words_, 0);
}

void ResponseNetwork::arrive(uint32_t port, uint32_t id, uint32_t flits, uint64_t ready, bool crossed) {
  uint64_t due = ready;
  if (!crossed) {  // its flits enter after the port's earlier packets', port_flits_ a cycle
    const uint64_t start = std::max(ready, port_last_[port]);
    uint32_t used = start == port_last_[port] ? port_used_[port] : 0;
    uint32_t left = flits;
    due = start;
    while (left > port_flits_ - used) {
      left -= port_flits_ - used;
      used = 0;
      ++due;
    }
    port_used_[port] = used + left;
    port_last_[port] = due;
  }
  Ring<Arrival>& in = port_in_[port];
  in.push_back({id, ready, due});
  if (in.size() == 1) file(port, due);
}

void ResponseNetwork::push(uint32_t slice, uint32_t id, uint64_t ready) {
  const MemRequest& r = pool_[id];
  // Blocking: the output of the line's sub-partition, by the line's lowest bits within the channel
  // (GPGPU-Sim picks it from the bank's low bits and its ipoly hash: addrdec.cc).
  const size_t queue = blocking_ ? slice * slice_flits_ + size_t(r.local_line % slice_flits_) : slice;
  slice_out_[queue].push_back({id, r.port, flits_of(r), 0, ready});
}

// The blocking crossbar's cycle: slice_out_flits outputs per slice, a flit a cycle each, the first served
// rotating with the L2 cycle; a crossed packet reaches its SM port icnt_latency cycles later.
void ResponseNetwork::cross_blocking(uint64_t l2_cycle) {
  std::fill(port_room_.begin(), port_room_.end(), port_flits_);
  const size_t outputs = slice_out_.size();
  for (size_t k = 0, q = size_t(l2_cycle % outputs); k < outputs; ++k, q = q + 1 == outputs ? 0 : q + 1) {
    Ring<Packet>& out = slice_out_[q];
    if (out.empty() || out.front().ready > l2_cycle) continue;
    Packet& p = out.front();
    if (port_room_[p.port] == 0) continue;  // its port is full this cycle: the output's queue waits behind it
    ++p.sent;
    --port_room_[p.port];
    if (p.sent < p.flits) continue;
    arrive(p.port, p.id, p.flits, l2_cycle + latency_, true);
    out.pop_front();
  }
}

uint64_t ResponseNetwork::head_ready(const std::vector<Ring<Packet>>& queues) {
  uint64_t next = kNever;
  for (const Ring<Packet>& q : queues)
    if (!q.empty()) next = std::min(next, q.front().ready);
  return next;
}

uint64_t ResponseNetwork::next_ready() const {
  uint64_t next = head_ready(slice_out_);
  for (const Ring<Arrival>& in : port_in_)
    if (!in.empty()) next = std::min(next, in.front().ready);
  return next;
}

bool ResponseNetwork::empty() const { return next_ready() == kNever; }

}  // namespace gpupm
