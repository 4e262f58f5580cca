// Harmonia as a controller of the platform (docs/papers.md#harmonia-algorithm):
// per kernel, the invocation's Table 2 counters (the shared counter
// block, policy/shared/observe) feed the sensitivity predictors and Algorithm 1
// (HarmoniaKernel, harmonia_model.h); the configuration it decides is applied
// at the kernel's next launch: the CU count through the shared SM-count
// actuator (the surplus CUs drain and are power-gated), the CU and memory
// clocks through V/F requests (retried while the domain is in a transition).
// Every decision is in trace(): kernel, launch, counters, sensitivities, bins,
// event, configuration.
//
// Parameters (policy.*):
//   mode          "cg+fg" (Harmonia) | "cg" (coarse grain only)
//   tunables      which of ["cus", "sm_mhz", "mem_mhz"] it controls (the others
//                 stay at their top value); ["sm_mhz"] is core DVFS only
//   cu_step       CU counts cu_step, 2 cu_step, ..., all (the paper: 4, docs/papers.md#harmonia-platform)
//   cg_cus, cg_sm_mhz, cg_mem_mhz   SetCU_Freq_MemBW's values for the LOW, MED
//                 and HIGH bins (CU count and CU clock from the compute bin,
//                 memory clock from the bandwidth bin); clocks must be levels
//                 of the GPU config
//   max_dither, fg_tolerance, fg_skip_high, keep_good_fg_steps, warmup, bin_low, bin_high
//                 harmonia_model.h
#pragma once

#include "gpupm/policy/shared/actuate/sm_count_actuator.h"
#include "gpupm/policy/harmonia/harmonia_model.h"
#include "gpupm/policy/shared/observe/kernel_counters.h"
#include "gpupm/policy/policy.h"
#include "gpupm/policy/policy_params.h"

#include <map>

namespace gpupm {

struct HarmoniaPolicySettings {
  HarmoniaSettings model;
  uint32_t cu_step = 0;          // 0: min(4, the GPU's SMs)
  uint32_t check_cycles = 1024;  // SM cycles between retries of a refused V/F request
  // As written in policy.*, made into `model` by read_harmonia_settings:
  std::string mode = "cg+fg";
  std::vector<std::string> tunables;                    // empty: all three
  std::array<std::vector<Json>, kHTunables> cg_values;  // per tunable, [LOW, MED, HIGH]; empty: the default table
};
void describe(ParamVisitor& v, HarmoniaPolicySettings& s, const PolicyTarget& t);
// Reads them and makes the bin table's values into indices of the GPU's space (InputError on a value it lacks).
HarmoniaPolicySettings read_harmonia_settings(JsonReader& p, const PolicyTarget& t);
// The tunables' values on a GPU: CU counts cu_step..sm_count, the SM and memory levels' clocks.
HarmoniaSpace harmonia_space(const DvfsConfig& dvfs, uint32_t sm_count, uint32_t cu_step);

class HarmoniaPolicy : public Policy {
 public:
  HarmoniaPolicy(const HarmoniaPolicySettings& s, const DvfsConfig& dvfs, uint32_t sm_count);
  std::string name() const override { return "harmonia"; }
  uint64_t epoch_cycles() const override { return s_.check_cycles; }
  void on_kernel_start(PolicyContext& ctx, const KernelLaunch& k) override;
  void on_kernel_end(PolicyContext& ctx, const KernelLaunch& k) override;
  void on_epoch(PolicyContext& ctx, uint64_t sm_cycle) override;
  Json describe() const override;
  Json trace() const override { return trace_; }

 private:
  void request_levels(PolicyContext& ctx);

  HarmoniaPolicySettings s_;
  HarmoniaSpace space_;
  std::map<uint32_t, HarmoniaKernel> kernels_;  // by KernelLaunch::kernel_index
  SmCountActuator act_;
  CounterSnapshot start_;
  int want_sm_ = -1, want_mem_ = -1;  // level indices requested for the running kernel
  Json trace_ = Json::array();
};

}  // namespace gpupm
