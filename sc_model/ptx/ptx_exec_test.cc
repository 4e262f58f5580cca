// Control flow (divergence, reconvergence, exit, barriers), memory spaces,
// atomics, warp-level operations and the timing view of StepResult.
#include <gtest/gtest.h>

#include <algorithm>
#include <initializer_list>

#include "gpupm/ptx/ptx_test_driver.h"

namespace gpupm::ptx::test {
namespace {

using V = std::vector<uint32_t>;

// A module with kernel k(.u64 k_param_0, .u64 k_param_1) and `module_vars` before it.
std::string kernel(const std::string& body, const std::string& module_vars = "") {
  return ".version 7.0\n.target sm_70\n.address_size 64\n" + module_vars +
         "\n.visible .entry k(.param .u64 k_param_0, .param .u64 k_param_1)\n{\n" + test_registers() +
         "  ld.param.u64 %rd1, [k_param_0];\n  ld.param.u64 %rd2, [k_param_1];\n  mov.u32 %r1, %tid.x;\n"
         "  mul.wide.u32 %rd4, %r1, 4;\n  add.s64 %rd7, %rd2, %rd4;\n" +
         body + "\n  ret;\n}\n";
}

TEST(PtxControl, DivergenceInsideLoopReconverges) {
  V out = run_lanes(R"(
  mov.u32 %r20, 0;
  mov.u32 %r2, 0;
$L__loop:
  setp.ge.u32 %p1, %r2, %r1;
  @%p1 bra $L__done;
  and.b32 %r3, %r2, 1;
  setp.eq.u32 %p2, %r3, 1;
  @%p2 bra $L__odd;
  add.u32 %r20, %r20, %r2;
  bra.uni $L__next;
$L__odd:
  sub.u32 %r20, %r20, 1;
$L__next:
  add.u32 %r2, %r2, 1;
  bra.uni $L__loop;
$L__done:
  activemask.b32 %r21;
  setp.ne.u32 %p3, %r21, -1;
  @%p3 mov.u32 %r20, 12345;)",
                    V(32));
  for (uint32_t t = 0; t < 32; ++t) {
    int32_t expect = 0;
    for (uint32_t i = 0; i < t; ++i) expect += (i & 1) ? -1 : int32_t(i);
    EXPECT_EQ(int32_t(out[t]), expect) << "lane " << t;
  }
}

TEST(PtxControl, NestedBranches) {
  V out = run_lanes(R"(
  setp.lt.u32 %p1, %r1, 16;
  @%p1 bra $L__A;
  setp.lt.u32 %p2, %r1, 24;
  @%p2 bra $L__B;
  mov.u32 %r20, 3;
  bra.uni $L__J;
$L__B:
  mov.u32 %r20, 2;
  bra.uni $L__J;
$L__A:
  setp.lt.u32 %p3, %r1, 8;
  @%p3 bra $L__C;
  mov.u32 %r20, 1;
  bra.uni $L__J;
$L__C:
  mov.u32 %r20, 0;
$L__J:
  activemask.b32 %r21;
  setp.ne.u32 %p4, %r21, -1;
  @%p4 mov.u32 %r20, 99;)",
                    V(32));
  for (uint32_t t = 0; t < 32; ++t) EXPECT_EQ(out[t], t / 8) << "lane " << t;
}

TEST(PtxControl, EarlyExitSomeLanesContinue) {
  V out = run_lanes(R"(
  and.b32 %r3, %r1, 1;
  setp.eq.u32 %p1, %r3, 1;
  mov.u32 %r20, 7;
  @%p1 st.global.u32 [%rd7], %r20;
  @%p1 ret;
  mov.u32 %r20, 0;
  mov.u32 %r2, 0;
$L__loop:
  add.u32 %r20, %r20, 2;
  add.u32 %r2, %r2, 1;
  setp.lt.u32 %p2, %r2, %r1;
  @%p2 bra $L__loop;
  activemask.b32 %r21;
  setp.ne.u32 %p3, %r21, 0x55555555;
  @%p3 mov.u32 %r20, 12345;)",
                    V(32));
  for (uint32_t t = 0; t < 32; ++t) EXPECT_EQ(out[t], t & 1 ? 7u : 2 * std::max(1u, t)) << "lane " << t;
}

TEST(PtxControl, BarrierAfterDivergenceWithSharedMemory) {
  std::string ptx = kernel(R"(
  and.b32 %r3, %r1, 1;
  setp.eq.u32 %p1, %r3, 1;
  mov.u32 %r5, %r1;
  @%p1 bra $L__odd;
  add.u32 %r5, %r5, 1000;
$L__odd:
  mov.u64 %rd10, sdata;
  add.s64 %rd11, %rd10, %rd4;
  st.shared.u32 [%rd11], %r5;
  bar.sync 0;
  sub.u32 %r6, 63, %r1;
  mul.wide.u32 %rd12, %r6, 4;
  add.s64 %rd13, %rd10, %rd12;
  ld.shared.u32 %r7, [%rd13];
  st.global.u32 [%rd7], %r7;)",
                           "");
  ptx.insert(ptx.find("  ld.param"), "  .shared .align 4 .b8 sdata[256];\n");
  Launch l(ptx, "k", Dim3{2, 1, 1}, Dim3{64, 1, 1});
  uint64_t out = l.buffer(V(64, 0));
  l.param(1, out);
  l.run();
  V got = l.read<uint32_t>(out, 64);
  for (uint32_t t = 0; t < 64; ++t) {
    uint32_t src = 63 - t;
    EXPECT_EQ(got[t], src & 1 ? src : src + 1000) << t;
  }
  EXPECT_EQ(l.state.kernel->shared_static_bytes, 256u);
}

