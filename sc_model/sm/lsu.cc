#include "gpupm/sm/lsu.h"

#include <algorithm>

namespace gpupm {

Lsu::Lsu(const SmConfig& cfg)
    : cfg_(cfg),
      l1_(cfg.l1_sets, cfg.l1_ways, L1Policy{cfg.l1_allocate_on_miss, cfg.l1_fermi_hash}),
      mshrs_(cfg.l1_mshrs),
      mshr_of_(cfg.l1_mshrs),
      mshr_free_((cfg.l1_mshrs + 63) / 64, 0) {
  for (auto& m : mshrs_) m.waiters.reserve(cfg.l1_mshr_merges);
  for (uint32_t m = 0; m < cfg.l1_mshrs; ++m) mshr_free_[m / 64] |= uint64_t(1) << (m % 64);
}

void Lsu::accept(uint16_t warp, uint64_t inst_index, const Inst& in) {
  latch_.valid = true;
  latch_.store = in.op == InstClass::Store;
  latch_.warp = warp;
  latch_.inst_index = inst_index;
  latch_.line = in.line;
  latch_.lines = in.lines;
  latch_.next = 0;
  latch_.listed = in.line_list != nullptr;
  latch_.atomic = in.atomic;
  if (latch_.listed) std::copy(in.line_list, in.line_list + in.lines, latch_list_.begin());
  if (latch_.store) {
    ++stats_.stores;
  } else {
    ++stats_.loads;
  }
}

uint32_t Lsu::take_free_mshr() {
  size_t w = 0;
  while (mshr_free_[w] == 0) ++w;  // the caller knows one is free
  const uint32_t m = uint32_t(w * 64) + uint32_t(__builtin_ctzll(mshr_free_[w]));
  mshr_free_[w] &= mshr_free_[w] - 1;
  return m;
}

// Inlined into its two callers: it runs for every line of every load.
[[gnu::always_inline]] inline void Lsu::line_done(uint32_t t, uint64_t ready, std::vector<LoadDone>& done) {
  Tracker& tr = trackers_[t];
  tr.ready_cycle = std::max(tr.ready_cycle, ready);
  if (--tr.remaining == 0) {
    done.push_back({tr.warp, tr.inst_index, tr.ready_cycle});
    free_trackers_.push_back(t);
  }
}

bool Lsu::process_line(uint64_t c, std::vector<LoadDone>& done) {
  uint64_t line = slot_line(slot_.next);
  if (slot_.atomic) {
    l1_.invalidate(line);  // the L2 holds the current value
  } else if (slot_.store) {
    if (requests_.size() >= cfg_.miss_queue) return false;
    l1_.invalidate(line);
    requests_.push_back({line, true});
    ++stats_.store_lines;
    return true;
  } else if (l1_.access(line)) {
    ++stats_.l1_hits;
    line_done(slot_.tracker, c + cfg_.l1_hit_latency, done);
    return true;
  }
  int m = find_mshr(line);
  if (m >= 0) {
    if (mshrs_[m].waiters.size() >= cfg_.l1_mshr_merges) return false;
    mshrs_[m].waiters.push_back(slot_.tracker);
    l1_.touch_waiting(line);
    ++stats_.l1_misses;
    ++stats_.mshr_merges;
    return true;
  }
  if (mshrs_in_use_ == mshrs_.size() || requests_.size() >= cfg_.miss_queue) return false;
  // With allocate-on-miss the line needs a way of its set now (an atomic, done at the L2, takes none).
  if (!slot_.atomic && !l1_.reserve(line)) return false;
  const uint32_t free = take_free_mshr();
  mshr_of_.insert(line, int(free));
  mshrs_[free].waiters.assign(1, slot_.tracker);
  ++mshrs_in_use_;
  ++stats_.l1_misses;
  requests_.push_back({line, false});
  return true;
}

void Lsu::cycle(uint64_t c, std::vector<LoadDone>& done) {
  if (!slot_.valid && latch_.valid) {
    slot_ = latch_;
    if (slot_.listed) std::copy(latch_list_.begin(), latch_list_.begin() + slot_.lines, slot_list_.begin());
    latch_.valid = false;
    if (!slot_.store) {
      uint32_t t;
      if (free_trackers_.empty()) {
        t = uint32_t(trackers_.size());
        trackers_.push_back({});
      } else {
        t = free_trackers_.back();
        free_trackers_.pop_back();
      }
      trackers_[t] = {slot_.warp, slot_.inst_index, slot_.lines, c};
      slot_.tracker = t;
    }
  }
  if (!slot_.valid) {
    stalled_ = false;
    return;
  }
  ++stats_.busy_cycles;
  // A stalled line waits for a fill or a sent request (retry_); until then a
  // retry would fail the same way, so just count the cycle.
  if (stalled_ && !retry_) {
    ++stats_.stall_cycles;
    stats_.store_stall_cycles += slot_.store;
    return;
  }
  retry_ = false;
  stalled_ = false;
  if (!process_line(c, done)) {
    stalled_ = true;
    ++stats_.stall_cycles;
    stats_.store_stall_cycles += slot_.store;
    return;
  }
  if (++slot_.next == slot_.lines) slot_.valid = false;
}

void Lsu::fill(uint64_t line, uint64_t c, std::vector<LoadDone>& done) {
  retry_ = true;
  int m = find_mshr(line);
  if (m < 0) return;  // not ours (cannot happen for reads we sent)
  l1_.fill(line);
  Mshr& e = mshrs_[m];
  mshr_of_.erase(line);
  mshr_free_[size_t(m) / 64] |= uint64_t(1) << (m % 64);
  --mshrs_in_use_;
  for (uint32_t t : e.waiters) line_done(t, c + 1, done);
  e.waiters.clear();
}

}  // namespace gpupm
