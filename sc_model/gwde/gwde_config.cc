#include "gwde/gwde_config.h"

namespace gpupm {

GwdeConfig parse_gwde_config(JsonReader& r) {
  GwdeConfig c;
  c.wake_latency_ns = r.get_double("wake_latency_ns", 0.0, 1e9, c.wake_latency_ns);
  c.kernel_launch_ns = r.get_double("kernel_launch_ns", 0.0, 1e9, c.kernel_launch_ns);
  c.dispatch_interval_ns = r.get_double("dispatch_interval_ns", 0.0, 1e6, c.dispatch_interval_ns);
  return c;
}

}  // namespace gpupm