TEST(PtxMemory, LocalDepotPerThreadArrays) {
  std::string ptx = kernel(R"(
  mov.u64 %SPL, __local_depot0;
  cvta.local.u64 %SP, %SPL;
  add.u64 %rd10, %SPL, 0;
  mov.u32 %r2, 0;
$L__fill:
  mul.lo.s32 %r3, %r2, %r1;
  mul.wide.u32 %rd11, %r2, 4;
  add.s64 %rd12, %rd10, %rd11;
  st.local.u32 [%rd12], %r3;
  add.u32 %r2, %r2, 1;
  setp.lt.u32 %p1, %r2, 16;
  @%p1 bra $L__fill;
  add.u32 %r4, %r1, 3;
  and.b32 %r4, %r4, 15;
  mul.wide.u32 %rd13, %r4, 4;
  add.s64 %rd14, %SP, %rd13;
  ld.u32 %r5, [%rd14];
  ld.local.u32 %r6, [%SPL+4];
  add.u32 %r7, %r5, %r6;
  st.global.u32 [%rd7], %r7;)");
  ptx.insert(ptx.find("  ld.param"),
             "  .local .align 4 .b8 __local_depot0[64];\n  .reg .b64 %SP;\n  .reg .b64 %SPL;\n");
  Launch l(ptx, "k", Dim3{}, Dim3{32, 1, 1});
  uint64_t out = l.buffer(V(32, 0));
  l.param(1, out);
  l.state.local_base = 0x40000000;
  CtaRun run = run_cta(l.state, 0, true);
  V got = l.read<uint32_t>(out, 32);
  for (uint32_t t = 0; t < 32; ++t) EXPECT_EQ(got[t], ((t + 3) & 15) * t + t) << t;
  EXPECT_EQ(l.state.kernel->local_bytes, 64u);
  // The warp's st.local to one offset coalesces into one 128-byte timing line.
  for (const StepResult& r : run.trace)
    if (r.cls == TimingClass::Store && r.active == ~0u && r.n_lines == 1) return;
  ADD_FAILURE() << "no coalesced local store";
}

// ld.local / st.local take a fast path when every lane is aligned inside its depot; the same
// accesses through generic addresses go lane by lane. Both list the same timing lines and move the
// same values: vectors, 8-byte and sign-extended 1-byte elements, lanes at four offsets, in the
// second warp of the second CTA (a nonzero first thread).
TEST(PtxMemory, LocalFastPathMatchesTheLaneByLanePath) {
  const std::string body = R"(
  mov.u64 %SPL, __local_depot0;
  cvta.local.u64 %SP, %SPL;
  and.b32 %r2, %r1, 3;
  mul.wide.u32 %rd10, %r2, 16;
  add.s64 %rd11, BASE, %rd10;
  cvt.u64.u32 %rd13, %r1;
  sub.u32 %r9, 0, %r1;
  stSPACE.v4.u32 [%rd11], {%r1, %r2, %r9, %r2};
  stSPACE.u64 [%rd11+64], %rd13;
  stSPACE.u8 [%rd11+73], %r9;
  ldSPACE.v2.u32 {%r3, %r4}, [%rd11+8];
  ldSPACE.u64 %rd14, [%rd11+64];
  ldSPACE.s8 %r5, [%rd11+73];
  ldSPACE.v4.u32 {%r6, %r7, %r8, %r10}, [%rd11];
  cvt.u32.u64 %r11, %rd14;
  add.u32 %r12, %r3, %r4;
  add.u32 %r12, %r12, %r11;
  add.u32 %r12, %r12, %r5;
  add.u32 %r12, %r12, %r6;
  add.u32 %r12, %r12, %r7;
  add.u32 %r12, %r12, %r8;
  add.u32 %r12, %r12, %r10;
  st.global.u32 [%rd7], %r12;)";
  auto run = [&](bool local) {
    std::string text = body;
    for (const auto& [from, to] : {std::pair<std::string, std::string>{"SPACE", local ? ".local" : ""},
                                   std::pair<std::string, std::string>{"BASE", local ? "%SPL" : "%SP"}})
      for (size_t at; (at = text.find(from)) != std::string::npos;) text.replace(at, from.size(), to);
    std::string ptx = kernel(text);
    ptx.insert(ptx.find("  ld.param"),
               "  .local .align 16 .b8 __local_depot0[128];\n  .reg .b64 %SP;\n  .reg .b64 %SPL;\n");
    Launch l(ptx, "k", Dim3{2, 1, 1}, Dim3{64, 1, 1});
    const uint64_t out = l.buffer(V(64, 0));
    l.param(1, out);
    l.state.local_base = 0x40000000;
    std::vector<StepResult> mem;
    for (const StepResult& r : run_cta(l.state, 1, true).trace)
      if (r.cls == TimingClass::Load || r.cls == TimingClass::Store) mem.push_back(r);
    return std::pair{mem, l.read<uint32_t>(out, 64)};
  };
  const auto [fast, fast_out] = run(true);
  const auto [slow, slow_out] = run(false);
  EXPECT_EQ(fast_out, slow_out);
  for (uint32_t t = 0; t < 64; ++t) {
    const uint32_t q = t & 3, neg = 0u - t;
    EXPECT_EQ(fast_out[t], neg + q + t + uint32_t(int8_t(neg)) + t + q + neg + q) << t;
  }
  ASSERT_EQ(fast.size(), 16u);  // 7 per warp and the output store
  ASSERT_EQ(slow.size(), fast.size());
  for (size_t i = 0; i < fast.size(); ++i) {
    EXPECT_EQ(fast[i].cls, slow[i].cls) << i;
    ASSERT_EQ(fast[i].n_lines, slow[i].n_lines) << i;
    for (uint32_t k = 0; k < fast[i].n_lines; ++k) EXPECT_EQ(fast[i].lines[k], slow[i].lines[k]) << i << " " << k;
  }
  EXPECT_GT(fast[0].n_lines, 4u);  // a 16-byte element: four words per lane, each its own line
}

