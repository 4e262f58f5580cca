// The program-workload catalogue: hostile CUDA, PTX, JSON, .npy files,
// launches, names, output options and run-time faults, one line per case.
// A case expects exit 2 (bad input, found before anything runs) or the
// documented exit 1 (a fault while the kernels run: one line naming the kernel,
// CTA, warp and PC), with every fragment in what gpupm says (the file, the
// JSON path or option, what is allowed), nothing in --out, and no hang.
// Each case is its own ctest process, well under a second (the CUDA cases
// hit clang's PTX cache after the first compile; the clang time limit case
// waits its one second).
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "support/bump_ptx.h"
#include "support/test_support.h"

namespace {

namespace fs = std::filesystem;
using gpupm::test::source_path;

using gpupm::test::kBumpPtx;
const char* const kHeader = gpupm::test::kPtxHeader;

// Kernels that fault or never end.
const char* const kSpin =
    ".visible .entry spin(.param .u64 p0)\n{\n.reg .b32 %r<3>;\nmov.u32 %r1, 0;\n"
    "$L_loop:\nadd.u32 %r1, %r1, 1;\nbra.uni $L_loop;\n}\n";
// Warps 0-3 wait at the barrier; warps 4-7 never reach it.
const char* const kBarrier = R"(.visible .entry half_barrier(.param .u64 p0)
{
.reg .pred %p<3>;
.reg .b32 %r<4>;
mov.u32 %r1, %tid.x;
setp.lt.u32 %p1, %r1, 128;
@%p1 bra $L_wait;
$L_spin:
add.u32 %r2, %r2, 1;
bra.uni $L_spin;
$L_wait:
bar.sync 0;
ret;
}
)";
const char* const kMisaligned =
    ".visible .entry mis(.param .u64 p0)\n{\n.reg .b32 %r<3>;\n.reg .b64 %rd<3>;\n"
    "ld.param.u64 %rd1, [p0];\nld.global.u32 %r1, [%rd1+2];\nret;\n}\n";
const char* const kStruct = ".visible .entry take_struct(.param .align 8 .b8 take_struct_param_0[16])\n{\nret;\n}\n";
const char* const kFloatArg = ".visible .entry take_float(.param .f32 x, .param .u64 p)\n{\nret;\n}\n";

// Files every case may name, made once per process (each case is a process).
struct Fixtures {
  std::string dir;
  Fixtures() : dir(gpupm::test::temp_dir("progcat")) {
    write("bump.ptx", std::string(kHeader) + kBumpPtx);
    write("faults.ptx", std::string(kHeader) + kBumpPtx + kSpin + kBarrier + kMisaligned + kStruct + kFloatArg);
    write("copy.cu", gpupm::test::read_file(source_path("configs/workloads/cuda/stream_copy/stream_copy.cu")));
    write("oob.cu",
          "extern \"C\" __global__ void oob(int* a, int n) {\n  int i = threadIdx.x;\n"
          "  a[i + n] = i;\n}\n");
    write("self_include.cu",
          "#if __INCLUDE_LEVEL__ < 40\n#include \"self_include.cu\"\n#include \"self_include.cu\"\n#endif\n");
    write("syntax.cu", "extern \"C\" __global__ void k(int* p) { p[0] = ; }\n");
    write("notes.txt", "hello\n");
    ptx_variants();
    npy_files();
    workloads();
    fs::create_directories(dir + "/a_folder.npy");
    fs::create_directories(dir + "/a_folder.ptx");
    if (::mkfifo((dir + "/fifo.npy").c_str(), 0600) != 0) ADD_FAILURE() << "mkfifo failed";
    if (::mkfifo((dir + "/fifo.ptx").c_str(), 0600) != 0) ADD_FAILURE() << "mkfifo failed";
  }

  void write(const std::string& name, const std::string& text) const {
    std::ofstream(dir + "/" + name, std::ios::binary) << text;
  }

  // A program workload: `extra` top-level keys, the buffers and launches as JSON.
  static std::string program(const std::string& file, const std::string& buffers, const std::string& launches,
                             const std::string& extra = "") {
    return R"({"name": "p", )" + extra + R"("program": ")" + file + R"(", "buffers": )" + buffers +
           R"(, "launches": )" + launches + "}";
  }
  static std::string bump_launch(const std::string& extra = "", const std::string& args = R"(["a", 1])") {
    return R"([{"kernel": "bump", "grid": [1], "block": [64], "args": )" + args + extra + "}]";
  }
  static std::string buffer_a(const std::string& type = "u32", const std::string& init = "",
                              const std::string& count = "64") {
    return R"({"a": {"type": ")" + type + R"(", "count": )" + count + (init.empty() ? "" : R"(, "init": )" + init) +
           "}}";
  }

