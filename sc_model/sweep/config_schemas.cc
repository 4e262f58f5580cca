#include "sweep/config_schemas.h"

#include "common/param_schema.h"
#include "platform/gpu_config.h"
#include "program/program_workload.h"
#include "sweep/sweep_spec.h"

namespace gpupm {

namespace {

Json integer_schema(uint64_t lo, uint64_t hi, const std::string& description) {
  return {{"type", "integer"}, {"minimum", lo}, {"maximum", hi}, {"description", description}};
}

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

// A profile kernel entry: the declared fields, and "launches" (per-launch
// changes of those fields) or "repeat".
Json kernel_entry_schema() {
  KernelLaunch k;
  Phase single;
  SchemaWriter w;
  describe_kernel(w, k, single);
  Json entry = w.schema();
  Json patch = entry;
  patch.erase("required");
  patch.erase("$comment");
  entry["properties"]["launches"] =
      array_schema(1, 100000, patch, "one launch each: changes to the kernel's fields (not with repeat)");
  entry["properties"]["repeat"] =
      integer_schema(1, 100000, "launches of the kernel (default: one, or one per iteration)");
  return entry;
}

// One application of kernel profiles: the document itself or an entry of "apps".
Json profile_properties(const Json& kernel_entry) {
  return {{"name", kText},
          {"description", kText},
          {"kernels", array_schema(1, 4096, kernel_entry, "the kernels, run in order")},
          {"iterations", integer_schema(1, 100000, "runs of the kernels list (iteration i runs launch i of each kernel)")}};
}

Json profile_workload_schema() {
  const Json entry = kernel_entry_schema();
  Json app = object_schema(profile_properties(entry), {"name", "kernels"});
  Json props = profile_properties(entry);
  props["apps"] = array_schema(1, 2, app, "one or two co-running applications on disjoint SM sets");
  props["respawn"] = {{"type", "boolean"}, {"description", "two apps as a queue pair: a finished app starts again"}};
  Json s = object_schema(props, {"name"});
  s["oneOf"] = one_of_required({{"kernels"}, {"apps"}});
  return s;
}

// A program workload (program/program_workload.h): its reader checks the
// launches against the program; the schema says the shape.
Json program_properties() {
  Json dim3 = array_schema(1, 3, {{"type", "integer"}, {"minimum", 1}}, "x, y, z (1 to 3 positive integers)");
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
  Json while_nonzero = object_schema(
      {{"buffer", {{"type", "string"}, {"description", "repeat while this buffer's first element is non-zero"}}},
       {"max", integer_schema(1, 100000, "at most this many launches")}},
      {"buffer", "max"});
  Json launch = object_schema({{"kernel", {{"type", "string"}, {"description", "the .entry name"}}},
                               {"grid", dim3},
                               {"block", dim3},
                               {"shared_bytes", integer_schema(0, uint64_t(1) << 20, "dynamic shared memory per CTA")},
                               {"regs_per_thread", integer_schema(1, 255, "registers per thread (default: the PTX estimate)")},
                               {"args", {{"type", "array"}, {"description", "one per parameter: a buffer name or a number"}}},
                               {"repeat", integer_schema(1, 100000, "launches")},
                               {"while_nonzero", while_nonzero}},
                              {"kernel", "grid", "block", "args"});
  return {{"name", kText},
          {"description", kText},
          {"program", {{"type", "string"}, {"description", ".cu or .ptx file, relative to the workload"}}},
          {"buffers", {{"type", "object"}, {"additionalProperties", buffer}, {"description", "device buffers by name"}}},
          {"launches", array_schema(1, 4096, launch, "the host program's launches, in order")}};
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
  Json s = {{"oneOf", Json::array({profile_workload_schema(), program_workload_schema()})},
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
  if (kind == "sweep_spec") return schema_document("sweep_spec.schema.json", "gpupm sweep spec", sweep_spec_schema());
  throw InputError("--schema", kind, "expected one of {gpu_config, workload, sweep_spec}");
}

}  // namespace gpupm
