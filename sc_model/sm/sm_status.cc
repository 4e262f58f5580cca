// The SM's status as others read it (SmStatus: counters, warp states and vectors
// for the policies, the sampled sums) and a stuck run's report: cold code, read
// at sample cycles and epochs, never on the issue path.
#include "gpupm/sm/streaming_multiprocessor.h"

namespace gpupm {

SmCounters StreamingMultiprocessor::counters() const {
  auto* self = const_cast<StreamingMultiprocessor*>(this);
  self->account_until(clock_.cycles_elapsed());
  self->count_skipped_stalls(clock_.cycles_elapsed());
  SmCounters out = c_;
  out.lsu = lsu_.stats();
  return out;
}

uint32_t StreamingMultiprocessor::resident_ctas() const { return resident_unpaused_ctas_; }
uint32_t StreamingMultiprocessor::active_warps() const { return resident_unpaused_warps_; }

uint32_t StreamingMultiprocessor::unstalled_warps() const {
  uint32_t n = 0;
  for (const WarpSlot& w : warps_)
    n += schedulable(w) && !w.ifetch && !(w.has_head && !w.at_barrier && head_ready(w) == Scoreboard::kPending);
  return n;
}

WarpStateCounts StreamingMultiprocessor::sample_states() const {
  WarpStateCounts s;
  // The domain's current cycle; if this SM skipped it, nothing issued in it.
  const uint64_t c = clock_.cycle();
  const bool ticked = c == last_cycle_;
  const bool lsu_blocked = ticked ? lsu_full_at_issue_ : !lsu_.can_accept();
  for (const WarpSlot& w : warps_) {
    if (!w.valid) continue;
    if (w.paused) {
      ++s.paused;
      continue;
    }
    ++s.active;
    if (ticked && w.issued_at == c) {
      ++s.issued;
      // The head was replaced at issue; what issued is recorded by issued_mem_.
      continue;
    }
    switch (readiness(w, c)) {
      case Readiness::Blocked: ++s.others; break;
      case Readiness::Waiting: ++s.waiting; break;
      case Readiness::Ready:
        if (w.head.is_mem()) {
          ++s.excess_mem;
          // Why it did not issue: the latch was full at issue time (it may have
          // drained into the LSU slot later in the same cycle).
          if (lsu_blocked) ++s.excess_mem_lsu_blocked;
        } else if (w.head.op == InstClass::Barrier) {
          ++s.others;
        } else {
          ++s.excess_alu;
        }
        break;
    }
  }
  s.issued_mem = ticked ? issued_mem_at_last_ : 0;
  s.issued_alu = s.issued - s.issued_mem;
  return s;
}

WarpVectors StreamingMultiprocessor::warp_vectors() const {
  WarpVectors v;
  const uint64_t c = clock_.cycle();
  const bool ticked = c == last_cycle_;
  v.lsu_can_accept = ticked ? !lsu_full_at_issue_ : lsu_.can_accept();
  for (size_t i = 0; i < warps_.size(); ++i) {
    const WarpSlot& w = warps_[i];
    const uint64_t bit = uint64_t(1) << i;
    if (!w.valid) continue;
    if (w.paused) v.paused |= bit;
    if (ticked && w.issued_at == c) {
      v.valid |= bit;
      v.issued |= bit;
      v.ready |= bit;
      (w.issued_mem ? v.is_mem : v.is_alu) |= bit;
      continue;
    }
    if (w.finished || w.at_barrier || !w.has_head || w.head.op == InstClass::Barrier) continue;
    v.valid |= bit;
    if (readiness(w, c) == Readiness::Ready) v.ready |= bit;
    (w.head.is_mem() ? v.is_mem : v.is_alu) |= bit;
  }
  return v;
}

void StreamingMultiprocessor::record_sample() {
  WarpStateCounts s = sample_states();
  ++c_.samples;
  c_.sum_active += s.active;
  c_.sum_waiting += s.waiting;
  c_.sum_issued += s.issued;
  c_.sum_excess_alu += s.excess_alu;
  c_.sum_excess_mem += s.excess_mem;
  c_.sum_others += s.others;
}

std::vector<StreamingMultiprocessor::ProgramWarpPlace> StreamingMultiprocessor::program_warp_places() const {
  std::vector<ProgramWarpPlace> places;
  for (const Cta& cta : ctas_) {
    if (!cta.valid || !cta.launch || !cta.launch->program) continue;
    for (size_t i = 0; i < cta.warps.size(); ++i) {
      const WarpSlot& w = warps_[cta.warps[i]];
      if (w.finished || !w.is_program() || w.program.exec.done()) continue;
      places.push_back(
          {cta.launch.get(), cta.program.cta, cta.program.cta_id, uint32_t(i), w.program.exec.pc(), w.at_barrier});
    }
  }
  return places;
}

}  // namespace gpupm
