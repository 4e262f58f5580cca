// A kernel-profile workload as written: its structure (applications, kernels,
// per-launch changes, repeat, iterations, respawn) declared once
// (common/param.h) beside the kernel fields (kernel_profile.h), for the reader,
// `gpupm params --workload` and docs/schema/workload.schema.json.
// parse_workload (kernel_profile.cc) turns it into launches.
#pragma once

#include "gpupm/common/param.h"
#include "gpupm/workload/kernel_profile.h"
#include <nlohmann/json.hpp>

namespace gpupm {

constexpr uint32_t kMaxKernelLaunches = 100000;  // one kernel's "launches" or "repeat"

// One launch's fields: a kernel entry merged with one of its "launches" patches.
struct KernelFields {
  KernelLaunch kernel;
  Phase single;  // "mix"/"memory": the one phase of a kernel that gives no "phases"
};

struct KernelEntryParams {
  uint32_t repeat = 0;                 // 0: not given (one launch, or one per iteration)
  std::vector<Json> patches;           // "launches": one launch each, a change to the fields
  std::vector<KernelFields> launches;  // the fields of each patch (one without patches)
};

struct AppParams {
  std::string name, description;
  uint32_t iterations = 1;
  std::vector<KernelEntryParams> kernels;
};

struct ProfileWorkloadParams {
  AppParams main;               // the "kernels" form: the document is the one application
  std::vector<AppParams> apps;  // the "apps" form
  bool respawn = false;
};

void describe(ParamVisitor& v, KernelEntryParams& e);
void describe(ParamVisitor& v, ProfileWorkloadParams& w);

}  // namespace gpupm