  void ptx_variants() const {
    const std::string b = kBumpPtx;
    write("version_abc.ptx", ".version abc\n.target sm_70\n.address_size 64\n" + b);
    write("version_1.ptx", ".version 7\n.target sm_70\n.address_size 64\n" + b);
    write("two_entries.ptx", kHeader + b + b);
    write("texref.ptx", kHeader + std::string(".global .texref tex;\n") + b);
    write("texref_bare.ptx", kHeader + std::string(".texref tex;\n") + b);
    write("samplerref.ptx", kHeader + std::string(".global .samplerref smp;\n") + b);
    write("many_regs.ptx", kHeader + std::string(".visible .entry bump()\n{\n.reg .b32 %r<2000000000>;\nret;\n}\n"));
    write("call.ptx", kHeader + std::string(".visible .entry bump()\n{\ncall.uni foo, ();\nret;\n}\n"));
    write("func.ptx", kHeader + std::string(".func foo()\n{\nret;\n}\n") + b);
    write("f16.ptx",
          kHeader + std::string(".visible .entry bump()\n{\n.reg .b16 %h<2>;\nadd.f16 %h1, %h1, %h1;\nret;\n}\n"));
    write("tex_inst.ptx", kHeader + std::string(".visible .entry bump()\n{\n.reg .b32 %r<2>;\n"
                                                "tex.1d.v4.f32.s32 {%r1, %r1, %r1, %r1}, [t, {%r1}];\nret;\n}\n"));
    write("no_close.ptx", kHeader + std::string(".visible .entry bump()\n{\nret;\n"));
    write("stray_char.ptx", kHeader + std::string(".visible .entry bump()\n{\nret; #\n}\n"));
    write("addr32.ptx", ".version 6.4\n.target sm_70\n.address_size 32\n" + b);
    write("bad_number.ptx",
          kHeader + std::string(".visible .entry bump()\n{\n.reg .b32 %r<2>;\nmov.u32 %r1, 12zz;\nret;\n}\n"));
    write("unknown_label.ptx", kHeader + std::string(".visible .entry bump()\n{\nbra.uni $L_nowhere;\nret;\n}\n"));
    write("unknown_reg.ptx",
          kHeader + std::string(".visible .entry bump()\n{\n.reg .b32 %r<2>;\nmov.u32 %r9, 1;\nret;\n}\n"));
    write("empty_kernel.ptx", kHeader + std::string(".visible .entry bump()\n{\n}\n"));
    write("section.ptx", kHeader + b + ".section .debug_info\n");
    write("unsupported_op.ptx",
          kHeader + std::string(".visible .entry bump()\n{\n.reg .b32 %r<3>;\nfrobnicate.u32 %r1, %r2;\nret;\n}\n"));
    write("carry.ptx",
          kHeader + std::string(".visible .entry bump()\n{\n.reg .b32 %r<3>;\nadd.cc.u32 %r1, %r1, %r2;\nret;\n}\n"));
    write("brx.ptx", kHeader + std::string(".visible .entry bump()\n{\n.reg .b32 %r<3>;\nbrx.idx %r1, t;\nret;\n}\n"));
    write("atom8.ptx",
          kHeader + std::string(".visible .entry bump(.param .u64 p0)\n{\n.reg .b16 %h<3>;\n.reg .b64 %rd<2>;\n"
                                "ld.param.u64 %rd1, [p0];\natom.global.add.u16 %h1, [%rd1], %h2;\nret;\n}\n"));
    write("empty.ptx", "");
  }

  // NumPy 1.0 files: header dictionary `dict`, then `data_bytes` zero bytes.
  void npy(const std::string& name, const std::string& dict, size_t data_bytes, char version = 1) const {
    std::string header = dict;
    header.append((64 - (10 + header.size() + 1) % 64) % 64, ' ');
    header += '\n';
    write(name, std::string("\x93NUMPY", 6) + version + '\0' + char(header.size() & 0xff) + char(header.size() >> 8) +
                    header + std::string(data_bytes, '\0'));
  }
  static std::string dict(const std::string& shape, const std::string& descr = "<u4",
                          const std::string& order = "False") {
    return "{'descr': '" + descr + "', 'fortran_order': " + order + ", 'shape': " + shape + ", }";
  }
  void npy_files() const {
    npy("good.npy", dict("(64,)"), 256);
    npy("shape_abc.npy", dict("(abc,)"), 256);
    npy("shape_bare.npy", dict("4096"), 256);
    npy("shape_huge.npy", dict("(99999999999999999999999,)"), 256);
    npy("shape_wraps.npy", dict("(9223372036854775810, 2)"), 16);
    npy("shape_negative.npy", dict("(-1,)"), 256);
    npy("shape_product.npy", dict("(4294967296, 4294967296)"), 256);
    npy("version2.npy", dict("(64,)"), 256, 2);
    npy("big_endian.npy", dict("(64,)", ">u4"), 256);
    npy("fortran.npy", dict("(64,)", "<u4", "True"), 256);
    npy("complex.npy", dict("(64,)", "<c8"), 512);
    npy("wrong_dtype.npy", dict("(64,)", "<f4"), 256);
    npy("wrong_count.npy", dict("(32,)"), 128);
    npy("short_data.npy", dict("(64,)"), 100);
    npy("no_descr.npy", "{'fortran_order': False, 'shape': (64,), }", 256);
    npy("twice.npy", "{'descr': '<u4', 'descr': '<u4', 'fortran_order': False, 'shape': (64,), }", 256);
    npy("not_a_dict.npy", "[64]", 256);
    npy("unterminated.npy", "{'descr': '<u4", 256);
    write("no_magic.npy", "just text, not numpy\n");
    write("empty.npy", "");
    write("truncated.npy", std::string("\x93NUMPY\x01\x00\xff\x00{'descr'", 17));
  }

  void workloads() const {
    const std::string a = buffer_a(), bump = bump_launch();
    write("good.json", program("bump.ptx", a, bump));
    auto with_file = [&](const std::string& npy_name) {
      return program("bump.ptx", buffer_a("u32", R"({"file": ")" + npy_name + R"("})"), bump);
    };
    for (const char* n : {"shape_abc",  "shape_bare", "shape_huge", "shape_wraps", "shape_negative", "shape_product",
                          "version2",   "big_endian", "fortran",    "complex",     "wrong_dtype",    "wrong_count",
                          "short_data", "no_descr",   "twice",      "not_a_dict",  "unterminated",   "no_magic",
                          "empty",      "truncated",  "a_folder",   "fifo",        "missing"})
      write(std::string("npy_") + n + ".json", with_file(std::string(n) + ".npy"));
    write("npy_long_name.json", with_file(std::string(300, 'n') + ".npy"));
    for (const char* p :
         {"version_abc", "version_1",     "two_entries", "texref",       "texref_bare", "samplerref",     "many_regs",
          "call",        "func",          "f16",         "tex_inst",     "no_close",    "stray_char",     "addr32",
          "bad_number",  "unknown_label", "unknown_reg", "empty_kernel", "section",     "unsupported_op", "carry",
          "brx",         "atom8",         "empty",       "a_folder",     "fifo"})
      write(std::string("ptx_") + p + ".json", program(std::string(p) + ".ptx", a, bump));
    write("program_long_name.json", program(std::string(1000, 'p') + ".ptx", a, bump));
    write("program_long_path.json", program(std::string(300, 'd') + "/" + std::string(300, 'p') + ".ptx", a, bump));
    write("program_extension.json", program("notes.txt", a, bump));
    write("program_missing_cu.json", program("missing.cu", a, bump));
    write("cu_syntax.json", program("syntax.cu", a, bump));
    write("cu_self_include.json", program("self_include.cu", a, bump));
    names();
    buffers();
    launches();
    faults();
    structure();
  }

