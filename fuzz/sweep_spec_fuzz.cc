// libFuzzer target: a sweep spec (configs/sweeps/*.json) through
// parse_sweep_spec; paths resolve against configs/sweeps as for the shipped spec.
#include "fuzz_support.h"
#include "gpupm/sweep/sweep_spec.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace gpupm;
  const std::string file = fuzz::in_tree("configs/sweeps", "fuzz.json");
  std::optional<Json> doc = fuzz::parse_document(data, size, file);
  if (!doc) return 0;
  try {
    parse_sweep_spec(*doc, file);
  } catch (const InputError&) {}
  return 0;
}

// The model library links libsystemc, whose main() needs an sc_main; libFuzzer's main runs instead.
extern "C" int sc_main(int, char**) { return 0; }
