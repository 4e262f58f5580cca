// The global second-order droop detector and staggering unit of the thread-block
// scheduler (voltage-noise paper Sec. 5.3, docs/papers.md#voltage-noise-global-smoothing) as a
// clocked reference model for the Verilog port (rtl/stagger_unit.sv): plain
// C++, one step() per rising SM-clock edge, the RTL's widths and reset values.
//
// What it does. Every REPORT_PERIOD cycles (the report strobe: the cycle in
// which the free-running report counter reads REPORT_PERIOD - 1) it samples one
// bit per SM, sm_active[i] = "SM i has at least one active warp" (the SM's
// active-warp report reduced to its OR; a warp is inactive while it waits on an
// I- or D-cache miss, or when it has finished). An SM whose bit goes 0 -> 1
// between two reports has transitioned; the transition stays pending for
// WINDOW_SLOTS report slots (3 slots = the paper's 30-cycle window at a 10-cycle
// report period): its age is 0 in the slot it was seen, 1 and 2 in the next two,
// and it expires after that. A new 0 -> 1 of an SM that is still pending
// restarts its age at 0. Order at a strobe: the pending transitions age
// (those reaching age WINDOW_SLOTS expire), then this slot's transitions enter
// at age 0; the count, ranks and holds below use that set.
//
// When, at a strobe, at least k_min SMs are pending (those of this slot
// included) and enable is high, a global droop is predicted: every pending SM
// gets a hold, ranked oldest transition first, then lowest SM id (rank
// 0 .. n-1), and all pending transitions are cleared:
//   policy 0 "uniform"    hold = step                 (the paper's literal reading)
//   policy 1 "cumulative" hold = step * rank          (default; docs/papers.md#voltage-noise-global-smoothing)
//   policy 2 "grouped"    hold = step * (rank mod groups)   (a third reading)
//   policy 3 reserved, reads as cumulative
// (k_min = 0 predicts at every strobe with enable high, even with nothing
// pending: a trigger that holds no SM.)
// A held SM does not dispatch (instructions or new CTAs) while its counter is
// non-zero; counters count down by one every cycle and a new trigger reloads the
// counters of the SMs it holds (others keep counting down; see Timing).
//
// Timing. Cycle t is the clock period before the t-th step() since reset; the
// report counter reads t mod REPORT_PERIOD in it. Inputs are read only on the
// strobe (sm_active, enable, k_min, step_cycles, policy, groups). step()
// returns the registers after the edge (their value in cycle t+1). The holds
// take two edges (a pipeline: the rank encoder and the step * m products are in
// different cycles, rtl/README.md): the detecting edge, ending strobe cycle t,
// clears the pending set and registers the detected SMs, their ranks and the
// strobe's step_cycles / policy / groups; trigger is high in cycle t+1 only (and
// triggers counts it from then on); the edge ending cycle t+1 loads the
// detected SMs' counters, so hold[i] is high in cycles t+2 .. t+1+hold_i (the
// counter reads hold_i in cycle t+2; until then it keeps counting down); a hold
// of 0 does not hold. With REPORT_PERIOD = 1 the edge ending t+1 can detect
// again: it loads the first set and registers the second. Reset: every register 0
// (every SM reads as inactive, so SMs that start working within the first
// window count as transitions: a kernel launch is a global alignment).
//
// Widths: sm_active N_SMS bits (<= 64, bits above ignored); age 2 bits + pending
// 1 bit per SM (age reads 0 while not pending, also after a trigger);
// k_min 6 bits; step_cycles 8 bits; groups 3 bits (0 reads as 1); hold counters
// HOLD_BITS = 14 bits (a hold is at most step * rank <= 255 * 63 = 16065, so they
// never saturate); trigger
// count 16 bits, saturating; report counter 4 bits (REPORT_PERIOD <= 16).
#pragma once

#include <array>
#include <cstdint>

namespace gpupm {

constexpr uint8_t kStaggerMaxSms = 64;
constexpr uint16_t kStaggerHoldMax = 16383;

enum class StaggerPolicy : uint8_t { kUniform = 0, kCumulative = 1, kGrouped = 2 };  // RTL: rtl/gpupm_pkg.sv

struct StaggerParams {         // elaboration-time (Verilog parameters); outside the ranges the constructor throws
                               // std::invalid_argument
  uint8_t n_sms = 15;          // 1..64
  uint8_t report_period = 10;  // 1..16 cycles between reports
  uint8_t window_slots = 3;    // 1..3 report slots a transition stays pending
};

struct StaggerIn {
  uint64_t sm_active = 0;  // bit i: SM i reports >= 1 active warp (read on the strobe)
  // CSR fields, held between writes.
  bool enable = true;
  uint8_t k_min = 9;         // [5:0] SMs transitioning within the window that predict a global droop
  uint8_t step_cycles = 50;  // [7:0] stagger step
  StaggerPolicy policy = StaggerPolicy::kCumulative;
  uint8_t groups = 2;  // [2:0] for kGrouped
};

struct StaggerOut {
  uint64_t hold = 0;                                  // bit i: SM i held (counter non-zero)
  bool trigger = false;                               // the previous edge predicted a global droop
  uint64_t pending = 0;                               // bit i: SM i's transition is pending
  uint64_t last_active = 0;                           // the last report's sm_active
  uint16_t triggers = 0;                              // triggers since reset, saturating
  uint8_t report_count = 0;                           // the report counter (t mod REPORT_PERIOD in the next cycle)
  std::array<uint16_t, kStaggerMaxSms> hold_count{};  // per SM
  std::array<uint8_t, kStaggerMaxSms> age{};          // per SM, meaningful while pending
};

class StaggerUnit {
 public:
  explicit StaggerUnit(const StaggerParams& p = {});
  // One rising edge with these inputs (read only on the strobe).
  const StaggerOut& step(const StaggerIn& in);
  // n edges without a strobe: counters count down, the report counter advances.
  // Precondition: n <= cycles_to_strobe(), i.e. no strobe cycle is advanced
  // over (its edge must be a step() with fresh inputs); throws std::logic_error.
  void advance(uint32_t n);
  // Edges until the next strobe cycle: 0 when the current cycle is a strobe.
  uint32_t cycles_to_strobe() const;
  const StaggerOut& out() const { return out_; }
  const StaggerParams& params() const { return p_; }

 private:
  StaggerParams p_;
  StaggerOut out_;
  // The pipeline register: the last detection's SMs and hold values, loaded at
  // the edge after it (while out_.trigger is high).
  uint64_t load_mask_ = 0;
  std::array<uint16_t, kStaggerMaxSms> load_val_{};
};

}  // namespace gpupm