  void names() const {
    const std::string bump = bump_launch();
    auto named_buffer = [&](const std::string& name) {
      return program("bump.ptx", R"({")" + name + R"(": {"type": "u32", "count": 64}})",
                     bump_launch("", R"([")" + name + R"(", 1])"));
    };
    write("name_slash.json", named_buffer("a/b"));
    write("name_dot.json", named_buffer(".hidden"));
    write("name_dotdot.json", named_buffer(".."));
    write("name_long.json", named_buffer(std::string(101, 'b')));
    write("name_space.json", named_buffer("my buffer"));
    write("name_dash.json", named_buffer("-rf"));
    const std::string app =
        R"(, "program": "bump.ptx", "buffers": {"a": {"type": "u32", "count": 64}}, "launches": )" + bump + "}";
    write("app_empty_name.json", R"({"name": "w", "apps": [{"name": "")" + app + R"(, {"name": "b")" + app + "]}");
    write("app_same_names.json", R"({"name": "w", "apps": [{"name": "x")" + app + R"(, {"name": "x")" + app + "]}");
    write("app_slash_name.json", R"({"name": "w", "apps": [{"name": "x/y")" + app + R"(, {"name": "b")" + app + "]}");
    write("app_three.json", R"({"name": "w", "apps": [{"name": "a")" + app + R"(, {"name": "b")" + app +
                                R"(, {"name": "c")" + app + "]}");
    write("app_respawn_one.json", R"({"name": "w", "respawn": true, "apps": [{"name": "a")" + app + "]}");
    write("app_and_program.json", R"({"name": "w", "program": "bump.ptx", "apps": [{"name": "a")" + app + "]}");
    write("top_name_slash.json", R"({"name": "../w", "program": "bump.ptx", "buffers": {"a": {"type": "u32",
        "count": 64}}, "launches": )" +
                                     bump + "}");
  }

  void buffers() const {
    const std::string bump = bump_launch();
    auto buf = [&](const std::string& name, const std::string& type, const std::string& init,
                   const std::string& count = "64") {
      write(name, program("bump.ptx", buffer_a(type, init, count), bump));
    };
    buf("buf_count_zero.json", "u32", "", "0");
    buf("buf_count_huge.json", "u32", "", "4294967296");
    buf("buf_total.json", "f64", "", "2147483648");
    buf("buf_type.json", "i16", "");
    buf("buf_two_forms.json", "u32", R"({"fill": 1, "iota": {"start": 0, "step": 1}})");
    buf("buf_no_form.json", "u32", "{}");
    buf("fill_f32_huge.json", "f32", R"({"fill": 1e300})");
    buf("fill_f64_overflow.json", "f64", R"({"fill": 1e400})");
    buf("fill_u8.json", "u8", R"({"fill": 256})");
    buf("fill_u32_negative.json", "u32", R"({"fill": -1})");
    buf("fill_s32_fraction.json", "s32", R"({"fill": 1.5})");
    buf("fill_string.json", "u32", R"({"fill": "one"})");
    buf("iota_step_fraction.json", "u32", R"({"iota": {"start": 0, "step": 0.5}})");
    buf("iota_f32_last.json", "f32", R"({"iota": {"start": 0, "step": 1e37}})");
    buf("iota_missing_step.json", "u32", R"({"iota": {"start": 0}})");
    buf("random_u64_order.json", "u64",
        R"({"random": {"min": 18446744073709551615, "max": 18446744073709551614, "seed": 1}})");
    buf("random_f32_order.json", "f32", R"({"random": {"min": 1.5, "max": -1.5, "seed": 1}})");
    buf("random_seed_negative.json", "u32", R"({"random": {"min": 0, "max": 1, "seed": -1}})");
    buf("random_no_seed.json", "u32", R"({"random": {"min": 0, "max": 1}})");
    buf("random_f32_beyond.json", "f32", R"({"random": {"min": 0, "max": 1e39, "seed": 1}})");
    buf("unknown_init_key.json", "u32", R"({"fill": 1, "bogus": 2})");
  }

  void launches() const {
    const std::string a = buffer_a();
    auto launch = [&](const std::string& name, const std::string& launches, const std::string& buffers = "") {
      write(name, program("faults.ptx", buffers.empty() ? a : buffers, launches));
    };
    auto bump = [&](const std::string& extra, const std::string& args = R"(["a", 1])") {
      return bump_launch(extra, args);
    };
    launch("arg_struct_negative.json", R"([{"kernel": "take_struct", "grid": [1], "block": [32], "args": [-1]}])");
    launch("arg_struct_five.json", R"([{"kernel": "take_struct", "grid": [1], "block": [32], "args": [5]}])");
    launch("arg_struct_buffer.json", R"([{"kernel": "take_struct", "grid": [1], "block": [32], "args": ["a"]}])");
    launch("arg_float_huge.json", R"([{"kernel": "take_float", "grid": [1], "block": [32], "args": [1e300, "a"]}])");
    launch("arg_buffer_to_float.json", R"([{"kernel": "take_float", "grid": [1], "block": [32], "args": ["a", "a"]}])");
    launch("arg_u32_too_big.json", bump("", R"(["a", 4294967296])"));
    launch("arg_u32_too_small.json", bump("", R"(["a", -2147483649])"));
    launch("arg_fraction.json", bump("", R"(["a", 0.5])"));
    launch("arg_unknown_buffer.json", bump("", R"(["nobuf", 1])"));
    launch("arg_count.json", bump("", R"(["a"])"));
    launch("arg_object.json", bump("", R"({"a": 1})"));
    launch("arg_null.json", bump("", R"(["a", null])"));
    launch("grid_zero.json", R"([{"kernel": "bump", "grid": [0], "block": [64], "args": ["a", 1]}])");
    launch("grid_four.json", R"([{"kernel": "bump", "grid": [1, 1, 1, 1], "block": [64], "args": ["a", 1]}])");
    launch("grid_y.json", R"([{"kernel": "bump", "grid": [1, 65536], "block": [64], "args": ["a", 1]}])");
    launch("grid_huge.json",
           R"([{"kernel": "bump", "grid": [2147483647, 65535, 65535], "block": [64], "args": ["a", 1]}])");
    launch("block_product.json", R"([{"kernel": "bump", "grid": [1], "block": [32, 32, 2], "args": ["a", 1]}])");
    launch("block_zero.json", R"([{"kernel": "bump", "grid": [1], "block": [0], "args": ["a", 1]}])");
    launch("shared_too_much.json", bump(R"(, "shared_bytes": 1048576)"));
    launch("shared_no_extern.json", bump(R"(, "shared_bytes": 64)"));
    launch("regs_range.json", bump(R"(, "regs_per_thread": 300)"));
    launch("regs_no_fit.json", R"([{"kernel": "bump", "grid": [1], "block": [1024], "args": ["a", 1],
                                   "regs_per_thread": 255}])");
    launch("repeat_zero.json", bump(R"(, "repeat": 0)"));
    launch("repeat_and_while.json", bump(R"(, "repeat": 2, "while_nonzero": {"buffer": "a", "max": 3})"));
    launch("while_unknown_buffer.json", bump(R"(, "while_nonzero": {"buffer": "nobuf", "max": 3})"));
    launch("while_no_max.json", bump(R"(, "while_nonzero": {"buffer": "a"})"));
    launch("unknown_kernel.json", R"([{"kernel": "nope", "grid": [1], "block": [64], "args": ["a", 1]}])");
    launch("launch_unknown_key.json", bump(R"(, "gird": [1])"));
    launch("launches_empty.json", "[]");
    std::string many;
    for (int i = 0; i < 11; ++i)
      many += std::string(i ? ", " : "") +
              R"({"kernel": "bump", "grid": [1], "block": [64], "args": ["a", 1], "repeat": 100000})";
    launch("launches_too_many.json", "[" + many + "]");
  }

  void faults() const {
    const std::string a = buffer_a();
    write("fault_oob.json", program("bump.ptx", buffer_a("u32", "", "40"), bump_launch()));
    write("fault_misaligned.json",
          program("faults.ptx", a, R"([{"kernel": "mis", "grid": [1], "block": [32], "args": ["a"]}])"));
    write("fault_spin.json",
          program("faults.ptx", a, R"([{"kernel": "spin", "grid": [120], "block": [256], "args": ["a"]}])"));
    write("fault_barrier.json",
          program("faults.ptx", a, R"([{"kernel": "half_barrier", "grid": [1], "block": [256], "args": ["a"]}])"));
    write("fault_while.json", program("bump.ptx", a, bump_launch(R"(, "while_nonzero": {"buffer": "a", "max": 3})")));
    write("fault_cu_oob.json", program("oob.cu", R"({"a": {"type": "s32", "count": 64}})",
                                       R"([{"kernel": "oob", "grid": [1], "block": [64], "args": ["a", 100]}])"));
  }

  void structure() const {
    write("malformed.json", R"({"name": "p", "program": "bump.ptx", )");
    write("number_overflow.json", program("bump.ptx", buffer_a("u32", R"({"fill": 1e400})"), bump_launch()));
    write("no_launches.json", R"({"name": "p", "program": "bump.ptx", "buffers": {}})");
    write("launches_not_array.json", R"({"name": "p", "program": "bump.ptx", "launches": {"kernel": "bump"}})");
    write("buffers_array.json",
          R"({"name": "p", "program": "bump.ptx", "buffers": [], "launches": )" + bump_launch() + "}");
    write("unknown_top_key.json", program("bump.ptx", buffer_a(), bump_launch(), R"("bogus": 1, )"));
    write("program_number.json", R"({"name": "p", "program": 5, "launches": )" + bump_launch() + "}");
  }
};

