// Equalizer's per-SM block (docs/papers.md sections 1.1, 1.2, 1.4) as a
// clocked reference model for the Verilog port: warp-state sampling, epoch
// sums, Algorithm 1 (eq_decision.h) and the numBlocks hysteresis. Plain C++,
// one step() per rising SM-clock edge, RTL widths and reset values.
//
// Widths (defaults in brackets): cycle counter sample_period_log2 +
// epoch_samples_log2 bits [12]; sum accumulators and snapshots: enough bits for
// warps << epoch_samples_log2 [48*32 = 1536: 11]; per-sample popcounts
// enough bits for warps [6], registered (the sample pipeline register, 4 of
// them [24 flip-flops]); num_blocks 4 bits; hysteresis count 2 bits + direction 1 bit.
//
// Timing. Cycle t is the clock period before the t-th step() since reset; the
// cycle counter reads t mod 4096 in it (free-running from reset, never restarted).
//  - Which input is read when: the warp vectors, lsu_can_accept, xalu_def and
//    xmem_def only on the sample strobe, the cycle before cycle[6:0] == 127
//    (cycle[6:0] == 126: t = 126, 254, ...; every cycle when
//    sample_period_log2 = 0); w_cta, enable, threshold_mode and max_blocks (as
//    the upper bound) only on the epoch strobe, cycle == 4095, the cycle after
//    the 32nd sample's strobe; kernel_start (with max_blocks, to load) in every cycle.
//  - Sample pipeline: the strobe's four popcounts are registered at its edge
//    (zero after any other edge) and added into the accumulators at the next
//    edge, so the epoch evaluation at the edge ending cycle 4095 sees sums that
//    include the 32nd sample (taken in cycle 4094) without the 48-bit popcounts
//    on its path (docs/rtl_report.md). With sample_period_log2 = 0 the sample
//    of the epoch strobe's own cycle goes to the next epoch.
//  - step() returns the registered outputs after the edge, i.e. their value in
//    cycle t+1. The epoch evaluated at the edge ending cycle 4095 is visible in
//    cycle 4096 (counter 0): epoch_done and blk_req in that cycle only; vote,
//    branch, sums and num_blocks hold until the next epoch's edge (cycle 8192).
//    A kernel_start in cycle t shows num_blocks = max_blocks in cycle t+1.
//  - A caller that samples at a strobe and wants that sample's epoch result
//    steps twice: step() in the sample strobe, then step() in the next cycle
//    (the epoch strobe when it was the epoch's last sample), as
//    EqualizerPolicy does.
//
// Decisions (docs/papers.md#equalizer-cta-control, our reading):
//  - Epochs are global and aligned: kernel_start reloads numBlocks := max_blocks
//    and clears the hysteresis, but restarts neither the cycle counter nor the
//    accumulators (an epoch straddling a kernel boundary still sums 2^L samples,
//    so the thresholds stay calibrated; hysteresis absorbs that mixed epoch).
//    A kernel_start on the epoch strobe wins over that epoch's numBlocks change
//    (blk_req 0); its vote still goes out.
//  - Hysteresis: a change commits on the 3rd consecutive epoch that wants a
//    change in the same direction. Epochs wanting no change, or a change that
//    would leave [1, max_blocks], reset the count; a flip of direction restarts
//    it at 1 (the flipping epoch is the first of the new run); a commit restarts
//    it at 0.
//  - enable low: sampling, sums and branch go on (observable); vote is NONE,
//    blk_req 0, num_blocks held, hysteresis cleared.
//  - Reset: all registers 0 (num_blocks 0 until the first kernel_start).
//  - W_cta is 5 bits as in the RTL contract: a 32-warp (1024-thread) CTA does not fit.
#pragma once

#include "gpupm/controllers/eq_decision.h"

#include <cstdint>
#include <string>