// %tid in a 5 x 3 x 4 block: its two warps cross rows and planes mid-warp (a warp start counts the
// index on from its first lane's); %laneid and %ntid beside it.
TEST(PtxControl, ThreadIndexInAThreeDimensionalBlock) {
  std::string ptx = kernel(R"(
  mov.u32 %r2, %tid.y;
  mov.u32 %r3, %tid.z;
  mov.u32 %r4, %laneid;
  mov.u32 %r5, %ntid.y;
  mad.lo.u32 %r6, %r3, %r5, %r2;
  mov.u32 %r7, %ntid.x;
  mad.lo.u32 %r6, %r6, %r7, %r1;
  mul.wide.u32 %rd10, %r6, 4;
  add.s64 %rd11, %rd2, %rd10;
  mad.lo.u32 %r8, %r3, 100, %r1;
  mad.lo.u32 %r8, %r2, 10, %r8;
  mad.lo.u32 %r8, %r4, 1000, %r8;
  st.global.u32 [%rd11], %r8;)");
  Launch l(ptx, "k", Dim3{}, Dim3{5, 3, 4});
  const uint64_t out = l.buffer(V(60, 0));
  l.param(1, out);
  run_cta(l.state, 0);
  const V got = l.read<uint32_t>(out, 60);
  for (uint32_t t = 0; t < 60; ++t)
    EXPECT_EQ(got[t], t % 5 + 10 * (t / 5 % 3) + 100 * (t / 15) + 1000 * (t % 32)) << "thread " << t;
}

TEST(PtxMemory, SpacesVectorsAndModuleVariables) {
  const std::string vars =
      ".visible .global .align 4 .b8 gtab[16] = {1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 4, 0, 0, 0};\n"
      ".visible .const .align 4 .u32 ctab[4] = {10, 20, 30, 40};\n"
      ".extern .shared .align 16 .b8 dyn[];\n";
  std::string ptx = kernel(R"(
  and.b32 %r2, %r1, 3;
  mul.wide.u32 %rd10, %r2, 4;
  mov.u64 %rd11, gtab;
  add.s64 %rd12, %rd11, %rd10;
  ld.global.u32 %r3, [%rd12];
  mov.u64 %rd13, ctab;
  add.s64 %rd14, %rd13, %rd10;
  ld.const.u32 %r4, [%rd14];
  ld.const.u32 %r5, [ctab+8];
  cvta.to.global.u64 %rd15, %rd1;
  mul.wide.u32 %rd16, %r1, 16;
  add.s64 %rd17, %rd15, %rd16;
  ld.global.nc.v4.u32 {%r10, %r11, %r12, %r13}, [%rd17];
  add.u32 %r14, %r10, %r13;
  mov.u64 %rd18, dyn;
  mul.wide.u32 %rd19, %r1, 8;
  add.s64 %rd20, %rd18, %rd19;
  st.shared.v2.u32 [%rd20], {%r3, %r4};
  cvta.shared.u64 %rd21, %rd20;
  ld.v2.u32 {%r15, %r16}, [%rd21];
  st.v4.u32 [%rd17], {%r3, %r4, %r5, %r14};
  add.u32 %r17, %r15, %r16;
  st.global.u32 [%rd7], %r17;)",
                           vars);
  Launch l(ptx, "k", Dim3{}, Dim3{32, 1, 1});
  V in(128);
  for (uint32_t i = 0; i < 128; ++i) in[i] = i;
  uint64_t a = l.buffer(in), out = l.buffer(V(32, 0));
  l.param(0, a);
  l.param(1, out);
  l.state.dynamic_shared_bytes = 256;
  l.run();
  V got = l.read<uint32_t>(out, 32), vec = l.read<uint32_t>(a, 128);
  for (uint32_t t = 0; t < 32; ++t) {
    EXPECT_EQ(got[t], (t & 3) + 1 + 10 * ((t & 3) + 1)) << t;
    EXPECT_EQ(vec[4 * t + 2], 30u);
    EXPECT_EQ(vec[4 * t + 3], 4 * t + 4 * t + 3);
  }
  EXPECT_TRUE(l.state.kernel->uses_dynamic_shared);
  EXPECT_NE(l.memory.symbol("gtab"), ~0ull);
}

