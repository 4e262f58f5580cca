#include "gpupm/platform/gpu.h"

#include "gpupm/program/program_workload.h"

#include <cmath>
#include <stdexcept>

namespace gpupm {

using sc_core::sc_time;

namespace {
sc_time period_of(const DomainDvfs& d) { return sc_time(1e6 / d.levels[d.nominal].mhz, sc_core::SC_PS); }

std::vector<const SmStatus*> statuses(const std::vector<std::unique_ptr<StreamingMultiprocessor>>& sms) {
  std::vector<const SmStatus*> v;
  for (const auto& s : sms) v.push_back(s.get());
  return v;
}

// Clock periods of any MHz (1/700 MHz = 1428571.43 fs) are exact enough only
// in femtoseconds; a coarser resolution would round every edge. The platform
// owns the resolution (a global), so the model checks it and explains.
const GpuConfig& with_fine_time_resolution(const GpuConfig& cfg) {
  const double resolution_s = sc_core::sc_get_time_resolution().to_seconds();
  if (resolution_s > 1.0000001e-15)
    SC_REPORT_ERROR("gpupm/time_resolution",
                    ("gpupm::Gpu needs a SystemC time resolution of 1 fs or finer, but it is " +
                     sc_core::sc_get_time_resolution().to_string() +
                     ": its clock periods (e.g. 1/700 MHz = 1428571 fs) would be rounded. Call "
                     "sc_core::sc_set_time_resolution(1, sc_core::SC_FS) at the start of sc_main, before any "
                     "sc_time is made (docs/embedding.md)")
                        .c_str());
  return cfg;
}

std::vector<std::unique_ptr<StreamingMultiprocessor>> make_sms(const SmConfig& cfg, ClockDomain& clock) {
  std::vector<std::unique_ptr<StreamingMultiprocessor>> v;
  for (uint32_t i = 0; i < cfg.count; ++i)
    v.push_back(std::make_unique<StreamingMultiprocessor>(("sm" + std::to_string(i)).c_str(), i, cfg, clock));
  return v;
}
}  // namespace

Gpu::Gpu(sc_core::sc_module_name name, const GpuConfig& cfg, const Workload& workload, std::unique_ptr<Policy> policy,
         const HostInterfaceOptions& host)
    : sc_module(name),
      done_o("done_o", false),
      host_in("host_in"),
      irq_o("irq_o", false),
      cfg_(with_fine_time_resolution(cfg)),
      workload_(workload),
      sm_clock_("sm_clock", period_of(cfg.dvfs[Domain::Sm])),
      mem_clock_("mem_clock", period_of(cfg.dvfs[Domain::Mem])),
      sms_(make_sms(cfg.sm, sm_clock_)),
      mem_(cfg.mem.external ? nullptr : std::make_unique<MemorySystem>("memory", cfg.mem, mem_clock_)),
      external_mem_(cfg.mem.external
                        ? std::make_unique<ExternalMemoryPort>("memory", cfg.sm.count, cfg.mem.loosely_timed)
                        : nullptr),
      gwde_("gwde", SmSlots{cfg.sm.count, cfg.sm.max_ctas, cfg.sm.max_warps}, cfg.gwde, workload, host.host_launches),
      fm_("freq", cfg.dvfs),
      vr_("vr"),
      host_("policy", std::move(policy), statuses(sms_), memory(), fm_, sm_clock_, cfg.sm),
      power_(cfg.power, cfg.mem.data_rate, statuses(sms_), memory().activity(), vr_, fm_),
      cp_("command_processor", host, cfg.mem.platform_data ? 0 : uint32_t(launch_entries(workload)), fm_) {
  for (auto& sm : sms_) {
    if (mem_) sm->mem_out.bind(mem_->sm_in);
    else sm->mem_out.bind(external_mem_->sm_in);
    sm->gwde_out.bind(gwde_.done_in);
    gwde_.cta_out.bind(sm->cta_in);
    host_.sm_out.bind(sm->ctrl_in);
  }
  fm_.sm_clock_out.bind(sm_clock_.period_in);
  fm_.mem_clock_out.bind(mem_clock_.period_in);
  mem_clock_.runs_after(sm_clock_);  // coinciding edges: a fixed order, not the timed queue's
  fm_.vr_out.bind(vr_.setpoint_in);
  host_.gwde_out.bind(gwde_.ctrl_in);
  host_.freq_out.bind(fm_.ctrl_in);
  host_.attach_memory_clock(mem_clock_, cfg.mem.channels);
  if (mem_) mem_->follow_sm_clock(sm_clock_);  // memory.l2_clock "core" only
  else power_.leave_out_memory();              // an external memory's energy is the platform's to model
  host_in.bind(cp_.host_in);
  cp_.irq_out.bind(irq_o);
  cp_.gwde_out.bind(gwde_.launch_in);
  gwde_.launch_done_out.bind(cp_.gwde_in);
  cp_.csr_out.bind(host_.host_csr_in);
  cp_.read_counters = [this] { return host_counters(); };
  if (cfg.mem.platform_data) enable_platform_data(host.host_launches);

  start_.residency[0].assign(cfg.dvfs[Domain::Sm].levels.size(), 0.0);
  start_.residency[1].assign(cfg.dvfs[Domain::Mem].levels.size(), 0.0);
  fm_.before_change = [this] {  // what was accounted at the old V/F stays at it
    if (done_) return;
    power_.checkpoint();
    if (pdn_driver_) pdn_driver_->catch_up();
  };
  gwde_.on_kernel_start = [this](const KernelLaunch& k) { kernel_started(k); };
  gwde_.on_kernel_end = [this](const KernelLaunch& k) { kernel_ended(k); };
  gwde_.on_all_done = [this] { all_done(); };

  if (cfg.pdn.enabled()) {  // last in the SM domain: sees every SM's activity of the cycle
    pdn_ = std::make_unique<RlcPdn>(cfg.pdn.network, cfg.sm.count);
    vr_.attach_network(pdn_.get());
    const DomainDvfs& d = cfg.dvfs[Domain::Sm];
    pdn_driver_ =
        std::make_unique<PdnDriver>(cfg.pdn.stats, cfg.power, statuses(sms_), vr_, sm_clock_,
                                    reference_volts(cfg.power, size_t(Domain::Sm), d.levels[d.nominal].volts));
    sm_clock_.add(pdn_driver_.get());
  }

  if (cfg.smoothing.local.enabled) {  // a droop predictor at each SM's dispatch unit
    const DroopPredIn csr = droop_predictor_csr(cfg.smoothing.local, dispatch_energies(cfg.power));
    for (auto& sm : sms_)
      sm->attach_droop_predictor(
          make_droop_pred_controller(cfg.controller_impl, {uint8_t(cfg.sm.schedulers)}, sm->id()), csr);
  }
  if (cfg.smoothing.global.enabled) {  // the stagger unit in the GWDE, fed by the SMs' reports
    const GlobalSmoothingConfig& g = cfg.smoothing.global;
    stagger_ = std::make_unique<GlobalStagger>(
        make_stagger_controller(cfg.controller_impl, {uint8_t(cfg.sm.count), g.report_period, g.window_slots}),
        stagger_csr(g), statuses(sms_), [this](uint32_t sm, uint64_t until) { gwde_.hold_sm(sm, until); });
    sm_clock_.on_every(g.report_period, [this](uint64_t c) { stagger_->report(c); });
  }
  sm_clock_.on_every(cfg.sim.sample_period, [this](uint64_t c) { sample(c); });
  sm_clock_.on_every(cfg.sim.epoch_cycles, [this](uint64_t) { end_of_epoch(); });
  if (uint64_t every = host_.policy().epoch_cycles())
    sm_clock_.on_every(every, [this](uint64_t c) { host_.policy().on_epoch(host_, c); });
}

Gpu::~Gpu() = default;

// memory.data "platform": the program's global memory is the platform's, and
// the host launches its kernels with descriptors (LAUNCH_KERNEL), the
// parameter block read from the platform's memory at the doorbell.
void Gpu::enable_platform_data(bool host_launches) {
  auto* program = dynamic_cast<ProgramHost*>(entry_source(workload_));
  if (!program || !host_launches || !external_mem_)
    throw std::invalid_argument(std::string(name()) +
                                ": memory.data \"platform\" needs memory.system \"external\", a one-program workload "
                                "and HostInterfaceOptions::host_launches (docs/embedding.md#data-through-the-sockets)");
  for (auto& sm : sms_) sm->send_line_writes_without_data();
  PlatformData* data = &external_mem_->data();
  program->use_platform_memory(data, cfg_.sm);
  cp_.enable_kernel_launches(
      program->kernel_count(), [this, program, data](KernelLaunchRequest& r, uint64_t params, uint32_t params_size) {
        using namespace host_reg;
        const LaunchShapeProblem problem = program->kernel_launch_problem(r);
        if (problem.key == "kernel") return kBadKernel;
        if (!problem.key.empty()) {
          SC_REPORT_WARNING("gpupm/host_interface",
                            (std::string(name()) + ": LAUNCH_KERNEL of kernel " + std::to_string(r.kernel) +
                             " refused: " + problem.key + ": " + problem.what)
                                .c_str());
          return kBadShape;
        }
        const uint32_t bytes = program->param_bytes(r.kernel);  // a C struct of them may be padded at its end
        if (params_size < bytes || params_size > kMaxParamsSize) return kBadParams;
        r.params.resize(bytes);
        return bytes && !data->read(params, r.params.data(), bytes) ? kParamsUnreadable : kNoError;
      });
}

const MemoryStatus& Gpu::memory() const {
  if (mem_) return *mem_;
  return *external_mem_;
}

sc_core::sc_vector<ExternalMemoryPort::Socket>& Gpu::mem_out() {
  if (!external_mem_)
    throw std::logic_error(std::string(name()) + ": mem_out() exists only with memory.system \"external\"");
  return external_mem_->mem_out;
}

MetricContext Gpu::metric_context() const {
  return {cfg_.sm.count, cfg_.mem.channels, cfg_.mem.line_bytes, &cfg_.dvfs};
}

size_t Gpu::kernels_total() const {
  size_t n = workload_.launches.size();
  for (const Application& a : workload_.apps)
    if (a.source) n += a.source->planned_launches();
  return n;
}

Snapshot Gpu::snapshot() {
  power_.checkpoint();
  Snapshot s;
  s.time_s = sc_core::sc_time_stamp().to_seconds();
  s.sm_cycles = sm_clock_.cycles_elapsed();
  s.mem_cycles = mem_clock_.cycles_elapsed();
  for (const auto& sm : sms_) accumulate(s.sm, sm->counters());
  s.mem = memory().activity();
  s.energy = power_.energy();
  s.sm_energy_j = power_.sm_energy();
  for (size_t d = 0; d < kDomains; ++d) s.residency[d] = fm_.residency(Domain(d));
  return s;
}

// After completion, the completion snapshot: the report's totals.
HostCounters Gpu::host_counters() {
  const Snapshot s = done_ ? finish_ : snapshot();
  HostCounters c;
  c.warp_instructions = s.sm.insts;
  c.sm_cycles = s.sm_cycles;
  c.mem_cycles = s.mem_cycles;
  c.time_fs = uint64_t(std::llround(s.time_s * 1e15));
  c.energy_j = s.energy.total();
  return c;
}

// After completion nothing changes what a report reads: a co-running app's
// thread may still start a kernel that will never run.
void Gpu::kernel_started(const KernelLaunch& k) {
  if (done_) return;
  if (mem_)
    for (const auto& [address, bytes] : k.host_copies) mem_->host_copied(address, bytes);
  if (kernels_done_ == 0 && open_kernels_.empty() && kernels_.empty()) host_.policy().on_start(host_);
  open_kernels_.push_back({&k, snapshot(), {}});
  host_.policy().on_kernel_start(host_, k);
}

void Gpu::kernel_ended(const KernelLaunch& k) {
  if (done_) return;
  host_.policy().on_kernel_end(host_, k);
  for (size_t i = 0; i < open_kernels_.size(); ++i) {
    if (open_kernels_[i].launch != &k) continue;
    KernelRecord r = open_kernels_[i];
    r.end = snapshot();
    kernels_.push_back(r);
    open_kernels_.erase(open_kernels_.begin() + long(i));
    break;
  }
  ++kernels_done_;
}

void Gpu::all_done() {
  finish_ = snapshot();
  if (pdn_driver_) pdn_driver_->finish();
  done_ = true;
  go_quiet();
  done_o.write(true);
  done_event_.notify(sc_core::SC_ZERO_TIME);
  if (on_done) on_done(*this);
}

// No event of the GPU's after completion (a clock's edge already due fires
// once and finds it stopped), so sc_start() without a limit can return.
void Gpu::go_quiet() {
  sm_clock_.stop();
  mem_clock_.stop();
  fm_.stop();
}

void Gpu::end_of_epoch() {
  EpochRecord e;
  e.index = epochs_.size();
  e.kernel = open_kernels_.empty() ? "" : open_kernels_.back().launch->name;
  e.sm_level = fm_.level(Domain::Sm);
  e.mem_level = fm_.level(Domain::Mem);
  e.v_sm = vr_.voltage(Domain::Sm);
  e.v_mem = vr_.voltage(Domain::Mem);
  e.end = snapshot();
  double dt = e.end.time_s - last_epoch_time_;
  trace_power_w_ = dt > 0 ? (e.end.energy.total() - last_epoch_energy_) / dt : 0.0;
  last_epoch_energy_ = e.end.energy.total();
  last_epoch_time_ = e.end.time_s;
  epochs_.push_back(std::move(e));
  if (on_epoch) on_epoch(*this);
}

void Gpu::sample(uint64_t cycle) {
  for (auto& sm : sms_) sm->record_sample();
  if (trace_) trace_->on_sample(*this, cycle);
}

// The trace rides on the warp-state samples rather than a hook of its own: an
// extra hook would make the SM clock tick at cycles it otherwise skips, and a
// traced run would no longer be the same run.
void Gpu::trace_to(const std::string& vcd_file, uint64_t period_cycles) {
  check_trace_period(period_cycles);
  trace_ = std::make_unique<GpuTrace>(*this, vcd_file_sink(vcd_file), period_cycles);
}

void Gpu::trace_to(sc_core::sc_trace_file* file, uint64_t period_cycles) {
  check_trace_period(period_cycles);
  trace_ = std::make_unique<GpuTrace>(*this, sc_trace_file_sink(file), period_cycles);
}

void Gpu::check_trace_period(uint64_t period_cycles) const {
  if (period_cycles == 0 || period_cycles % cfg_.sim.sample_period != 0)
    throw std::invalid_argument("trace period must be a positive multiple of sim.sample_period");
}

void Gpu::finish_trace() {
  if (trace_) trace_->finish(*this);
}

}  // namespace gpupm
