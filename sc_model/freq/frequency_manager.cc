#include "gpupm/freq/frequency_manager.h"

#include "gpupm/clock/clock_domain.h"

namespace gpupm {

using sc_core::sc_time;
using sc_core::sc_time_stamp;

namespace {
sc_time period_of(double mhz) { return sc_time(1e6 / mhz, sc_core::SC_PS); }
}  // namespace

FrequencyManager::FrequencyManager(sc_core::sc_module_name name, const DvfsConfig& cfg)
    : sc_module(name),
      ctrl_in("ctrl_in"),
      sm_clock_out("sm_clock_out"),
      mem_clock_out("mem_clock_out"),
      vr_out("vr_out"),
      cfg_(cfg) {
  ctrl_in.register_b_transport(this, &FrequencyManager::b_transport);
  for (size_t d = 0; d < kDomains; ++d) {
    st_[d].level = st_[d].target = cfg_.domain[d].nominal;
    st_[d].residency.assign(cfg_.domain[d].levels.size(), sc_core::SC_ZERO_TIME);
  }
  // Threads, not methods: SystemC runs the methods of an evaluation first, so a
  // transition that ends at the time of a clock edge ends after that edge,
  // whatever order the timed queue (which a platform's own events share) gives
  // the two, and its new period counts from the next edge on.
  for (size_t d = 0; d < kDomains; ++d)
    sc_core::sc_spawn(
        [this, d] {
          for (;;) {
            sc_core::wait(st_[d].done);
            finish(Domain(d));
          }
        },
        d == size_t(Domain::Sm) ? "sm_transition" : "mem_transition");
}

void FrequencyManager::start_of_simulation() {
  for (size_t d = 0; d < kDomains; ++d) {
    apply_clock(Domain(d), st_[d].level);
    set_voltage(Domain(d), st_[d].level, sc_core::SC_ZERO_TIME);
  }
}

std::vector<double> FrequencyManager::residency(Domain d) const {
  const State& s = st_[size_t(d)];
  std::vector<double> out;
  for (size_t i = 0; i < s.residency.size(); ++i) {
    sc_time t = s.residency[i];
    if (i == s.level) t += sc_time_stamp() - s.since;
    out.push_back(t.to_seconds());
  }
  return out;
}

sc_time FrequencyManager::transition_time(Domain d) const {
  const DomainDvfs& dd = cfg_[d];
  if (d == Domain::Sm) return period_of(mhz(d)) * double(dd.transition_cycles);
  return sc_time(dd.transition_ns, sc_core::SC_NS);
}

void FrequencyManager::apply_clock(Domain d, uint32_t level) {
  State& s = st_[size_t(d)];
  s.residency[s.level] += sc_time_stamp() - s.since;
  s.since = sc_time_stamp();
  s.level = level;
  ClockPeriodMsg msg;
  msg.period = period_of(cfg_[d].levels[level].mhz);
  if (d == Domain::Sm) send(sm_clock_out, msg);
  else send(mem_clock_out, msg);
}

void FrequencyManager::set_voltage(Domain d, uint32_t level, sc_time ramp) {
  VoltageSetpointMsg msg;
  msg.domain = d;
  msg.volts = cfg_[d].levels[level].volts;
  msg.ramp = ramp;
  send(vr_out, msg);
}

void FrequencyManager::b_transport(tlm::tlm_generic_payload& gp, sc_time&) {
  auto* m = gp.get_extension<VfRequestMsg>();
  if (!m || m->level >= cfg_[m->domain].levels.size()) {
    gp.set_response_status(m ? tlm::TLM_ADDRESS_ERROR_RESPONSE : tlm::TLM_COMMAND_ERROR_RESPONSE);
    return;
  }
  gp.set_response_status(tlm::TLM_OK_RESPONSE);
  State& s = st_[size_t(m->domain)];
  m->accepted = false;
  if (s.busy) return;
  m->accepted = true;
  if (m->level == s.level) return;
  if (before_change) before_change();
  s.target = m->level;
  if (m->immediate) {
    apply_clock(m->domain, m->level);
    set_voltage(m->domain, m->level, sc_core::SC_ZERO_TIME);
    // A step: settle once more (an empty interval) so that the next interval
    // starts from the new voltage rather than from the one before the step.
    if (before_change) before_change();
    return;
  }
  s.busy = true;
  ++s.transitions;
  sc_time t = transition_time(m->domain);
  set_voltage(m->domain, m->level, t);
  if (m->level < s.level) apply_clock(m->domain, m->level);  // down: clock first
  s.done.notify(t);
}

void FrequencyManager::finish(Domain d) {
  State& s = st_[size_t(d)];
  if (before_change) before_change();
  if (s.level != s.target) apply_clock(d, s.target);  // up: clock once the voltage is there
  s.busy = false;
}

}  // namespace gpupm
