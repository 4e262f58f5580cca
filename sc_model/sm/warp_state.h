// One warp slot of an SM: the state every warp has (the common core), the part a
// profile warp uses (a synthetic instruction stream) and the part a program warp
// uses (its PTX executor and per-register scoreboard); and the questions the issue
// stage and the status sampling ask of it. A slot keeps both parts' storage across
// CTAs, so a launch does not reallocate register files.
#pragma once

#include "gpupm/clock/tickable.h"
#include "gpupm/common/exhaustive_switch.h"
#include "gpupm/ptx/ptx.h"
#include "gpupm/sm/scoreboard.h"
#include "gpupm/workload/warp_stream.h"

#include <array>
#include <cstdint>
#include <vector>

namespace gpupm {

// A profile warp (KernelLaunch without a program): draws its instructions from a
// WarpStream, each one's result tracked in a window of the last 64.
struct ProfileWarp {
  WarpStream stream;
  Scoreboard board;

  uint64_t head_index() const { return stream.index() - 1; }  // of the instruction in the head
};

// A program warp (KernelLaunch::program): executes its PTX at issue, with a
// per-register scoreboard.
struct ProgramWarp {
  uint32_t lanes = 0;  // mask of the warp's threads
  ptx::Warp exec;
  const ptx::InstInfo* head_info = nullptr;  // exec.next() while has_head, kept for the schedulers
  RegisterScoreboard regs;
  // When the head's registers are all there: only this warp's own issues and
  // load completions change it, so it is computed then, not at every look.
  uint64_t head_ready_at = 0;

  // Starts as warp `warp` of `cta` on SM `smid` (its registers all there).
  void start(ptx::CtaState& cta, uint32_t warp, uint32_t smid, uint32_t line_bytes, uint32_t warp_size,
             ptx::CoalescingRules rules);
};

// The mask of a CTA's warp `warp` lanes when the CTA has `threads` threads (the
// last warp may be partial).
constexpr uint32_t warp_lanes(uint64_t threads, uint32_t warp, uint32_t warp_size) {
  const uint64_t left = threads - uint64_t(warp) * warp_size;
  return left >= 32 ? ~uint32_t(0) : (uint32_t(1) << left) - 1;
}

enum class WarpKind : uint8_t { Profile, Program };

struct WarpSlot {
  // The common core.
  bool valid = false;
  bool finished = false;
  bool at_barrier = false;
  bool paused = false;
  bool has_head = false;
  bool ifetch = false;  // waiting for an instruction-cache miss (or, with a front end, for fetch and decode)
  uint16_t cta_slot = 0;
  uint32_t pending_loads = 0;   // a program warp's equal program.regs.pending_loads()
  uint32_t pending_stores = 0;  // stores whose lines wait in the LSU's L1 access queue
  uint32_t unacked_stores = 0;  // store lines sent and not yet acknowledged (SmConfig::store_exit_waits_for_ack)
  uint64_t issued_at = kNever;
  bool issued_mem = false;  // what issued at issued_at was a load/store
  Inst head;                // a program warp's derived from program.head_info (program_head())
  // The kind's parts (the order of the fields before this split, which the scan's speed was measured with).
  ProfileWarp profile;
  WarpKind kind = WarpKind::Profile;
  ProgramWarp program;
  // SmConfig::instruction_buffer (the SM's front end; after the rest, which the scan's speed was measured
  // with): the instructions left in the warp's buffer, the head first; the index of that first one (a
  // program warp's; issued only if it is exec.pc()); and where the warp's next fetch reads (GPGPU-Sim's
  // m_next_pc: after the instruction issued last, or where the warp went when its buffer was discarded).
  uint8_t buffered = 0;
  uint32_t buffer_pc = 0;
  uint32_t fetch_pc = 0;

