// Load/store unit: a one-instruction input latch (the "LD/ST queue" the
// Equalizer counters look at), a slot that walks the instruction's lines one per
// cycle through the L1D, MSHRs that merge misses to the same line, and a bounded
// queue of line requests for the interconnect. Any of these running full stalls
// the slot, the latch then stays full, and the schedulers see back-pressure.
// Stores are write-through, write-evict (Fermi L1 for global data).
// With l1_access_latency L > 0 the slot's lines do not look up the L1 at once: each
// enters a queue of L lines, one a cycle, and looks up L cycles later, in order, one
// a cycle (GPGPU-Sim's l1_latency queue). A lookup that fails holds the lines behind
// it; the slot stalls only when L lines are in flight. Atomics skip the queue.
#pragma once

#include "gpupm/clock/tickable.h"
#include "gpupm/protocol/sm_status.h"
#include "gpupm/sm/l1_cache.h"
#include "gpupm/sm/line_table.h"
#include "gpupm/sm/sm_config.h"
#include "gpupm/workload/warp_stream.h"

#include <array>
#include <cstdint>
#include <deque>
#include <vector>

namespace gpupm {

struct LineRequest {
  uint64_t line;
  bool write;
  uint16_t warp = 0;     // a store's warp (its acknowledgement is counted against it)
  uint8_t sectors = 0;   // the 32 B sectors a store or an atomic transaction touches (Inst::sector_list); 0: a line
  bool atomic = false;   // an atomic transaction
  uint32_t tracker = 0;  // an atomic transaction's: atomic_done() takes it
};

class Lsu {
 public:
  explicit Lsu(const SmConfig& cfg);

  bool can_accept() const { return !latch_.valid; }
  void accept(uint16_t warp, uint64_t inst_index, const Inst& in);
  // With the L1 access queue a store counts as pending until its last line has
  // been looked up (GPGPU-Sim holds a warp until its stores are done): its
  // LoadDone, with `store` set, says so.
  bool tracks_stores() const { return queued_; }

  // Called for each completed load: (warp, instruction index, cycle its data is ready).
  struct LoadDone {
    uint16_t warp;
    bool store;  // a store's last line left the L1 access queue (no data, no ready cycle)
    uint64_t inst_index;
    uint64_t ready_cycle;
  };

  // One cycle of the pipeline. Completed loads are appended to `done`. Inline for the
  // idle unit, the common case of compute-bound programs.
  void cycle(uint64_t c, std::vector<LoadDone>& done) {
    if (!slot_.valid && !latch_.valid && in_flight_ == 0) {
      stalled_ = false;
      return;
    }
    if (queued_) return cycle_queued(c, done);
    cycle_unqueued(c, done);
  }
  // A read line came back from memory at cycle c.
  void fill(uint64_t line, uint64_t c, std::vector<LoadDone>& done);
  // An atomic transaction's response (LineRequest::tracker) came back at cycle c: no L1 fill, no MSHR.
  void atomic_done(uint32_t tracker, uint64_t c, std::vector<LoadDone>& done);

  bool has_request() const { return !requests_.empty(); }
  const LineRequest& front_request() const { return requests_.front(); }
  void pop_request() {
    requests_.pop_front();
    retry_ = true;
  }

  bool busy() const { return latch_.valid || slot_.valid || in_flight_ > 0; }
  bool stalled() const { return stalled_; }  // the last cycle could not advance
  // The first cycle after c in which the unit can act without outside input (a fill
  // or a sent request): c + 1, the cycle the queue's head is due, or kNever. Inlined into the
  // SM's cycle, which is a template (called, it cost 0.05% of kmeans' instructions).
  [[gnu::always_inline]] uint64_t next_work_cycle(uint64_t c) const {
    if (!queued_) return (latch_.valid || slot_.valid) && !waiting_for_memory() ? c + 1 : kNever;
    return queued_next_work_cycle(c);
  }
  // Cycles in which the unit was not ticked because it could not act (a sleeping SM):
  // counted as a ticked cycle in the same state would have been. Without the queue a
  // busy unit that is not stalled ticks every cycle.
  void add_skipped_cycles(uint64_t n) {
    if (queued_) return add_skipped_cycles_queued(n);
    if (!stalled_) return;
    stats_.stall_cycles += n;
    stats_.busy_cycles += n;
    if (stall_store_) stats_.store_stall_cycles += n;
  }
  uint32_t mshrs_in_use() const { return mshrs_in_use_; }
  const LsuStats& stats() const { return stats_; }
  void invalidate_all() {
    l1_.clear();
    if (queued_) retry_ = true;  // a head refused for want of a way may find one now
  }
  // A unified L1/shared array: the ways the resident kernels' shared-memory carve-out leaves the L1.
  void set_l1_ways(uint32_t n) {
    l1_.set_active_ways(n);
    retry_ = true;  // a line stalled for want of a way may find one now
  }
  uint32_t l1_ways() const { return l1_.active_ways(); }

