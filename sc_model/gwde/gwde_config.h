#pragma once

#include "common/json_reader.h"

namespace gpupm {

struct GwdeConfig {
  double wake_latency_ns = 1000.0;   // power-gated SM back to dispatchable (order of 1 us, cf. core-shutdown spec)
  double kernel_launch_ns = 0.0;     // host launch gap between kernels (GPGPU-Sim models none)
};

GwdeConfig parse_gwde_config(JsonReader& r);

}  // namespace gpupm
