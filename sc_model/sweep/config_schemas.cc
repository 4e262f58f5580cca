#include "sweep/config_schemas.h"

#include "common/param_schema.h"
#include "platform/gpu_config.h"
#include "program/program_launch_params.h"
#include "program/program_workload.h"
#include "sweep/sweep_spec_params.h"
#include "workload/workload_params.h"

namespace gpupm {

namespace {

Json array_schema(size_t min, size_t max, Json items, const std::string& description) {
  return {{"type", "array"}, {"minItems", min}, {"maxItems", max}, {"items", std::move(items)},
          {"description", description}};
}

Json object_schema(Json properties, const std::vector<std::string>& required) {
  Json s = {{"type", "object"}, {"properties", std::move(properties)}, {"additionalProperties", false}};
  if (!required.empty()) s["required"] = required;
  return s;
}

const Json kText = {{"type", "string"}};

// "oneOf" of alternatives, each a list of keys the document must hold.
Json one_of_required(const std::vector<std::vector<std::string>>& alternatives) {
  Json any = Json::array();
  for (const auto& keys : alternatives) any.push_back({{"required", keys}});
  return any;
}

// A program workload (program/program_workload.h): its reader checks the
// launches against the program; the schema says the shape.
Json program_properties() {
  Json init = {{"type", "object"},
               {"description", "exactly one of fill, iota, random, file (default: zeros)"},
               {"properties", {{"fill", {{"type", "number"}}},
                               {"iota", {{"type", "object"}}},
                               {"random", {{"type", "object"}}},
                               {"file", {{"type", "string"}, {"description", ".npy file, relative to the workload"}}}}},
               {"additionalProperties", false},
               {"minProperties", 1},
               {"maxProperties", 1}};
  BufferSpec declared;
  SchemaWriter w;
  describe(w, declared);
  Json buffer = w.schema();
  buffer["properties"]["init"] = init;
  const Json launches = schema_of<ProgramLaunches>()["properties"]["launches"];
  return {{"name", kText},
          {"description", kText},
          {"program", {{"type", "string"}, {"description", ".cu or .ptx file, relative to the workload"}}},
          {"buffers", {{"type", "object"}, {"additionalProperties", buffer}, {"description", "device buffers by name"}}},
          {"launches", launches}};
}

Json program_workload_schema() {
  Json app = object_schema(program_properties(), {"name", "program", "launches"});
  Json props = program_properties();
  props["apps"] = array_schema(1, 2, app, "one or two co-running programs on disjoint SM sets");
  Json s = object_schema(props, {"name"});
  s["oneOf"] = one_of_required({{"program", "launches"}, {"apps"}});
  return s;
}

Json workload_schema() {
  Json s = {{"oneOf", Json::array({schema_of<ProfileWorkloadParams>(), program_workload_schema()})},
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
