#include "sweep/config_schemas.h"

#include "common/param_schema.h"
#include "platform/gpu_config.h"
#include "program/program_workload_params.h"
#include "sweep/sweep_spec_params.h"
#include "workload/workload_params.h"

namespace gpupm {

namespace {

Json workload_schema() {
  Json s = {{"oneOf", Json::array({schema_of<ProfileWorkloadParams>(), schema_of<ProgramWorkloadParams>()})},
            {"description", "kernel profiles (\"kernels\" or \"apps\" of kernels) or a program (\"program\")"}};
  return schema_document("workload.schema.json", "gpupm workload", s);
}

}  // namespace

const std::vector<std::string>& config_schema_kinds() {
  static const std::vector<std::string> kinds = {"gpu_config", "workload", "sweep_spec"};
  return kinds;
}

Json config_schema(const std::string& kind) {
  if (kind == "gpu_config") return schema_document("gpu_config.schema.json", "gpupm GPU config", schema_of<GpuConfig>());
  if (kind == "workload") return workload_schema();
  if (kind == "sweep_spec") return schema_document("sweep_spec.schema.json", "gpupm sweep spec", schema_of<SweepSpecParams>());
  throw InputError("--schema", kind, "expected one of {gpu_config, workload, sweep_spec}");
}

}  // namespace gpupm
