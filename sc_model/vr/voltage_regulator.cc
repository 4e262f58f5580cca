#include "gpupm/vr/voltage_regulator.h"

namespace gpupm {

using sc_core::sc_time;
using sc_core::sc_time_stamp;

VoltageRegulator::VoltageRegulator(sc_core::sc_module_name name) : sc_module(name), setpoint_in("setpoint_in") {
  setpoint_in.register_b_transport(this, &VoltageRegulator::b_transport);
}

double VoltageRegulator::voltage(Domain d, const sc_time& t) const {
  const Ramp& r = ramp_[size_t(d)];
  if (t >= r.end) return r.to;
  if (t <= r.start) return r.from;
  double f = (t - r.start) / (r.end - r.start);
  return r.from + (r.to - r.from) * f;
}

void VoltageRegulator::b_transport(tlm::tlm_generic_payload& gp, sc_time&) {
  auto* m = gp.get_extension<VoltageSetpointMsg>();
  if (!m) {
    gp.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
    return;
  }
  Ramp& r = ramp_[size_t(m->domain)];
  double from = r.end == sc_time() && r.to == 0 ? m->volts : voltage(m->domain);
  r.from = from;
  r.to = m->volts;
  r.start = sc_time_stamp();
  r.end = r.start + m->ramp;
  gp.set_response_status(tlm::TLM_OK_RESPONSE);
}

void VoltageRegulator::load(double dt, const std::vector<double>& sm_amps, std::vector<double>& sm_volts) {
  double v = voltage(Domain::Sm);
  if (pdn_) {
    pdn_->step(dt, v, sm_amps, sm_volts);
  } else {
    sm_volts.assign(sm_amps.size(), v);
  }
}

}  // namespace gpupm
