#include "gpupm/sm/lsu.h"

#include <algorithm>

namespace gpupm {

Lsu::Lsu(const SmConfig& cfg)
    : cfg_(cfg),
      queued_(cfg.l1_access_latency > 0),
      l1_(cfg.l1_sets, cfg.l1_ways, L1Policy{cfg.l1_allocate_on_miss, cfg.l1_fermi_hash}),
      mshrs_(cfg.l1_mshrs),
      mshr_of_(cfg.l1_mshrs),
      mshr_free_((cfg.l1_mshrs + 63) / 64, 0),
      queue_(cfg.l1_access_latency) {
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
  latch_.has_sectors = in.sector_list != nullptr;
  if (latch_.listed) std::copy(in.line_list, in.line_list + in.lines, latch_list_.begin());
  if (latch_.has_sectors) std::copy(in.sector_list, in.sector_list + in.lines, latch_sectors_.begin());
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
    done.push_back({tr.warp, false, tr.inst_index, tr.ready_cycle});
    free_trackers_.push_back(t);
  }
}

// Inlined into both paths of cycle(): it runs for every line.
[[gnu::always_inline]] inline bool Lsu::access(uint64_t line, Access kind, uint32_t tracker, uint16_t warp,
                                               uint8_t sectors, uint64_t c, std::vector<LoadDone>& done) {
  if (kind == Access::Atomic) {
    l1_.invalidate(line);  // the L2 holds the current value
    if (sectors) {         // a transaction: its own request
      if (requests_.size() >= cfg_.miss_queue) return false;
      requests_.push_back({line, false, warp, sectors, true, tracker});
      return true;
    }
  } else if (kind == Access::Store) {
    if (requests_.size() >= cfg_.miss_queue) return false;
    l1_.invalidate(line);
    requests_.push_back({line, true, warp, sectors});
    ++stats_.store_lines;
    return true;
  } else if (l1_.access(line)) {
    ++stats_.l1_hits;
    line_done(tracker, c + cfg_.l1_hit_latency, done);
    return true;
  }
  int m = find_mshr(line);
  if (m >= 0) {
    if (mshrs_[m].waiters.size() >= cfg_.l1_mshr_merges) return false;
    mshrs_[m].waiters.push_back(tracker);
    l1_.touch_waiting(line);
    ++stats_.l1_misses;
    ++stats_.mshr_merges;
    return true;
  }
  if (mshrs_in_use_ == mshrs_.size() || requests_.size() >= cfg_.miss_queue) return false;
  // With allocate-on-miss the line needs a way of its set now (an atomic, done at the L2, takes none).
  if (kind != Access::Atomic && !l1_.reserve(line)) return false;
  const uint32_t free = take_free_mshr();
  mshr_of_.insert(line, int(free));
  mshrs_[free].waiters.clear();  // reserved at construction: no allocation
  mshrs_[free].waiters.push_back(tracker);
  ++mshrs_in_use_;
  ++stats_.l1_misses;
  requests_.push_back({line, false, warp});
  return true;
}

