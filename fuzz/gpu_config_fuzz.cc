// libFuzzer target: a GPU config document (configs/gpu/*.json) through
// parse_gpu_config. Only InputError is an accepted answer to bad input.
#include "fuzz_support.h"
#include "gpupm/platform/gpu_config.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace gpupm;
  const std::string file = fuzz::in_tree("configs/gpu", "fuzz.json");
  std::optional<Json> doc = fuzz::parse_document(data, size, file);
  if (!doc) return 0;
  try {
    parse_gpu_config(*doc, file);
  } catch (const InputError&) {}
  return 0;
}
