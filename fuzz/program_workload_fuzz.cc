// libFuzzer target: a program workload (configs/workloads/cuda/*/*.json)
// through load_program_workload. Nothing is compiled: every "program" is
// replaced by the suite program's PTX of the same name in fuzz/programs/ (the
// suite's .cu files compiled once by the project's driver), so the fuzzer
// exercises the JSON contract (buffers, initialisers, launches, arguments,
// occupancy) against real kernels.
#include <filesystem>

#include "fuzz_support.h"
#include "gpupm/program/program_workload.h"
#include "gpupm/sm/sm_config.h"

namespace {

using gpupm::Json;

// The program's name: "program": "bfs.cu" -> "bfs" (empty if none).
std::string program_stem(const Json& entry) {
  if (!entry.is_object()) return "";
  auto it = entry.find("program");
  if (it == entry.end() || !it->is_string()) return "";
  return std::filesystem::path(it->get<std::string>()).stem().string();
}

void use_suite_ptx(Json& entry) {
  const std::string stem = program_stem(entry);
  if (!stem.empty()) entry["program"] = std::string(GPUPM_SOURCE_DIR) + "/fuzz/programs/" + stem + ".ptx";
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace gpupm;
  std::optional<Json> doc = fuzz::parse_document(data, size, "fuzz.json");
  if (!doc || !is_program_workload(*doc)) return 0;
  bool has_apps = doc->contains("apps") && (*doc)["apps"].is_array();
  // In the program's suite folder: relative .npy initialisers resolve as for the shipped workload.
  const std::string stem = program_stem(has_apps && !doc->contains("program") ? (*doc)["apps"][0] : *doc);
  const std::string file = fuzz::in_tree("configs/workloads/cuda/" + stem, "fuzz.json");
  use_suite_ptx(*doc);
  if (has_apps)
    for (Json& app : (*doc)["apps"]) use_suite_ptx(app);
  try {
    load_program_workload(*doc, file, file, SmConfig{});
  } catch (const InputError&) {}
  return 0;
}
