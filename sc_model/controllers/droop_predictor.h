// The local first-order droop predictor and dispatch throttle of one SM
// (voltage-noise paper Sec. 5.2, docs/papers.md#voltage-noise-local-smoothing) as a clocked
// reference model for the Verilog port (rtl/droop_predictor.sv): plain C++,
// one step() per rising SM-clock edge, the RTL's widths and reset values.
//
// What it does. Each cycle the dispatch unit presents its candidates, one per
// issue slot in slot order (scheduler 0 first), each with its class. The power
// estimate of a set of candidates is the sum of their class weights (energy of
// dispatch + register-file reads/writes + the unit, in 1/4 nJ, from the power
// model's per-event energies). With P_new the estimate of what would dispatch
// and H0, H1, H2 the estimates committed in the last three cycles (H0 the most
// recent; the paper's four-entry FIFO is P_new, H0, H1, H2), the increments over
// two, three and four cycles are d2 = P_new - H0, d3 = P_new - H1,
// d4 = P_new - H2 (docs/papers.md#voltage-noise-local-smoothing "Reading A": only increments that end in the new
// cycle). A large droop is predicted when d2 > t2 or d3 > t3 or d4 > t4.
//
// Throttle (ramp limiting, docs/papers.md#voltage-noise-local-smoothing). admit is the longest prefix
// of the valid candidates (in slot order) whose estimate keeps all three
// increments within their thresholds; the full set is admitted when no droop is
// predicted. A cycle is "throttled" when admit != cand_valid ("blocked" when
// candidates are presented and none is admitted). Liveness: block_count counts
// consecutive throttled cycles; when it has reached max_block, the whole valid
// set passes this cycle even if it exceeds a threshold. So a candidate that
// keeps being presented waits at most max_block cycles (no slot starves, no
// livelock), and a ramp from idle to full issue reaches full issue within
// max_block + 1 cycles whatever the thresholds (max_block = 0: the throttle
// never holds anything back; predict is still computed). With enable low every
// candidate is admitted; predict is still computed.
//
// Because the class weights are non-negative, admission is monotone: the admit
// bits of a candidate vector do not change when candidates are added in later
// slots. The SM uses that to ask slot by slot (eval() on the prefix it has),
// and clocks the block once per cycle with the full vector (step()).
//
// Timing. admit/predict/throttled are combinational (Mealy) outputs of this
// cycle's inputs and the registers; step() is the rising edge at the end of the
// cycle: H2 <- H1, H1 <- H0, H0 <- estimate of the admitted candidates,
// block_count <- throttled ? block_count + 1 : 0 (a cycle without candidates,
// with enable low or with a forced pass clears it; a throttled cycle has
// block_count < max_block, so it never exceeds 7). Reset: every register 0.
//
// Widths: class 2 bits; weights 6 bits (bits above [5:0] ignored); estimates,
// history and thresholds POWER_BITS (8) bits (an estimate is at most
// 4 x 63 = 252, so it never overflows); block_count and max_block 3 bits
// (bits above ignored). Slots >= params().slots of cand_valid are ignored.
#pragma once

#include <array>
#include <cstdint>

namespace gpupm {

// 2-bit class code of a dispatched instruction. RTL codes: rtl/gpupm_pkg.sv.
enum class DispatchClass : uint8_t { kAlu = 0, kSfu = 1, kLdst = 2, kOther = 3 };

constexpr uint8_t kDroopPredMaxSlots = 4;
constexpr uint16_t kDroopPredPowerMax = 255;  // POWER_BITS = 8

struct DroopPredParams {  // elaboration-time (Verilog parameters)
  uint8_t slots = 2;      // issue slots (schedulers), 1..4 (else the constructor throws std::invalid_argument)
};

struct DroopPredIn {
  uint8_t cand_valid = 0;                                      // bit s: slot s presents a candidate
  std::array<DispatchClass, kDroopPredMaxSlots> cand_class{};  // per slot
  // CSR fields, held between writes.
  bool enable = true;
  std::array<uint8_t, 4> weight{};       // [5:0] per DispatchClass, 1/4 nJ units
  uint8_t t2 = 255, t3 = 255, t4 = 255;  // [7:0] increment thresholds over 2, 3, 4 cycles
  uint8_t max_block = 1;                 // [2:0]
};

struct DroopPredOut {
  uint8_t admit = 0;       // combinational: candidates dispatched this cycle (a subset of cand_valid)
  bool predict = false;    // combinational: the whole candidate set would exceed a threshold
  bool throttled = false;  // combinational: admit != cand_valid
  // Registers (after the last edge).
  uint8_t h0 = 0, h1 = 0, h2 = 0;
  uint8_t block_count = 0;
};

class DroopPredictor {
 public:
  explicit DroopPredictor(const DroopPredParams& p = {});
  // The combinational outputs for `in` in the current cycle (no state change).
  DroopPredOut eval(const DroopPredIn& in) const;
  // The rising edge ending the current cycle with inputs `in`; returns the
  // outputs evaluated in that cycle, with the registers after the edge.
  DroopPredOut step(const DroopPredIn& in);
  // n edges with no candidate (cand_valid = 0): what a skipped SM cycle is.
  void idle(uint64_t n);
  // The power estimate of the candidates in `mask` (any of the 4 slots; at most 252).
  static uint16_t estimate(const DroopPredIn& in, uint8_t mask);
  const DroopPredOut& regs() const { return regs_; }
  const DroopPredParams& params() const { return p_; }

 private:
  DroopPredParams p_;
  DroopPredOut regs_;
};

}  // namespace gpupm
