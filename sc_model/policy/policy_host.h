// Runs one controller: adapts PolicyContext to TLM messages on the GWDE's,
// the frequency manager's and the SMs' control sockets, and reads the SMs'
// counters through their SmStatus interface.
#pragma once

#include "gpupm/freq/frequency_manager.h"
#include "gpupm/policy/policy.h"
#include "gpupm/protocol/cta_messages.h"
#include "gpupm/sm/sm_config.h"

#include <tlm_utils/multi_passthrough_initiator_socket.h>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

namespace gpupm {

class ClockDomain;

class PolicyHost : public sc_core::sc_module, public PolicyContext {
 public:
  tlm_utils::simple_initiator_socket<PolicyHost> gwde_out;           // GWDE ctrl_in
  tlm_utils::simple_initiator_socket<PolicyHost> freq_out;           // FrequencyManager ctrl_in
  tlm_utils::multi_passthrough_initiator_socket<PolicyHost> sm_out;  // each SM's ctrl_in
  tlm_utils::simple_target_socket_optional<PolicyHost> csr_in;       // the controller's registers
  tlm_utils::simple_target_socket_optional<PolicyHost> host_csr_in;  // the same, for the host interface's window

  PolicyHost(sc_core::sc_module_name name, std::unique_ptr<Policy> policy, std::vector<const SmStatus*> sms,
             const MemoryStatus& mem, const FrequencyManager& fm, const ClockDomain& sm_clock, const SmConfig& sm_cfg);

  Policy& policy() { return *policy_; }

  uint32_t sm_count() const override { return uint32_t(sms_.size()); }
  const SmStatus& sm(uint32_t i) const override { return *sms_.at(i); }
  const MemActivity& memory() const override { return mem_.activity(); }
  uint64_t sm_cycle() const override;
  uint64_t mem_cycle() const override;
  uint32_t mem_channels() const override { return mem_channels_; }
  // The memory clock domain and channel count (the platform sets them after construction).
  void attach_memory_clock(const ClockDomain& clock, uint32_t channels) {
    mem_clock_ = &clock;
    mem_channels_ = channels;
  }
  uint32_t level(Domain d) const override { return fm_.level(d); }
  const DomainDvfs& dvfs(Domain d) const override { return fm_.config()[d]; }
  bool in_transition(Domain d) const override { return fm_.in_transition(d); }
  uint32_t occupancy_limit(const KernelLaunch& k) const override;
  uint32_t max_warps() const override { return sm_cfg_.max_warps; }
  uint32_t schedulers() const override { return sm_cfg_.schedulers; }
  bool request_level(Domain d, uint32_t level, bool immediate) override;
  void set_cta_limit(uint32_t sm, uint32_t limit) override;
  void set_sm_enabled(uint32_t sm, bool enabled, bool gate_when_idle) override;
  void wake_sm(uint32_t sm) override;
  void set_sm_mask(uint32_t kernel_index, const std::vector<bool>& mask) override;
  void set_app_sm_mask(uint32_t app, const std::vector<bool>& mask) override;
  void hold_issue(uint32_t sm, uint64_t until_sm_cycle) override;

 private:
  std::unique_ptr<Policy> policy_;
  std::vector<const SmStatus*> sms_;
  const MemoryStatus& mem_;
  const FrequencyManager& fm_;
  const ClockDomain& sm_clock_;
  const SmConfig& sm_cfg_;
  const ClockDomain* mem_clock_ = nullptr;
  uint32_t mem_channels_ = 1;
  void csr_b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);
  unsigned csr_transport_dbg(tlm::tlm_generic_payload& gp);
};

}  // namespace gpupm
