// Test support: runs kernels functionally without the SM timing model. A CTA's
// warps are round-robined one instruction at a time; a warp that executes a
// Barrier waits until every live warp of the CTA has arrived.
#pragma once

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <memory>
#include <string>
#include <vector>

#include "gpupm/ptx/ptx.h"

namespace gpupm::ptx::test {

struct CtaRun {
  uint64_t warp_insts = 0;
  std::vector<StepResult> trace;  // every step, when `keep_trace`
};

inline CtaRun run_cta(const LaunchState& launch, uint32_t linear_cta, bool keep_trace = false,
                      uint32_t line_bytes = 128, CoalescingRules rules = {}) {
  CtaState cta;
  cta.start(launch, linear_cta);
  const uint32_t n_warps = uint32_t((launch.block.count() + 31) / 32);
  std::vector<Warp> warps(n_warps);
  std::vector<bool> waiting(n_warps, false);
  for (uint32_t w = 0; w < n_warps; ++w) warps[w].start(cta, w, 0, line_bytes, rules);
  CtaRun run;
  for (uint64_t clock = 0;;) {
    uint32_t live = 0, arrived = 0;
    for (uint32_t w = 0; w < n_warps; ++w) {
      if (warps[w].done() || waiting[w]) continue;
      const bool barrier = warps[w].next().cls == TimingClass::Barrier;
      StepResult r = warps[w].step(clock++);
      ++run.warp_insts;
      if (keep_trace) run.trace.push_back(r);
      waiting[w] = barrier;
    }
    for (uint32_t w = 0; w < n_warps; ++w) {
      if (warps[w].done()) continue;
      ++live;
      arrived += waiting[w];
    }
    if (live == 0) return run;
    if (arrived == live) waiting.assign(n_warps, false);
  }
}

inline void run_grid(const LaunchState& launch) {
  for (uint32_t c = 0; c < launch.grid.count(); ++c) run_cta(launch, c);
}

// One module, its device memory and a launch of one kernel.
struct Launch {
  std::unique_ptr<Module> module;
  DeviceMemory memory;
  LaunchState state;

  Launch(const std::string& ptx, const std::string& kernel, Dim3 grid, Dim3 block,
         const std::string& file = "test.ptx") {
    module = parse(ptx, file);
    memory.load(*module);
    state.kernel = module->find(kernel);
    if (!state.kernel) throw std::runtime_error("no kernel " + kernel);
    state.grid = grid;
    state.block = block;
    state.memory = &memory;
    state.params.assign(state.kernel->param_bytes, 0);
  }
  Launch(const Launch&) = delete;  // state.memory points into this object
  Launch& operator=(const Launch&) = delete;
  template <class T>
  uint64_t buffer(const std::vector<T>& values) {
    uint64_t addr = memory.allocate(std::max<size_t>(1, values.size() * sizeof(T)), "buffer");
    if (!values.empty()) std::memcpy(memory.data(addr), values.data(), values.size() * sizeof(T));
    return addr;
  }
  template <class T>
  std::vector<T> read(uint64_t addr, size_t n) {
    std::vector<T> out(n);
    std::memcpy(out.data(), memory.find(addr, uint32_t(n * sizeof(T))), n * sizeof(T));
    return out;
  }
  template <class T>
  void param(size_t index, T value) {
    const Param& p = state.kernel->params.at(index);
    std::memcpy(state.params.data() + p.offset, &value, std::min<size_t>(sizeof(T), p.size));
  }
  void run() { run_grid(state); }
};

// The registers every test kernel declares.
inline const char* test_registers() {
  return "  .reg .pred %p<16>;\n  .reg .b16 %rs<16>;\n  .reg .b32 %r<64>;\n  .reg .b64 %rd<32>;\n"
         "  .reg .f32 %f<32>;\n  .reg .f64 %fd<16>;\n";
}

// A kernel k(a, b, out) (u64 pointers): each thread loads a[tid], b[tid] into
// %r10/%r11 (%f10/%f11 hold the same bits), runs `body` and stores %r20 to out[tid].
inline std::string lane_kernel(const std::string& body) {
  return std::string(
             ".version 7.0\n.target sm_70\n.address_size 64\n"
             ".visible .entry k(.param .u64 k_param_0, .param .u64 k_param_1, .param .u64 k_param_2)\n{\n") +
         test_registers() + "  .shared .align 4 .b8 slot[8];\n" +
         "  ld.param.u64 %rd1, [k_param_0];\n  ld.param.u64 %rd2, [k_param_1];\n  ld.param.u64 %rd3, [k_param_2];\n"
         "  mov.u32 %r1, %tid.x;\n  mul.wide.u32 %rd4, %r1, 4;\n  add.s64 %rd5, %rd1, %rd4;\n"
         "  add.s64 %rd6, %rd2, %rd4;\n  add.s64 %rd7, %rd3, %rd4;\n  ld.global.u32 %r10, [%rd5];\n"
         "  ld.global.u32 %r11, [%rd6];\n  mov.b32 %f10, %r10;\n  mov.b32 %f11, %r11;\n" +
         body + "\n  st.global.u32 [%rd7], %r20;\n  ret;\n}\n";
}

// Runs lane_kernel(body) on one warp with a (and b) as the lanes' inputs
// (fewer than 32 values: the rest are 0); returns out[0..n).
inline std::vector<uint32_t> run_lanes(const std::string& body, std::vector<uint32_t> a, std::vector<uint32_t> b = {}) {
  const size_t n = std::max(a.size(), b.size());
  a.resize(32, 0);
  b.resize(32, 0);
  Launch launch(lane_kernel(body), "k", Dim3{}, Dim3{32, 1, 1});
  launch.param(0, launch.buffer(a));
  launch.param(1, launch.buffer(b));
  uint64_t out = launch.buffer(std::vector<uint32_t>(32, 0xdeadbeef));
  launch.param(2, out);
  launch.run();
  return launch.read<uint32_t>(out, n);
}

inline uint32_t f2u(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
inline float u2f(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

}  // namespace gpupm::ptx::test