// A load without a base register reads once for the warp (Warp::Impl::uniform_load): every active
// lane gets the value, sign-extended and per vector element, and the inactive lanes keep theirs;
// parameters and static shared variables alike, a shared one timed as a broadcast.
TEST(PtxMemory, FixedAddressLoadsReachEveryActiveLaneOnly) {
  std::string ptx = kernel(R"(
  mov.u64 %rd10, sm;
  add.s64 %rd11, %rd10, %rd4;
  st.shared.u32 [%rd11], %r1;
  mov.u32 %r3, 7;
  mov.u32 %r4, 7;
  mov.u32 %r5, 7;
  mov.u32 %r6, 7;
  setp.ge.u32 %p1, %r1, 5;
  @%p1 ld.param.s8 %r3, [k_param_0+1];
  @%p1 ld.param.v2.u32 {%r4, %r5}, [k_param_0];
  @%p1 ld.shared.u32 %r6, [sm+12];
  st.global.u32 [%rd7], %r3;
  st.global.u32 [%rd7+128], %r4;
  st.global.u32 [%rd7+256], %r5;
  st.global.u32 [%rd7+384], %r6;)");
  ptx.insert(ptx.find("  ld.param"), "  .shared .align 4 .b8 sm[128];\n");
  Launch l(ptx, "k", Dim3{}, Dim3{32, 1, 1});
  uint64_t out = l.buffer(V(128, 0));
  l.param(0, uint64_t(0x1122334455668077ull));
  l.param(1, out);
  l.run();
  V got = l.read<uint32_t>(out, 128);
  for (uint32_t t = 0; t < 32; ++t) {
    const bool loads = t >= 5;
    EXPECT_EQ(got[t], loads ? 0xFFFFFF80u : 7u) << "lane " << t;  // 0x80 sign-extended
    EXPECT_EQ(got[32 + t], loads ? 0x55668077u : 7u) << "lane " << t;
    EXPECT_EQ(got[64 + t], loads ? 0x11223344u : 7u) << "lane " << t;
    EXPECT_EQ(got[96 + t], loads ? 3u : 7u) << "lane " << t;  // lane 3's store
  }
  // Timed as the lane loop times it: a broadcast, one pass.
  std::vector<StepResult> shared;
  for (const StepResult& r : run_cta(l.state, 0, true).trace)
    if (r.cls == TimingClass::Shared) shared.push_back(r);
  ASSERT_EQ(shared.size(), 2u);  // the store, the load
  EXPECT_EQ(shared[1].shared_cycles, 1u);
  EXPECT_EQ(shared[1].active, ~0u << 5);
}

TEST(PtxMemory, AtomicsApplyInLaneOrder) {
  std::string ptx = kernel(R"(
  atom.global.add.u32 %r2, [%rd1], 1;
  add.u32 %r9, %r1, 1;
  atom.global.cas.b32 %r3, [%rd1+4], 0, %r9;
  atom.global.exch.b32 %r4, [%rd1+8], %r1;
  atom.global.max.s32 %r5, [%rd1+12], %r1;
  red.global.add.f32 [%rd1+16], 0f3F000000;
  atom.global.inc.u32 %r6, [%rd1+20], 3;
  mov.u64 %rd10, counters;
  atom.shared.add.u32 %r7, [%rd10], 2;
  atom.shared.min.s32 %r8, [counters+4], %r1;
  atom.add.u64 %rd11, [%rd1+24], 1;
  mul.wide.u32 %rd12, %r1, 32;
  add.s64 %rd13, %rd2, %rd12;
  st.global.v4.u32 [%rd13], {%r2, %r3, %r4, %r5};
  cvt.u32.u64 %r12, %rd11;
  st.global.v4.u32 [%rd13+16], {%r6, %r7, %r8, %r12};)");
  ptx.insert(ptx.find("  ld.param"), "  .shared .align 4 .b8 counters[8];\n");
  ptx.erase(ptx.find("  add.s64 %rd7"), std::string("  add.s64 %rd7, %rd2, %rd4;\n").size());
  Launch l(ptx, "k", Dim3{}, Dim3{32, 1, 1});
  uint64_t a = l.buffer(V{0, 0, 100, 0, 0, 0, 0, 0}), out = l.buffer(V(32 * 8, 0));
  l.param(0, a);
  l.param(1, out);
  l.run();
  V g = l.read<uint32_t>(a, 8), o = l.read<uint32_t>(out, 32 * 8);
  EXPECT_EQ(g[0], 32u);
  EXPECT_EQ(g[1], 1u);
  EXPECT_EQ(g[2], 31u);
  EXPECT_EQ(g[3], 31u);
  EXPECT_EQ(u2f(g[4]), 16.0f);
  EXPECT_EQ(g[6], 32u);
  for (uint32_t t = 0; t < 32; ++t) {
    EXPECT_EQ(o[8 * t + 0], t);
    EXPECT_EQ(o[8 * t + 1], t == 0 ? 0u : 1u);
    EXPECT_EQ(o[8 * t + 2], t == 0 ? 100u : t - 1);
    EXPECT_EQ(o[8 * t + 3], t == 0 ? 0u : t - 1);
    EXPECT_EQ(o[8 * t + 4], t % 4);
    EXPECT_EQ(o[8 * t + 5], 2 * t);
    EXPECT_EQ(o[8 * t + 6], 0u);
    EXPECT_EQ(o[8 * t + 7], t);
  }
}

