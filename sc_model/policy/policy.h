// Controllers (power-management policies) read counters and drive actuators
// only through PolicyContext; the platform calls them on the schedule they
// declare, so an idle controller costs nothing in the per-cycle loop.
#pragma once

#include "gpupm/common/controller_impl.h"
#include "gpupm/common/json_reader.h"
#include "gpupm/freq/dvfs_config.h"
#include "gpupm/mem/memory_system.h"
#include "gpupm/protocol/sm_status.h"
#include "gpupm/workload/kernel_profile.h"

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace gpupm {

class PolicyContext {
 public:
  virtual ~PolicyContext() = default;
  // observation
  virtual uint32_t sm_count() const = 0;
  virtual const SmStatus& sm(uint32_t i) const = 0;
  virtual const MemActivity& memory() const = 0;
  virtual uint64_t sm_cycle() const = 0;
  // Memory-domain (DRAM command clock) cycles elapsed and the channel count: with
  // memory().dram_bus_busy they give the DRAM bandwidth utilisation.
  virtual uint64_t mem_cycle() const { return 0; }
  virtual uint32_t mem_channels() const { return 1; }
  virtual uint32_t level(Domain d) const = 0;
  virtual const DomainDvfs& dvfs(Domain d) const = 0;
  virtual bool in_transition(Domain d) const = 0;
  // CTAs of `k` that fit on one SM (CTA slots, warp slots, the kernel's own limit).
  virtual uint32_t occupancy_limit(const KernelLaunch& k) const = 0;
  virtual uint32_t max_warps() const = 0;            // warp slots per SM
  virtual uint32_t schedulers() const { return 1; }  // issue slots (ALU pipes) per SM
  // actuation
  virtual bool request_level(Domain d, uint32_t level, bool immediate = false) = 0;
  virtual void set_cta_limit(uint32_t sm, uint32_t limit) = 0;  // 0: the kernel's maximum
  virtual void set_sm_enabled(uint32_t sm, bool enabled, bool gate_when_idle = true) = 0;
  // Enables an SM and, if it is power-gated, powers it up now even with no CTA for it (early wake-up).
  virtual void wake_sm(uint32_t sm) { set_sm_enabled(sm, true); }
  virtual void set_sm_mask(uint32_t kernel_index, const std::vector<bool>& mask) = 0;
  // SMs an application (KernelLaunch::app) may use; masks of the two apps must be
  // disjoint (see SmAppMaskMsg). Contexts without concurrent applications throw.
  virtual void set_app_sm_mask(uint32_t app, const std::vector<bool>& mask) {
    (void)app;
    (void)mask;
    throw std::logic_error("set_app_sm_mask: this policy context has no concurrent applications");
  }
  virtual void hold_issue(uint32_t sm, uint64_t until_sm_cycle) = 0;
};

class Policy {
 public:
  virtual ~Policy() = default;
  virtual std::string name() const = 0;
  virtual uint64_t epoch_cycles() const { return 0; }  // SM cycles between on_epoch calls; 0: never
  virtual void on_start(PolicyContext&) {}
  virtual void on_kernel_start(PolicyContext&, const KernelLaunch&) {}
  virtual void on_kernel_end(PolicyContext&, const KernelLaunch&) {}
  virtual void on_epoch(PolicyContext&, uint64_t /*sm_cycle*/) {}
  virtual Json describe() const { return {{"name", name()}}; }
  // Memory-mapped control/status registers (32-bit words); false: no such register.
  virtual bool csr_read(uint32_t /*addr*/, uint32_t& /*data*/) const { return false; }
  virtual bool csr_write(uint32_t /*addr*/, uint32_t /*data*/) { return false; }
  // The policy's own trace for the report (e.g. per-epoch decisions); null if none.
  virtual Json trace() const { return nullptr; }
  // Whether the policy may run a workload whose two applications co-run. A
  // policy that keeps one kernel's state, or acts on all SMs per kernel, must not.
  virtual bool handles_concurrent_apps() const { return false; }
};

// Policy names usable with `gpupm run --policy`.
std::vector<std::string> policy_names();
// The same as one line: "baseline, sm-high, ...".
std::string policy_name_list();
// Builds a policy; `params` is the "policy" object of the run document (its
// "name" key already read), so unknown parameters are rejected.
// `ctl`: which implementation runs the controller blocks (GPU config controller_impl).
// `unknown_hint`: what the message for an unknown name adds after the known
// names (how the caller's program gets more policies).
std::unique_ptr<Policy> make_policy(const std::string& name, JsonReader& params, const DvfsConfig& dvfs,
                                    const ControllerSetup& ctl = {}, const std::string& unknown_hint = "");

}  // namespace gpupm
