// ExecError and ParseError messages: where (kernel, CTA, warp, lane, PC, line,
// file:line:col) and what (address, token, supported families).
#include <gtest/gtest.h>

#include "gpupm/ptx/ptx_test_driver.h"

namespace gpupm::ptx::test {
namespace {

using V = std::vector<uint32_t>;

// Runs a kernel k(.u64 p0) with `body` on CTA 1 of a 2-CTA grid (64 threads) and returns the ExecError text.
std::string exec_error(const std::string& body, const std::string& decls = "") {
  std::string ptx =
      ".version 7.0\n.target sm_70\n.address_size 64\n"
      ".visible .entry k(.param .u64 k_param_0)\n{\n" +
      std::string(test_registers()) + decls + "  ld.param.u64 %rd1, [k_param_0];\n  mov.u32 %r1, %tid.x;\n" + body +
      "\n  ret;\n}\n";
  Launch l(ptx, "k", Dim3{2, 1, 1}, Dim3{64, 1, 1}, "err.ptx");
  l.param(0, l.buffer(V(64, 0)));
  l.state.max_warp_insts = 1000;
  try {
    run_cta(l.state, 1);
  } catch (const ExecError& e) {
    return e.what();
  }
  return "no error";
}

void expect_context(const std::string& msg, const std::string& lane, const std::string& line, const std::string& what) {
  EXPECT_NE(msg.find("kernel k: CTA 1 (1,0,0) warp 0 lane " + lane + ": PC "), std::string::npos) << msg;
  EXPECT_NE(msg.find("(err.ptx:" + line + ")"), std::string::npos) << msg;
  EXPECT_NE(msg.find(what), std::string::npos) << msg;
}

TEST(PtxErrors, GlobalOutOfBounds) {
  std::string msg = exec_error("  setp.eq.u32 %p1, %r1, 7;\n  @%p1 ld.global.f32 %f1, [%rd1+256];");
  expect_context(msg, "7", "15", "ld.global.f32 address 0x10000100: outside every buffer");
}

TEST(PtxErrors, SharedBeyondCtaSize) {
  std::string msg =
      exec_error("  mul.wide.u32 %rd2, %r1, 4;\n  st.shared.u32 [%rd2+4], %r1;", "  .shared .align 4 .b8 s[128];\n");
  expect_context(msg, "31", "16", "address 0x80: beyond the CTA's 128 bytes of shared memory");
}

TEST(PtxErrors, LocalBeyondDepot) {
  std::string msg = exec_error("  mov.u64 %SPL, __local_depot0;\n  ld.local.u32 %r2, [%SPL+16];",
                               "  .local .align 4 .b8 __local_depot0[16];\n  .reg .b64 %SPL;\n");
  expect_context(msg, "0", "17", "address 0x10: beyond the thread's 16 bytes of local memory");
}

TEST(PtxErrors, Misaligned) {
  std::string msg = exec_error("  ld.global.u32 %r2, [%rd1+2];");
  expect_context(msg, "0", "14", "address 0x10000002: misaligned");
}

TEST(PtxErrors, RunawayLoop) {
  std::string msg = exec_error("$L__spin:\n  add.u32 %r2, %r2, 1;\n  bra.uni $L__spin;");
  expect_context(msg, "0", "15", "add.u32 exceeded max_warp_insts=1000");
}

TEST(PtxErrors, DivideByZeroIsNotAFault) {
  EXPECT_EQ(exec_error("  div.u32 %r2, %r1, 0;\n  rem.s32 %r3, %r1, 0;\n  div.rn.f32 %f1, %f2, 0f00000000;"),
            "no error");
}

std::string parse_error(const std::string& body, const std::string& module_extra = "") {
  std::string ptx = ".version 7.0\n.target sm_70\n.address_size 64\n" + module_extra +
                    ".visible .entry k(.param .u64 k_param_0)\n{\n  .reg .b32 %r<4>;\n  .reg .f32 %f<4>;\n" +
                    "  .reg .b64 %rd<4>;\n" + body + "\n  ret;\n}\n";
  try {
    parse(ptx, "bad.ptx");
  } catch (const ParseError& e) {
    return e.what();
  }
  return "no error";
}

void expect_parse(const std::string& msg, const std::string& where, const std::string& token) {
  EXPECT_EQ(msg.rfind("bad.ptx:" + where + ": ", 0), 0u) << msg;
  EXPECT_NE(msg.find("'" + token + "'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("supported opcode families: mov add"), std::string::npos) << msg;
}

TEST(PtxParseErrors, SyntaxAndUnknowns) {
  expect_parse(parse_error("  add.s32 %r1, %r2 %r3;"), "9:20", "%r3");
  expect_parse(parse_error("  frobnicate.b32 %r1, %r2;"), "9:3", "frobnicate.b32");
  expect_parse(parse_error("  add.s32 %r1, %r2, %r9;"), "9:21", "%r9");
  expect_parse(parse_error("  bra.uni $L__nowhere;"), "9:11", "$L__nowhere");
  expect_parse(parse_error("  add.s32 %r1, %r2, 1 # 2;"), "9:23", "#");
  expect_parse(parse_error("  mul.lo.cc.s32 %r1, %r2, 1;"), "9:3", "mul.lo.cc.s32");
  expect_parse(parse_error("  .reg .b32 %q;\n  .bogus 3;"), "10:3", ".bogus");
}

TEST(PtxParseErrors, RefusedFeatures) {
  expect_parse(parse_error("  call.uni f, (%r1);"), "9:3", "call.uni");
  expect_parse(parse_error("  brx.idx %r1, $L__t;"), "9:3", "brx.idx");
  expect_parse(parse_error("  tex.2d.v4.f32.f32 {%f0, %f1, %f2, %f3}, [t, {%f0, %f1}];"), "9:3", "tex.2d.v4.f32.f32");
  expect_parse(parse_error("  suld.b.1d.b32.trap {%r1}, [s, {%r2}];"), "9:3", "suld.b.1d.b32.trap");
  expect_parse(parse_error("  add.f16 %r1, %r2, %r3;"), "9:3", "add.f16");
  expect_parse(parse_error("  .reg .f16 %h<2>;"), "9:8", ".f16");
  expect_parse(parse_error("", ".func f()\n{\n ret;\n}\n"), "4:1", ".func");
}

// A kernel that adds 1..n to a register as immediates and stores the sum (one hidden slot per distinct immediate).
std::string sum_of_immediates(uint32_t n) {
  std::string ptx =
      ".version 7.0\n.target sm_70\n.address_size 64\n"
      ".visible .entry k(.param .u64 k_param_0)\n{\n  .reg .b32 %r<2>;\n  .reg .b64 %rd<2>;\n"
      "  ld.param.u64 %rd1, [k_param_0];\n  mov.u32 %r1, 0;\n";
  for (uint32_t i = 1; i <= n; ++i) ptx += "  add.u32 %r1, %r1, " + std::to_string(i) + ";\n";
  return ptx + "  st.global.u32 [%rd1], %r1;\n  ret;\n}\n";
}

// Hidden-slot ids wrapped past 32,768 distinct immediates and aliased slot 0:
// the sum of 1..33000 came out as 536881556 with no error.
TEST(PtxParseErrors, DistinctImmediatesBeyondTheSlotLimitAreRefused) {
  Launch at_limit(sum_of_immediates(32700), "k", Dim3{1, 1, 1}, Dim3{32, 1, 1});
  uint64_t out = at_limit.buffer(V(1, 0));
  at_limit.param(0, out);
  run_cta(at_limit.state, 0);
  EXPECT_EQ(at_limit.read<uint32_t>(out, 1)[0], uint32_t(32700ull * 32701 / 2));

  std::string msg = "no error";
  try {
    parse(sum_of_immediates(33000), "many.ptx");
  } catch (const ParseError& e) {
    msg = e.what();
  }
  EXPECT_NE(msg.find("many.ptx: kernel k: more than 32767 distinct immediates"), std::string::npos) << msg;
}

TEST(PtxParseErrors, RegisterCountsBeyondTheLimitNameIt) {
  std::string msg = parse_error("  .reg .b32 %q<2000000000>;");
  EXPECT_NE(msg.find("too many registers: a kernel declares at most 32768"), std::string::npos) << msg;
}

// Fuzzer finding (fuzz/corpus/ptx_exec/section_without_brace.ptx), and the
// two loops like it: a file that ends inside a skipped statement made the
// parser spin at its last token forever.
TEST(PtxParseErrors, TruncatedFilesAreErrorsNotHangs) {
  const std::string head = ".version 7.0\n.target sm_70\n.address_size 64\n";
  const std::string kernel = head + ".visible .entry k()\n{\n";
  for (const std::string& ptx :
       {head + ".section .debug_info", kernel + "  .reg .b32 %r<4>", kernel + "  .pragma \"nounroll\""}) {
    std::string msg = "no error";
    try {
      parse(ptx, "cut.ptx");
    } catch (const ParseError& e) {
      msg = e.what();
    }
    EXPECT_EQ(msg.rfind("cut.ptx:", 0), 0u) << ptx << "\n" << msg;
  }
}

// Fuzzer finding (fuzz/corpus/ptx_exec/empty_kernel.ptx): a kernel without instructions, and
// one whose last instruction is not ret/exit, escaped as std::out_of_range
// from Warp::next() (the SM asks for the next instruction before executing it).
TEST(PtxErrors, EmptyKernelAndFallingOffTheEndAreReported) {
  const std::string head =
      ".version 7.0\n.target sm_70\n.address_size 64\n.visible .entry k()\n{\n  .reg .b32 %r<2>;\n";
  std::string msg = "no error";
  try {
    parse(head + "}\n", "empty.ptx");
  } catch (const ParseError& e) {
    msg = e.what();
  }
  EXPECT_EQ(msg.rfind("empty.ptx:4:", 0), 0u) << msg;
  EXPECT_NE(msg.find("no instructions"), std::string::npos) << msg;

  Launch l(head + "  mov.u32 %r1, %tid.x;\n}\n", "k", Dim3{1, 1, 1}, Dim3{32, 1, 1}, "noret.ptx");
  msg = "no error";
  try {
    run_cta(l.state, 0);
  } catch (const ExecError& e) {
    msg = e.what();
  }
  EXPECT_NE(msg.find("fell off the end of the kernel"), std::string::npos) << msg;
  EXPECT_NE(msg.find("noret.ptx:7"), std::string::npos) << msg;
}

// Fuzzer finding (fuzz/corpus/ptx_exec/branch_to_end.ptx): a branch to a label
// after the last instruction read past the CFG's block table (heap overflow in
// the reconvergence analysis). It now parses; running there falls off the end.
TEST(PtxErrors, BranchToALabelAfterTheLastInstruction) {
  const std::string text =
      ".version 7.0\n.target sm_70\n.address_size 64\n.visible .entry k()\n{\n"
      "  .reg .pred %p<2>;\n  .reg .b32 %r<2>;\n  mov.u32 %r1, %tid.x;\n"
      "  setp.lt.u32 %p1, %r1, 16;\n  @%p1 bra $L_end;\n  ret;\n$L_end:\n}\n";
  Launch l(text, "k", Dim3{1, 1, 1}, Dim3{32, 1, 1}, "end.ptx");
  std::string msg = "no error";
  try {
    run_cta(l.state, 0);
  } catch (const ExecError& e) {
    msg = e.what();
  }
  EXPECT_NE(msg.find("fell off the end of the kernel"), std::string::npos) << msg;
}

// Module-level mistakes clang never makes but a hand-written PTX can.
TEST(PtxParseErrors, ModuleDeclarations) {
  const std::string entry = ".visible .entry k()\n{\n  ret;\n}\n";
  auto module_error = [](const std::string& ptx) {
    try {
      parse(ptx, "bad.ptx");
    } catch (const ParseError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  const std::string version_abc = module_error(".version abc\n.target sm_70\n.address_size 64\n" + entry);
  EXPECT_NE(version_abc.find("bad.ptx:1:10: expected a PTX ISA version MAJOR.MINOR"), std::string::npos) << version_abc;
  const std::string twice = module_error(".version 7.0\n.target sm_70\n.address_size 64\n" + entry + entry);
  EXPECT_NE(twice.find("bad.ptx:8:17: a second .entry named k"), std::string::npos) << twice;
  const std::string texref =
      module_error(".version 7.0\n.target sm_70\n.address_size 64\n.global .texref t;\n" + entry);
  EXPECT_NE(texref.find("bad.ptx:4:9: textures, samplers and surfaces (.texref) are not supported"), std::string::npos)
      << texref;
}

// clang's line directives: a fault names the .cu line of its instruction
// (under the name the compiler gave the source), else the PTX line.
TEST(PtxErrors, FaultNamesTheSourceLineTheDirectivesGive) {
  const std::string ptx =
      ".version 7.0\n.target sm_70\n.address_size 64\n"
      ".visible .entry k(.param .u64 k_param_0)\n{\n  .reg .b32 %r<3>;\n  .reg .b64 %rd<3>;\n"
      "  .loc 1 7 3\n  ld.param.u64 %rd1, [k_param_0];\n"
      "  .loc 1 9 5\n  ld.global.u32 %r1, [%rd1+4096];\n"
      "  .loc 1 0 5\n  ret;\n}\n"
      "  .file 1 \"./<stdin>\"\n";
  std::unique_ptr<Module> m = parse(ptx, "cache/abc.ptx");
  m->rename_source("./<stdin>", "src/k.cu");
  const Kernel& k = *m->kernels[0];
  EXPECT_EQ(k.where(0), "src/k.cu:7");
  EXPECT_EQ(k.where(1), "src/k.cu:9");
  EXPECT_EQ(k.where(2), "cache/abc.ptx:13");  // line 0: no source line, the PTX's own
  Launch l(ptx, "k", Dim3{1, 1, 1}, Dim3{32, 1, 1}, "abc.ptx");
  l.param(0, l.buffer(V(64, 0)));
  try {
    run_cta(l.state, 0);
    ADD_FAILURE() << "no fault";
  } catch (const ExecError& e) {
    EXPECT_NE(std::string(e.what()).find("PC 1 (./<stdin>:9): ld.global.u32"), std::string::npos) << e.what();
  }
}

// Every warp of a launch counts against one budget: a runaway on many warps
// stops at the launch's total, long before each warp's own limit.
TEST(PtxErrors, LaunchBudgetCountsEveryWarp) {
  const std::string ptx =
      ".version 7.0\n.target sm_70\n.address_size 64\n"
      ".visible .entry k(.param .u64 k_param_0)\n{\n  .reg .b32 %r<3>;\n"
      "$L_loop:\n  add.u32 %r1, %r1, 1;\n  bra.uni $L_loop;\n}\n";
  Launch l(ptx, "k", Dim3{1, 1, 1}, Dim3{256, 1, 1}, "spin.ptx");
  RunawayBounds bounds;
  bounds.max_warp_insts = 1000;
  bounds.warp_insts_per_grid_warp = 200;
  l.state.bounds = bounds;
  l.state.grid_warps = 8;
  l.state.max_warp_insts = 100000;  // each warp's own limit out of reach
  l.state.max_launch_insts = bounds.launch_budget(8);
  EXPECT_EQ(l.state.max_launch_insts, 1600u);
  EXPECT_EQ(bounds.launch_budget(2), 1000u);  // never below one warp's
  try {
    run_cta(l.state, 0);
    ADD_FAILURE() << "no fault";
  } catch (const ExecError& e) {
    EXPECT_NE(std::string(e.what()).find("exceeded the launch's budget of 1600 warp instructions "
                                         "(gpu.sim.warp_insts_per_grid_warp 200 x 8 warps"),
              std::string::npos)
        << e.what();
  }
  EXPECT_EQ(l.state.executed, 1601u);
}

}  // namespace
}  // namespace gpupm::ptx::test
