// The SM's issue stage: which warp each scheduler issues in a cycle. Greedy then
// oldest (GTO): a scheduler keeps to the warp it issued last while that warp can
// issue, else takes the oldest of its warps that can. A warp can issue when its
// operands are there, its pipe is free (an ALU pipe per scheduler, one SFU and one
// shared-memory pipe per SM, all kept here), a program warp's collector unit is
// free, and a memory instruction finds the LSU's latch empty. With
// sm.warp_order oldest no warp is greedy: every pick is the oldest warp that can
// issue (the scan, from the front).
// The SM keeps the orchestration: it reports every warp change (refresh(), which
// every issue, load completion, fetch and barrier calls), asks each scheduler's
// pick in turn, presents it to the droop predictor and executes it.
// Everything a pick runs is inline here: the scan runs in most ticked cycles.
#pragma once

#include "gpupm/clock/tickable.h"
#include "gpupm/sm/lsu.h"
#include "gpupm/sm/operand_collector.h"
#include "gpupm/sm/result_slots.h"
#include "gpupm/sm/scoreboard.h"
#include "gpupm/sm/sm_config.h"
#include "gpupm/sm/warp_state.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <vector>

namespace gpupm {

class IssueStage {
 public:
  // What a pick reads of the rest of the SM. Passed to each pick rather than kept:
  // inlined into the SM's issue loop, these read the SM's own members directly.
  struct Inputs {
    const WarpSlot* warps;  // by slot
    const Lsu& lsu;
    const OperandCollector& collector;
  };

  explicit IssueStage(const SmConfig& cfg);

  // ------------------------------------------------------------ the warps

  uint32_t scheduler_of(uint16_t slot) const { return sched_of_[slot]; }
  // Scheduler `s`'s warps in the order it looks at them: the greedy one (-1: none), then the rest oldest first.
  int greedy(uint32_t s) const { return greedy_[s]; }
  const std::vector<uint16_t>& warps_of(uint32_t s) const { return order_[s]; }
  // A warp of a new CTA, the youngest of its scheduler (refresh() it too).
  void add(uint16_t slot) { order_[sched_of_[slot]].push_back(slot); }
  // Warp `slot` changed (`w` is it now): what the scan tests first without touching
  // the warp is read again, and every scheduler's scan memo goes stale.
  void refresh(uint16_t slot, const WarpSlot& w);
  // Warp `slot` finished: no scheduler considers it again.
  void retire(uint16_t slot);

  // ------------------------------------------------------------ the pipes

  // An issue occupies its pipe until `until` (the SM knows its interval).
  void occupy_alu(uint16_t slot, uint64_t until) { alu_free_[sched_of_[slot]] = until; }
  // A program's ALU instruction issued at `c`, its operands read by `c + bank_wait`,
  // its result returned `result_stage` cycles after it enters its pipe: the cycles it
  // waits to enter (0 unless the pipes return one result each a cycle and all of
  // them are taken in its result's cycle), which its pipe waits too.
  [[gnu::always_inline]] uint32_t enter_alu(uint16_t slot, uint64_t c, uint32_t bank_wait, uint32_t result_stage,
                                            uint32_t interval) {
    const uint32_t s = sched_of_[slot];
    uint32_t wait = 0;
    if (results_) wait = uint32_t(results_->take(c, c + bank_wait, result_stage) - (c + bank_wait));
    // Waiting at the input, it holds the pipe until it goes in.
    alu_free_[s] = wait == 0 ? c + interval : c + bank_wait + wait + interval;
    return wait;
  }
  void occupy_sfu(uint64_t until) { sfu_free_ = until; }
  // A shared-memory access issued at `c` occupies the shared pipe for `busy` cycles from the cycle it
  // returns: `c` for a .shared instruction (its issue waited for the pipe), later for a generic one whose
  // lanes turn out to be in shared memory (its issue did not wait).
  uint64_t enter_shared(uint64_t c, uint32_t busy) {
    const uint64_t start = std::max(shared_free_, c);
    shared_free_ = start + busy;
    return start;
  }

  // ------------------------------------------------------------ a cycle

