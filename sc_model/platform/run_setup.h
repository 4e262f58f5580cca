// Loading a run: the GPU config, the workload and the policy, joined into one
// document that --set overrides address (gpu.*, workload.*, policy.*, seed) and
// that the report echoes. Every input problem is an InputError (exit 2).
#pragma once

#include "gpupm/platform/gpu_config.h"
#include "gpupm/policy/policy.h"
#include "gpupm/policy/policy_params.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace gpupm {

struct RunInputs {
  std::string gpu_file;
  std::string workload_file;
  std::string policy = "baseline";
  std::vector<std::string> sets;  // path=value
  std::optional<uint64_t> seed;
  std::string pdn_file;      // --pdn: a package (configs/pdn/*.json); turns the RLC network on
  std::string scale = "ci";  // --scale: ci or paper (program/workload_scale.h)
};

struct LoadedRun {
  Json doc;  // {"gpu": ..., "workload": ..., "policy": {...}, "seed": n}
  GpuConfig gpu;
  Workload workload;
  std::unique_ptr<Policy> policy;
  Json scale;                          // null at ci; else what the report's "scale" says (program/workload_scale.h)
  std::vector<std::string> gpu_files;  // the GPU config, then each config it is based on
  std::string gpu_origin;              // how messages name the GPU config
};

// Messages about the policy name it as gpupm::RunInputs (policy, sets) and,
// for an unknown name, say how a program adds its own (GPUPM_REGISTER_POLICY).
LoadedRun load_run(const RunInputs& in);
// load_run for the gpupm program's own platform (run, bench, sweep, experiment),
// which has no memory to bind an external memory socket to: memory.system
// "external" is an InputError there.
LoadedRun load_standalone_run(const RunInputs& in);

// The GPU config document with a --pdn package merged in (model "rlc", the
// package as the network), before any --set; and how messages name it.
GpuDocument load_gpu_doc(const std::string& gpu_file, const std::string& pdn_file);
std::string gpu_doc_origin(const GpuDocument& gpu, const std::string& pdn_file, bool with_sets);

// A GPU config read as `gpupm run` reads it (the file, then the PDN package) and
// the controller setup a policy is made for on it (no applications): what a
// policy's settings are declared for outside a run (gpupm params --policy, the
// policy schema, an experiment's policy_params).
struct PolicyGpu {
  GpuConfig gpu;
  ControllerSetup ctl;
  // `policy` must outlive the target.
  PolicyTarget target(const std::string& policy) const { return {policy, gpu.dvfs, ctl}; }
};
PolicyGpu load_policy_gpu(const std::string& gpu_file, const std::string& pdn_file = "");
// Reads SETTINGS (policy.* settings a config gives POLICY, at PATH of FILE) as
// POLICY's factory reads them on `on`: unknown keys, values out of range and
// broken rules are InputErrors naming FILE and the key's path. GIVEN_BY_CALLER
// holds the keys the caller sets itself (e.g. an experiment's profiles file).
void check_policy_settings(const Json& settings, const std::string& policy, const PolicyGpu& on,
                           const std::string& file, const std::string& path,
                           const Json& given_by_caller = Json::object());

// What kind of document a file is, for `gpupm validate` (a workload at SCALE): "gpu" or "workload".
std::string validate_file(const std::string& file, const std::string& scale = "ci");

}  // namespace gpupm
