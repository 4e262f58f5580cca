// One clock domain: a single method process ticks the blocks of the domain in
// a plain loop (no sc_clock; blocks added when due only then), re-arms
// itself with the current period, and skips cycles in which no block can do
// anything. A period change arrives as a TLM message on period_in and takes
// effect from the next edge.
#pragma once

#include "gpupm/clock/tickable.h"
#include "gpupm/protocol/vf_messages.h"

#include <tlm_utils/simple_target_socket.h>

#include <functional>
#include <string>
#include <vector>

namespace gpupm {

class ClockDomain : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket_optional<ClockDomain> period_in;  // unbound: fixed clock

  ClockDomain(sc_core::sc_module_name name, sc_core::sc_time period);

  // Ticks `block` at every edge the domain ticks.
  void add(Tickable* block);
  // Ticks `block` only from the cycle it is next busy (`next_busy`, which its
  // tick() updates and the domain reads after each tick: its next_busy_cycle()
  // without a virtual call), or at the next edge after wake(handle). The block
  // promises that tick() does nothing in any other cycle, so an idle SM of a
  // wide GPU costs no call per edge. Returns the handle.
  size_t add_when_due(Tickable* block, const uint64_t& next_busy);
  // Calls f(cycle) after the edge whose cycle+1 is a multiple of `every`
  // (the end of each `every`-cycle epoch); skipping never jumps over it. Add
  // them at elaboration: never from a periodic callback (the list is walked).
  void on_every(uint64_t every, std::function<void(uint64_t)> f);
  // Any block may call this when outside input gives it work (wakes a skip).
  // Free when the domain is already aimed at the first edge from now.
  void wake();
  // The same for one block added add_when_due(): it is ticked at the next edge.
  void wake(size_t handle) {
    blocks_[handle].call_from = 0;
    wake();
  }
  // Stops ticking for good (end of simulation work).
  void stop();
  // When an edge of `earlier` falls at the same time as one of this domain, the
  // edge of `earlier` runs first, whatever order SystemC's timed queue (which a
  // platform's own events share) gives the two. At elaboration.
  void runs_after(ClockDomain& earlier) { earlier_.push_back(&earlier); }

  uint64_t cycle() const { return cycle_; }  // last ticked cycle
  uint64_t cycles_elapsed() const;           // edges up to now, ticked or skipped
  // Time of edge `c` (ticked or skipped) at the current period: exact while the
  // period has not changed between edge c and the last ticked edge.
  sc_core::sc_time edge_time(uint64_t c) const {
    return c >= cycle_ ? last_edge_ + double(c - cycle_) * period_ : last_edge_ - double(cycle_ - c) * period_;
  }
  sc_core::sc_time period() const { return period_; }
  double frequency_hz() const { return 1.0 / period_.to_seconds(); }
  uint64_t ticks_run() const { return ticks_run_; }  // edges actually evaluated

 private:
  struct Periodic {
    uint64_t every;
    std::function<void(uint64_t)> f;
    uint64_t end;  // its next epoch-end cycle (cycle + 1 a multiple of every): no division per edge
  };
  void run();
  void run_edge();
  // Edges from the last ticked one to the first at or after `now` (at least one).
  uint64_t edges_to_first_from(const sc_core::sc_time& now) const {
    uint64_t k = uint64_t((now - last_edge_) / period_);
    if (k == 0 || last_edge_ + period_ * double(k) < now) ++k;
    return k;
  }
  // A wake now would re-aim the pending edge where it already is: an edge at now
  // still to run serves it (its blocks' next busy cycle counts input that came at
  // its time). Aimed at the next edge, not before now: no division (most wakes).
  bool aimed_at_first_edge_from(const sc_core::sc_time& now) const {
    if (!started_ || target_time_ < now) return false;
    return target_ == cycle_ + 1 || target_ == cycle_ + edges_to_first_from(now);
  }
  // Not started yet: its first edge is the time it was built at (time 0), as now.
  bool edge_due_at(const sc_core::sc_time& now) const { return !stopped_ && (!started_ || target_time_ == now); }
  void b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);
  // The next cycle any block or callback is due, given `next` for the blocks added when due.
  uint64_t next_cycle_due(uint64_t now, uint64_t next) const;

  struct Block {
    Tickable* block;
    // The first cycle to call it: when due, its next busy cycle after its last
    // tick (0 before its first tick, and once woken); at every edge, 0.
    uint64_t call_from;
    const uint64_t* next_busy;  // when due; nullptr for every edge
  };
  std::vector<Block> blocks_;          // in the order added
  std::vector<Tickable*> every_tick_;  // the blocks added with add()
  std::vector<Periodic> periodic_;
  sc_core::sc_time period_;
  sc_core::sc_time last_edge_;  // time of cycle_'s edge
  uint64_t cycle_ = 0;
  uint64_t target_ = 0;           // the cycle the pending trigger waits for
  sc_core::sc_time target_time_;  // its edge time
  uint64_t ticks_run_ = 0;
  bool started_ = false;
  bool stopped_ = false;
  std::vector<ClockDomain*> earlier_;  // runs_after()
  bool ran_out_of_turn_ = false;       // its edge ran from a later domain's process (runs_after)
  bool running_earlier_ = false;       // running earlier_'s edges in its own, before its blocks tick
  sc_core::sc_event wake_event_;
  // The next edge to tick. Static sensitivity to both events, not next_trigger(time, event):
  // the kernel's timed queue sees the same notifications and cancellations in the same order
  // (so same-time events still leave it as before), without re-arming a dynamic sensitivity
  // per edge.
  sc_core::sc_event edge_event_;
};

}  // namespace gpupm
