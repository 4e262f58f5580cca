#pragma once

#include "gpupm/common/json_fwd.h"
#include "gpupm/common/param.h"

namespace gpupm {

struct GwdeConfig {
  double wake_latency_ns = 1000.0;  // power-gated SM back to dispatchable (order of 1 us, cf. core-shutdown spec)
  double kernel_launch_ns = 0.0;    // host launch gap between kernels (GPGPU-Sim models none)
  // Time between two CTA dispatches, chip-wide (the engine hands out one CTA at a
  // time). 0: every dispatch of a scheduling round reaches its SM at once, so a
  // kernel launch starts all SMs in the same cycle.
  double dispatch_interval_ns = 0.0;
};

// Every field's name, range, unit and description (common/param.h).
void describe(ParamVisitor& v, GwdeConfig& c);
GwdeConfig parse_gwde_config(JsonReader& r);

}  // namespace gpupm