const Fixtures& fixtures() {
  static Fixtures f;
  return f;
}

// gpupm ARGS (after `env` settings "NAME=VALUE"; arguments as expand_case_arg
// reads them) exits `status` within the time bound, saying every fragment on
// one line of stderr; the case's output folder stays absent or empty.
void expect_refused(int status, const std::vector<std::string>& env, const std::vector<std::string>& args,
                    const std::vector<std::string>& fragments) {
  const std::string out_dir = fixtures().dir + "/out";
  const gpupm::test::ProcessResult r = gpupm::test::run_case(env, args, fixtures().dir, out_dir);
  EXPECT_EQ(r.status, status) << (r.status == 137 ? "timed out (hang)\n" : "") << r.out << r.err;
  for (const std::string& f : fragments) {
    const std::string fragment = gpupm::test::expand_case_arg(f, fixtures().dir, out_dir);
    EXPECT_NE(r.err.find(fragment), std::string::npos) << "missing '" << f << "' in:\n" << r.err;
  }
  if (status == 1) {
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << "not one line:\n" << r.err;
  }
  EXPECT_TRUE(gpupm::test::empty_or_absent(out_dir)) << "--out " << out_dir << " holds new files";
}

const char* const kGpu = "@SRC/configs/gpu/gtx480.json";

