// Activity-based energy accounting. Energy is settled at checkpoints (before
// every clock or voltage change, at epochs and kernel boundaries): the activity
// counters' deltas times the energy per event, scaled by (V/V0)^2 with V the
// mean regulator output over the interval, plus leakage ~ (V/V0)^k for each
// ungated SM and the memory domain, DRAM standby I_dd2n(data rate) x V, and
// constant power.
#pragma once

#include "gpupm/power/power_config.h"
#include "gpupm/protocol/memory_status.h"
#include "gpupm/protocol/sm_status.h"
#include "gpupm/protocol/vf_status.h"

#include <nlohmann/json_fwd.hpp>

#include <systemc>

#include <vector>

namespace gpupm {

struct Energy {  // joules
  double sm_dynamic = 0, sm_leakage = 0;
  double mem_dynamic = 0, mem_leakage = 0, dram_dynamic = 0, dram_standby = 0;
  double constant = 0;
  double sm_domain() const { return sm_dynamic + sm_leakage; }
  double mem_domain() const { return mem_dynamic + mem_leakage + dram_dynamic + dram_standby; }
  double total() const { return sm_domain() + mem_domain() + constant; }
  Energy operator-(const Energy& o) const;
  nlohmann::json to_json() const;
};

// An SM's dynamic energy in nJ at the nominal voltage (scale by (V/V0)^2), one
// formula for the energy accounting and the per-cycle PDN currents:
// its events between two counter snapshots (instructions by class, LD/ST, L1 lines) ...
double sm_event_nj(const PowerConfig& cfg, const SmCounters& now, const SmCounters& before);
// ... and its clock tree over `busy` cycles with resident warps and `idle` ungated cycles without.
inline double sm_clock_nj(const PowerConfig& cfg, double busy, double idle) {
  return cfg.sm_busy_cycle_nj * busy + cfg.sm_idle_cycle_nj * (idle > 0 ? idle : 0.0);
}

class PowerModel {
 public:
  // dram_data_rate: transfers per DRAM command clock (MemConfig::data_rate).
  PowerModel(const PowerConfig& cfg, uint32_t dram_data_rate, std::vector<const SmStatus*> sms, const MemActivity& mem,
             const VoltageStatus& vr, const ClockStatus& fm);

  void checkpoint();  // settle energy up to now
  // An external memory (memory.system "external"): the memory domain's leakage
  // and DRAM standby are not accounted either; its event energies stay 0 with
  // its counters, which only the model's own memory system counts.
  void leave_out_memory() { memory_modelled_ = false; }
  bool memory_modelled() const { return memory_modelled_; }
  const Energy& energy() const { return total_; }
  // Each SM's energy (dynamic + leakage, J) settled so far: the SM share of energy().
  const std::vector<double>& sm_energy() const { return sm_total_; }
  // SM i's dynamic and leakage energy (J) for its activity between two counter
  // snapshots over dt seconds at mean SM voltage v: the formula checkpoint()
  // settles with, also used to estimate power without settling (the trace must
  // not change the accounting).
  struct SmEnergy {
    double dynamic, leakage;
  };
  SmEnergy sm_interval_energy(const SmCounters& now, const SmCounters& before, double v, double dt) const;
  // Dynamic SM energy of `insts`-like activity per event at voltage v (for tests).
  static double scale_dynamic(double nj_at_v0, double v, double v0) { return nj_at_v0 * (v / v0) * (v / v0); }
  double dram_standby_watts(double mem_mhz, double v_mem) const;

 private:
  const PowerConfig cfg_;
  const uint32_t dram_data_rate_;
  std::vector<const SmStatus*> sms_;
  const MemActivity& mem_;
  const VoltageStatus& vr_;
  const ClockStatus& fm_;
  double v0_[kDomains];
  double last_v_[kDomains];
  sc_core::sc_time last_;
  std::vector<SmCounters> last_sm_;
  MemActivity last_mem_;
  Energy total_;
  std::vector<double> sm_total_;
  bool memory_modelled_ = true;
};

}  // namespace gpupm