// histo's merged atomicAdd: one generic atom whose lanes fall in shared memory (even lanes) and global
// memory (odd lanes), the first lane shared. Each lane counts in its own space, and the timing view is
// a memory instruction with the global lanes' line and the shared lanes' bank-conflict degree.
TEST(PtxMemory, GenericAtomicMixingSpacesTimesEachLaneInItsSpace) {
  std::string ptx = kernel(R"(
  mov.u64 %rd10, counters;
  cvta.shared.u64 %rd11, %rd10;
  and.b32 %r2, %r1, 1;
  setp.eq.u32 %p1, %r2, 0;
  selp.u64 %rd12, %rd11, %rd1, %p1;
  atom.add.u32 %r3, [%rd12], 1;
  bar.sync 0;
  ld.shared.u32 %r4, [counters];
  st.global.u32 [%rd7], %r4;)");
  ptx.insert(ptx.find("  ld.param"), "  .shared .align 4 .b8 counters[4];\n");
  Launch l(ptx, "k", Dim3{}, Dim3{32, 1, 1});
  uint64_t a = l.buffer(V{0}), out = l.buffer(V(32, 0));
  l.param(0, a);
  l.param(1, out);
  CtaRun run = run_cta(l.state, 0, true);
  EXPECT_EQ(l.read<uint32_t>(a, 1)[0], 16u);
  EXPECT_EQ(l.read<uint32_t>(out, 32)[5], 16u);
  uint32_t atomics = 0;
  for (const StepResult& r : run.trace) {
    if (r.cls != TimingClass::Atomic) continue;
    ++atomics;
    EXPECT_EQ(r.active, ~0u);
    EXPECT_GE(r.n_lines, 1u);  // the global lanes' line (one transaction per lane with split atomics)
    EXPECT_EQ(r.lines[0], a / 128);
    EXPECT_GE(r.shared_cycles, 1u);  // the shared lanes' bank-conflict degree
  }
  EXPECT_EQ(atomics, 1u);
}

TEST(PtxMemory, SharedCasAndExchInLaneOrder) {
  V out = run_lanes(R"(
  mov.u64 %rd30, slot;
  add.u32 %r2, %r1, 1;
  atom.shared.cas.b32 %r3, [%rd30], %r1, %r2;
  atom.shared.exch.b32 %r4, [slot+4], %r1;
  shl.b32 %r5, %r4, 8;
  or.b32 %r20, %r3, %r5;)",
                    V(32));
  for (uint32_t t = 0; t < 32; ++t) EXPECT_EQ(out[t], t | (t == 0 ? 0 : (t - 1) << 8)) << t;
}

TEST(PtxWarp, ShuffleModesClampAndMemberMask) {
  EXPECT_EQ(run_lanes("shfl.sync.down.b32 %r20, %r1, 4, 31, -1;", V(32))[29], 29u);
  V down = run_lanes("shfl.sync.down.b32 %r20|%p1, %r1, 4, 31, -1; @!%p1 add.u32 %r20, %r20, 100;", V(32));
  V up = run_lanes("shfl.sync.up.b32 %r20, %r1, 1, 0, -1;", V(32));
  V bfly = run_lanes("shfl.sync.bfly.b32 %r20, %r1, 1, 31, -1;", V(32));
  V idx = run_lanes("shfl.sync.idx.b32 %r20, %r1, 5, 31, -1;", V(32));
  V seg = run_lanes("shfl.sync.idx.b32 %r20, %r1, 2, 0x181f, -1;", V(32));  // width 8
  V member = run_lanes("shfl.sync.down.b32 %r20, %r1, 1, 31, 0xffff;", V(32));
  V fdown = run_lanes("shfl.sync.down.b32 %f20, %f10, 1, 31, -1; mov.b32 %r20, %f20;", V{f2u(1.5f), f2u(2.5f)});
  for (uint32_t t = 0; t < 32; ++t) {
    EXPECT_EQ(down[t], t + 4 <= 31 ? t + 4 : t + 100) << t;
    EXPECT_EQ(up[t], t == 0 ? 0 : t - 1) << t;
    EXPECT_EQ(bfly[t], t ^ 1) << t;
    EXPECT_EQ(idx[t], 5u) << t;
    EXPECT_EQ(seg[t], (t & ~7u) | 2) << t;
    EXPECT_EQ(member[t], t < 15 ? t + 1 : t) << t;
  }
  EXPECT_EQ(u2f(fdown[0]), 2.5f);
}

