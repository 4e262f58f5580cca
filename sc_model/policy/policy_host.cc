#include "gpupm/policy/policy_host.h"

#include "gpupm/clock/clock_domain.h"
#include "gpupm/gwde/global_work_distribution_engine.h"

#include <cstring>
#include <stdexcept>
#include <string>

namespace gpupm {

PolicyHost::PolicyHost(sc_core::sc_module_name name, std::unique_ptr<Policy> policy, std::vector<const SmStatus*> sms,
                       const MemoryStatus& mem, const FrequencyManager& fm, const ClockDomain& sm_clock,
                       const SmConfig& sm_cfg)
    : sc_module(name),
      gwde_out("gwde_out"),
      freq_out("freq_out"),
      sm_out("sm_out"),
      csr_in("csr_in"),
      host_csr_in("host_csr_in"),
      policy_(std::move(policy)),
      sms_(std::move(sms)),
      mem_(mem),
      fm_(fm),
      sm_clock_(sm_clock),
      sm_cfg_(sm_cfg) {
  csr_in.register_b_transport(this, &PolicyHost::csr_b_transport);
  host_csr_in.register_b_transport(this, &PolicyHost::csr_b_transport);
  host_csr_in.register_transport_dbg(this, &PolicyHost::csr_transport_dbg);
}

uint32_t PolicyHost::occupancy_limit(const KernelLaunch& k) const {
  return GlobalWorkDistributionEngine::max_resident(SmSlots{sm_cfg_.count, sm_cfg_.max_ctas, sm_cfg_.max_warps}, k);
}

// 32-bit registers, word-aligned; other accesses get TLM error responses.
void PolicyHost::csr_b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time&) {
  uint32_t addr = uint32_t(gp.get_address());
  if (gp.get_data_length() != 4 || (addr & 3) || gp.get_byte_enable_ptr()) {
    gp.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
    return;
  }
  uint32_t data = 0;
  bool ok = false;
  if (gp.is_read()) {
    ok = policy_->csr_read(addr, data);
    if (ok) std::memcpy(gp.get_data_ptr(), &data, 4);
  } else if (gp.is_write()) {
    std::memcpy(&data, gp.get_data_ptr(), 4);
    ok = policy_->csr_write(addr, data);
  }
  gp.set_response_status(ok ? tlm::TLM_OK_RESPONSE : tlm::TLM_ADDRESS_ERROR_RESPONSE);
}

// Debug reads (the host interface's window): whole aligned words, until the
// first the policy does not answer. No debug writes: a policy's register
// write acts (a mode, a threshold), which a debugger's write must not.
unsigned PolicyHost::csr_transport_dbg(tlm::tlm_generic_payload& gp) {
  const uint64_t addr = gp.get_address();
  if (!gp.is_read() || (addr & 3) || gp.get_byte_enable_ptr()) return 0;
  unsigned done = 0;
  for (uint32_t data = 0; done + 4 <= gp.get_data_length(); done += 4) {
    if (addr + done > UINT32_MAX || !policy_->csr_read(uint32_t(addr + done), data)) break;
    std::memcpy(gp.get_data_ptr() + done, &data, 4);
  }
  return done;
}

uint64_t PolicyHost::sm_cycle() const { return sm_clock_.cycles_elapsed(); }
uint64_t PolicyHost::mem_cycle() const { return mem_clock_ ? mem_clock_->cycles_elapsed() : 0; }

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

void PolicyHost::wake_sm(uint32_t sm) {
  SmEnableMsg m;
  m.sm = sm;
  m.enabled = true;
  m.wake_now = true;
  send(gwde_out, m);
}

void PolicyHost::set_sm_mask(uint32_t kernel_index, const std::vector<bool>& mask) {
  SmMaskMsg m;
  m.kernel_index = kernel_index;
  m.mask = mask;
  send(gwde_out, m);
}

void PolicyHost::set_app_sm_mask(uint32_t app, const std::vector<bool>& mask) {
  SmAppMaskMsg m;
  m.app = app;
  m.mask = mask;
  if (send(gwde_out, m) != tlm::TLM_OK_RESPONSE)
    throw std::invalid_argument("set_app_sm_mask: app " + std::to_string(app) +
                                ": no such application, a mask of the wrong size, or SMs of the other "
                                "application's mask (application masks must be disjoint)");
}

void PolicyHost::hold_issue(uint32_t sm, uint64_t until_sm_cycle) {
  IssueHoldMsg m;
  m.until_cycle = until_sm_cycle;
  send(sm_out[int(sm)], m);
}

}  // namespace gpupm
