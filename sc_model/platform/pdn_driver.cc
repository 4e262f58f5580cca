#include "gpupm/platform/pdn_driver.h"

#include <algorithm>
#include <cmath>

#include "gpupm/platform/smoothing_config.h"
#include "gpupm/power/power_model.h"

namespace gpupm {

PdnDriver::PdnDriver(const DroopStatsConfig& stats, const PowerConfig& power, std::vector<const SmStatus*> sms,
                     VoltageRegulator& vr, const ClockDomain& clock, double v0_sm)
    : power_(power),
      sms_(std::move(sms)),
      vr_(vr),
      clock_(clock),
      v0_(v0_sm),
      stats_(uint32_t(sms_.size()), stats),
      last_(sms_.size()),
      bg_nj_(sms_.size(), power.sm_idle_cycle_nj),
      leak_share_(sms_.size(), 1.0),
      amps_(sms_.size(), 0.0),
      volts_(sms_.size(), 0.0),
      event_nj_(sms_.size(), 0.0),
      weights_(droop_predictor_csr({}, dispatch_energies(power))),
      dispatch_(sms_.size(), 0),
      no_dispatch_(sms_.size(), 0) {}

void PdnDriver::tick(uint64_t cycle) {
  const double dt = clock_.period().to_seconds();
  for (size_t i = 0; i < sms_.size(); ++i) {
    const SmCounters c = sms_[i]->counters();
    const SmCounters& p = last_[i];
    const double cycles = double(c.cycles - p.cycles);
    if (cycles > 0) {
      const double busy = double(c.busy_cycles - p.busy_cycles), gated = double(c.gated_cycles - p.gated_cycles);
      bg_nj_[i] = sm_clock_nj(power_, busy, cycles - busy - gated) / cycles;
      leak_share_[i] = 1.0 - gated / cycles;
    }
    event_nj_[i] = sm_event_nj(power_, c, p);
    if (stats_.tracing()) {  // what the predictor's estimate of this cycle's dispatch was
      const auto& w = weights_.weight;
      const uint64_t e = w[size_t(DispatchClass::kAlu)] * (c.alu_insts - p.alu_insts) +
                         w[size_t(DispatchClass::kSfu)] * (c.sfu_insts - p.sfu_insts) +
                         w[size_t(DispatchClass::kLdst)] * (c.mem_insts - p.mem_insts) +
                         w[size_t(DispatchClass::kOther)] * (c.barrier_insts - p.barrier_insts);
      dispatch_[i] = uint8_t(std::min<uint64_t>(e, kDroopPredPowerMax));
    }
    last_[i] = c;
  }
  step_to(cycle + 1, dt, true);
}

// The cycles since the last tick were skipped by the domain: no SM acted in
// them, so they carry background current only; with `events`, the last one
// also carries the ticked cycle's events. Each cycle sees the regulator's
// output at its own edge (a V/F ramp may run through a skipped stretch).
void PdnDriver::step_to(uint64_t upto, double dt, bool events) {
  while (stepped_ < upto) {
    const double v = vr_.voltage(Domain::Sm, clock_.edge_time(stepped_));
    if (v != v_) {  // the currents' voltage factors change only with v
      v_ = v;
      dyn_a_ = (v / v0_) * (v / v0_) * 1e-9 / dt / v;  // nJ per cycle -> A
      leak_a_ = power_.sm_leakage_w * std::pow(v / v0_, power_.leakage_voltage_exponent) / v;
      dt_ = dt;
    } else if (dt != dt_) {
      dyn_a_ *= dt_ / dt;
      dt_ = dt;
    }
    const bool with_events = events && stepped_ + 1 == upto;
    double total = 0;
    for (size_t i = 0; i < sms_.size(); ++i) {
      amps_[i] = (bg_nj_[i] + (with_events ? event_nj_[i] : 0.0)) * dyn_a_ + leak_a_ * leak_share_[i];
      total += amps_[i];
    }
    vr_.load(dt, amps_, volts_);
    stats_.push(dt, v, volts_, total, with_events ? &dispatch_ : &no_dispatch_);
    amp_s_ += total * dt;
    ++stepped_;
  }
}

// Before a V/F change: steps the skipped cycles so far at the period they had.
// The newest edge is left to its own tick (it may carry events).
void PdnDriver::catch_up() {
  const uint64_t newest = clock_.cycles_elapsed();
  if (newest > stepped_) step_to(newest, clock_.period().to_seconds(), false);
}

void PdnDriver::finish() { stats_.finish(); }

}  // namespace gpupm
