// The whole GPU configuration, read from one JSON document (configs/gpu/*.json)
// and validated at elaboration: each block's section is parsed by its block.
#pragma once

#include "gpupm/common/controller_impl.h"
#include "gpupm/common/param.h"
#include "gpupm/platform/smoothing_config.h"
#include "gpupm/freq/dvfs_config.h"
#include "gpupm/gwde/gwde_config.h"
#include "gpupm/mem/mem_config.h"
#include "gpupm/power/power_config.h"
#include "gpupm/ptx/ptx.h"
#include "gpupm/sm/sm_config.h"
#include "gpupm/vr/pdn_config.h"
#include "gpupm/workload/kernel_profile.h"

#include <string>
#include <vector>
#include <nlohmann/json.hpp>

namespace gpupm {

struct SimConfig {
  uint32_t epoch_cycles = 4096;  // SM cycles per report epoch (and epochs.csv row)
  uint32_t sample_period = 128;  // SM cycles between warp-state samples
  uint64_t seed = 1;
  double max_sim_ms = 1000.0;  // simulated-time guard: a run past it fails (exit 1)
  ptx::RunawayBounds runaway;  // program launches: warp instructions before a launch is a runaway (exit 1)
};

struct GpuConfig {
  std::string name;
  std::string description;  // for people (listed by `gpupm params`); the model never reads it
  SmConfig sm;
  MemConfig mem;
  DvfsConfig dvfs;
  PowerConfig power;
  GwdeConfig gwde;
  SimConfig sim;
  PdnConfig pdn;              // power-delivery network and droop statistics (default: ideal)
  SmoothingConfig smoothing;  // hierarchical voltage smoothing (default: off)
  // Controller blocks as the C++ models, the Verilated RTL, or both in lockstep (rtl/README.md).
  ControllerImpl controller_impl = ControllerImpl::kCpp;
};

// Every section's fields (common/param.h) and the rules joining sections.
void describe(ParamVisitor& v, SimConfig& c);
void describe(ParamVisitor& v, GpuConfig& g);
// A document of the config's fields (a "based_on" key is refused: read such a file with read_gpu_document).
GpuConfig parse_gpu_config(const Json& doc, const std::string& file);

// A GPU config file's document. A config may name another as "based_on" (a file
// name, found in its folder, under the data root or from the working directory,
// the first that holds it): its keys are then merged over that config's as a JSON merge
// patch (objects merge key by key, any other value, arrays included, replaces),
// the chain followed to its end (at most 8 files, no loops). Such a config must
// give its own "name" and no nulls.
struct GpuDocument {
  Json doc;                        // merged
  std::vector<std::string> files;  // the file named, then each it is based on, in order
  std::string origin() const;      // how messages name it: "a.json (based on b.json, on c.json)"
};
GpuDocument read_gpu_document(const std::string& file);
// The GPU config in FILE, merged over the configs it is based on, and validated.
GpuConfig load_gpu_config(const std::string& file);
// Limits that join the two: a CTA must fit on an SM.
void validate_workload(const Workload& w, const GpuConfig& gpu, const std::string& file);

}  // namespace gpupm
