#include "gpupm/platform/gpu_trace.h"

#include "gpupm/platform/gpu.h"

#include <algorithm>

namespace gpupm {

namespace {

// The VCD scope of `gpu`: its module's hierarchical name, one scope per level
// ("top.gpu0" -> top, gpu0), so two GPUs of one platform trace apart.
std::vector<std::string> scope_of(const Gpu& gpu) {
  std::vector<std::string> scope;
  const std::string name = gpu.name();
  for (size_t at = 0; at <= name.size();) {
    const size_t dot = std::min(name.find('.', at), name.size());
    scope.push_back(name.substr(at, dot - at));
    at = dot + 1;
  }
  return scope;
}

}  // namespace

GpuTrace::GpuTrace(const Gpu& gpu, const std::string& file, uint64_t period_cycles)
    : vcd_(file), period_(period_cycles), last_counters_(gpu.sms_.size()) {
  const std::vector<std::string> gpu_scope = scope_of(gpu);
  auto part = [&](const std::string& name) {  // a part of the GPU: its scope below the GPU's
    std::vector<std::string> scope = gpu_scope;
    scope.push_back(name);
    return scope;
  };
  for (size_t i = 0; i < gpu.sms_.size(); ++i) {
    const std::vector<std::string> scope = part("sm" + std::to_string(i));
    sm_vars_.push_back({vcd_.add_real(scope, "active_warps"), vcd_.add_real(scope, "ctas"),
                        vcd_.add_real(scope, "cta_limit"), vcd_.add_real(scope, "power_w")});
  }
  sm_level_ = vcd_.add_real(part("freq"), "sm_level");
  mem_level_ = vcd_.add_real(part("freq"), "mem_level");
  sm_mhz_ = vcd_.add_real(part("freq"), "sm_mhz");
  mem_mhz_ = vcd_.add_real(part("freq"), "mem_mhz");
  v_sm_ = vcd_.add_real(part("vr"), "v_sm");
  v_mem_ = vcd_.add_real(part("vr"), "v_mem");
  kernel_ = vcd_.add_real(part("gwde"), "kernel");
  total_power_w_ = vcd_.add_real(part("power"), "total_w");
  if (gpu.pdn_driver_) {
    droop_ = vcd_.add_real(part("pdn"), "droop");
    has_droop_ = true;
  }
  last_v_sm_ = gpu.vr_.voltage(Domain::Sm);
}

void GpuTrace::on_sample(const Gpu& gpu, uint64_t cycle) {
  if ((cycle + 1) % period_ == 0) record(gpu);
}

void GpuTrace::finish(const Gpu& gpu) {
  record(gpu);
  vcd_.commit();
}

void GpuTrace::record(const Gpu& gpu) {
  const double now_s = sc_core::sc_time_stamp().to_seconds();
  const double dt = now_s - last_time_s_;
  const double v_sm = gpu.vr_.voltage(Domain::Sm);
  for (size_t i = 0; i < gpu.sms_.size(); ++i) {
    const StreamingMultiprocessor& sm = *gpu.sms_[i];
    const SmVars& v = sm_vars_[i];
    vcd_.set(v.active_warps, sm.active_warps());
    vcd_.set(v.ctas, sm.resident_ctas());
    vcd_.set(v.cta_limit, gpu.gwde_.cta_limit(uint32_t(i)));
    // Power over the interval since the last sample, by the power model's own
    // formula, without settling its accounts (that would change the report).
    SmCounters now = sm.counters();
    if (dt > 0) {
      PowerModel::SmEnergy e = gpu.power_.sm_interval_energy(now, last_counters_[i], 0.5 * (v_sm + last_v_sm_), dt);
      vcd_.set(v.power_w, (e.dynamic + e.leakage) / dt);
    }
    last_counters_[i] = now;
  }
  vcd_.set(sm_level_, gpu.fm_.level(Domain::Sm));
  vcd_.set(mem_level_, gpu.fm_.level(Domain::Mem));
  vcd_.set(sm_mhz_, gpu.fm_.mhz(Domain::Sm));
  vcd_.set(mem_mhz_, gpu.fm_.mhz(Domain::Mem));
  vcd_.set(v_sm_, v_sm);
  vcd_.set(v_mem_, gpu.vr_.voltage(Domain::Mem));
  vcd_.set(kernel_, gpu.open_kernels_.empty() ? -1.0 : double(gpu.open_kernels_.back().launch->kernel_index));
  vcd_.set(total_power_w_, gpu.trace_power_w_);
  if (has_droop_) {
    const std::vector<double>& volts = gpu.pdn_driver_->sm_volts();
    double lowest = volts.empty() ? v_sm : *std::min_element(volts.begin(), volts.end());
    vcd_.set(droop_, v_sm > 0 ? std::max(0.0, (v_sm - lowest) / v_sm) : 0.0);
  }
  last_time_s_ = now_s;
  last_v_sm_ = v_sm;
  vcd_.sample(sc_core::sc_time_stamp().value() / sc_core::sc_time(1, sc_core::SC_PS).value());
}

}  // namespace gpupm
