#include "gpupm/clock/clock_domain.h"

#include "gpupm/clock/time_now.h"

#include <algorithm>

namespace gpupm {

using sc_core::sc_time;

ClockDomain::ClockDomain(sc_core::sc_module_name name, sc_time period)
    : sc_module(name), period_in("period_in"), period_(period) {
  period_in.register_b_transport(this, &ClockDomain::b_transport);
  SC_HAS_PROCESS(ClockDomain);
  SC_METHOD(run);
  dont_initialize();
  sensitive << wake_event_ << edge_event_;
  wake_event_.notify(sc_core::SC_ZERO_TIME);
}

void ClockDomain::add(Tickable* block) {
  blocks_.push_back({block, 0, nullptr});
  every_tick_.push_back(block);
}

size_t ClockDomain::add_when_due(Tickable* block, const uint64_t& next_busy) {
  blocks_.push_back({block, 0, &next_busy});
  return blocks_.size() - 1;
}

void ClockDomain::on_every(uint64_t every, std::function<void(uint64_t)> f) {
  const uint64_t from = started_ ? cycle_ : 0;  // the first cycle it may fire at
  periodic_.push_back({every, std::move(f), from / every * every + every - 1});
}

void ClockDomain::wake() {
  // Most wakes (a response for an SM that ticks next edge anyway) find the edge
  // aimed already: a run to re-aim it would cost an activation for nothing. One
  // from an earlier domain's edge run in this one's is served by this edge too,
  // as it is when the earlier domain's process runs first.
  if (stopped_ || running_earlier_ || aimed_at_first_edge_from(time_now(*this))) return;
  wake_event_.notify(sc_core::SC_ZERO_TIME);
}

void ClockDomain::stop() {
  stopped_ = true;
  wake_event_.cancel();
}

uint64_t ClockDomain::cycles_elapsed() const {
  if (!started_) return 0;
  sc_time since = time_now(*this) - last_edge_;
  return cycle_ + uint64_t(since / period_);
}

uint64_t ClockDomain::next_cycle_due(uint64_t now, uint64_t next) const {
  for (const Tickable* b : every_tick_) next = std::min(next, b->next_busy_cycle(now));
  for (const Periodic& p : periodic_) next = std::min(next, p.end);  // past `now`: run() moved it on
  return std::max(next, now + 1);
}

void ClockDomain::run() {
  if (ran_out_of_turn_) {  // this activation's edge (or wake) was served then; the next edge is aimed
    ran_out_of_turn_ = false;
    return;
  }
  run_edge();
}

void ClockDomain::run_edge() {
  edge_event_.cancel();  // woken early: the edge is re-aimed below (stopped: none follows)
  if (stopped_) return;
  sc_time now = time_now(*this);
  if (!started_) {
    started_ = true;
    last_edge_ = now;
    cycle_ = 0;
  } else {
    if (now < target_time_) {
      // Woken early (outside input or a period change): aim at the first edge at
      // or after now; every edge before it was idle for all blocks.
      const uint64_t k = edges_to_first_from(now);
      target_ = cycle_ + k;
      target_time_ = last_edge_ + period_ * double(k);
      if (target_time_ > now) {
        edge_event_.notify(target_time_ - now);
        return;
      }
    }
    last_edge_ = target_time_;
    cycle_ = target_;
  }
  running_earlier_ = true;
  for (ClockDomain* d : earlier_)
    if (d->edge_due_at(now)) {
      d->ran_out_of_turn_ = true;
      d->run_edge();
    }
  running_earlier_ = false;
  ++ticks_run_;
  // The target takes the blocks' next busy cycles, not their wakes (as
  // next_busy_cycle() never did): a wake's event re-aims the domain.
  uint64_t next_due = kNever;
  const uint64_t c = cycle_;
  for (Block *b = blocks_.data(), *end = b + blocks_.size(); b != end; ++b) {
    if (c < b->call_from) {  // added when due, not woken: call_from is its next busy cycle
      next_due = std::min(next_due, b->call_from);
      continue;
    }
    if (!b->next_busy) {
      b->block->tick(c);
      continue;
    }
    b->call_from = kNever;  // a wake in its own tick calls it at the next edge
    b->block->tick(c);
    const uint64_t due = std::max(*b->next_busy, c + 1);  // next_busy_cycle(c); stands until its next tick or wake
    b->call_from = std::min(b->call_from, due);
    next_due = std::min(next_due, due);
  }
  for (Periodic& p : periodic_) {
    if (cycle_ < p.end) continue;
    if (cycle_ > p.end) p.end += (cycle_ - p.end) / p.every * p.every;  // added between edges; skipping stops at ends
    if (cycle_ == p.end) p.f(cycle_);
    p.end += p.every;
  }
  if (stopped_) return;
  target_ = next_cycle_due(cycle_, next_due);
  if (target_ == kNever) {
    target_time_ = sc_core::sc_max_time();
    return;  // until a wake
  }
  target_time_ = last_edge_ + period_ * double(target_ - cycle_);
  edge_event_.notify(target_time_ - now);
}

void ClockDomain::b_transport(tlm::tlm_generic_payload& gp, sc_time&) {
  auto* msg = gp.get_extension<ClockPeriodMsg>();
  if (!msg) {
    gp.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
    return;
  }
  sc_time now = time_now(*this);
  if (started_ && !stopped_ && now < target_time_) {
    // Edges that passed while skipping keep the old period; re-aim from the last one.
    uint64_t passed = uint64_t((now - last_edge_) / period_);
    last_edge_ += period_ * double(passed);
    cycle_ += passed;
    period_ = msg->period;
    target_ = cycle_ + 1;
    target_time_ = std::max(last_edge_ + period_, now);  // never an edge in the past
    wake_event_.notify(sc_core::SC_ZERO_TIME);           // the pending edge is aimed at the old period
  } else {
    period_ = msg->period;  // the edge at `now` (if any) is still due with the old timing
  }
  gp.set_response_status(tlm::TLM_OK_RESPONSE);
}

}  // namespace gpupm
