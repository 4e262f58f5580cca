// Frequency manager: one V/F level per domain, changed on request from the
// controllers. A change takes the domain's transition latency; going up, the
// voltage ramps first and the new clock applies at the end; going down, the
// clock drops at once and the voltage follows. Requests during a transition of
// the same domain are refused (the controller asks again next epoch).
#pragma once

#include "gpupm/freq/dvfs_config.h"
#include "gpupm/protocol/vf_messages.h"
#include "gpupm/protocol/vf_status.h"

#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include <array>
#include <functional>
#include <vector>

namespace gpupm {

class FrequencyManager : public sc_core::sc_module, public ClockStatus {
 public:
  tlm_utils::simple_target_socket<FrequencyManager> ctrl_in;
  tlm_utils::simple_initiator_socket<FrequencyManager> sm_clock_out;   // SM ClockDomain period_in
  tlm_utils::simple_initiator_socket<FrequencyManager> mem_clock_out;  // memory ClockDomain period_in
  tlm_utils::simple_initiator_socket<FrequencyManager> vr_out;         // VoltageRegulator setpoint_in

  FrequencyManager(sc_core::sc_module_name name, const DvfsConfig& cfg);

  uint32_t level(Domain d) const override { return st_[size_t(d)].level; }
  double mhz(Domain d) const override { return cfg_[d].levels[level(d)].mhz; }
  double nominal_volts(Domain d) const override { return cfg_[d].levels[cfg_[d].nominal].volts; }
  bool in_transition(Domain d) const override { return st_[size_t(d)].busy; }
  // Seconds spent at each level (by applied clock), up to now.
  std::vector<double> residency(Domain d) const;
  uint64_t transitions(Domain d) const { return st_[size_t(d)].transitions; }
  const DvfsConfig& config() const { return cfg_; }

  // Called just before any clock or voltage change (the power model settles its
  // account), and once more right after a step (immediate) change, so that an
  // account that samples the voltage at its checkpoints starts from the new value.
  std::function<void()> before_change;
  // At the end of the run: transitions still under way never complete (no event after the end).
  void stop() {
    for (State& s : st_) s.done.cancel();
  }

 private:
  struct State {
    uint32_t level = 0;
    uint32_t target = 0;
    bool busy = false;
    uint64_t transitions = 0;
    std::vector<sc_core::sc_time> residency;
    sc_core::sc_time since;
    sc_core::sc_event done;
  };
  void b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);
  void start_of_simulation() override;
  void finish(Domain d);
  void apply_clock(Domain d, uint32_t level);
  void set_voltage(Domain d, uint32_t level, sc_core::sc_time ramp);
  sc_core::sc_time transition_time(Domain d) const;

  DvfsConfig cfg_;
  std::array<State, kDomains> st_;
};

}  // namespace gpupm
