#include "gpupm/power/power_model.h"

#include <cmath>
#include <nlohmann/json.hpp>

namespace gpupm {

Energy Energy::operator-(const Energy& o) const {
  Energy e;
  e.sm_dynamic = sm_dynamic - o.sm_dynamic;
  e.sm_leakage = sm_leakage - o.sm_leakage;
  e.mem_dynamic = mem_dynamic - o.mem_dynamic;
  e.mem_leakage = mem_leakage - o.mem_leakage;
  e.dram_dynamic = dram_dynamic - o.dram_dynamic;
  e.dram_standby = dram_standby - o.dram_standby;
  e.constant = constant - o.constant;
  return e;
}

nlohmann::json Energy::to_json() const {
  return {{"total", total()},
          {"by_domain", {{"sm", sm_domain()}, {"mem", mem_domain()}, {"constant", constant}}},
          {"by_component",
           {{"sm_dynamic", sm_dynamic},
            {"sm_leakage", sm_leakage},
            {"mem_dynamic", mem_dynamic},
            {"mem_leakage", mem_leakage},
            {"dram_dynamic", dram_dynamic},
            {"dram_standby", dram_standby},
            {"constant", constant}}}};
}

PowerModel::PowerModel(const PowerConfig& cfg, uint32_t dram_data_rate, std::vector<const SmStatus*> sms,
                       const MemActivity& mem, const VoltageStatus& vr, const ClockStatus& fm)
    : cfg_(cfg),
      dram_data_rate_(dram_data_rate),
      sms_(std::move(sms)),
      mem_(mem),
      vr_(vr),
      fm_(fm),
      last_sm_(sms_.size()),
      sm_total_(sms_.size(), 0.0) {
  for (size_t d = 0; d < kDomains; ++d) {
    v0_[d] = reference_volts(cfg_, d, fm_.nominal_volts(Domain(d)));
    last_v_[d] = v0_[d];
  }
}

double PowerModel::dram_standby_watts(double mem_mhz, double v_mem) const {
  double gbps = mem_mhz * dram_data_rate_ / 1000.0;
  double rise = cfg_.dram_idd2n_rise * (gbps - cfg_.dram_idd2n_ref_gbps) / (6.0 - cfg_.dram_idd2n_ref_gbps);
  double amps = cfg_.dram_idd2n_a * (1.0 + rise);
  return amps * cfg_.dram_vdd * (v_mem / v0_[1]) * cfg_.dram_chips;
}

double sm_event_nj(const PowerConfig& cfg, const SmCounters& c, const SmCounters& p) {
  return cfg.inst_nj * double(c.insts - p.insts) + cfg.alu_nj * double(c.alu_insts - p.alu_insts) +
         cfg.sfu_nj * double(c.sfu_insts - p.sfu_insts) + cfg.ldst_nj * double(c.mem_insts - p.mem_insts) +
         cfg.l1_line_nj * double((c.lsu.l1_hits + c.lsu.l1_misses + c.lsu.store_lines) -
                                 (p.lsu.l1_hits + p.lsu.l1_misses + p.lsu.store_lines));
}

PowerModel::SmEnergy PowerModel::sm_interval_energy(const SmCounters& c, const SmCounters& p, double v,
                                                    double dt) const {
  const double dyn = (v / v0_[0]) * (v / v0_[0]) * 1e-9;  // nJ -> J with V^2 scaling
  const double leak = std::pow(v / v0_[0], cfg_.leakage_voltage_exponent);
  double cycles = double(c.cycles - p.cycles);
  double gated = double(c.gated_cycles - p.gated_cycles);
  double busy = double(c.busy_cycles - p.busy_cycles);
  double nj = sm_event_nj(cfg_, c, p) + sm_clock_nj(cfg_, busy, cycles - busy - gated);
  double ungated = cycles > 0 ? 1.0 - gated / cycles : 1.0;
  return {nj * dyn, cfg_.sm_leakage_w * leak * ungated * dt};
}

void PowerModel::checkpoint() {
  sc_core::sc_time now = sc_core::sc_time_stamp();
  double dt = (now - last_).to_seconds();
  double v_now[kDomains] = {vr_.voltage(Domain::Sm), vr_.voltage(Domain::Mem)};
  double v[kDomains], dyn[kDomains], leak[kDomains];
  for (size_t d = 0; d < kDomains; ++d) {
    v[d] = 0.5 * (v_now[d] + last_v_[d]);
    dyn[d] = (v[d] / v0_[d]) * (v[d] / v0_[d]) * 1e-9;  // nJ -> J with V^2 scaling
    leak[d] = std::pow(v[d] / v0_[d], cfg_.leakage_voltage_exponent);
  }
  for (size_t i = 0; i < sms_.size(); ++i) {
    SmCounters c = sms_[i]->counters();
    SmEnergy e = sm_interval_energy(c, last_sm_[i], v[0], dt);
    total_.sm_dynamic += e.dynamic;
    total_.sm_leakage += e.leakage;
    sm_total_[i] += e.dynamic + e.leakage;
    last_sm_[i] = c;
  }
  const MemActivity& m = mem_;
  const MemActivity& q = last_mem_;
  double mem_nj = cfg_.l2_access_nj * double((m.l2_hits + m.l2_misses) - (q.l2_hits + q.l2_misses)) +
                  cfg_.icnt_flit_nj * double(m.icnt_flits - q.icnt_flits) +
                  cfg_.mem_cycle_nj * double(m.l2_cycles - q.l2_cycles);
  double dram_nj = cfg_.dram_activate_nj * double(m.dram_activates - q.dram_activates) +
                   cfg_.dram_read_nj * double(m.dram_reads - q.dram_reads) +
                   cfg_.dram_write_nj * double(m.dram_writes - q.dram_writes);
  total_.mem_dynamic += mem_nj * dyn[1];
  total_.dram_dynamic += dram_nj * dyn[1];
  if (memory_modelled_) {
    total_.mem_leakage += cfg_.mem_leakage_w * leak[1] * dt;
    total_.dram_standby += dram_standby_watts(fm_.mhz(Domain::Mem), v[1]) * dt;
  }
  total_.constant += cfg_.constant_w * dt;
  last_mem_ = m;
  last_ = now;
  for (size_t d = 0; d < kDomains; ++d) last_v_[d] = v_now[d];
}

}  // namespace gpupm
