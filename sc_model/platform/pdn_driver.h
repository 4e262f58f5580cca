// Drives the power-delivery network every SM cycle: each SM's load current
// comes from the activity it really had in that cycle (instructions issued by
// class, register-file/operand work per instruction, LSU address generation
// and L1 line accesses, the clock tree of an SM with or without resident
// warps, leakage of an ungated SM), with the power model's energies per event
// (PowerConfig), dynamic ~ (V/V0)^2, leakage ~ (V/V0)^k, and a
// constant-current load I = P / V_set (docs/papers.md#voltage-noise-setup).
//
// It sits last in the SM clock domain and never asks for a tick: cycles the
// domain skips are cycles in which no SM issued or accessed anything, so at
// the next tick the driver steps the network through them with each SM's
// background current (clock tree + leakage), then the ticked cycle with its
// events; the platform calls catch_up() before a V/F change, so skipped cycles
// keep the period they had. Default runs (PDN off) do not create it.
#pragma once

#include "gpupm/clock/clock_domain.h"
#include "gpupm/power/power_config.h"
#include "gpupm/controllers/droop_predictor.h"
#include "gpupm/protocol/sm_status.h"
#include "gpupm/vr/droop_stats.h"
#include "gpupm/vr/voltage_regulator.h"

#include <vector>

namespace gpupm {

class PdnDriver : public Tickable {
 public:
  PdnDriver(const DroopStatsConfig& stats, const PowerConfig& power, std::vector<const SmStatus*> sms,
            VoltageRegulator& vr, const ClockDomain& clock, double v0_sm);

  void tick(uint64_t cycle) override;
  // Steps the cycles skipped so far; call before the SM period or voltage changes.
  void catch_up();
  uint64_t next_busy_cycle(uint64_t) const override { return kNever; }
  // End of the run: settles the statistics.
  void finish();

  const DroopStats& stats() const { return stats_; }
  uint64_t steps() const { return stepped_; }  // SM cycles stepped
  // The last stepped cycle: each SM's current (A) and node voltage (V).
  const std::vector<double>& sm_amps() const { return amps_; }
  const std::vector<double>& sm_volts() const { return volts_; }
  double amp_seconds() const { return amp_s_; }  // integral of the total SM current

 private:
  const PowerConfig power_;
  std::vector<const SmStatus*> sms_;
  VoltageRegulator& vr_;
  const ClockDomain& clock_;
  const double v0_;
  DroopStats stats_;
  std::vector<SmCounters> last_;
  void step_to(uint64_t upto, double dt, bool events);

  std::vector<double> bg_nj_, leak_share_;  // per SM, per cycle, from the last interval
  std::vector<double> amps_, volts_;
  std::vector<double> event_nj_;                     // per SM, the ticked cycle's events
  DroopPredIn weights_;                              // the droop predictor's class weights (for the trace)
  std::vector<uint8_t> dispatch_, no_dispatch_;      // per SM, the ticked cycle's dispatch estimate
  uint64_t stepped_ = 0;                             // cycles stepped so far
  double v_ = -1, dt_ = 0, dyn_a_ = 0, leak_a_ = 0;  // voltage factors of the currents at v_
  double amp_s_ = 0;
};

}  // namespace gpupm
