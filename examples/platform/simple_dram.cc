#include "simple_dram.h"

SimpleDram::SimpleDram(sc_core::sc_module_name name, sc_core::sc_time latency, unsigned banks)
    : sc_module(name), latency_(latency), banks_(banks) {
  in.register_nb_transport_fw(this, &SimpleDram::nb_transport_fw);
  SC_HAS_PROCESS(SimpleDram);
  SC_METHOD(respond);
  sensitive << done_.get_event();
  dont_initialize();
}

// BEGIN_REQ is the only phase an SM sends (it completes the response itself).
tlm::tlm_sync_enum SimpleDram::nb_transport_fw(int port, tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                                               sc_core::sc_time&) {
  if (phase != tlm::BEGIN_REQ) SC_REPORT_ERROR("example/dram", "unexpected phase from an SM");
  socket_of_[&gp] = port;
  if (busy_banks_ < banks_) {
    start_service(gp);
    phase = tlm::END_REQ;
    return tlm::TLM_UPDATED;
  }
  waiting_.push_back(&gp);  // no END_REQ yet: the SM sends nothing more meanwhile
  ++held_back_;
  return tlm::TLM_ACCEPTED;
}

void SimpleDram::start_service(tlm::tlm_generic_payload& gp) {
  ++busy_banks_;
  if (gp.is_read()) ++reads_;
  else ++writes_;
  done_.notify(gp, latency_);
}

void SimpleDram::respond() {
  while (tlm::tlm_generic_payload* gp = done_.get_next_transaction()) {
    --busy_banks_;
    gp->set_response_status(tlm::TLM_OK_RESPONSE);
    send_bw(*gp, tlm::BEGIN_RESP);
    socket_of_.erase(gp);
    if (!waiting_.empty()) {
      tlm::tlm_generic_payload* next = waiting_.front();
      waiting_.pop_front();
      start_service(*next);
      send_bw(*next, tlm::END_REQ);
    }
  }
}

// At the time the phase happens, with a zero delay (the SM refuses any other).
void SimpleDram::send_bw(tlm::tlm_generic_payload& gp, tlm::tlm_phase phase) {
  sc_core::sc_time now = sc_core::SC_ZERO_TIME;
  const tlm::tlm_sync_enum status = in[socket_of_.at(&gp)]->nb_transport_bw(gp, phase, now);
  if (phase == tlm::BEGIN_RESP && status != tlm::TLM_COMPLETED)
    SC_REPORT_ERROR("example/dram", "an SM did not complete its response");
}
