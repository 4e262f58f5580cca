// libFuzzer target: parses fuzzed PTX and runs its first kernel functionally
// (one CTA of two warps, every pointer parameter at one device buffer) for a
// bounded number of warp instructions. ParseError and ExecError (a fault, a
// runaway loop) are the executor's answers to bad programs, not findings.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "gpupm/ptx/ptx.h"

namespace {

using namespace gpupm::ptx;

constexpr uint64_t kMaxWarpInsts = 2000;  // per warp: beyond it the executor throws ExecError
constexpr uint64_t kMaxSteps = 8000;      // all warps together, barrier waits included
constexpr uint32_t kThreads = 64;         // two warps: divergence and barriers between warps
constexpr uint64_t kBufferBytes = 1 << 16;

// Pointer-sized parameters get the buffer's address, others a small count.
std::vector<uint8_t> parameters(const Kernel& k, uint64_t buffer) {
  std::vector<uint8_t> bytes(k.param_bytes, 0);
  for (const Param& p : k.params) {
    const uint64_t value = p.size == 8 ? buffer : 16;
    if (uint64_t(p.offset) + p.size <= bytes.size())
      std::memcpy(bytes.data() + p.offset, &value, std::min<uint32_t>(p.size, 8));
  }
  return bytes;
}

// Round-robin, one instruction per live warp per round; a warp at a barrier
// waits until every live warp has arrived (as ptx/ptx_test_driver.h does).
void run_one_cta(const LaunchState& launch) {
  CtaState cta;
  cta.start(launch, 0);
  const uint32_t n_warps = uint32_t((launch.block.count() + 31) / 32);
  std::vector<Warp> warps(n_warps);
  std::vector<bool> waiting(n_warps, false);
  for (uint32_t w = 0; w < n_warps; ++w) warps[w].start(cta, w, 0, 128);
  uint64_t steps = 0;
  while (steps < kMaxSteps) {
    uint32_t live = 0, arrived = 0;
    for (uint32_t w = 0; w < n_warps; ++w) {
      if (warps[w].done() || waiting[w]) continue;
      const bool barrier = warps[w].next().cls == TimingClass::Barrier;
      warps[w].step(steps++);
      waiting[w] = barrier;
    }
    for (uint32_t w = 0; w < n_warps; ++w) {
      if (warps[w].done()) continue;
      ++live;
      arrived += waiting[w];
    }
    if (live == 0) return;
    if (arrived == live) waiting.assign(n_warps, false);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    std::unique_ptr<Module> module = parse(std::string(reinterpret_cast<const char*>(data), size), "fuzz.ptx");
    if (module->kernels.empty()) return 0;
    DeviceMemory memory;
    memory.load(*module);
    LaunchState launch;
    launch.kernel = module->kernels.front().get();
    launch.block.x = kThreads;
    launch.dynamic_shared_bytes = launch.kernel->uses_dynamic_shared ? 1024 : 0;
    launch.memory = &memory;
    launch.max_warp_insts = kMaxWarpInsts;
    launch.params = parameters(*launch.kernel, memory.allocate(kBufferBytes, "buffer"));
    run_one_cta(launch);
  } catch (const ParseError&) {
  } catch (const ExecError&) {}
  return 0;
}
