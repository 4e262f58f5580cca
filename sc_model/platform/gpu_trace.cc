#include "gpupm/platform/gpu_trace.h"

#include "gpupm/common/vcd_writer.h"
#include "gpupm/platform/gpu.h"

#include <algorithm>
#include <deque>
#include <stdexcept>

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

class VcdFileSink : public TraceSink {
 public:
  explicit VcdFileSink(const std::string& file) : vcd_(file) {}
  size_t add_real(const std::vector<std::string>& scope, const std::string& name) override {
    return vcd_.add_real(scope, name);
  }
  void set(size_t var, double value) override { vcd_.set(var, value); }
  void sample() override {
    vcd_.sample(sc_core::sc_time_stamp().value() / sc_core::sc_time(1, sc_core::SC_PS).value());
  }
  void finish() override { vcd_.commit(); }

 private:
  VcdWriter vcd_;
};

// SystemC samples the traced variables itself; they live in a deque, so their
// addresses stay put as variables are added.
class ScTraceFileSink : public TraceSink {
 public:
  explicit ScTraceFileSink(sc_core::sc_trace_file* file) : file_(file) {
    if (!file_) throw std::invalid_argument("trace: no sc_trace_file (a null pointer)");
  }
  size_t add_real(const std::vector<std::string>& scope, const std::string& name) override {
    std::string path;
    for (const std::string& part : scope) path += part + ".";
    values_.push_back(0.0);
    sc_core::sc_trace(file_, values_.back(), path + name);
    return values_.size() - 1;
  }
  void set(size_t var, double value) override { values_[var] = value; }
  void sample() override {}
  void finish() override {}

 private:
  sc_core::sc_trace_file* file_;
  std::deque<double> values_;
};

}  // namespace

std::unique_ptr<TraceSink> vcd_file_sink(const std::string& file) { return std::make_unique<VcdFileSink>(file); }

std::unique_ptr<TraceSink> sc_trace_file_sink(sc_core::sc_trace_file* file) {
  return std::make_unique<ScTraceFileSink>(file);
}

GpuTrace::GpuTrace(const Gpu& gpu, std::unique_ptr<TraceSink> sink, uint64_t period_cycles)
    : sink_(std::move(sink)), period_(period_cycles), last_counters_(gpu.sms_.size()) {
  const std::vector<std::string> gpu_scope = scope_of(gpu);
  auto part = [&](const std::string& name) {  // a part of the GPU: its scope below the GPU's
    std::vector<std::string> scope = gpu_scope;
    scope.push_back(name);
    return scope;
  };
  for (size_t i = 0; i < gpu.sms_.size(); ++i) {
    const std::vector<std::string> scope = part("sm" + std::to_string(i));
    sm_vars_.push_back({sink_->add_real(scope, "active_warps"), sink_->add_real(scope, "ctas"),
                        sink_->add_real(scope, "cta_limit"), sink_->add_real(scope, "power_w")});
  }
  sm_level_ = sink_->add_real(part("freq"), "sm_level");
  mem_level_ = sink_->add_real(part("freq"), "mem_level");
  sm_mhz_ = sink_->add_real(part("freq"), "sm_mhz");
  mem_mhz_ = sink_->add_real(part("freq"), "mem_mhz");
  v_sm_ = sink_->add_real(part("vr"), "v_sm");
  v_mem_ = sink_->add_real(part("vr"), "v_mem");
  kernel_ = sink_->add_real(part("gwde"), "kernel");
  total_power_w_ = sink_->add_real(part("power"), "total_w");
  if (gpu.pdn_driver_) {
    droop_ = sink_->add_real(part("pdn"), "droop");
    has_droop_ = true;
  }
  last_v_sm_ = gpu.vr_.voltage(Domain::Sm);
}

void GpuTrace::on_sample(const Gpu& gpu, uint64_t cycle) {
  if ((cycle + 1) % period_ == 0) record(gpu);
}

void GpuTrace::finish(const Gpu& gpu) {
  record(gpu);
  sink_->finish();
}

void GpuTrace::record(const Gpu& gpu) {
  const double now_s = sc_core::sc_time_stamp().to_seconds();
  const double dt = now_s - last_time_s_;
  const double v_sm = gpu.vr_.voltage(Domain::Sm);
  for (size_t i = 0; i < gpu.sms_.size(); ++i) {
    const StreamingMultiprocessor& sm = *gpu.sms_[i];
    const SmVars& v = sm_vars_[i];
    sink_->set(v.active_warps, sm.active_warps());
    sink_->set(v.ctas, sm.resident_ctas());
    sink_->set(v.cta_limit, gpu.gwde_.cta_limit(uint32_t(i)));
    // Power over the interval since the last sample, by the power model's own
    // formula, without settling its accounts (that would change the report).
    SmCounters now = sm.counters();
    if (dt > 0) {
      PowerModel::SmEnergy e = gpu.power_.sm_interval_energy(now, last_counters_[i], 0.5 * (v_sm + last_v_sm_), dt);
      sink_->set(v.power_w, (e.dynamic + e.leakage) / dt);
    }
    last_counters_[i] = now;
  }
  sink_->set(sm_level_, gpu.fm_.level(Domain::Sm));
  sink_->set(mem_level_, gpu.fm_.level(Domain::Mem));
  sink_->set(sm_mhz_, gpu.fm_.mhz(Domain::Sm));
  sink_->set(mem_mhz_, gpu.fm_.mhz(Domain::Mem));
  sink_->set(v_sm_, v_sm);
  sink_->set(v_mem_, gpu.vr_.voltage(Domain::Mem));
  sink_->set(kernel_, gpu.open_kernels_.empty() ? -1.0 : double(gpu.open_kernels_.back().launch->kernel_index));
  sink_->set(total_power_w_, gpu.trace_power_w_);
  if (has_droop_) {
    const std::vector<double>& volts = gpu.pdn_driver_->sm_volts();
    double lowest = volts.empty() ? v_sm : *std::min_element(volts.begin(), volts.end());
    sink_->set(droop_, v_sm > 0 ? std::max(0.0, (v_sm - lowest) / v_sm) : 0.0);
  }
  last_time_s_ = now_s;
  last_v_sm_ = v_sm;
  sink_->sample();
}

}  // namespace gpupm
