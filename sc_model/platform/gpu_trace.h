// The run's VCD trace (`gpupm run --vcd FILE`): a hierarchical view of the
// GPU in real units, sampled every `period` SM cycles at the platform's own
// warp-state samples (so tracing adds no wake-up and a traced run gives the
// same report, bit for bit):
//   gpu.sm<i>.{active_warps, ctas, cta_limit, power_w}
//   gpu.freq.{sm_level, mem_level, sm_mhz, mem_mhz}   gpu.vr.{v_sm, v_mem} (V)
//   gpu.gwde.kernel (the running launch's kernel index; -1 between kernels)
//   gpu.power.total_w (over the last epoch)           gpu.pdn.droop (with an RLC network)
// Into gpupm's own VCD file (time in ps), or into a platform's sc_trace_file
// (its own time unit; SystemC's trace then checks every variable at every time
// step, which costs the platform's run time).
#pragma once

#include "gpupm/protocol/sm_status.h"

#include <systemc>

#include <memory>
#include <string>
#include <vector>

namespace gpupm {

class Gpu;

// Where the trace's values go.
class TraceSink {
 public:
  virtual ~TraceSink() = default;
  // Declares a real variable `name` in scope path `scope` (outermost first); returns its handle.
  virtual size_t add_real(const std::vector<std::string>& scope, const std::string& name) = 0;
  virtual void set(size_t var, double value) = 0;
  virtual void sample() = 0;  // the values set make the sample at the current time
  virtual void finish() = 0;  // the run's last sample is taken
};
// gpupm's own VCD file (common/vcd_writer.h), renamed into place at finish;
// std::runtime_error naming the file if it cannot be opened.
std::unique_ptr<TraceSink> vcd_file_sink(const std::string& file);
// A platform's SystemC trace file: each variable sc_trace'd as `scope.name`.
std::unique_ptr<TraceSink> sc_trace_file_sink(sc_core::sc_trace_file* file);

class GpuTrace {
 public:
  GpuTrace(const Gpu& gpu, std::unique_ptr<TraceSink> sink, uint64_t period_cycles);
  // At each warp-state sample (SM cycle `cycle`): records every `period`-th one.
  void on_sample(const Gpu& gpu, uint64_t cycle);
  // The last values at the end of the run; renames the file into place.
  void finish(const Gpu& gpu);

 private:
  struct SmVars {
    size_t active_warps, ctas, cta_limit, power_w;
  };
  void record(const Gpu& gpu);

  std::unique_ptr<TraceSink> sink_;
  uint64_t period_;
  std::vector<SmVars> sm_vars_;
  size_t sm_level_, mem_level_, sm_mhz_, mem_mhz_, v_sm_, v_mem_, kernel_, total_power_w_;
  size_t droop_ = 0;
  bool has_droop_ = false;
  // What the per-SM power of the next sample is measured from.
  std::vector<SmCounters> last_counters_;
  double last_time_s_ = 0, last_v_sm_ = 0;
};

}  // namespace gpupm