[[gnu::always_inline]] inline void Lsu::take_latch(uint64_t c) {
  slot_ = latch_;
  if (slot_.listed) std::copy(latch_list_.begin(), latch_list_.begin() + slot_.lines, slot_list_.begin());
  if (slot_.has_sectors) std::copy(latch_sectors_.begin(), latch_sectors_.begin() + slot_.lines, slot_sectors_.begin());
  latch_.valid = false;
  if (slot_.store && !queued_) return;
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

void Lsu::cycle_unqueued(uint64_t c, std::vector<LoadDone>& done) {
  if (!slot_.valid && latch_.valid) take_latch(c);
  if (!slot_.valid) {
    stalled_ = false;
    return;
  }
  ++stats_.busy_cycles;
  // A stalled line waits for a fill or a sent request (retry_); until then a
  // retry would fail the same way, so just count the cycle.
  if (stalled_ && !retry_) return count_stall(slot_.store);
  retry_ = false;
  stalled_ = false;
  if (!access(slot_line(slot_.next), slot_access(), slot_.tracker, slot_.warp, slot_sectors(slot_.next), c, done))
    return count_stall(slot_.store);
  if (++slot_.next == slot_.lines) slot_.valid = false;
}

void Lsu::store_line_done(uint32_t t, std::vector<LoadDone>& done) {
  Tracker& tr = trackers_[t];
  if (--tr.remaining > 0) return;
  done.push_back({tr.warp, true, tr.inst_index, kNever});
  free_trackers_.push_back(t);
}

// The head looks up once due, unless its last lookup was refused and nothing it
// may wait for has changed since.
bool Lsu::head_may_look_up(uint64_t c) const {
  return in_flight_ > 0 && queue_[queue_head_].due <= c && !(head_failed_ && !retry_);
}

// GPGPU-Sim's order: the head's lookup, then the slot's next line into the queue.
void Lsu::cycle_queued(uint64_t c, std::vector<LoadDone>& done) {
  if (!slot_.valid && latch_.valid) take_latch(c);
  stalled_ = false;
  if (!slot_.valid && in_flight_ == 0) return;
  ++stats_.busy_cycles;
  bool advanced = false, atomic_moved = false;
  if (head_may_look_up(c)) {
    const InFlight& h = queue_[queue_head_];
    head_failed_ = !access(h.line, h.store ? Access::Store : Access::Load, h.tracker, trackers_[h.tracker].warp,
                           h.sectors, c, done);
    if (!head_failed_) {
      if (h.store) store_line_done(h.tracker, done);
      queue_head_ = queue_head_ + 1 == queue_.size() ? 0 : queue_head_ + 1;
      --in_flight_;
      advanced = true;
    }
  }
  if (slot_.valid) {
    const uint64_t line = slot_line(slot_.next);
    bool moved = false;
    if (slot_.atomic) {
      if (!(atomic_failed_ && !retry_))
        atomic_failed_ = !access(line, Access::Atomic, slot_.tracker, slot_.warp, slot_sectors(slot_.next), c, done);
      moved = !atomic_failed_;
      atomic_moved = moved;
    } else if (in_flight_ < queue_.size()) {
      size_t tail = queue_head_ + in_flight_;
      if (tail >= queue_.size()) tail -= queue_.size();
      queue_[tail] = {line, c + queue_.size(), slot_.tracker, slot_.store, slot_sectors(slot_.next)};
      ++in_flight_;
      moved = true;
    }
    if (moved && ++slot_.next == slot_.lines) slot_.valid = false;
    advanced |= moved;
  }
  retry_ = atomic_moved;  // its invalidation may have freed a way a refused head waits for
  if (advanced) return;
  // Nothing moved: a refused head, a refused atomic, or a full queue whose head is not due.
  if (head_failed_) return count_stall(queue_[queue_head_].store);
  if (slot_.valid) return count_stall(slot_.store);
}

void Lsu::add_skipped_cycles_queued(uint64_t n) {
  // Nothing moves in a skipped cycle: the slot, if it holds an instruction, is refused,
  // and a refused head stays refused; lines waiting only for their time are busy.
  if (!slot_.valid && in_flight_ == 0) return;
  stats_.busy_cycles += n;
  if (!slot_.valid && !head_failed_) return;
  stats_.stall_cycles += n;
  if (head_failed_ ? queue_[queue_head_].store : slot_.store) stats_.store_stall_cycles += n;
}

uint64_t Lsu::queued_next_work_cycle(uint64_t c) const {
  if (latch_.valid && !slot_.valid) return c + 1;
  if (slot_.valid && (slot_.atomic ? !(atomic_failed_ && !retry_) : in_flight_ < queue_.size())) return c + 1;
  if (in_flight_ == 0 || (head_failed_ && !retry_)) return kNever;
  return std::max(queue_[queue_head_].due, c + 1);
}

void Lsu::atomic_done(uint32_t tracker, uint64_t c, std::vector<LoadDone>& done) { line_done(tracker, c + 1, done); }

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