TEST(PtxWarp, VoteAndClock) {
  EXPECT_EQ(run_lanes("setp.lt.u32 %p1, %r1, 5; vote.sync.ballot.b32 %r20, %p1, -1;", V(1)), (V{0x1f}));
  EXPECT_EQ(run_lanes("setp.lt.u32 %p1, %r1, 5; vote.sync.any.pred %p2, %p1, -1; selp.u32 %r20, 1, 0, %p2;", V(1)),
            (V{1}));
  EXPECT_EQ(run_lanes("setp.lt.u32 %p1, %r1, 5; vote.sync.all.pred %p2, %p1, -1; selp.u32 %r20, 1, 0, %p2;", V(1)),
            (V{0}));
  EXPECT_EQ(run_lanes("setp.lt.u32 %p1, %r1, 40; vote.sync.all.pred %p2, %p1, -1; selp.u32 %r20, 1, 0, %p2;", V(1)),
            (V{1}));
  V clk = run_lanes("mov.u32 %r20, %clock; mov.u64 %rd20, %clock64;", V(1));
  EXPECT_GT(clk[0], 0u);
}

// One warp of `ptx` (k_param_0: a 4 KiB buffer at DeviceMemory::kBase, k_param_1: 32
// words): its steps of the classes asked for, in order.
std::vector<StepResult> warp_steps(const std::string& ptx, std::initializer_list<TimingClass> classes) {
  Launch l(ptx, "k", Dim3{}, Dim3{32, 1, 1});
  const uint64_t first = l.buffer(V(32 * 32, 0));
  EXPECT_EQ(first, DeviceMemory::kBase);  // the callers' line numbers count from it
  l.param(0, first);
  l.param(1, l.buffer(V(32, 0)));
  std::vector<StepResult> steps;
  for (const StepResult& r : run_cta(l.state, 0, true).trace)
    if (std::find(classes.begin(), classes.end(), r.cls) != classes.end()) steps.push_back(r);
  return steps;
}

// A warp's distinct lines come in the order of the lanes that first touch them,
// whatever the order of their addresses: here lane 0 reads the highest address.
TEST(PtxTiming, CoalescedLinesInFirstLaneOrder) {
  std::string ptx = kernel(R"(
  cvta.to.global.u64 %rd10, %rd1;
  mov.u32 %r3, 31;
  sub.u32 %r2, %r3, %r1;
  mul.wide.u32 %rd12, %r2, 8;
  add.s64 %rd13, %rd10, %rd12;
  ld.global.u64 %rd14, [%rd13];
  mul.wide.u32 %rd15, %r1, 8;
  add.s64 %rd16, %rd10, %rd15;
  ld.global.u64 %rd17, [%rd16];
  mul.wide.u32 %rd18, %r2, 4;
  add.s64 %rd11, %rd10, %rd18;
  ld.global.u32 %r4, [%rd11];
  setp.ge.u32 %p1, %r1, 16;
  @%p1 ld.global.u64 %rd14, [%rd13];
  ld.global.u64 %rd17, [%rd13+64];)");
  const std::vector<StepResult> loads = warp_steps(ptx, {TimingClass::Load});
  ASSERT_EQ(loads.size(), 5u);
  const uint64_t line0 = DeviceMemory::kBase / 128;
  auto lines = [&](size_t i) {
    return std::vector<uint64_t>(loads[i].lines.begin(), loads[i].lines.begin() + loads[i].n_lines);
  };
  EXPECT_EQ(lines(0), (std::vector<uint64_t>{line0 + 1, line0}));             // 8-byte lanes, descending: two lines
  EXPECT_EQ(lines(1), (std::vector<uint64_t>{line0, line0 + 1}));             // ascending
  EXPECT_EQ(lines(2), (std::vector<uint64_t>{line0}));                        // 4-byte lanes: one line
  EXPECT_EQ(lines(3), (std::vector<uint64_t>{line0}));                        // lanes 16-31 only: the lower line
  EXPECT_EQ(lines(4), (std::vector<uint64_t>{line0 + 2, line0 + 1, line0}));  // shifted by half a line: three
}

