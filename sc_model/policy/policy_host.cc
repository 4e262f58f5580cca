#include "policy/policy_host.h"

#include "clock/clock_domain.h"

namespace gpupm {

PolicyHost::PolicyHost(sc_core::sc_module_name name, std::unique_ptr<Policy> policy,
                       std::vector<const SmStatus*> sms, const MemorySystem& mem, const FrequencyManager& fm,
                       const ClockDomain& sm_clock)
    : sc_module(name), gwde_out("gwde_out"), freq_out("freq_out"), sm_out("sm_out"), policy_(std::move(policy)),
      sms_(std::move(sms)), mem_(mem), fm_(fm), sm_clock_(sm_clock) {}

uint64_t PolicyHost::sm_cycle() const { return sm_clock_.cycles_elapsed(); }

bool PolicyHost::request_level(Domain d, uint32_t level, bool immediate) {
  VfRequestMsg m;
  m.domain = d;
  m.level = level;
  m.immediate = immediate;
  send(freq_out, m);
  return m.accepted;
}

void PolicyHost::set_cta_limit(uint32_t sm, uint32_t limit) {
  CtaLimitMsg m;
  m.sm = sm;
  m.limit = limit;
  send(gwde_out, m);
}

void PolicyHost::set_sm_enabled(uint32_t sm, bool enabled, bool gate_when_idle) {
  SmEnableMsg m;
  m.sm = sm;
  m.enabled = enabled;
  m.gate_when_idle = gate_when_idle;
  send(gwde_out, m);
}

void PolicyHost::set_sm_mask(uint32_t kernel_index, const std::vector<bool>& mask) {
  SmMaskMsg m;
  m.kernel_index = kernel_index;
  m.mask = mask;
  send(gwde_out, m);
}

void PolicyHost::hold_issue(uint32_t sm, uint64_t until_sm_cycle) {
  IssueHoldMsg m;
  m.until_cycle = until_sm_cycle;
  send(sm_out[int(sm)], m);
}

}  // namespace gpupm
