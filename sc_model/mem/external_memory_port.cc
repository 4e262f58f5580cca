#include "gpupm/mem/external_memory_port.h"

#include <string>

namespace gpupm {

using tlm::tlm_generic_payload;
using tlm::tlm_phase;
using tlm::tlm_sync_enum;

ExternalMemoryPort::ExternalMemoryPort(sc_core::sc_module_name name, uint32_t sms)
    : sc_module(name), sm_in("sm_in"), mem_out("mem_out", sms), awaiting_end_req_(sms, nullptr) {
  sm_in.register_nb_transport_fw(this, &ExternalMemoryPort::nb_transport_fw);
  for (uint32_t i = 0; i < sms; ++i)
    mem_out[i].register_nb_transport_bw(this, &ExternalMemoryPort::nb_transport_bw, int(i));
}

tlm_sync_enum ExternalMemoryPort::nb_transport_fw(int port, tlm_generic_payload& gp, tlm_phase& phase,
                                                  sc_core::sc_time& delay) {
  if (phase == tlm::BEGIN_REQ) awaiting_end_req_[size_t(port)] = &gp;
  const tlm_sync_enum status = mem_out[size_t(port)]->nb_transport_fw(gp, phase, delay);
  if (status != tlm::TLM_UPDATED) return status;  // TLM_COMPLETED: the SM reports the response status
  if (phase != tlm::END_REQ)
    SC_REPORT_ERROR(name(), (std::string("BEGIN_REQ answered TLM_UPDATED with phase ") + phase.get_name() +
                             "; expected END_REQ (or TLM_ACCEPTED, and END_REQ later on the backward path)")
                                .c_str());
  require_zero_delay(delay, "END_REQ");
  accepted(port, gp);
  return status;
}

tlm_sync_enum ExternalMemoryPort::nb_transport_bw(int port, tlm_generic_payload& gp, tlm_phase& phase,
                                                  sc_core::sc_time& delay) {
  require_zero_delay(delay, phase.get_name());
  if (phase == tlm::END_REQ) {
    accepted(port, gp);
  } else if (phase == tlm::BEGIN_RESP) {
    if (awaiting_end_req_[size_t(port)] == &gp) {  // the base protocol's implicit END_REQ, made explicit
      accepted(port, gp);
      tlm_phase end_req = tlm::END_REQ;
      sc_core::sc_time zero = sc_core::SC_ZERO_TIME;
      sm_in[port]->nb_transport_bw(gp, end_req, zero);
    }
    responded(gp);
  }
  return sm_in[port]->nb_transport_bw(gp, phase, delay);
}

void ExternalMemoryPort::accepted(int port, const tlm_generic_payload& gp) {
  awaiting_end_req_[size_t(port)] = nullptr;
  ++(gp.is_write() ? act_.writes : act_.reads);
  accepted_at_[&gp] = sc_core::sc_time_stamp();
}

void ExternalMemoryPort::responded(const tlm_generic_payload& gp) {
  auto it = accepted_at_.find(&gp);
  if (it == accepted_at_.end()) {
    SC_REPORT_ERROR(name(), "BEGIN_RESP for a payload that has no request outstanding");
    return;
  }
  if (gp.is_read()) {
    ++act_.read_responses;
    const sc_core::sc_time waited = sc_core::sc_time_stamp() - it->second;
    act_.read_latency_sum_ps += uint64_t(waited.to_seconds() * 1e12 + 0.5);
  }
  accepted_at_.erase(it);
}

// The SM takes every phase at the time of the call: a delay it would ignore is refused.
void ExternalMemoryPort::require_zero_delay(const sc_core::sc_time& delay, const char* phase) const {
  if (delay == sc_core::SC_ZERO_TIME) return;
  SC_REPORT_ERROR(name(), (std::string(phase) + " with a delay annotation of " + delay.to_string() +
                           "; expected a zero delay: call nb_transport_bw at the time of the phase (e.g. from a "
                           "payload event queue)")
                              .c_str());
}

}  // namespace gpupm
