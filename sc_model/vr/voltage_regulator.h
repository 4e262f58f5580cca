// Voltage regulator: one set-point per domain, reached by a linear ramp (slew).
// The power-delivery network sits behind load(): each SM cycle the power model
// hands it every SM's load current and gets back each SM's node voltage. With
// no network configured the network is ideal (node voltage = regulator output);
// RlcPdn (vr/pdn.h) is the RLC network of the voltage-noise work, driven each SM
// cycle by PdnDriver (platform/pdn_driver.h) when gpu.pdn.model is "rlc".
#pragma once

#include "gpupm/protocol/vf_messages.h"
#include "gpupm/protocol/vf_status.h"

#include <tlm_utils/simple_target_socket.h>

#include <array>
#include <vector>

namespace gpupm {

// The power-delivery network behind the regulator output (per-cycle interface).
class PowerDeliveryNetwork {
 public:
  virtual ~PowerDeliveryNetwork() = default;
  // One step of `dt` seconds with supply `v_supply` and per-SM load currents (A);
  // writes per-SM node voltages.
  virtual void step(double dt, double v_supply, const std::vector<double>& sm_amps, std::vector<double>& sm_volts) = 0;
};

class VoltageRegulator : public sc_core::sc_module, public VoltageStatus {
 public:
  tlm_utils::simple_target_socket<VoltageRegulator> setpoint_in;

  explicit VoltageRegulator(sc_core::sc_module_name name);

  double voltage(Domain d) const override { return voltage(d, sc_core::sc_time_stamp()); }  // regulator output now
  // Output at `t` on the current ramp (before the ramp started: its start value).
  double voltage(Domain d, const sc_core::sc_time& t) const;
  double setpoint(Domain d) const { return ramp_[size_t(d)].to; }

  void attach_network(PowerDeliveryNetwork* pdn) { pdn_ = pdn; }
  bool has_network() const { return pdn_ != nullptr; }
  // Per-cycle load interface for the SM domain (see PowerDeliveryNetwork).
  void load(double dt, const std::vector<double>& sm_amps, std::vector<double>& sm_volts);

 private:
  struct Ramp {
    double from = 0, to = 0;
    sc_core::sc_time start, end;
  };
  void b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);
  std::array<Ramp, kDomains> ramp_;
  PowerDeliveryNetwork* pdn_ = nullptr;
};

}  // namespace gpupm