std::vector<std::string> run(const std::string& workload, std::vector<std::string> extra = {}) {
  std::vector<std::string> a = {"run", "--quiet", "--gpu", kGpu, "--workload", "@/" + workload, "--out", "@OUT"};
  a.insert(a.end(), extra.begin(), extra.end());
  return a;
}
// A folder path of about 4,000 bytes (each name within NAME_MAX): no room left for file names.
std::string long_path() {
  std::string p = "@/";
  for (char c = 'a'; p.size() < 4000; ++c) p += std::string(240, c) + "/";
  return p + "dump";
}
std::vector<std::string> validate(const std::string& workload) { return {"validate", "@/" + workload}; }
std::vector<std::string> ptx(const std::string& file) { return {"ptx", file}; }

}  // namespace

#define BAD(name, args, ...) \
  TEST(ProgramCatalogue, name) { expect_refused(2, {}, args, {__VA_ARGS__}); }
#define BAD_ENV(name, env, args, ...) \
  TEST(ProgramCatalogue, name) { expect_refused(2, env, args, {__VA_ARGS__}); }
#define FAULT(name, args, ...) \
  TEST(ProgramCatalogue, name) { expect_refused(1, {}, args, {__VA_ARGS__}); }

// .npy initialisers: the header's every size checked, the file and JSON path named.
const char* const kNpyPath = "buffers.a.init.file";
BAD(NpyShapeNotANumber, validate("npy_shape_abc.json"), kNpyPath,
    "shape (abc,): expected non-negative decimal integers")
BAD(NpyShapeNotATuple, validate("npy_shape_bare.json"), kNpyPath, "not a valid .npy header")
BAD(NpyShapeBeyondUint64, validate("npy_shape_huge.json"), kNpyPath, "is more than 2^63 - 1")
BAD(NpyShapeProductWraps, validate("npy_shape_wraps.json"), kNpyPath, "more than 2^63 - 1 elements")
BAD(NpyShapeNegative, validate("npy_shape_negative.json"), kNpyPath, "got '-1'")
BAD(NpyShapeProductOverflow, validate("npy_shape_product.json"), kNpyPath, "more than 2^63 - 1 elements")
BAD(NpyVersion2, validate("npy_version2.json"), kNpyPath, "version 2 is not supported")
BAD(NpyBigEndian, validate("npy_big_endian.json"), kNpyPath, "big-endian dtype >u4")
BAD(NpyFortranOrder, validate("npy_fortran.json"), kNpyPath, "Fortran-order")
BAD(NpyComplexDtype, validate("npy_complex.json"), kNpyPath, "unsupported dtype '<c8'")
BAD(NpyWrongDtype, validate("npy_wrong_dtype.json"), kNpyPath, "holds dtype <f4, expected <u4")
BAD(NpyWrongCount, run("npy_wrong_count.json"), kNpyPath, "holds 32 elements, the buffer has count 64")
BAD(NpyShortData, run("npy_short_data.json"), kNpyPath, "data holds 100 bytes, the header says 64 elements")
BAD(NpyNoDescr, validate("npy_no_descr.json"), kNpyPath, "no 'descr' key")
BAD(NpyKeyTwice, validate("npy_twice.json"), kNpyPath, "the key 'descr' appears twice")
BAD(NpyHeaderNotADict, validate("npy_not_a_dict.json"), kNpyPath, "not a valid .npy header")
BAD(NpyUnterminatedString, validate("npy_unterminated.json"), kNpyPath, "unterminated string")
BAD(NpyNoMagic, validate("npy_no_magic.json"), kNpyPath, "magic string missing")
BAD(NpyEmptyFile, run("npy_empty.json"), kNpyPath, "magic string missing")
BAD(NpyTruncatedHeader, validate("npy_truncated.json"), kNpyPath, "truncated .npy header")
BAD(NpyIsAFolder, validate("npy_a_folder.json"), kNpyPath, "is a directory; expected a regular file")
BAD(NpyIsAFifo, run("npy_fifo.json"), kNpyPath, "is a FIFO; expected a regular file")
BAD(NpyMissing, validate("npy_missing.json"), kNpyPath, "No such file or directory")
BAD(NpyNameTooLong, run("npy_long_name.json"), kNpyPath, "File name too long")

// PTX programs.
BAD(PtxVersionNotANumber, validate("ptx_version_abc.json"), "version_abc.ptx:1:", "expected a PTX ISA version")
BAD(PtxVersionWithoutMinor, validate("ptx_version_1.json"), "version_1.ptx:1:", "MAJOR.MINOR")
BAD(PtxTwoEntriesOfOneName, validate("ptx_two_entries.json"), "two_entries.ptx:18:17:", "a second .entry named bump")
BAD(PtxTexref, validate("ptx_texref.json"),
    "texref.ptx:4:", "textures, samplers and surfaces (.texref) are not supported")