TEST(PtxTiming, CoalescingAndBankConflicts) {
  std::string ptx = kernel(R"(
  cvta.to.global.u64 %rd10, %rd1;
  add.s64 %rd11, %rd10, %rd4;
  ld.global.u32 %r2, [%rd11];
  mul.wide.u32 %rd12, %r1, 128;
  add.s64 %rd13, %rd10, %rd12;
  ld.global.u32 %r3, [%rd13];
  mul.wide.u32 %rd14, %r1, 8;
  mov.u64 %rd15, sm;
  add.s64 %rd16, %rd15, %rd14;
  ld.shared.u32 %r4, [%rd16];
  ld.shared.u32 %r5, [sm];
  mul.wide.u32 %rd17, %r1, 128;
  add.s64 %rd18, %rd15, %rd17;
  ld.shared.u32 %r6, [%rd18];
  ld.shared.v2.u32 {%r7, %r8}, [%rd16];)");
  ptx.insert(ptx.find("  ld.param"), "  .shared .align 8 .b8 sm[4096];\n");
  const std::vector<StepResult> mem = warp_steps(ptx, {TimingClass::Load, TimingClass::Shared});
  ASSERT_EQ(mem.size(), 6u);
  EXPECT_EQ(mem[0].n_lines, 1u);
  EXPECT_EQ(mem[0].lines[0], (DeviceMemory::kBase + 0) / 128);
  EXPECT_EQ(mem[1].n_lines, 32u);
  EXPECT_EQ(mem[2].shared_cycles, 2u);   // stride 2 words
  EXPECT_EQ(mem[3].shared_cycles, 1u);   // broadcast
  EXPECT_EQ(mem[4].shared_cycles, 32u);  // stride 32 words: one bank
  EXPECT_EQ(mem[5].shared_cycles, 2u);   // 64-bit, consecutive: 64 words over 32 banks
}

// Words among 32 consecutive ones meet each bank at most once (the unit-stride shortcut); an
// access of 2-byte lanes spanning 128 bytes that reaches a 33rd word meets bank 0 twice.
TEST(PtxTiming, BankConflictsAtTheEdgeOf32Words) {
  std::string ptx = kernel(R"(
  mov.u64 %rd15, sm;
  add.s64 %rd16, %rd15, %rd4;
  ld.shared.u32 %r4, [%rd16+4];
  setp.eq.u32 %p1, %r1, 31;
  selp.u32 %r9, 4, 2, %p1;
  cvt.u64.u32 %rd17, %r9;
  add.s64 %rd18, %rd16, %rd17;
  ld.shared.u16 %rs1, [%rd18];
  ld.shared.u16 %rs2, [%rd16+2];)");
  ptx.insert(ptx.find("  ld.param"), "  .shared .align 8 .b8 sm[4096];\n");
  Launch l(ptx, "k", Dim3{}, Dim3{32, 1, 1});
  l.param(0, l.buffer(V(32, 0)));
  l.param(1, l.buffer(V(32, 0)));
  CtaRun run = run_cta(l.state, 0, true);
  std::vector<StepResult> mem;
  for (const StepResult& r : run.trace)
    if (r.cls == TimingClass::Shared) mem.push_back(r);
  ASSERT_EQ(mem.size(), 3u);
  EXPECT_EQ(mem[0].shared_cycles, 1u);  // words 1-32: banks 1-31 and 0
  EXPECT_EQ(mem[1].shared_cycles, 2u);  // bytes 2-129: words 0 and 32 both on bank 0
  EXPECT_EQ(mem[2].shared_cycles, 1u);  // bytes 2-127: words 0-31
}

// GPGPU-Sim's Fermi coalescer (narrow_load_segments): a load of 1-byte lanes is an L1 access per distinct 32 B
// segment, of 2-byte lanes per 64 B segment, each listed as its line; wider lanes and stores stay per line. The
// lane-by-lane path (a generic address) lists the same as the fast one.
TEST(PtxTiming, NarrowLoadsAreOneAccessPerSegmentWhenAsked) {
  std::string ptx = kernel(R"(
  cvta.to.global.u64 %rd10, %rd1;
  mul.wide.u32 %rd12, %r1, 32;
  add.s64 %rd13, %rd10, %rd12;
  ld.global.u8 %rs1, [%rd13];
  ld.u8 %rs2, [%rd13];
  cvt.u64.u32 %rd14, %r1;
  add.s64 %rd15, %rd10, %rd14;
  ld.global.u8 %rs3, [%rd15];
  mul.wide.u32 %rd16, %r1, 2;
  add.s64 %rd17, %rd10, %rd16;
  ld.global.u16 %rs4, [%rd17];
  add.s64 %rd18, %rd10, %rd4;
  ld.global.u16 %rs5, [%rd18];
  ld.global.u32 %r2, [%rd18];
  st.global.u8 [%rd13], %rs1;)");
  Launch l(ptx, "k", Dim3{}, Dim3{32, 1, 1});
  l.param(0, l.buffer(V(32 * 32, 0)));
  l.param(1, l.buffer(V(32, 0)));
  const uint64_t first = l.memory.kBase / 128;
  for (const bool segments : {false, true}) {
    std::vector<StepResult> mem;
    for (const StepResult& r : run_cta(l.state, 0, true, 128, CoalescingRules{segments, false}).trace)
      if (r.cls == TimingClass::Load || r.cls == TimingClass::Store) mem.push_back(r);
    ASSERT_EQ(mem.size(), 7u);
    // Bytes 32 apart: 8 lines, 4 segments in each.
    for (size_t i : {0, 1}) {
      ASSERT_EQ(mem[i].n_lines, segments ? 32u : 8u) << i;
      for (uint32_t k = 0; k < mem[i].n_lines; ++k)
        EXPECT_EQ(mem[i].lines[k], first + (segments ? k / 4 : k)) << i << " access " << k;
    }
    EXPECT_EQ(mem[2].n_lines, 1u);                  // 32 consecutive bytes: one segment
    EXPECT_EQ(mem[3].n_lines, 1u);                  // 32 consecutive 2-byte lanes: one 64 B segment
    EXPECT_EQ(mem[4].n_lines, segments ? 2u : 1u);  // 2-byte lanes 4 B apart: both 64 B halves of the line
    EXPECT_EQ(mem[5].n_lines, 1u);                  // 4-byte lanes: per line
    EXPECT_EQ(mem[6].n_lines, 8u);                  // stores: per line
  }
}

