#include "gpupm/sweep/config_schemas.h"

#include "gpupm/common/param_schema.h"
#include "gpupm/common/data_dir.h"
#include "gpupm/platform/gpu_config.h"
#include "gpupm/platform/run_setup.h"
#include "gpupm/policy/policy_registry.h"
#include "gpupm/program/program_workload_params.h"
#include "gpupm/sweep/sweep_spec_params.h"
#include "gpupm/workload/workload_params.h"

namespace gpupm {

namespace {

Json workload_schema() {
  Json s = {{"oneOf", Json::array({schema_of<ProfileWorkloadParams>(), schema_of<ProgramWorkloadParams>()})},
            {"description", "kernel profiles (\"kernels\" or \"apps\" of kernels) or a program (\"program\")"}};
  return schema_document("workload.schema.json", "gpupm workload", s);
}

// The GPU config whose V/F level names and SM count the policy schema's ranges are.
constexpr const char* kPolicySchemaGpu = "configs/gpu/gtx480.json";

// A run document's "policy" object: one shipped policy's settings, told apart by "name".
Json policy_schema() {
  const PolicyGpu on = load_policy_gpu(data_file(kPolicySchemaGpu));
  Json variants = Json::array();
  for (const PolicyEntry& e : registered_policies()) {
    if (!e.origin.empty()) continue;  // shipped only: the committed file does not depend on plugins
    SchemaWriter w;
    if (e.params) e.params(on.target(e.name), {&w});
    Json o = w.schema();
    o["properties"]["name"] = {{"const", e.name}, {"description", e.summary}};
    Json required = Json::array({"name"});
    for (const Json& key : o.value("required", Json::array())) required.push_back(key);
    o["required"] = required;
    variants.push_back(o);
  }
  Json s = {
      {"oneOf", variants},
      {"description", std::string("a run's \"policy\" object (policy.* of gpupm run --set); V/F level names "
                                  "and SM-count ranges are those of ") +
                          kPolicySchemaGpu + ": gpupm params --policy NAME --gpu FILE lists them for another GPU"}};
  return schema_document("policy.schema.json", "gpupm policy settings", s);
}

// A whole config, or one "based_on" another: then a merge patch over it (run_setup.h).
Json gpu_config_schema() {
  const Json whole = schema_of<GpuConfig>();
  Json patch = merge_patch_schema(whole);
  patch["properties"]["based_on"] = {
      {"type", "string"},
      {"minLength", 1},
      {"description",
       "the GPU config this one changes (a file name, found in this file's folder, under the data root or from "
       "the working directory); this file's keys are merged over its keys (objects key by key, other values "
       "replace)"}};
  patch["required"] = {"name", "based_on"};
  Json s = {{"if", {{"required", {"based_on"}}}}, {"then", patch}, {"else", whole}};
  if (whole.contains("$comment")) s["$comment"] = whole["$comment"];
  return schema_document("gpu_config.schema.json", "gpupm GPU config", s);
}

}  // namespace

const std::vector<std::string>& config_schema_kinds() {
  static const std::vector<std::string> kinds = {"gpu_config", "workload", "sweep_spec", "policy"};
  return kinds;
}

Json config_schema(const std::string& kind) {
  if (kind == "gpu_config") return gpu_config_schema();
  if (kind == "workload") return workload_schema();
  if (kind == "sweep_spec")
    return schema_document("sweep_spec.schema.json", "gpupm sweep spec", schema_of<SweepSpecParams>());
  if (kind == "policy") return policy_schema();
  throw InputError("--schema", kind, "expected one of {gpu_config, workload, sweep_spec, policy}");
}

}  // namespace gpupm
