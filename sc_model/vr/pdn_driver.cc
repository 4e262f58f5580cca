#include "vr/pdn_driver.h"

#include <algorithm>
#include <cmath>

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
      event_amps_(sms_.size(), 0.0),
      bg_amps_(sms_.size(), 0.0) {}

void PdnDriver::tick(uint64_t cycle) {
  const double dt = clock_.period().to_seconds();
  const double v = vr_.voltage(Domain::Sm);
  const double dyn = (v / v0_) * (v / v0_) * 1e-9 / dt / v;  // nJ per cycle -> A
  const double leak_a = power_.sm_leakage_w * std::pow(v / v0_, power_.leakage_voltage_exponent) / v;
  for (size_t i = 0; i < sms_.size(); ++i) {
    const SmCounters c = sms_[i]->counters();
    const SmCounters& p = last_[i];
    const double cycles = double(c.cycles - p.cycles);
    if (cycles > 0) {
      const double busy = double(c.busy_cycles - p.busy_cycles), gated = double(c.gated_cycles - p.gated_cycles);
      bg_nj_[i] = (power_.sm_busy_cycle_nj * busy + power_.sm_idle_cycle_nj * std::max(0.0, cycles - busy - gated)) /
                  cycles;
      leak_share_[i] = 1.0 - gated / cycles;
    }
    const double ev_nj =
        power_.inst_nj * double(c.insts - p.insts) + power_.alu_nj * double(c.alu_insts - p.alu_insts) +
        power_.sfu_nj * double(c.sfu_insts - p.sfu_insts) + power_.ldst_nj * double(c.mem_insts - p.mem_insts) +
        power_.l1_line_nj * double((c.lsu.l1_hits + c.lsu.l1_misses + c.lsu.store_lines) -
                                   (p.lsu.l1_hits + p.lsu.l1_misses + p.lsu.store_lines));
    bg_amps_[i] = bg_nj_[i] * dyn + leak_a * leak_share_[i];
    event_amps_[i] = ev_nj * dyn;
    last_[i] = c;
  }
  // Cycles since the last tick: no SM acted in them (the domain skipped them).
  const uint64_t upto = cycle + 1;
  while (stepped_ < upto) {
    const bool last = stepped_ + 1 == upto;
    double total = 0;
    for (size_t i = 0; i < sms_.size(); ++i) {
      amps_[i] = bg_amps_[i] + (last ? event_amps_[i] : 0.0);
      total += amps_[i];
    }
    vr_.load(dt, amps_, volts_);
    stats_.push(dt, v, volts_, total);
    amp_s_ += total * dt;
    ++stepped_;
    ++steps_;
  }
}

void PdnDriver::finish() { stats_.finish(); }

}  // namespace gpupm