  // Forgets the last cycle's findings (before the issue stage; also when it does not run).
  void start_cycle() {
    min_ready_ = kNever;
    mem_blocked_ = false;
  }
  // Scheduler `s`'s warp to issue at cycle `c` (-1: none). `lsu_full`: the LSU's
  // latch was full when the stage began; `issued_any`: a scheduler issued already
  // in this cycle. The SM issues the pick (and then calls issued()) or not (the
  // droop predictor refused it).
  int pick(uint32_t s, uint64_t c, bool lsu_full, bool issued_any, const Inputs& in);
  // GTO: scheduler `s` keeps to the warp it issued; with warp_order oldest no
  // warp is kept (greedy_ stays -1).
  void issued(uint32_t s, uint16_t slot) {
    if (!oldest_first_) greedy_[s] = int(slot);
  }
  // The cycle's findings. The earliest cycle a passed-over or changed warp may issue
  // (kNever: none before outside input); the SM sleeps until then.
  uint64_t min_ready() const { return min_ready_; }
  // A ready memory instruction met the full LSU: the SM ticks once the LSU accepts.
  bool mem_blocked() const { return mem_blocked_; }
  // With the LSU full: every scheduler's last scan stands at cycle `c`, so the stage
  // would pick nothing and find what they found, which this adds to the cycle's
  // findings, as pick() would (true); else it changes nothing (false).
  bool memos_stand(uint64_t c) {
    for (uint32_t s = 0; s < memo_.size(); ++s)
      if (!memo_stands(s, c, true)) return false;
    for (const ScanMemo& memo : memo_) add_findings(memo);
    return true;
  }
  // Scheduler `s`'s last fruitless scan stands at cycle `c`: a scan now would pick
  // nothing again and find the same (see pick()).
  bool memo_stands(uint32_t s, uint64_t c, bool lsu_full) const {
    const ScanMemo& memo = memo_[s];
    if (c >= memo.until) return false;
    const bool own_unchanged = memo.own_only && memo.own_changes == own_changes_[s];
    // Every warp waits for its operands (none met the LSU): whatever the LSU does.
    if (own_unchanged && !memo.mem_blocked) return true;
    return lsu_full && (own_unchanged || memo.changes == changes_);
  }

 private:
  // A scheduler's last scan that picked nothing with the LSU full (see pick()).
  struct ScanMemo {
    uint64_t changes = 0;      // changes_ then
    uint64_t own_changes = 0;  // own_changes_ of its scheduler then
    uint64_t until = 0;        // the earliest cycle it found a warp may issue
    bool mem_blocked = false;  // it met a ready memory instruction facing the full LSU
    bool own_only = false;     // every warp was passed over on its own state (no pipe or unit asked)
  };
  // A standing memo's findings join the cycle's (pick() for one scheduler, memos_stand() for all).
  void add_findings(const ScanMemo& memo) {
    min_ready_ = std::min(min_ready_, memo.until);
    mem_blocked_ = mem_blocked_ || memo.mem_blocked;
  }
  struct Scan {
    int pick = -1;
    uint64_t min_ready = kNever;
    bool mem_blocked = false;
    bool asked = false;  // a warp got as far as its pipe, collector units or the LSU
  };
  Scan scan(uint32_t s, uint64_t c, bool lsu_full, uint64_t greedy_ready, const Inputs& in) const;
  bool can_issue(const WarpSlot& w, uint32_t s, uint64_t c, const Inputs& in, uint64_t& ready_at) const;
  // When a collector unit for a program head's class is free (a barrier needs none).
  static uint64_t collector_ready(const ProgramWarp& p, const OperandCollector& collector) {
    const ptx::TimingClass cls = p.head_info->cls;
    return cls == ptx::TimingClass::Barrier ? 0 : collector.issue_ready(collector_pool(cls));
  }
  // A warp's state changed: every scheduler's scan memo is stale (those that asked
  // no pipe or unit: its own scheduler's only).
  void note_changed(uint16_t slot) {
    ++changes_;
    ++own_changes_[sched_of_[slot]];
  }