namespace gpupm {

// X_alu: ready ALU/SFU head instruction that did not issue (Sec III-A), or every ready one (IV-A).
enum class XaluDef : uint8_t { kReadyMinusIssued = 0, kAllReady = 1 };
// X_mem: ready memory head instruction while the LD/ST queue refuses (IV-A), or not issued (III-A).
enum class XmemDef : uint8_t { kReadyAndLsuBlocked = 0, kReadyMinusIssued = 1 };

struct EqSmParams {                // elaboration-time (Verilog parameters)
  uint8_t warps = 48;              // per-warp vector bits used, 1..64
  uint8_t sample_period_log2 = 7;  // 128 cycles between samples
  uint8_t epoch_samples_log2 = 5;  // 32 samples: a 4096-cycle epoch; period+samples <= 16 bits
};

struct EqSmIn {
  // Per-warp vectors, bit w = warp w; bits >= warps are ignored.
  uint64_t warp_valid = 0;   // a valid head instruction in the I-buffer
  uint64_t warp_paused = 0;  // its CTA is paused
  uint64_t head_ready = 0;   // operands available (scoreboard)
  uint64_t head_is_mem = 0;  // head is a load/store
  uint64_t head_is_alu = 0;  // head is ALU or SFU
  uint64_t issued = 0;       // issued this cycle
  bool lsu_can_accept = true;
  uint8_t w_cta = 0;       // [4:0] warps per CTA of the running kernel
  uint8_t max_blocks = 0;  // [3:0] the kernel's occupancy limit
  bool kernel_start = false;
  // CSR fields (the CSR block owns their reset values).
  bool enable = true;
  XaluDef xalu_def = XaluDef::kReadyMinusIssued;
  XmemDef xmem_def = XmemDef::kReadyAndLsuBlocked;
  ThresholdMode threshold_mode = ThresholdMode::kExactSums;
};

struct EqSmOut {
  bool epoch_done = false;  // pulse
  int8_t blk_req = 0;       // pulse with epoch_done: committed numBlocks change, -1/0/+1 (2 bits)
  VfVote vote = VfVote::kNone;
  EqBranch branch = EqBranch::kDegenerateNone;
  EqSums sums;             // snapshot of the last epoch's sums
  uint8_t num_blocks = 0;  // [3:0]
};
bool operator==(const EqSmOut& a, const EqSmOut& b);

// One sample's popcounts (the combinational front end), for tests and checkers.
EqSums sample_warp_states(const EqSmIn& in, uint8_t warps);

class EqSmBlock {
 public:
  static constexpr uint8_t kHysteresisEpochs = 3;

  explicit EqSmBlock(const EqSmParams& params = {});  // throws on parameters out of range

  void reset();
  const EqSmOut& step(const EqSmIn& in);
  // n edges with no sample or epoch strobe among cycles cycle() .. cycle()+n-1:
  // exactly n step()s with kernel_start low (no other input is read off-strobe;
  // a registered sample pending from the previous cycle is accumulated).
  // Throws std::invalid_argument if n > cycles_to_next_sample() or if cycle()
  // is the epoch strobe (it reads inputs: step() it).
  void advance(uint32_t n);
  // Cycles that advance() may skip: the sample strobe comes in cycle cycle() + this.
  uint32_t cycles_to_next_sample() const { return sample_mask_ - ((cycle_q_ + 1u) & sample_mask_); }

  const EqSmOut& out() const { return out_; }
  uint16_t cycle() const { return cycle_q_; }
  const EqSums& accumulators() const { return acc_q_; }
  const EqSums& sample_register() const { return smp_q_; }
  uint8_t hysteresis_count() const { return hyst_count_q_; }
  uint16_t max_sum() const { return uint16_t(p_.warps << p_.epoch_samples_log2); }
  // Model-only assertion (no RTL register): false once a sample had
  // waiting + xalu + xmem > active (a head both ALU and mem) or a sum exceeded max_sum().
  bool invariants_ok() const { return invariants_ok_; }

 private:
  void check_sample(const EqSums& sample);
  EqSums accumulated();  // acc_q_ + smp_q_ (the adders' outputs; checks the bound)
  void end_epoch(const EqSmIn& in, const EqSums& sums);
  int8_t hysteresis(int8_t wanted, uint8_t max_blocks);

  EqSmParams p_;
  uint16_t sample_mask_;  // low sample_period_log2 bits
  uint16_t cycle_mask_;   // cycle counter width
  uint16_t sum_mask_;     // accumulator width
  // Registers.
  uint16_t cycle_q_ = 0;
  EqSums smp_q_;  // the sample pipeline register
  EqSums acc_q_;
  uint8_t hyst_count_q_ = 0;
  bool hyst_up_q_ = false;
  EqSmOut out_;  // the registered outputs (num_blocks is also state)
  bool invariants_ok_ = true;
};

// One line of every input, for mismatch reports (platform lockstep and tb/).
std::string describe(const EqSmIn& in);

}  // namespace gpupm
