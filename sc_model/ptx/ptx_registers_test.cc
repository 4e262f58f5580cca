// Register slots (assign_register_slots): registers never live at once share a
// row of the warp's file, and every lane still reads what it last wrote; the
// timing view (InstInfo) keeps the declared register ids.
#include <gtest/gtest.h>

#include "gpupm/ptx/ptx_decoded.h"
#include "gpupm/ptx/ptx_test_driver.h"

namespace gpupm::ptx::test {
namespace {

using V = std::vector<uint32_t>;

V iota(uint32_t from) {
  V v(32);
  for (uint32_t l = 0; l < 32; ++l) v[l] = from + l;
  return v;
}

TEST(RegisterSlots, ValuesNeverLiveAtOnceShareRows) {
  std::string body;
  for (int r = 30; r < 50; ++r) body += "  add.u32 %r" + std::to_string(r + 1) + ", %r" + std::to_string(r) + ", 1;\n";
  auto m = parse(lane_kernel("  mov.u32 %r30, %r10;\n" + body + "  mov.u32 %r20, %r50;"), "k.ptx");
  const Kernel& k = *m->kernels[0];
  // 176 declared; live at once at most the pointers, %tid, both inputs and a link of the chain.
  EXPECT_EQ(k.num_regs, 176u);
  EXPECT_LE(k.register_slots, 12u);
  const uint32_t rows = k.register_slots + uint32_t(k.extra->hidden.size());
  for (const Instruction& in : k.code) {
    for (uint8_t d = 0; d < in.n_dst; ++d) EXPECT_LT(in.dst[d], rows);
    for (uint8_t s = 0; s < in.n_src; ++s) EXPECT_LT(in.src[s], rows);
  }
  // The SM's scoreboard and register banks still see the declared ids: %r20 is 16 + 16 + 20.
  EXPECT_EQ(k.info[k.code.size() - 3].dst[0], 52u);
}

TEST(RegisterSlots, AChainComputesAsWritten) {
  std::string body = "  mov.u32 %r30, %r10;\n";
  for (int r = 30; r < 50; ++r) body += "  add.u32 %r" + std::to_string(r + 1) + ", %r" + std::to_string(r) + ", 3;\n";
  const V out = run_lanes(body + "  add.u32 %r20, %r50, %r11;", iota(0), iota(100));
  for (uint32_t l = 0; l < 32; ++l) EXPECT_EQ(out[l], l + 60 + 100 + l) << "lane " << l;
}

// A register read before any write reads 0, whatever came and went in between.
TEST(RegisterSlots, AnUnwrittenRegisterStillReadsZero) {
  const V out = run_lanes(R"(
  add.u32 %r30, %r10, 1;
  add.u32 %r31, %r30, %r11;
  mul.lo.u32 %r32, %r31, 3;
  add.u32 %r20, %r32, %r40;)",
                          iota(0), iota(5));
  for (uint32_t l = 0; l < 32; ++l) EXPECT_EQ(out[l], (l + 1 + 5 + l) * 3) << "lane " << l;
}

// The path run first (the fall-through) uses the row of a value only the other
// path reads: its writes reach only its own lanes, so the other path's lanes read
// their value intact.
TEST(RegisterSlots, ADivergentPathLeavesTheOtherLanesValues) {
  const V out = run_lanes(R"(
  add.u32 %r35, %r11, 5;
  add.u32 %r37, %r10, 100;
  setp.ge.u32 %p1, %r1, 16;
  @%p1 bra $L__high;
  mul.lo.u32 %r36, %r10, 3;
  add.u32 %r38, %r36, 1;
  add.u32 %r21, %r38, 0;
  bra.uni $L__join;
$L__high:
  add.u32 %r21, %r35, 1;
$L__join:
  add.u32 %r20, %r21, %r37;)",
                          iota(0), iota(1000));
  for (uint32_t l = 0; l < 32; ++l) {
    const uint32_t path = l >= 16 ? 1000 + l + 6 : l * 3 + 1;
    EXPECT_EQ(out[l], path + l + 100) << "lane " << l;
  }
}

// A guarded write keeps the old value in the lanes it skips; the lanes a guarded
// exit leaves running go on with their values.
TEST(RegisterSlots, GuardedWritesAndExitsKeepTheOtherLanesValues) {
  const V out = run_lanes(R"(
  add.u32 %r21, %r10, 1;
  setp.lt.u32 %p1, %r1, 8;
  @%p1 mov.u32 %r21, 99;
  add.u32 %r22, %r11, 2;
  setp.eq.u32 %p2, %r1, 31;
  @%p2 exit;
  add.u32 %r23, %r22, 4;
  add.u32 %r20, %r21, %r23;)",
                          iota(0), iota(50));
  for (uint32_t l = 0; l < 31; ++l) EXPECT_EQ(out[l], (l < 8 ? 99 : l + 1) + 50 + l + 6) << "lane " << l;
  EXPECT_EQ(out[31], 0xdeadbeefu);  // exited before its store
}

}  // namespace
}  // namespace gpupm::ptx::test