BAD(PtxTexrefAtModuleScope, validate("ptx_texref_bare.json"), "(.texref) are not supported")
BAD(PtxSamplerref, run("ptx_samplerref.json"), "(.samplerref) are not supported")
BAD(PtxRegisterCountNamesItsLimit, validate("ptx_many_regs.json"), "many_regs.ptx:6:", "at most 32768")
BAD(PtxCall, validate("ptx_call.json"), "call is not supported")
BAD(PtxDeviceFunction, validate("ptx_func.json"), "device functions (.func) and calls are not supported")
BAD(PtxF16, validate("ptx_f16.json"), "f16/bf16 types are not supported")
BAD(PtxTextureInstruction, validate("ptx_tex_inst.json"), "tex is not supported")
BAD(PtxMissingBrace, validate("ptx_no_close.json"), "missing '}' at the end of the kernel")
BAD(PtxStrayCharacter, validate("ptx_stray_char.json"), "stray_char.ptx:6:", "unexpected character")
BAD(PtxAddressSize32, validate("ptx_addr32.json"), "only .address_size 64 is supported")
BAD(PtxMalformedNumber, validate("ptx_bad_number.json"), "malformed number")
BAD(PtxUnknownLabel, validate("ptx_unknown_label.json"), "$L_nowhere")
BAD(PtxUnknownRegister, validate("ptx_unknown_reg.json"), "%r9")
BAD(PtxKernelWithoutInstructions, validate("ptx_empty_kernel.json"), "kernel has no instructions")
BAD(PtxSectionWithoutBrace, validate("ptx_section.json"), "expected '{' after .section")
BAD(PtxUnsupportedOpcode, run("ptx_unsupported_op.json"), "unsupported_op.ptx:7:1:", "frobnicate")
BAD(PtxCarryArithmetic, validate("ptx_carry.json"), "add.cc")
BAD(PtxIndirectBranch, validate("ptx_brx.json"), "brx is not supported")
BAD(PtxNarrowAtomic, validate("ptx_atom8.json"), "atomics on 8/16-bit types are not supported")
BAD(PtxEmptyFileHasNoKernel, validate("ptx_empty.json"), "launches[0].kernel", "no .entry named \"bump\"")
BAD(PtxProgramIsAFolder, validate("ptx_a_folder.json"), "program", "is a directory; expected a regular file")
BAD(PtxProgramIsAFifo, run("ptx_fifo.json"), "program", "is a FIFO; expected a regular file")
BAD(PtxCommandOnAFolder, ptx("@/a_folder.ptx"), "@/a_folder.ptx", "is a directory")
BAD(PtxCommandOnAFifo, ptx("@/fifo.ptx"), "@/fifo.ptx", "is a FIFO")
BAD(PtxCommandOnAMissingFile, ptx("@/nosuch.ptx"), "@/nosuch.ptx", "No such file")
BAD(PtxCommandTwoEntries, ptx("@/two_entries.ptx"), "a second .entry named bump")

// CUDA programs and the program key.
BAD(ProgramNameTooLong, validate("program_long_name.json"), "program", "File name too long")
BAD(ProgramPathTooLong, run("program_long_path.json"), "program", "File name too long")
BAD(ProgramWrongExtension, validate("program_extension.json"), "program", "expected a .cu (CUDA C++) or .ptx file")
BAD(ProgramMissingCu, run("program_missing_cu.json"), "program", "No such file")
BAD(ProgramNotAString, validate("program_number.json"), "program", "expected a string")
BAD(CudaSyntaxErrorNamesTheCuFile, validate("cu_syntax.json"), "@/syntax.cu:1:", "error: expected expression")
BAD_ENV(CudaCompileTimeLimit, {"GPUPM_CLANG_TIMEOUT=1"}, validate("cu_self_include.json"), "@/self_include.cu",
        "clang did not finish within 1 s", "GPUPM_CLANG_TIMEOUT")
BAD_ENV(CudaCompileTimeLimitNotANumber, {"GPUPM_CLANG_TIMEOUT=soon"}, validate("cu_syntax.json"),
        "GPUPM_CLANG_TIMEOUT: soon: expected a number of seconds")

// Names that become paths: one file-name rule where they are declared.
const char* const kFileName = "a name usable as a file name";
BAD(BufferNameWithSlash, validate("name_slash.json"), "buffers.a/b", kFileName)
BAD(BufferNameHidden, validate("name_dot.json"), "buffers..hidden", kFileName)
BAD(BufferNameDotDot, run("name_dotdot.json", {"--dump-buffers", "@OUT"}), "buffers...", kFileName)
BAD(BufferNameTooLong, validate("name_long.json"), kFileName)
BAD(BufferNameWithSpace, validate("name_space.json"), "buffers.my buffer", kFileName)
BAD(BufferNameLikeAnOption, validate("name_dash.json"), "buffers.-rf", kFileName)
BAD(AppNameEmpty, validate("app_empty_name.json"), "apps[0].name", kFileName)
BAD(AppNamesEqual, validate("app_same_names.json"), "apps[1].name", "different from apps[0]'s")
BAD(AppNameWithSlash, run("app_slash_name.json", {"--dump-buffers", "@OUT"}), "apps[0].name", kFileName)
BAD(ThreeApps, validate("app_three.json"), "apps", "1 to 2 elements")
BAD(RespawnWithOneApp, validate("app_respawn_one.json"), "respawn", "two co-running applications")
BAD(AppsAndProgram, validate("app_and_program.json"), "apps", "give either program")
BAD(WorkloadNameWithSlash, validate("top_name_slash.json"), "name", kFileName)

