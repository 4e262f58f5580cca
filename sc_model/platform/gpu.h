// The GPU top module: elaborates every block from a GpuConfig, binds their
// sockets, wires the clock domains, the power model, the controller and the
// recorders, and keeps the per-kernel and per-epoch snapshots of a run.
// An ordinary sc_module (docs/embedding.md): whoever owns the simulation calls
// sc_start; the GPU runs its workload from time 0, signals completion (done_o,
// done_event(), on_done) and then goes quiet, so sc_start() without a limit
// returns once the rest of the platform is idle. It sets no SystemC global.
// A host model reaches it through host_in (the command processor's registers,
// host/command_processor.h) and irq_o; with HostInterfaceOptions::host_launches
// the workload's kernels run only when the host launches them.
#pragma once

#include "gpupm/clock/clock_domain.h"
#include "gpupm/freq/frequency_manager.h"
#include "gpupm/gwde/global_stagger.h"
#include "gpupm/gwde/global_work_distribution_engine.h"
#include "gpupm/host/command_processor.h"
#include "gpupm/mem/external_memory_port.h"
#include "gpupm/mem/memory_system.h"
#include "gpupm/platform/gpu_config.h"
#include "gpupm/platform/gpu_trace.h"
#include "gpupm/policy/policy_host.h"
#include "gpupm/power/power_model.h"
#include "gpupm/platform/snapshot.h"
#include "gpupm/sm/streaming_multiprocessor.h"
#include "gpupm/vr/pdn.h"
#include "gpupm/platform/pdn_driver.h"
#include "gpupm/vr/voltage_regulator.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace gpupm {

struct KernelRecord {
  const KernelLaunch* launch;
  Snapshot start, end;
};

struct EpochRecord {
  uint64_t index;
  std::string kernel;  // running at the epoch's end ("" between kernels)
  uint32_t sm_level, mem_level;
  double v_sm, v_mem;
  Snapshot end;
};

class Gpu : public sc_core::sc_module {
 public:
  // `cfg` and `workload` must outlive the Gpu. Needs a time resolution of 1 fs
  // or finer, set by the platform before any sc_time is made (an SC_ERROR
  // report, "gpupm/time_resolution", explains it otherwise).
  Gpu(sc_core::sc_module_name name, const GpuConfig& cfg, const Workload& workload, std::unique_ptr<Policy> policy,
      const HostInterfaceOptions& host = {});
  ~Gpu() override;

  // Completion: the signal goes true, the event is notified (one delta later)
  // and on_done is called, once, when the workload's last kernel has ended.
  sc_core::sc_signal<bool> done_o;
  const sc_core::sc_event& done_event() const { return done_event_; }
  std::function<void(Gpu&)> on_done;
  bool done() const { return done_; }
  // The host interface: the command processor's registers (docs/embedding.md,
  // "Host interface"; 32-bit registers, LT b_transport), and its interrupt line.
  tlm::tlm_target_socket<32, tlm::tlm_base_protocol_types, 1, sc_core::SC_ZERO_OR_MORE_BOUND> host_in;
  sc_core::sc_signal<bool> irq_o;
  // Traces the main signals to a VCD file every `period_cycles` SM cycles, a
  // multiple of sim.sample_period (call before sc_start; see platform/gpu_trace.h).
  void trace_to(const std::string& vcd_file, uint64_t period_cycles);
  // The same into a platform's own trace file (before sc_start, as sc_trace
  // requires), the variables named under the GPU's hierarchical name.
  void trace_to(sc_core::sc_trace_file* file, uint64_t period_cycles);
  // After a finished run: the trace's last values, and the file renamed into place.
  void finish_trace();
  // Called at every epoch end (progress display).
  std::function<void(const Gpu&)> on_epoch;

  Snapshot snapshot();
  MetricContext metric_context() const;
  const std::vector<KernelRecord>& kernels() const { return kernels_; }
  const std::vector<EpochRecord>& epochs() const { return epochs_; }
  const Snapshot& start() const { return start_; }
  const Snapshot& finish() const { return finish_; }
  size_t kernels_done() const { return kernels_done_; }
  size_t kernels_total() const;  // launches planned (a program's while_nonzero counts once)
  const Workload& workload() const { return workload_; }
  const std::vector<KernelRecord>& running_kernels() const { return open_kernels_; }
  // For a run that did not finish: the launches still running and, for a
  // program's, where its first stuck CTA's warps stand (kernel, CTA, warps,
  // PC and source line, who waits at a barrier). One line; "" when none runs.
  std::string unfinished_state() const;
  // Where the warps of the first program CTA with warps at a barrier stand
  // ("" when no warp waits at one): a runaway's message adds it.
  std::string barrier_state() const;
  const GpuConfig& config() const { return cfg_; }
  const ClockDomain& sm_clock() const { return sm_clock_; }
  uint64_t sm_ticks_run() const { return sm_clock_.ticks_run(); }
  Policy& policy() { return host_.policy(); }
  // The power-delivery network's driver and droop statistics (null: ideal network).
  const PdnDriver* pdn() const { return pdn_driver_.get(); }
  // Global staggering (null: off).
  const GlobalStagger* stagger() const { return stagger_.get(); }
  // The controller's memory-mapped registers (bind a testbench or host initiator here).
  tlm::tlm_target_socket<32, tlm::tlm_base_protocol_types, 1, sc_core::SC_ZERO_OR_MORE_BOUND>& csr_target() {
    return host_.csr_in;
  }
  // With memory.system "external": the SMs' line requests, mem_out()[i] for SM i,
  // for the platform to bind its own interconnect or memory target before
  // sc_start (docs/embedding.md#external-memory). std::logic_error otherwise.
  sc_core::sc_vector<ExternalMemoryPort::Socket>& mem_out();

 private:
  friend class GpuTrace;  // reads the blocks it traces
  void end_of_epoch();
  void sample(uint64_t cycle);
  void check_trace_period(uint64_t period_cycles) const;
  void kernel_started(const KernelLaunch& k);
  void kernel_ended(const KernelLaunch& k);
  void all_done();
  void go_quiet();
  HostCounters host_counters();
  void enable_platform_data(bool host_launches);

  const GpuConfig& cfg_;
  const Workload& workload_;
  ClockDomain sm_clock_;
  ClockDomain mem_clock_;
  std::vector<std::unique_ptr<StreamingMultiprocessor>> sms_;
  // The SMs' memory side: the model's own memory system, or (memory.system
  // "external") the port to the platform's; the other one is null.
  std::unique_ptr<MemorySystem> mem_;
  std::unique_ptr<ExternalMemoryPort> external_mem_;
  const MemoryStatus& memory() const;
  GlobalWorkDistributionEngine gwde_;
  FrequencyManager fm_;
  VoltageRegulator vr_;
  PolicyHost host_;
  PowerModel power_;
  CommandProcessor cp_;
  std::unique_ptr<RlcPdn> pdn_;
  std::unique_ptr<PdnDriver> pdn_driver_;
  std::unique_ptr<GlobalStagger> stagger_;
  std::vector<KernelRecord> kernels_;
  std::vector<KernelRecord> open_kernels_;
  std::vector<EpochRecord> epochs_;
  Snapshot start_, finish_;
  size_t kernels_done_ = 0;
  bool done_ = false;
  sc_core::sc_event done_event_;
  std::unique_ptr<GpuTrace> trace_;
  double trace_power_w_ = 0;  // over the last epoch
  double last_epoch_energy_ = 0, last_epoch_time_ = 0;
};

}  // namespace gpupm