 private:
  struct Entry {
    bool valid = false;
    bool store = false;
    uint16_t warp = 0;
    uint64_t inst_index = 0;
    uint64_t line = 0;
    uint8_t lines = 0;
    uint8_t next = 0;  // lines done
    uint32_t tracker = 0;
    bool listed = false;       // lines from its list (a program's coalesced lanes), else consecutive from `line`
    bool atomic = false;       // performed at the L2: bypasses the L1
    bool has_sectors = false;  // the sector lists hold each line's sectors (Inst::sector_list)
  };
  // The slot's k-th line. The lists live beside the entries so that moving a
  // profile's instruction from latch to slot copies no list.
  uint64_t slot_line(uint8_t k) const { return slot_.listed ? slot_list_[k] : slot_.line + k; }
  uint8_t slot_sectors(uint8_t k) const { return slot_.has_sectors ? slot_sectors_[k] : 0; }
  struct Tracker {  // one load instruction waiting for its lines
    uint16_t warp;
    uint64_t inst_index;
    uint32_t remaining;
    uint64_t ready_cycle;
  };
  struct Mshr {
    std::vector<uint32_t> waiters;
  };
  enum class Access : uint8_t { Load, Store, Atomic };
  struct InFlight {  // a line between the slot and its L1 lookup
    uint64_t line;
    uint64_t due;  // the cycle its lookup may happen
    uint32_t tracker;
    bool store;
    uint8_t sectors;  // a store's (slot_sectors)
  };
  Access slot_access() const { return slot_.atomic ? Access::Atomic : slot_.store ? Access::Store : Access::Load; }
  // One line's L1 lookup, miss handling and requests; false: refused (retried later).
  bool access(uint64_t line, Access kind, uint32_t tracker, uint16_t warp, uint8_t sectors, uint64_t c,
              std::vector<LoadDone>& done);
  void take_latch(uint64_t c);
  void store_line_done(uint32_t tracker, std::vector<LoadDone>& done);
  void cycle_queued(uint64_t c, std::vector<LoadDone>& done);
  void cycle_unqueued(uint64_t c, std::vector<LoadDone>& done);
  bool head_may_look_up(uint64_t c) const;
  void count_stall(bool store) {
    stalled_ = true;
    stall_store_ = store;
    ++stats_.stall_cycles;
    stats_.store_stall_cycles += store;
  }
  // Without the queue: stalled, and only a fill or a sent request (from outside) can change that.
  bool waiting_for_memory() const { return stalled_ && !retry_; }
  uint64_t queued_next_work_cycle(uint64_t c) const;
  void add_skipped_cycles_queued(uint64_t n);
  void line_done(uint32_t tracker, uint64_t ready, std::vector<LoadDone>& done);
  int find_mshr(uint64_t line) const { return mshr_of_.find(line); }
  uint32_t take_free_mshr();  // the lowest free one

  const SmConfig& cfg_;
  const bool queued_;  // l1_access_latency > 0
  L1Cache l1_;
  Entry latch_, slot_;
  std::array<uint64_t, 32> latch_list_, slot_list_;
  std::array<uint8_t, 32> latch_sectors_, slot_sectors_;
  std::vector<Mshr> mshrs_;
  LineTable mshr_of_;                // line -> MSHR, for the MSHRs in use
  std::vector<uint64_t> mshr_free_;  // bit per MSHR: free
  uint32_t mshrs_in_use_ = 0;
  std::vector<Tracker> trackers_;
  std::vector<uint32_t> free_trackers_;
  std::deque<LineRequest> requests_;
  std::vector<InFlight> queue_;  // ring of l1_access_latency lines (empty: no queue)
  uint32_t queue_head_ = 0, in_flight_ = 0;
  bool head_failed_ = false;    // the head's lookup was refused: it waits for retry_
  bool atomic_failed_ = false;  // likewise the slot's atomic line, which skips the queue
  bool stalled_ = false;
  bool stall_store_ = false;  // what stalled_ waits on is a store
  bool retry_ = false;        // something a stalled line may wait for has changed
  LsuStats stats_;
};

}  // namespace gpupm
