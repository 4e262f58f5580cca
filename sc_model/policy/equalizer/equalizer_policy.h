// Equalizer (Sethia & Mahlke) as a controller: one EqSmBlock per SM fed with
// the SM's warp-status bits at every sample strobe, CTA concurrency through the
// GWDE (numBlocks as the SM's CTA limit: -1 pauses the youngest CTA, a finished
// CTA unpauses a paused one before any new dispatch), and the SMs' votes
// resolved by the frequency manager's VoteArbiter into one-step V/F requests.
//
// Control/status registers (32-bit, behind PolicyHost::csr_in; docs/equalizer_csr.md):
//   0x000 CTRL    rw  [0] enable [1] mode (0 perf, 1 energy) [2] threshold (0 exact, 1 truncated)
//                     [3] xalu_def (0 ready-minus-issued, 1 all-ready) [4] xmem_def (0 ready-and-LSU-blocked,
//                     1 ready-minus-issued) [5] vote rule (0 plurality, 1 strict majority)
//   0x004 TIMING  ro  [3:0] sample_period_log2 [7:4] epoch_samples_log2 [15:8] warps
//   0x008 VRM     rw  [11:0] SM transition cycles [27:16] memory transition cycles
//   0x00C FREQ    ro  [1:0] SM level [3:2] mem level [5:4] last winner [10:8] last action [12] busy
//   0x100 + 0x10*i, SM i:
//     +0x0 SUMS0  ro  [15:0] active [31:16] waiting (last epoch)
//     +0x4 SUMS1  ro  [15:0] X_alu [31:16] X_mem
//     +0x8 DECIDE ro  [2:0] branch [5:4] vote [9:8] blk_req (2's complement) [19:16] num_blocks
#pragma once

#include "gpupm/controllers/vote_arbiter_controller.h"
#include "gpupm/controllers/eq_sm_block_controller.h"
#include "gpupm/policy/policy.h"
#include "gpupm/policy/policy_params.h"

#include <memory>
#include <vector>

namespace gpupm {

struct EqualizerSettings {
  VfMode mode = VfMode::kPerformance;
  bool enable = true;
  bool dvfs = true;         // false: CTA control only (votes not applied)
  bool cta_control = true;  // false: DVFS only
  ThresholdMode threshold = ThresholdMode::kExactSums;
  XaluDef xalu = XaluDef::kReadyMinusIssued;
  XmemDef xmem = XmemDef::kReadyAndLsuBlocked;
  VoteRule rule = VoteRule::kPlurality;
  uint16_t sm_transition_cycles = 512;
  uint16_t mem_transition_cycles = 0;
  EqSmParams params;
  ControllerImpl impl = ControllerImpl::kCpp;  // the GPU config's controller_impl
};

// policy.enable, dvfs, cta_control, threshold_mode, xalu_def, xmem_def, vote_rule,
// sample_period_log2, epoch_samples_log2; the mode comes from the policy's name.
void describe(ParamVisitor& v, EqualizerSettings& s, const PolicyTarget& t);
// Reads them for `t` ("equalizer-energy": energy mode). With an RTL controller_impl, also checks that
// Verilated blocks exist for these parameters and the GPU's SM count (InputError against the GPU config otherwise).
EqualizerSettings read_equalizer_settings(JsonReader& p, const PolicyTarget& t);

class EqualizerPolicy : public Policy {
 public:
  EqualizerPolicy(std::string name, const EqualizerSettings& s);
  std::string name() const override { return name_; }
  uint64_t epoch_cycles() const override { return uint64_t(1) << s_.params.sample_period_log2; }
  void on_start(PolicyContext& ctx) override;
  void on_kernel_start(PolicyContext& ctx, const KernelLaunch& k) override;
  void on_epoch(PolicyContext& ctx, uint64_t sm_cycle) override;
  Json describe() const override;
  Json trace() const override { return trace_; }
  bool csr_read(uint32_t addr, uint32_t& data) const override;
  bool csr_write(uint32_t addr, uint32_t data) override;

 private:
  EqSmIn inputs_for(const SmStatus& sm) const;
  void apply_epoch(PolicyContext& ctx, uint64_t cycle);
  uint32_t level_index(PolicyContext& ctx, Domain d, VfLevelCode code) const;

  std::string name_;
  EqualizerSettings s_;
  std::vector<std::unique_ptr<EqSmController>> blocks_;  // cpp, rtl or lockstep (s_.impl)
  std::unique_ptr<VoteArbiterController> arbiter_;
  uint64_t arbiter_cycle_ = 0;  // cycles the arbiter has been stepped through
  uint8_t w_cta_ = 0, max_blocks_ = 0;
  bool kernel_start_ = false;
  Json trace_ = Json::array();
};

}  // namespace gpupm