// Buffers and their initialisers.
BAD(BufferCountZero, validate("buf_count_zero.json"), "buffers.a.count", "[1, 2147483648]")
BAD(BufferCountBeyondRange, validate("buf_count_huge.json"), "buffers.a.count", "[1, 2147483648]")
BAD(BuffersBeyond2GiB, run("buf_total.json"), "buffers.a.count", "at most 2048 MiB")
BAD(BufferTypeUnknown, validate("buf_type.json"), "buffers.a.type", "expected one of")
BAD(InitTwoForms, validate("buf_two_forms.json"), "buffers.a.init", "exactly one of fill, iota, random, file")
BAD(InitNoForm, validate("buf_no_form.json"), "buffers.a.init", "exactly one of fill, iota, random, file")
BAD(FillBeyondF32, validate("fill_f32_huge.json"), "buffers.a.init.fill", "f32's range")
BAD(FillBeyondDouble, validate("fill_f64_overflow.json"), "1e400", "1.8e308")
BAD(FillBeyondU8, validate("fill_u8.json"), "buffers.a.init.fill", "[0, 255]")
BAD(FillNegativeU32, run("fill_u32_negative.json"), "buffers.a.init.fill", "[0, 4294967295]")
BAD(FillFractionS32, validate("fill_s32_fraction.json"), "buffers.a.init.fill", "expected an integer")
BAD(FillString, validate("fill_string.json"), "buffers.a.init.fill", "number")
BAD(IotaFractionalStep, validate("iota_step_fraction.json"), "buffers.a.init.iota.step", "expected an integer")
BAD(IotaF32RunsPastItsRange, validate("iota_f32_last.json"), "buffers.a.init.iota.step", "the last element",
    "f32's range")
BAD(IotaWithoutStep, validate("iota_missing_step.json"), "buffers.a.init.iota.step", "missing")
BAD(RandomU64MaxBelowMin, validate("random_u64_order.json"), "buffers.a.init.random.max", "expected max >= min")
BAD(RandomF32MaxBelowMin, validate("random_f32_order.json"), "buffers.a.init.random.max", "expected max >= min")
BAD(RandomSeedNegative, validate("random_seed_negative.json"), "buffers.a.init.random.seed", "[0, ")
BAD(RandomWithoutSeed, validate("random_no_seed.json"), "buffers.a.init.random.seed", "missing")
BAD(RandomF32BoundBeyondRange, run("random_f32_beyond.json"), "buffers.a.init.random.max", "f32's range")
BAD(InitUnknownKey, validate("unknown_init_key.json"), "buffers.a.init.bogus", "unknown key")

// Launches and their arguments.
BAD(StructParameterNegative, validate("arg_struct_negative.json"), "launches[0].args[0]", "16-byte aggregate",
    "a struct or array passed by value")
BAD(StructParameterPositive, run("arg_struct_five.json"), "launches[0].args[0]", "16-byte aggregate")
BAD(StructParameterBuffer, validate("arg_struct_buffer.json"), "launches[0].args[0]",
    "a buffer's address needs a 64-bit parameter")
BAD(FloatParameterBeyondF32, validate("arg_float_huge.json"), "launches[0].args[0]", "f32's range")
BAD(BufferToFloatParameter, validate("arg_buffer_to_float.json"), "launches[0].args[0]", "64-bit parameter")
BAD(ArgumentAbove32Bits, validate("arg_u32_too_big.json"), "launches[0].args[1]", "expected an integer in")
BAD(ArgumentBelow32Bits, validate("arg_u32_too_small.json"), "launches[0].args[1]", "expected an integer in")
BAD(ArgumentFraction, run("arg_fraction.json"), "launches[0].args[1]", "expected an integer")
BAD(ArgumentUnknownBuffer, validate("arg_unknown_buffer.json"), "launches[0].args[0]", "no buffer named \"nobuf\"")
BAD(ArgumentCount, validate("arg_count.json"), "launches[0].args", "expected an array of 2 values")
BAD(ArgumentsAnObject, validate("arg_object.json"), "launches[0].args", "array")
BAD(ArgumentNull, validate("arg_null.json"), "launches[0].args")
BAD(GridZero, validate("grid_zero.json"), "launches[0].grid", "[1, 2147483647]")
BAD(GridFourExtents, validate("grid_four.json"), "launches[0].grid", "1 to 3")
BAD(GridYBeyond65535, validate("grid_y.json"), "launches[0].grid", "[1, 65535]")
BAD(GridBeyond32Bits, run("grid_huge.json"), "launches[0].grid", "at most 2^32 - 1 CTAs")
BAD(BlockProductBeyond1024, validate("block_product.json"), "launches[0].block", "at most 1024 threads per CTA")
BAD(BlockZero, validate("block_zero.json"), "launches[0].block", "[1, 1024]")
BAD(SharedBeyondTheSm, validate("shared_too_much.json"), "launches[0].shared_bytes", "[0, ")
BAD(SharedWithoutExtern, validate("shared_no_extern.json"), "launches[0].shared_bytes", "no extern __shared__")
BAD(RegistersBeyond255, validate("regs_range.json"), "launches[0].regs_per_thread", "[1, 255]")
BAD(RegistersDoNotFit, run("regs_no_fit.json"), "launches[0].block", "one CTA needs more than an SM has")
BAD(RepeatZero, validate("repeat_zero.json"), "launches[0].repeat", "[1, 100000]")
BAD(RepeatAndWhile, validate("repeat_and_while.json"), "launches[0].repeat", "either repeat or while_nonzero")
BAD(WhileUnknownBuffer, validate("while_unknown_buffer.json"), "launches[0].while_nonzero.buffer", "no buffer named")
BAD(WhileWithoutMax, validate("while_no_max.json"), "launches[0].while_nonzero.max", "missing")
BAD(UnknownKernel, run("unknown_kernel.json"), "launches[0].kernel", "no .entry named \"nope\"", "it has: bump")
BAD(LaunchUnknownKey, validate("launch_unknown_key.json"), "launches[0].gird", "unknown key")
BAD(LaunchesEmpty, validate("launches_empty.json"), "launches", "1 to 4096")
BAD(LaunchesTooMany, validate("launches_too_many.json"), "launches[10].repeat", "at most 1000000 kernels")