  const bool oldest_first_;  // SmConfig::oldest_first
  // Per warp slot: what the scan tests without touching the warp (see refresh()).
  std::vector<uint64_t> wake_;       // the cycle the head's operands are there
  std::vector<uint8_t> head_mem_;    // the head is a load/store
  std::vector<uint8_t> head_class_;  // issue_class() of the head
  // Per scheduler.
  std::vector<std::vector<uint16_t>> order_;  // its warps, oldest first
  std::vector<int> greedy_;                   // the warp it issued last (-1: none; always with oldest_first_)
  std::vector<ScanMemo> memo_;
  uint64_t changes_ = 0;  // refresh() calls and finished warps
  // Arrays in the object (SmConfig's limits), not vectors: refresh() counts in them
  // on every issue, and the pipes are read for every warp asked, without loading a
  // buffer pointer first.
  std::array<uint64_t, kSmMaxSchedulers> own_changes_{};  // per scheduler: changes_ of its own warps
  std::array<uint8_t, kSmMaxWarps> sched_of_{};           // per warp slot: its scheduler (slot mod schedulers)
  std::array<uint64_t, kSmMaxSchedulers> alu_free_{};     // per scheduler: its ALU pipe's free cycle
  std::unique_ptr<ResultSlots> results_;  // with alu_one_result_per_cycle: a result a cycle per ALU pipe
  uint64_t sfu_free_ = 0;
  uint64_t shared_free_ = 0;  // the shared-memory pipe (program warps)
  // The cycle's findings.
  uint64_t min_ready_ = kNever;
  bool mem_blocked_ = false;
};

// ---------------------------------------------------------------- inline: the hot path

// Readiness ignoring the pipes and units: the cycle the head's operands are there,
// kNever while it waits on a load, a barrier, a pause or has nothing to issue.
inline void IssueStage::refresh(uint16_t slot, const WarpSlot& w) {
  // can_issue() asks the same first; spelled out in both because a shared helper
  // cost 0.17% more instructions on cuda/kmeans (callgrind), in the hottest loop.
  uint64_t r = kNever;
  if (schedulable(w) && !w.at_barrier && w.has_head) {
    r = head_ready(w);
    if (r == Scoreboard::kPending) r = kNever;
  }
  wake_[slot] = r;
  note_changed(slot);
  head_mem_[slot] = w.has_head && w.head.is_mem();
  head_class_[slot] = w.has_head ? issue_class(w) : 0;
  min_ready_ = std::min(min_ready_, r);  // a load completed after the issue stage must still wake the SM
}

// `ready_at`: the cycle `w` (of scheduler `s`) may issue as far as its pipe and
// units go, kNever for a memory instruction facing the full LSU. Inlined into the
// scan, so that `in` needs no copy in memory (called, it cost 1% of kmeans').
[[gnu::always_inline]] inline bool IssueStage::can_issue(const WarpSlot& w, uint32_t s, uint64_t c, const Inputs& in,
                                                         uint64_t& ready_at) const {
  ready_at = kNever;
  if (!schedulable(w) || w.at_barrier || !w.has_head) return false;
  uint64_t r = head_ready(w);
  if (r == kNever) return false;
  if (w.is_program()) r = std::max(r, collector_ready(w.program, in.collector));
  switch (w.head.op) {
    case InstClass::Alu: r = std::max(r, alu_free_[s]); break;
    case InstClass::Sfu: r = std::max(r, sfu_free_); break;
    case InstClass::Shared: r = std::max(r, shared_free_); break;
    case InstClass::Load:
    case InstClass::Store:
      if (!in.lsu.can_accept() && r <= c) {
        ready_at = kNever;  // back-pressure: the SM's tick decides when the LSU frees up
        return false;
      }
      break;
    case InstClass::Barrier: break;
  }
  ready_at = r;
  return r <= c;
}

// Scheduler `s`'s pick when its greedy warp cannot issue (-1: none), the earliest
// cycle a warp it passed over may issue, and whether a ready memory instruction
// met the full LSU. `greedy_ready`: what can_issue() said of the greedy warp (0:
// not asked, quick_no refused it).
[[gnu::always_inline]] inline IssueStage::Scan IssueStage::scan(uint32_t s, uint64_t c, bool lsu_full,
                                                                uint64_t greedy_ready, const Inputs& in) const {
  Scan out;
  // Cheap tests first, without touching the warp: operands not there yet, or a
  // memory instruction facing a full LSU (the SM's tick knows when that frees up).
  auto quick_no = [&](uint16_t slot) {
    if (wake_[slot] > c) {
      out.min_ready = std::min(out.min_ready, wake_[slot]);
      return true;
    }
    if (head_mem_[slot] && lsu_full) {
      out.mem_blocked = true;
      return true;
    }
    return false;
  };
  // A warp past quick_no has its operands; what else it waits for (pipe, collector
  // units, LSU) is the same for every head of its class until this scheduler issues,
  // so one refusal answers for the rest of the class (class_ready[k] holds it once
  // bit k of `asked` is set; not zeroed: the scan runs in most cycles).
  static_assert(kIssueClasses <= 32, "one bit per class");
  std::array<uint64_t, kIssueClasses> class_ready;
  uint32_t asked = 0;
  const int g = greedy_[s];
  if (g >= 0 && greedy_ready == 0) {
    quick_no(uint16_t(g));
  } else if (g >= 0) {
    out.min_ready = std::min(out.min_ready, greedy_ready);
    class_ready[head_class_[g]] = greedy_ready;
    asked = 1u << head_class_[g];
    out.asked = true;
  }
  // The greedy warp comes round again: what it adds then, it added above (quick_no
  // again, or its class asked), so the loop does not test for it.
  uint64_t ready_at;
  for (uint16_t slot : order_[s]) {
    if (quick_no(slot)) continue;
    const uint32_t k = head_class_[slot];
    if (!(asked >> k & 1u)) {
      if (can_issue(in.warps[slot], s, c, in, ready_at)) {
        out.pick = slot;
        return out;
      }
      class_ready[k] = ready_at;
      asked |= 1u << k;
      out.asked = true;
    }
    out.min_ready = std::min(out.min_ready, class_ready[k]);
  }
  return out;
}

// The greedy warp if it can issue, else the oldest that can (GTO; warp_order
// oldest: there is no greedy warp, the scan alone picks).
[[gnu::always_inline]] inline int IssueStage::pick(uint32_t s, uint64_t c, bool lsu_full, bool issued_any,
                                                   const Inputs& in) {
  // With the LSU full (memory-bound phases: every ready memory warp is passed
  // over), a scan that picked nothing is not repeated until a warp changes
  // (refresh(), which every issue calls: pipes, collector units and the LSU
  // change only then), the LSU accepts again or the earliest cycle the scan found
  // a warp may issue comes: until then it would pick nothing again and find the
  // same earliest cycle. A scan that passed over every warp on the warp's own
  // state (operands, a memory head facing the full LSU) stands until one of its
  // own warps changes: other schedulers' issues change only pipes and units. One
  // whose every warp waits for its operands stands so with the LSU free too (a
  // latency-bound scheduler beside one that issues: the SM ticks every cycle).
  ScanMemo& memo = memo_[s];
  if (memo_stands(s, c, lsu_full)) {
    add_findings(memo);
    return -1;
  }
  const int g = greedy_[s];
  uint64_t greedy_ready = 0;
  if (g >= 0 && wake_[g] <= c && !(head_mem_[g] && lsu_full) && can_issue(in.warps[g], s, c, in, greedy_ready))
    return g;
  const Scan r = scan(s, c, lsu_full, greedy_ready, in);
  min_ready_ = std::min(min_ready_, r.min_ready);
  mem_blocked_ = mem_blocked_ || r.mem_blocked;
  // Not after an issue this cycle if it leans on the full LSU: lsu_full may be stale then.
  if (r.pick < 0 && ((lsu_full && !issued_any) || (!r.asked && !r.mem_blocked)))
    memo = {changes_, own_changes_[s], r.min_ready, r.mem_blocked, !r.asked};
  return r.pick;
}

}  // namespace gpupm
