// Per-opcode-family semantics on one warp (ptx_alu.cc, ptx_exec.cc).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "gpupm/ptx/ptx_test_driver.h"

namespace gpupm::ptx::test {
namespace {

using V = std::vector<uint32_t>;
const uint32_t kNaN = 0x7fc00000u;

TEST(PtxAlu, IntegerArithmetic) {
  EXPECT_EQ(run_lanes("add.s32 %r20, %r10, %r11;", {1, 0xffffffffu}, {2, 1}), (V{3, 0}));
  EXPECT_EQ(run_lanes("sub.s32 %r20, %r10, -5;", {1}), (V{6}));
  EXPECT_EQ(run_lanes("add.sat.s32 %r20, %r10, %r11;", {0x7ffffff0u}, {0x100}), (V{0x7fffffffu}));
  EXPECT_EQ(run_lanes("mul.lo.s32 %r20, %r10, %r11;", {70000}, {70000}), (V{uint32_t(70000ull * 70000ull)}));
  EXPECT_EQ(run_lanes("mul.hi.u32 %r20, %r10, %r11;", {0x80000000u}, {4}), (V{2}));
  EXPECT_EQ(run_lanes("mul.hi.s32 %r20, %r10, %r11;", {uint32_t(-2)}, {0x40000000}), (V{0xffffffffu}));
  EXPECT_EQ(run_lanes("mul.wide.s32 %rd10, %r10, %r11; shr.u64 %rd11, %rd10, 32; cvt.u32.u64 %r20, %rd11;",
                      {uint32_t(-3)}, {0x40000000}),
            (V{0xffffffffu}));
  EXPECT_EQ(run_lanes("mad.lo.s32 %r20, %r10, %r11, 7;", {3}, {4}), (V{19}));
  EXPECT_EQ(run_lanes("mad.hi.u32 %r20, %r10, %r11, 1;", {0x80000000u}, {4}), (V{3}));
  EXPECT_EQ(run_lanes("mul24.lo.u32 %r20, %r10, %r11;", {0x01000003}, {5}), (V{15}));
  EXPECT_EQ(run_lanes("div.s32 %r20, %r10, %r11;", {uint32_t(-7), 7, 0x80000000u}, {2, 0, uint32_t(-1)}),
            (V{uint32_t(-3), 0xffffffffu, 0x80000000u}));
  EXPECT_EQ(run_lanes("div.u32 %r20, %r10, %r11;", {7, 7}, {2, 0}), (V{3, 0xffffffffu}));
  EXPECT_EQ(run_lanes("rem.s32 %r20, %r10, %r11;", {uint32_t(-7), 9}, {2, 0}), (V{uint32_t(-1), 9}));
  EXPECT_EQ(run_lanes("abs.s32 %r20, %r10;", {uint32_t(-7)}), (V{7}));
  EXPECT_EQ(run_lanes("neg.s32 %r20, %r10;", {7}), (V{uint32_t(-7)}));
  EXPECT_EQ(run_lanes("min.s32 %r20, %r10, %r11;", {uint32_t(-1)}, {1}), (V{uint32_t(-1)}));
  EXPECT_EQ(run_lanes("min.u32 %r20, %r10, %r11;", {uint32_t(-1)}, {1}), (V{1}));
  EXPECT_EQ(run_lanes("max.s32 %r20, %r10, %r11;", {uint32_t(-1)}, {1}), (V{1}));
  EXPECT_EQ(run_lanes("cvt.u16.u32 %rs1, %r10; mul.lo.s16 %rs2, %rs1, 3; cvt.u32.u16 %r20, %rs2;", {0x12345}),
            (V{(0x2345u * 3) & 0xffff}));
}

TEST(PtxAlu, LogicShiftBitField) {
  EXPECT_EQ(run_lanes("and.b32 %r20, %r10, 0xff;", {0x1234}), (V{0x34}));
  EXPECT_EQ(run_lanes("or.b32 %r20, %r10, %r11;", {0xf0}, {0x0f}), (V{0xff}));
  EXPECT_EQ(run_lanes("xor.b32 %r20, %r10, %r11;", {0xff}, {0x0f}), (V{0xf0}));
  EXPECT_EQ(run_lanes("not.b32 %r20, %r10;", {0}), (V{0xffffffffu}));
  EXPECT_EQ(run_lanes("cnot.b32 %r20, %r10;", {0, 5}), (V{1, 0}));
  EXPECT_EQ(run_lanes("shl.b32 %r20, %r10, %r11;", {1, 1}, {4, 32}), (V{16, 0}));
  EXPECT_EQ(run_lanes("shr.u32 %r20, %r10, %r11;", {0x80000000u, 0x80000000u}, {4, 40}), (V{0x08000000u, 0}));
  EXPECT_EQ(run_lanes("shr.s32 %r20, %r10, %r11;", {0x80000000u, 0x80000000u}, {4, 40}), (V{0xf8000000u, 0xffffffffu}));
  EXPECT_EQ(run_lanes("bfe.u32 %r20, %r10, 4, 8;", {0x12345678}), (V{0x67}));
  EXPECT_EQ(run_lanes("bfe.s32 %r20, %r10, 4, 8;", {0x00000f80}), (V{0xfffffff8u}));
  EXPECT_EQ(run_lanes("bfe.s32 %r20, %r10, 28, 8;", {0x80000000u}), (V{0xfffffff8u}));
  EXPECT_EQ(run_lanes("bfi.b32 %r20, %r10, %r11, 8, 8;", {0xab}, {0x11111111}), (V{0x1111ab11}));
  EXPECT_EQ(run_lanes("popc.b32 %r20, %r10;", {0xf0f0}), (V{8}));
  EXPECT_EQ(run_lanes("clz.b32 %r20, %r10;", {1, 0}), (V{31, 32}));
  EXPECT_EQ(run_lanes("brev.b32 %r20, %r10;", {1}), (V{0x80000000u}));
  EXPECT_EQ(run_lanes("prmt.b32 %r20, %r10, %r11, 0x7654;", {0x11223344}, {0x55667788}), (V{0x55667788}));
  EXPECT_EQ(run_lanes("prmt.b32 %r20, %r10, %r11, 0x0123;", {0x11223344}, {0}), (V{0x44332211}));
  EXPECT_EQ(run_lanes("prmt.b32 %r20, %r10, %r11, 0x8880;", {0x00000080}, {0}), (V{0xffffff80u}));
}

TEST(PtxAlu, FloatArithmeticFusedAndRounded) {
  // a*a - (a*a rounded): zero unless the multiply-add is fused.
  float a = 1.0f + std::ldexp(1.0f, -12);
  float prod = a * a;
  V out =
      run_lanes("neg.f32 %f12, %f11; fma.rn.f32 %f20, %f10, %f10, %f12; mov.b32 %r20, %f20;", {f2u(a)}, {f2u(prod)});
  EXPECT_EQ(u2f(out[0]), std::fma(a, a, -prod));
  EXPECT_NE(u2f(out[0]), 0.0f);
  out = run_lanes("mul.rn.f32 %f12, %f10, %f10; sub.f32 %f20, %f12, %f11; mov.b32 %r20, %f20;", {f2u(a)}, {f2u(prod)});
  EXPECT_EQ(u2f(out[0]), 0.0f);
  EXPECT_EQ(run_lanes("div.rn.f32 %f20, %f10, %f11; mov.b32 %r20, %f20;", {f2u(1.0f)}, {f2u(3.0f)}),
            (V{f2u(1.0f / 3.0f)}));
  EXPECT_EQ(run_lanes("sqrt.rn.f32 %f20, %f10; mov.b32 %r20, %f20;", {f2u(2.0f)}), (V{f2u(std::sqrt(2.0f))}));
  EXPECT_EQ(run_lanes("rcp.rn.f32 %f20, %f10; mov.b32 %r20, %f20;", {f2u(3.0f)}), (V{f2u(1.0f / 3.0f)}));
  EXPECT_EQ(run_lanes("add.rz.f32 %f20, %f10, %f11; mov.b32 %r20, %f20;", {f2u(1.0f)}, {f2u(std::ldexp(1.0f, -30))}),
            (V{f2u(1.0f)}));
  EXPECT_EQ(run_lanes("add.rp.f32 %f20, %f10, %f11; mov.b32 %r20, %f20;", {f2u(1.0f)}, {f2u(std::ldexp(1.0f, -30))}),
            (V{f2u(std::nextafter(1.0f, 2.0f))}));
  EXPECT_EQ(run_lanes("ex2.approx.ftz.f32 %f20, %f10; mov.b32 %r20, %f20;", {f2u(3.0f)}), (V{f2u(8.0f)}));
  EXPECT_EQ(run_lanes("lg2.approx.f32 %f20, %f10; mov.b32 %r20, %f20;", {f2u(8.0f)}), (V{f2u(3.0f)}));
  EXPECT_EQ(run_lanes("sin.approx.f32 %f20, %f10; mov.b32 %r20, %f20;", {f2u(0.5f)}), (V{f2u(std::sin(0.5f))}));
  EXPECT_EQ(run_lanes("rsqrt.approx.f32 %f20, %f10; mov.b32 %r20, %f20;", {f2u(4.0f)}), (V{f2u(0.5f)}));
  // .ftz: a subnormal input reads as zero, the sign preserved.
  EXPECT_EQ(run_lanes("add.ftz.f32 %f20, %f10, 0f80000000; mov.b32 %r20, %f20;", {0x80000001u}), (V{0x80000000u}));
  EXPECT_EQ(run_lanes("add.f32 %f20, %f10, 0f00000000; mov.b32 %r20, %f20;", {0x00000001u}), (V{1}));
  EXPECT_EQ(run_lanes("add.sat.f32 %f20, %f10, %f11; mov.b32 %r20, %f20;", {f2u(0.75f), kNaN}, {f2u(0.5f), 0}),
            (V{f2u(1.0f), 0}));
  EXPECT_EQ(run_lanes("min.f32 %f20, %f10, %f11; mov.b32 %r20, %f20;", {kNaN, f2u(1.0f)}, {f2u(2.0f), f2u(-1.0f)}),
            (V{f2u(2.0f), f2u(-1.0f)}));
  EXPECT_EQ(run_lanes("max.f32 %f20, %f10, %f11; mov.b32 %r20, %f20;", {f2u(1.0f)}, {kNaN}), (V{f2u(1.0f)}));
  EXPECT_EQ(run_lanes("abs.f32 %f20, %f10; mov.b32 %r20, %f20;", {f2u(-2.0f)}), (V{f2u(2.0f)}));
  EXPECT_EQ(run_lanes("copysign.f32 %f20, %f10, %f11; mov.b32 %r20, %f20;", {f2u(-1.0f)}, {f2u(3.0f)}),
            (V{f2u(-3.0f)}));
  EXPECT_EQ(run_lanes("testp.notanumber.f32 %p1, %f10; selp.u32 %r20, 1, 0, %p1;", {kNaN, 0}), (V{1, 0}));
}

TEST(PtxAlu, DoublePrecision) {
  const char* body =
      "mov.b64 %fd1, {%r10, %r11}; mul.f64 %fd2, %fd1, 0d4000000000000000; sqrt.rn.f64 %fd3, %fd2;"
      "div.rn.f64 %fd4, %fd3, 0d4008000000000000; fma.rn.f64 %fd5, %fd4, %fd4, %fd1;"
      "setp.gt.f64 %p1, %fd5, %fd1; cvt.rn.f32.f64 %f20, %fd4; mov.b32 %r20, %f20; @!%p1 mov.u32 %r20, 0;";
  double x = 8.0;
  uint64_t bits;
  std::memcpy(&bits, &x, 8);
  V out = run_lanes(body, {uint32_t(bits)}, {uint32_t(bits >> 32)});
  EXPECT_EQ(u2f(out[0]), float(std::sqrt(16.0) / 3.0));
}

TEST(PtxAlu, Conversions) {
  // float -> int saturates, NaN -> 0, rounding modes.
  EXPECT_EQ(run_lanes("cvt.rzi.s32.f32 %r20, %f10;", {kNaN, f2u(3e9f), f2u(-3e9f), f2u(-2.7f)}),
            (V{0, 0x7fffffffu, 0x80000000u, uint32_t(-2)}));
  EXPECT_EQ(run_lanes("cvt.rni.s32.f32 %r20, %f10;", {f2u(2.5f), f2u(3.5f), f2u(-2.5f)}), (V{2, 4, uint32_t(-2)}));
  EXPECT_EQ(run_lanes("cvt.rmi.s32.f32 %r20, %f10;", {f2u(-2.1f)}), (V{uint32_t(-3)}));
  EXPECT_EQ(run_lanes("cvt.rpi.u32.f32 %r20, %f10;", {f2u(2.1f), f2u(-5.0f)}), (V{3, 0}));
  EXPECT_EQ(run_lanes("cvt.rmi.f32.f32 %f20, %f10; mov.b32 %r20, %f20;", {f2u(-1.5f)}), (V{f2u(-2.0f)}));
  EXPECT_EQ(run_lanes("cvt.rn.f32.s32 %f20, %r10; mov.b32 %r20, %f20;", {uint32_t(-3)}), (V{f2u(-3.0f)}));
  EXPECT_EQ(run_lanes("cvt.rz.f32.u32 %f20, %r10; mov.b32 %r20, %f20;", {0xffffffffu}),
            (V{f2u(std::nextafter(4294967296.0f, 0.0f))}));
  EXPECT_EQ(run_lanes("cvt.rn.f32.u32 %f20, %r10; mov.b32 %r20, %f20;", {0xffffffffu}), (V{f2u(4294967296.0f)}));
  // Integer widening/narrowing.
  EXPECT_EQ(run_lanes("cvt.s64.s32 %rd10, %r10; shr.u64 %rd10, %rd10, 32; cvt.u32.u64 %r20, %rd10;", {uint32_t(-1), 1}),
            (V{0xffffffffu, 0}));
  EXPECT_EQ(run_lanes("cvt.u64.u32 %rd10, %r10; shr.u64 %rd10, %rd10, 32; cvt.u32.u64 %r20, %rd10;", {uint32_t(-1)}),
            (V{0}));
  EXPECT_EQ(run_lanes("cvt.s8.s32 %rs1, %r10; cvt.s32.s16 %r20, %rs1;", {0x1ff}), (V{0xffffffffu}));
  EXPECT_EQ(run_lanes("cvt.sat.u8.s32 %rs1, %r10; cvt.u32.u16 %r20, %rs1;", {300, uint32_t(-4)}), (V{255, 0}));
  EXPECT_EQ(run_lanes("cvt.sat.s32.u32 %r20, %r10;", {0xffffffffu}), (V{0x7fffffffu}));
}

TEST(PtxAlu, CompareAndSelect) {
  const uint32_t one = f2u(1.0f), two = f2u(2.0f);
  auto cmp = [&](const std::string& op, V a, V b) {
    return run_lanes("setp." + op + " %p1, %r10, %r11; selp.u32 %r20, 1, 0, %p1;", a, b);
  };
  auto fcmp = [&](const std::string& op, V a, V b) {
    return run_lanes("setp." + op + ".f32 %p1, %f10, %f11; selp.u32 %r20, 1, 0, %p1;", a, b);
  };
  EXPECT_EQ(cmp("lt.s32", {uint32_t(-1), 1}, {0, 0}), (V{1, 0}));
  EXPECT_EQ(cmp("lt.u32", {uint32_t(-1), 1}, {0, 2}), (V{0, 1}));
  EXPECT_EQ(cmp("hs.u32", {3, 1}, {3, 2}), (V{1, 0}));
  EXPECT_EQ(cmp("ne.b32", {3, 1}, {3, 2}), (V{0, 1}));
  EXPECT_EQ(fcmp("lt", {one, kNaN}, {two, two}), (V{1, 0}));
  EXPECT_EQ(fcmp("ltu", {one, kNaN, two}, {two, two, one}), (V{1, 1, 0}));
  EXPECT_EQ(fcmp("equ", {one, kNaN}, {one, one}), (V{1, 1}));
  EXPECT_EQ(fcmp("neu", {one, kNaN}, {one, one}), (V{0, 1}));
  EXPECT_EQ(fcmp("ne", {one, kNaN}, {one, one}), (V{0, 0}));
  EXPECT_EQ(fcmp("geu", {one, kNaN}, {two, one}), (V{0, 1}));
  EXPECT_EQ(fcmp("gtu", {two, kNaN}, {one, one}), (V{1, 1}));
  EXPECT_EQ(fcmp("leu", {two, kNaN}, {one, one}), (V{0, 1}));
  EXPECT_EQ(fcmp("num", {one, kNaN}, {one, one}), (V{1, 0}));
  EXPECT_EQ(fcmp("nan", {one, kNaN}, {one, one}), (V{0, 1}));
  // Combining predicate and two destinations.
  EXPECT_EQ(run_lanes("setp.eq.u32 %p2, %r11, 1; setp.lt.and.s32 %p1|%p3, %r10, 5, %p2;"
                      "selp.u32 %r20, 1, 0, %p1; selp.u32 %r21, 2, 0, %p3; add.u32 %r20, %r20, %r21;",
                      {1, 1, 9, 9}, {1, 0, 1, 0}),
            (V{1, 0, 2, 0}));
  EXPECT_EQ(run_lanes("setp.eq.u32 %p2, %r11, 1; setp.lt.or.s32 %p1, %r10, 5, !%p2; selp.u32 %r20, 1, 0, %p1;", {9, 9},
                      {1, 0}),
            (V{0, 1}));
  EXPECT_EQ(run_lanes("slct.u32.s32 %r20, 10, 20, %r10;", {uint32_t(-1), 0}), (V{20, 10}));
  EXPECT_EQ(run_lanes("setp.ne.u32 %p1, %r10, 0; not.pred %p2, %p1; xor.pred %p3, %p1, %p2;"
                      "and.pred %p4, %p3, %p1; selp.u32 %r20, 1, 0, %p4;",
                      {0, 1}),
            (V{0, 1}));
}

TEST(PtxAlu, MovePackAndSpecialRegisters) {
  EXPECT_EQ(run_lanes("mov.b64 %rd10, {%r10, %r11}; mov.b64 {%r21, %r20}, %rd10;", {1}, {2}), (V{2}));
  EXPECT_EQ(run_lanes("mov.u32 %r20, %laneid;", V(3)), (V{0, 1, 2}));
  EXPECT_EQ(run_lanes("mov.u32 %r20, %ntid.x;", V(1)), (V{32}));
  EXPECT_EQ(run_lanes("mov.u32 %r20, %lanemask_lt;", V(3)), (V{0, 1, 3}));
  EXPECT_EQ(run_lanes("setp.lt.u32 %p1, %r1, 3; @%p1 bra $L__A; activemask.b32 %r20; bra.uni $L__B;\n"
                      "$L__A: activemask.b32 %r20;\n$L__B:",
                      V(4)),
            (V{7, 7, 7, ~7u}));
  EXPECT_EQ(run_lanes("mov.u32 %r20, 0x10;", V(1)), (V{16}));
}

}  // namespace
}  // namespace gpupm::ptx::test
