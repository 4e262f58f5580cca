// A DynCTA-like CTA controller, our reimplementation from the published
// description (Kayiran et al., PACT 2013, as summarised in the Equalizer paper),
// used only as a comparison point for cache-sensitive kernels. Every period it
// looks at two per-SM quantities: C_idle, cycles in which the SM had work but no
// warp ready to issue (estimated from the warp-state samples), and C_mem,
// cycles the LD/ST unit was stalled by memory (exact, from the LSU counter):
//   C_idle >= t_idle        -> one more CTA (latency is not hidden)
//   else C_mem >= t_mem_h   -> one CTA fewer (memory is congested)
//   else C_mem <  t_mem_l   -> one more CTA
// within [1, the kernel's maximum]. Thresholds are parameters (policy.*).
#pragma once

#include "gpupm/policy/policy.h"
#include "gpupm/policy/policy_params.h"

#include <vector>

namespace gpupm {

struct DynCtaSettings {
  uint32_t period = 2048;  // SM cycles
  uint32_t t_idle = 16;
  uint32_t t_mem_low = 128;
  uint32_t t_mem_high = 1024;
};
void describe(ParamVisitor& v, DynCtaSettings& s, const PolicyTarget& t);

class DynCtaPolicy : public Policy {
 public:
  explicit DynCtaPolicy(const DynCtaSettings& s) : s_(s) {}
  std::string name() const override { return "dyncta"; }
  uint64_t epoch_cycles() const override { return 128; }  // warp-state samples
  void on_start(PolicyContext& ctx) override;
  void on_kernel_start(PolicyContext& ctx, const KernelLaunch& k) override;
  void on_epoch(PolicyContext& ctx, uint64_t sm_cycle) override;
  Json describe() const override;
  Json trace() const override { return trace_; }

 private:
  struct PerSm {
    uint32_t limit = 0;
    uint64_t idle_samples = 0;
    uint64_t stall_at_start = 0;
  };
  DynCtaSettings s_;
  std::vector<PerSm> sms_;
  uint32_t max_ = 1;
  Json trace_ = Json::array();
};

}  // namespace gpupm