// GPGPU-Sim's atomic coalescing (split_atomic_conflicts): the k-th lane on an address joins its line's k-th
// transaction, listed as the line with the 32 B sectors its lanes touch; without the rule, one entry per line.
TEST(PtxTiming, AtomicLanesOnOneAddressAreSeparateTransactionsWhenAsked) {
  std::string ptx = kernel(R"(
  cvta.to.global.u64 %rd10, %rd1;
  atom.global.add.u32 %r2, [%rd10], 1;
  add.s64 %rd11, %rd10, %rd4;
  atom.global.add.u32 %r3, [%rd11], 1;
  and.b32 %r4, %r1, 1;
  mul.wide.u32 %rd12, %r4, 64;
  add.s64 %rd13, %rd10, %rd12;
  atom.global.add.u32 %r5, [%rd13], 1;)");
  Launch l(ptx, "k", Dim3{}, Dim3{32, 1, 1});
  l.param(0, l.buffer(V(64, 0)));
  l.param(1, l.buffer(V(32, 0)));
  const uint64_t line = l.memory.kBase / 128;
  for (const bool split : {false, true}) {
    std::vector<StepResult> atomics;
    for (const StepResult& r : run_cta(l.state, 0, true, 128, CoalescingRules{false, split}).trace)
      if (r.cls == TimingClass::Atomic) atomics.push_back(r);
    ASSERT_EQ(atomics.size(), 3u);
    ASSERT_EQ(atomics[0].n_lines, split ? 32u : 1u);  // 32 lanes on one word: 32 transactions
    for (uint32_t k = 0; k < atomics[0].n_lines; ++k) {
      EXPECT_EQ(atomics[0].lines[k], line);
      if (split) {
        EXPECT_EQ(atomics[0].sectors[k], 0x1);
      }
    }
    ASSERT_EQ(atomics[1].n_lines, 1u);  // 32 lanes on 32 words: one transaction on the 4 sectors
    if (split) {
      EXPECT_EQ(atomics[1].sectors[0], 0xF);
    }
    ASSERT_EQ(atomics[2].n_lines, split ? 16u : 1u);  // two words 64 B apart, 16 lanes each
    for (uint32_t k = 0; split && k < 16; ++k) EXPECT_EQ(atomics[2].sectors[k], 0x5) << k;
  }
}

// store_sectors: a global store's listed lines carry the 32 B sectors its lanes write.
TEST(PtxTiming, StoresCarryTheSectorsTheyWriteWhenAsked) {
  std::string ptx = kernel(R"(
  cvta.to.global.u64 %rd10, %rd1;
  mul.wide.u32 %rd12, %r1, 132;
  add.s64 %rd13, %rd10, %rd12;
  st.global.u32 [%rd13], %r1;
  add.s64 %rd14, %rd10, %rd4;
  st.global.u32 [%rd14], %r1;
  st.u32 [%rd13], %r1;)");
  Launch l(ptx, "k", Dim3{}, Dim3{32, 1, 1});
  l.param(0, l.buffer(V(32 * 33, 0)));
  l.param(1, l.buffer(V(32, 0)));
  std::vector<StepResult> stores;
  for (const StepResult& r : run_cta(l.state, 0, true, 128, CoalescingRules{false, false, true}).trace)
    if (r.cls == TimingClass::Store) stores.push_back(r);
  ASSERT_EQ(stores.size(), 3u);
  for (size_t i : {0, 2}) {  // a word 132 B apart: lane k's line k, its sector k / 8 (fast and lane-by-lane path)
    ASSERT_EQ(stores[i].n_lines, 32u) << i;
    for (uint32_t k = 0; k < 32; ++k) EXPECT_EQ(stores[i].sectors[k], 1u << (k * 4 % 128 / 32)) << i << " lane " << k;
  }
  ASSERT_EQ(stores[1].n_lines, 1u);  // 32 consecutive words: the line's four sectors
  EXPECT_EQ(stores[1].sectors[0], 0xF);
}

}  // namespace
}  // namespace gpupm::ptx::test