// The document's structure.
BAD(MalformedJson, validate("malformed.json"), "@/malformed.json", "malformed JSON")
BAD(NumberBeyondDouble, run("number_overflow.json"), "@/number_overflow.json", "1.8e308")
BAD(NoLaunches, validate("no_launches.json"), "launches", "missing")
BAD(LaunchesNotAnArray, validate("launches_not_array.json"), "launches", "array")
BAD(BuffersAnArray, validate("buffers_array.json"), "buffers", "object")
BAD(UnknownTopLevelKey, validate("unknown_top_key.json"), "bogus", "unknown key")

// Output options: checked before the run, exit 2 naming the option.
BAD(DumpBuffersIsAFile, run("good.json", {"--dump-buffers", "@/notes.txt"}), "--dump-buffers: @/notes.txt: is a file",
    "expected a writable folder")
BAD(DumpBuffersIsDevNull, run("good.json", {"--dump-buffers", "/dev/null"}), "--dump-buffers: /dev/null: is a device")
BAD(DumpBuffersUnderAFile, run("good.json", {"--dump-buffers", "@/notes.txt/dump"}), "--dump-buffers",
    "a part of the path is a file")
BAD(DumpBuffersNameTooLong, run("good.json", {"--dump-buffers", "@/" + std::string(300, 'd')}), "--dump-buffers",
    "longer than 255 bytes")
BAD(DumpInputsIsAFile, run("good.json", {"--dump-inputs", "@/notes.txt"}), "--dump-inputs: @/notes.txt: is a file")
BAD(DumpInputsPathTooLong, run("good.json", {"--dump-inputs", long_path()}), "--dump-inputs",
    "leave room for the files written in it")
BAD(OutIsAFile,
    (std::vector<std::string>{"run", "--quiet", "--gpu", kGpu, "--workload", "@/good.json", "--out", "@/notes.txt"}),
    "--out: @/notes.txt: is a file")
BAD(OutNameTooLong,
    (std::vector<std::string>{"run", "--quiet", "--gpu", kGpu, "--workload", "@/good.json", "--out",
                              "@/" + std::string(256, 'o')}),
    "--out", "longer than 255 bytes")
BAD(VcdNameTooLong, run("good.json", {"--vcd", "@/" + std::string(300, 'v') + ".vcd"}), "--vcd",
    "longer than 255 bytes")
BAD(VcdUnderAFile, run("good.json", {"--vcd", "@/notes.txt/t.vcd"}), "--vcd", "@/notes.txt: is a file")
BAD(DumpOfAProfileWorkload,
    (std::vector<std::string>{"run", "--quiet", "--gpu", kGpu, "--workload", "@SRC/configs/workloads/compute.json",
                              "--out", "@OUT", "--dump-buffers", "@/dump"}),
    "--dump-buffers", "only program workloads")
BAD(SweepOutIsAFile,
    (std::vector<std::string>{"sweep", "@SRC/configs/sweeps/example.json", "--out", "@/notes.txt", "--jobs", "1"}),
    "--out: @/notes.txt: is a file")
BAD(ImpedanceOutIsAFile, (std::vector<std::string>{"impedance", "--gpu", kGpu, "--out", "@/notes.txt"}),
    "--out: @/notes.txt: is a file")
BAD(UnknownCommand, (std::vector<std::string>{"frobnicate"}), "unknown command 'frobnicate'", "run, validate")

// Faults while the kernels run: exit 1, one line naming kernel, CTA, warp, PC and source line; nothing written.
FAULT(FaultOutOfBoundsNamesThePtxLine, run("fault_oob.json", {"--dump-buffers", "@OUT/dump"}),
      "kernel bump: CTA 0 (0,0,0) warp 1 lane 8: PC 5 (@/bump.ptx:13): ld.global.u32 address 0x100000a0: "
      "outside every buffer")
FAULT(FaultInCudaNamesTheCuLine, run("fault_cu_oob.json"), "kernel oob: CTA 0 (0,0,0) warp 0 lane 0", "(@/oob.cu:3)",
      "outside every buffer")
FAULT(FaultMisaligned, run("fault_misaligned.json"), "kernel mis: CTA 0 (0,0,0) warp 0 lane 0",
      "(@/faults.ptx:", "misaligned")
FAULT(RunawayOnAFullGpuStopsAtTheLaunchBudget,
      run("fault_spin.json",
          {"--set", "gpu.sim.warp_insts_per_grid_warp=100", "--set", "gpu.sim.max_warp_insts=100000"}),
      "kernel spin: CTA ", "exceeded the launch's budget of 100000 warp instructions",
      "gpu.sim.warp_insts_per_grid_warp 100 x 960 warps", "allows more")
FAULT(RunawayWarpStopsAtItsLimit, run("fault_spin.json", {"--set", "gpu.sim.max_warp_insts=1000"}),
      "kernel spin: CTA 0 (0,0,0) warp 0 lane 0", "exceeded max_warp_insts=1000")
FAULT(BarrierSomeWarpsNeverReachNamesThem, run("fault_barrier.json", {"--set", "gpu.sim.max_sim_ms=0.005"}),
      "did not finish within sim.max_sim_ms = 0.005 ms", "kernel half_barrier (launch 0)", "CTA 0 (0,0,0)",
      "warps 0-3 wait at the barrier PC ", "bar.sync", "warps 4-7 at PC ")
FAULT(RunawayWhileOthersWaitAtABarrierNamesBoth, run("fault_barrier.json", {"--set", "gpu.sim.max_warp_insts=20000"}),
      "kernel half_barrier: CTA 0 (0,0,0) warp ", "exceeded max_warp_insts=20000",
      "(kernel half_barrier CTA 0 (0,0,0): warps 0-3 wait at the barrier PC ")
FAULT(WhileNonzeroPastItsMax, run("fault_while.json"), "launches[0] (kernel bump): while_nonzero buffer \"a\"",
      "still non-zero after 3 launches")
