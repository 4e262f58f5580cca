#include "gpupm/gwde/gwde_config.h"

#include "gpupm/common/param_reader.h"

namespace gpupm {

void describe(ParamVisitor& v, GwdeConfig& c) {
  v.number("wake_latency_ns", c.wake_latency_ns, 0.0, 1e9, "ns", "a power-gated SM back to dispatchable");
  v.number("kernel_launch_ns", c.kernel_launch_ns, 0.0, 1e9, "ns", "host launch gap between kernels");
  v.number("dispatch_interval_ns", c.dispatch_interval_ns, 0.0, 1e6, "ns",
           "time between two CTA dispatches, chip-wide (0: a round's dispatches all at once)");
}

GwdeConfig parse_gwde_config(JsonReader& r) {
  GwdeConfig c;
  read_params(r, c);
  return c;
}

}  // namespace gpupm
