// libFuzzer target: a PDN package network (configs/pdn/*.json) through
// parse_pdn_network, read as `gpupm run --pdn` reads it (unknown keys rejected).
#include "fuzz_support.h"
#include "gpupm/vr/pdn_config.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace gpupm;
  const std::string file = fuzz::in_tree("configs/pdn", "fuzz.json");
  std::optional<Json> doc = fuzz::parse_document(data, size, file);
  if (!doc) return 0;
  try {
    if (!doc->is_object()) return 0;
    JsonReader r(*doc, file, "");
    parse_pdn_network(r);
    r.finish();
  } catch (const InputError&) {}
  return 0;
}
