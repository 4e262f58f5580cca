// sc_spawn (one thread per SM for memory.protocol "lt"): declared by <systemc> only with this.
#define SC_INCLUDE_DYNAMIC_PROCESSES
#include "gpupm/mem/external_memory_port.h"

#include "gpupm/clock/time_now.h"

#include <string>

namespace gpupm {

using tlm::tlm_generic_payload;
using tlm::tlm_phase;
using tlm::tlm_sync_enum;

ExternalMemoryPort::ExternalMemoryPort(sc_core::sc_module_name name, uint32_t sms, bool loosely_timed)
    : sc_module(name),
      sm_in("sm_in"),
      mem_out("mem_out", sms),
      data_(sms, [this](uint32_t sm) -> tlm::tlm_fw_transport_if<>& { return *mem_out[sm].operator->(); }),
      awaiting_end_req_(sms, nullptr) {
  sm_in.register_nb_transport_fw(this, &ExternalMemoryPort::nb_transport_fw);
  for (uint32_t i = 0; i < sms; ++i) {
    mem_out[i].register_nb_transport_bw(this, &ExternalMemoryPort::nb_transport_bw, int(i));
    mem_out[i].register_invalidate_direct_mem_ptr(this, &ExternalMemoryPort::invalidate_dmi, int(i));
  }
  if (!loosely_timed) return;
  lt_ = std::vector<LtPort>(sms);
  for (uint32_t i = 0; i < sms; ++i)
    sc_core::sc_spawn([this, i] { lt_requests(int(i)); }, ("lt_requests_" + std::to_string(i)).c_str());
  SC_HAS_PROCESS(ExternalMemoryPort);
  SC_METHOD(lt_responses);
  sensitive << lt_due_.get_event();
  dont_initialize();
}

tlm_sync_enum ExternalMemoryPort::nb_transport_fw(int port, tlm_generic_payload& gp, tlm_phase& phase,
                                                  sc_core::sc_time& delay) {
  if (phase == tlm::BEGIN_REQ) awaiting_end_req_[size_t(port)] = &gp;
  if (!lt_.empty()) {  // "lt": the port's thread makes the call
    require_zero_delay(delay, "BEGIN_REQ");
    lt_[size_t(port)].request = &gp;
    lt_[size_t(port)].arrived.notify();
    return tlm::TLM_ACCEPTED;
  }
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

// One request at a time per SM (it sends the next after END_REQ): the call,
// then END_REQ, then the response queued for the call's time plus its delay.
void ExternalMemoryPort::lt_requests(int port) {
  LtPort& lt = lt_[size_t(port)];
  for (;;) {
    if (!lt.request) sc_core::wait(lt.arrived);
    tlm_generic_payload& gp = *lt.request;
    lt.request = nullptr;
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    mem_out[size_t(port)]->b_transport(gp, delay);
    lt_port_of_[&gp] = port;
    lt_due_.notify(gp, delay);
    accepted(port, gp);
    tlm_phase end_req = tlm::END_REQ;
    sc_core::sc_time zero = sc_core::SC_ZERO_TIME;
    sm_in[port]->nb_transport_bw(gp, end_req, zero);
  }
}

void ExternalMemoryPort::lt_responses() {
  while (tlm_generic_payload* gp = lt_due_.get_next_transaction()) {
    const int port = lt_port_of_.at(gp);
    lt_port_of_.erase(gp);
    responded(*gp);
    tlm_phase begin_resp = tlm::BEGIN_RESP;
    sc_core::sc_time zero = sc_core::SC_ZERO_TIME;
    sm_in[port]->nb_transport_bw(*gp, begin_resp, zero);
  }
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
    act_.read_latency_sum_ps += rounded_picoseconds(sc_core::sc_time_stamp() - it->second);
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