  bool is_program() const { return kind == WarpKind::Program; }
  // Made ready for a new CTA: everything default but the program part's storage.
  void reset_for_cta();
};

// ---------------------------------------------------------------- what the issue stage asks

// May be scheduled at all (resident, not paused, not done).
inline bool schedulable(const WarpSlot& w) { return w.valid && !w.paused && !w.finished; }

// The cycle the head's operands are there (Scoreboard::kPending: it waits for a load).
inline uint64_t head_ready(const WarpSlot& w) {
  return w.is_program() ? w.program.head_ready_at : w.profile.board.ready_at(w.profile.head_index(), w.head.dep);
}

enum class Readiness { Ready, Waiting, Blocked };  // Blocked: no instruction / barrier / done

inline Readiness readiness(const WarpSlot& w, uint64_t c) {
  if (w.finished || w.at_barrier || !w.has_head) return Readiness::Blocked;
  return head_ready(w) <= c ? Readiness::Ready : Readiness::Waiting;
}

namespace warp_state_detail {
// kProfileClasses and kIssueClasses count InstClass up to Shared and TimingClass up
// to Barrier: a new enumerator must enter these switches, and then these asserts.
GPUPM_EXHAUSTIVE_SWITCHES_BEGIN
constexpr bool last_inst_class(InstClass c) {
  switch (c) {
    case InstClass::Alu:
    case InstClass::Sfu:
    case InstClass::Load:
    case InstClass::Store:
    case InstClass::Barrier: return false;
    case InstClass::Shared: return true;
  }
  return false;
}
constexpr bool last_timing_class(ptx::TimingClass c) {
  using ptx::TimingClass;
  switch (c) {
    case TimingClass::Alu:
    case TimingClass::Sfu:
    case TimingClass::Load:
    case TimingClass::Store:
    case TimingClass::Atomic:
    case TimingClass::Shared: return false;
    case TimingClass::Barrier: return true;
  }
  return false;
}
GPUPM_EXHAUSTIVE_SWITCHES_END
static_assert(last_inst_class(InstClass::Shared) && last_timing_class(ptx::TimingClass::Barrier),
              "kProfileClasses / kIssueClasses are sized by the last enumerators");
}  // namespace warp_state_detail

// The head's kind as far as issue resources go: InstClass for a profile warp, after
// those the PTX timing class for a program warp (which also waits for a collector
// unit). Distinct for every (kind, class): one refusal answers for its class only.
constexpr size_t kProfileClasses = size_t(InstClass::Shared) + 1;
constexpr size_t kIssueClasses = kProfileClasses + size_t(ptx::TimingClass::Barrier) + 1;
inline uint8_t issue_class(const WarpSlot& w) {
  return uint8_t(w.is_program() ? kProfileClasses + size_t(w.program.head_info->cls) : size_t(w.head.op));
}

// A PTX timing class as the schedulers see it (an atomic goes through the LSU as a load).
GPUPM_EXHAUSTIVE_SWITCHES_BEGIN
constexpr InstClass inst_class_of(ptx::TimingClass cls) {
  switch (cls) {
    case ptx::TimingClass::Alu: return InstClass::Alu;
    case ptx::TimingClass::Sfu: return InstClass::Sfu;
    case ptx::TimingClass::Load: return InstClass::Load;
    case ptx::TimingClass::Store: return InstClass::Store;
    case ptx::TimingClass::Atomic: return InstClass::Load;
    case ptx::TimingClass::Shared: return InstClass::Shared;
    case ptx::TimingClass::Barrier: return InstClass::Barrier;
  }
  return InstClass::Alu;  // not reached: every class is listed
}
GPUPM_EXHAUSTIVE_SWITCHES_END

// When a program warp's head may issue as far as its registers go (kPending: a load).
inline uint64_t registers_ready(const ProgramWarp& p) { return p.regs.ready_for(*p.head_info); }

// A program warp's head as the schedulers see it: the timing class of its PTX instruction.
inline Inst program_head(const ProgramWarp& p) {
  const ptx::TimingClass cls = p.head_info->cls;
  Inst head;
  head.op = inst_class_of(cls);
  head.atomic = cls == ptx::TimingClass::Atomic;
  return head;
}

}  // namespace gpupm
