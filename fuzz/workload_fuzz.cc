// libFuzzer target: a kernel-profile workload document (configs/workloads/*.json)
// through parse_workload. Program workloads ("program") have their own target
// (program_workload_fuzz.cc); here they are just one more bad input.
#include "fuzz_support.h"
#include "gpupm/workload/kernel_profile.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace gpupm;
  const std::string file = fuzz::in_tree("configs/workloads", "fuzz.json");
  std::optional<Json> doc = fuzz::parse_document(data, size, file);
  if (!doc) return 0;
  try {
    parse_workload(*doc, file, 1);
  } catch (const InputError&) {}
  return 0;
}
