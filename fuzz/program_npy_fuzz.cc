// libFuzzer target: a .npy file as a program workload's buffer initialiser
// ({"file": ...}). The bytes go through parse_npy, then, written to a file,
// through load_program_workload: the workload's check of the header (dtype,
// count), and, when it passes, the load that copies the data into device
// memory. The buffer's type and count follow what the header says when it
// parses (so the data path is reached), else u32 x 64. Nothing is compiled:
// the program is the suite's fma_loop PTX (fuzz/programs/). No SystemC.
#include <unistd.h>

#include <fstream>
#include <map>

#include "fuzz_support.h"
#include "gpupm/program/npy.h"
#include "gpupm/program/program_workload.h"
#include "gpupm/sm/sm_config.h"

namespace {

using gpupm::Json;

// The buffer type a parsed dtype fills, and a count the workload accepts.
std::pair<std::string, uint64_t> buffer_for(const std::string& bytes) {
  static const std::map<std::string, std::string> kTypes = {
      {"|u1", "u8"}, {"<i4", "s32"}, {"<u4", "u32"}, {"<i8", "s64"}, {"<u8", "u64"}, {"<f4", "f32"}, {"<f8", "f64"}};
  try {
    const gpupm::NpyArray a = gpupm::parse_npy(bytes, "fuzz.npy");
    if (a.count >= 1 && a.count <= (uint64_t(1) << 20)) return {kTypes.at(a.dtype), a.count};
  } catch (const gpupm::InputError&) {}
  return {"u32", 64};
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace gpupm;
  static const std::string dir = [] {
    char tmpl[] = "/tmp/gpupm-fuzz-npy-XXXXXX";
    return std::string(::mkdtemp(tmpl));
  }();
  const std::string bytes = fuzz::text_of(data, size);
  std::ofstream(dir + "/a.npy", std::ios::binary | std::ios::trunc) << bytes;
  const auto [type, count] = buffer_for(bytes);
  const Json doc = {
      {"name", "npy"},
      {"program", std::string(GPUPM_SOURCE_DIR) + "/fuzz/programs/fma_loop.ptx"},
      {"buffers", {{"a", {{"type", type}, {"count", count}, {"init", {{"file", "a.npy"}}}}}}},
      {"launches",
       Json::array(
           {{{"kernel", "fma_loop"}, {"grid", {1}}, {"block", {32}}, {"args", Json::array({"a", 1, 1.0, 0.5})}}})}};
  try {
    load_program_workload(doc, dir + "/fuzz.json", "fuzz.json", SmConfig{});
  } catch (const InputError&) {}
  return 0;
}
