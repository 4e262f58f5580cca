// The bad-input catalogue: every kind of input (GPU config, workload profile
// and program, PDN package, sweep spec, experiment config, command-line
// options) given to every command, each case one line: the arguments, and what
// the message must say (the file, JSON path or option, and what is allowed).
// Every case expects exit status 2 from a gpupm child process, within a time
// bound (a hang is a failure), and nothing new in its --out directory.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "support/test_support.h"

namespace {

namespace fs = std::filesystem;
using gpupm::test::source_path;

// Files every case may name, made once per process (each case is a process).
struct Fixtures {
  std::string dir;
  Fixtures() : dir(gpupm::test::temp_dir("badinput")) {
    const std::string kernel =
        R"({"name": "k", "grid_ctas": 4, "warps_per_cta": 2, "max_ctas_per_sm": 2, "insts_per_warp": 100)";
    auto workload = [&](const std::string& kernel_extra, const std::string& top_extra = "") {
      return R"({"name": "w", )" + top_extra + R"("kernels": [)" + kernel + kernel_extra + "}]}";
    };
    write("gpu_overflow.json", R"({"name": "g", "sm": {"count": 1e400}})");
    write("gpu_based_on_missing.json", R"({"based_on": "nosuch.json", "name": "g"})");
    write("gpu_based_on_loop.json", R"({"based_on": "gpu_based_on_loop.json", "name": "g"})");
    write("gpu_based_on_bad_value.json",
          R"({"based_on": ")" + source_path("configs/gpu/gtx480.json") + R"(", "name": "g", "sm": {"count": 0}})");
    write("malformed.json", "{\"name\": ");
    write("array.json", "[1, 2]");
    write("unknown_kind.json", R"({"foo": 1})");
    write("deep.json", std::string(150000, '[') + std::string(150000, ']'));
    write("wl_deep.json", R"({"name": "w", "kernels": )" + std::string(150000, '[') + std::string(150000, ']') + "}");
    write("wl_unknown_key.json", workload(R"(, "bogus": 1)"));
    write("wl_repeat_zero.json", workload(R"(, "repeat": 0)"));
    write("wl_repeat_and_launches.json", workload(R"(, "repeat": 2, "launches": [{}])"));
    write("wl_missing_name.json", R"({"kernels": [)" + kernel + "}]}");
    write("wl_negative_grid.json", R"({"name": "w", "kernels": [{"name": "k", "grid_ctas": -1, "warps_per_cta": 2,
                                      "max_ctas_per_sm": 2, "insts_per_warp": 100}]})");
    write("wl_phases_sum.json", workload(R"(, "phases": [{"fraction": 0.5}])"));
    write("wl_overflow.json", workload(R"(, "mix": {"alu_per_mem": 1e400})"));
    write("wl_dep.json", workload(R"(, "mix": {"dep_min": 9, "dep_max": 3})"));
    write("wl_set_bytes.json", workload(R"(, "memory": {"warp_set_bytes": 200})"));
    write("wl_apps_and_kernels.json", R"({"name": "w", "kernels": [)" + kernel + R"(}], "apps": []})");
    write("wl_three_apps.json", R"({"name": "w", "apps": [{"name": "a", "kernels": [)" + kernel + R"(}]},
        {"name": "b", "kernels": [)" +
                                    kernel + R"(}]}, {"name": "c", "kernels": [)" + kernel + "}]}]}");
    write("wl_respawn.json", workload("", R"("respawn": true, )"));
    write("wl_iterations.json", workload(R"(, "repeat": 2)", R"("iterations": 3, )"));
    write("wl_big_cta_app1.json", R"({"name": "w", "apps": [{"name": "a", "kernels": [)" + kernel + R"(}]},
        {"name": "b", "kernels": [{"name": "k", "grid_ctas": 4, "warps_per_cta": 64, "max_ctas_per_sm": 1,
         "insts_per_warp": 100}]}]})");
    std::string many = R"({"name": "w", "kernels": [)";
    for (int i = 0; i < 11; ++i) many += (i ? ", " : "") + kernel + R"(, "repeat": 100000})";
    write("wl_many_launches.json", many + "]}");
    // A streaming kernel's every launch streams through a fresh region: 9000
    // launches outgrow the 2^40-byte space (about 8,190 fit).
    write("wl_address_space.json", R"({"name": "w", "kernels": [{"name": "stream", "grid_ctas": 180,
        "warps_per_cta": 8, "max_ctas_per_sm": 6, "insts_per_warp": 100, "repeat": 9000,
        "memory": {"stream": 1, "lines_per_access": 4}}]})");

    write("copy.cu", read_source("configs/workloads/cuda/stream_copy/stream_copy.cu"));
    write("syntax_error.cu", "extern \"C\" __global__ void k(int* p) { p[0] = ; }\n");
    write("unsupported.ptx",
          ".version 6.4\n.target sm_70\n.address_size 64\n\n.visible .entry k()\n{\n"
          "\t.reg .b32 \t%r<3>;\n\tfrobnicate.u32 \t%r1, %r2;\n\tret;\n}\n");
    write("not_a_program.txt", "hello\n");
    write("truncated.so",
          "\x7f"
          "ELF\x02\x01\x01");
    fs::copy_file(gpupm::test::test_plugin_path("sm_lowest_plugin"), dir + "/copy.so");
    auto program = [&](const std::string& launch, const std::string& file = "copy.cu",
                       const std::string& src_extra = "") {
      return R"({"name": "p", "program": ")" + file + R"(", "buffers": {"src": {"type": "f32", "count": 8)" +
             src_extra + R"(}, "dst": {"type": "f32", "count": 8}}, "launches": [)" + launch + "]}";
    };
    const std::string good_launch =
        R"({"kernel": "stream_copy", "grid": [1], "block": [32], "args": ["src", "dst", 2]})";
    write("prog_unknown_kernel.json", program(R"({"kernel": "nope", "grid": [1], "block": [32], "args": []})"));
    write("prog_arg_count.json", program(R"({"kernel": "stream_copy", "grid": [1], "block": [32], "args": ["src"]})"));
    write("prog_unknown_buffer.json",
          program(R"({"kernel": "stream_copy", "grid": [1], "block": [32], "args": ["src", "nobuf", 2]})"));
    write("prog_block.json",
          program(R"({"kernel": "stream_copy", "grid": [1], "block": [4096], "args": ["src", "dst", 2]})"));
    write("prog_npy_count.json", program(good_launch, "copy.cu", R"(, "init": {"file": "four.npy"})"));
    write("prog_syntax_error.json", program(good_launch, "syntax_error.cu"));
    write("prog_unsupported.json", program(good_launch, "unsupported.ptx"));
    write("prog_missing.json", program(good_launch, "missing.cu"));
    write("prog_extension.json", program(good_launch, "not_a_program.txt"));
    write("prog_buffer_type.json", R"({"name": "p", "program": "copy.cu", "buffers": {"src": {"type": "f16",
        "count": 8}}, "launches": [)" + good_launch +
                                       "]}");
    write_npy_f32("four.npy", 4);
    // Names that would become paths outside --dump-buffers' folder.
    write("prog_buffer_escapes.json", R"({"name": "p", "program": "copy.cu", "buffers": {"../../escaped":
        {"type": "f32", "count": 8}, "dst": {"type": "f32", "count": 8}}, "launches": [{"kernel": "stream_copy",
        "grid": [1], "block": [32], "args": ["../../escaped", "dst", 2]}]})");
    const std::string app_body = R"(, "program": "copy.cu", "buffers": {"src": {"type": "f32", "count": 8},
        "dst": {"type": "f32", "count": 8}}, "launches": [)" +
                                 good_launch + "]}";
    write("prog_app_absolute.json",
          R"({"name": "w", "apps": [{"name": "/tmp/escaped")" + app_body + R"(, {"name": "b")" + app_body + "]}");
    write("prog_app_dotdot.json",
          R"({"name": "w", "apps": [{"name": "a")" + app_body + R"(, {"name": "..")" + app_body + "]}");

    write("pdn_scale.json", R"({"scale": 5000})");
    write("pdn_unknown_key.json", R"({"scale": 0.5, "sclae": 1})");

    const std::string base = R"("base": {"gpu": ")" + source_path("configs/gpu/gtx480.json") + R"(", "workload": ")" +
                             source_path("configs/workloads/compute.json") + R"(", "policy": "static"})";
    write("sweep_no_base.json", R"({"axes": [{"name": "ctas", "set": "policy.ctas_per_sm", "values": [2]}]})");
    write("sweep_bad_value.json", "{" + base + R"(, "axes": [{"name": "ctas", "set": "policy.ctas_per_sm",
        "values": [2, 99]}]})");
    write("sweep_reserved.json", "{" + base + R"(, "axes": [{"name": "status", "set": "policy.ctas_per_sm",
        "values": [2]}]})");
    write("sweep_overflow.json", "{" + base + R"(, "axes": [{"name": "x", "set": "gpu.power.alu_nj",
        "values": [1e400]}]})");
    write("sweep_duplicate_axis.json", "{" + base + R"(, "axes": [{"name": "x", "set": "policy.ctas_per_sm",
        "values": [2]}, {"name": "x", "set": "policy.sm_level", "values": ["low"]}]})");

    const std::string experiment = R"({"name": "equalizer", "gpu": "configs/gpu/gtx480.json",
        "suite_dir": "configs/workloads/equalizer", "kernels": [{"name": "bp-1", "category": "unsaturated"}])";
    write("exp_small.json", experiment + "}");
    write("exp_unknown_key.json", experiment + R"(, "bogus": 1})");
    write("exp_no_gpu.json", R"({"name": "equalizer", "suite_dir": "configs/workloads/equalizer",
        "kernels": [{"name": "bp-1"}]})");
    write("exp_real_missing.json", R"({"name": "equalizer", "suite": "real", "gpu": "configs/gpu/gtx480.json",
        "suite_dir": "configs/workloads/cuda/equalizer", "classification": {"kernel_share_min": 0.05,
        "cache_gain_min": 1.02}, "programs": [{"name": "nosuch"}]})");
    write("exp_real_bad_paper_kernel.json", R"({"name": "equalizer", "suite": "real", "gpu": "configs/gpu/gtx480.json",
        "suite_dir": "configs/workloads/cuda/equalizer", "classification": {"kernel_share_min": 0.05,
        "cache_gain_min": 1.02}, "programs": [{"name": "kmeans", "paper_kernels": {"nosuch": "kmn-1"}}]})");
    write("exp_bad_margin.json", R"({"name": "voltage-noise", "gpu": "configs/gpu/gtx480.json",
        "suite_dir": "configs/workloads/voltage_noise", "pdn": "configs/pdn/package_default.json",
        "emergency_margin": 0.9, "kernels": [{"name": "bls"}]})");
    write("exp_bad_target_claim.json", R"({"name": "core-shutdown", "gpu": "configs/gpu/gtx480_32sm.json",
        "suite_dir": "configs/workloads/core_shutdown", "oracles": [{"name": "o", "objective": {"kind": "min_energy"},
        "axes": {"sms": [4, 8]}}], "targets": [{"target": "t", "claims": ["C1", "C9"]}], "apps": [{"name": "path"}]})");
    write("exp_bad_oracle_axis.json", R"({"name": "core-shutdown", "gpu": "configs/gpu/gtx480_32sm.json",
        "suite_dir": "configs/workloads/core_shutdown", "oracles": [{"name": "o", "objective": {"kind": "min_energy"},
        "axes": {"sms": []}}], "apps": [{"name": "path"}]})");
    write("exp_programs_in_synthetic.json", experiment + R"(, "programs": [{"name": "bfs"}]})");
    const std::string core_shutdown = R"({"name": "core-shutdown", "gpu": "configs/gpu/gtx480_32sm.json",
        "suite_dir": "configs/workloads/core_shutdown", "oracles": [{"name": "o", "objective": {"kind": "min_energy"},
        "axes": {"sms": [8, 16]}}], "apps": [{"name": "path"}], )";
    write("exp_policy_params_unknown.json", core_shutdown + R"("policy_params": {"alpha": 0.05, "alpah": 1}})");
    write("exp_policy_params_range.json", core_shutdown + R"("policy_params": {"alpha": 2}})");
    write("exp_unknown_name.json", R"({"name": "nosuch", "gpu": "configs/gpu/gtx480.json",
        "suite_dir": "configs/workloads/equalizer", "kernels": [{"name": "bp-1"}]})");

    if (::mkfifo((dir + "/fifo.json").c_str(), 0600) != 0) ADD_FAILURE() << "mkfifo failed";
  }

  void write(const std::string& name, const std::string& text) const {
    std::ofstream(dir + "/" + name, std::ios::binary) << text;
  }
  static std::string read_source(const std::string& relative) { return gpupm::test::read_file(source_path(relative)); }
  // A NumPy 1.0 file of `count` float32 zeros.
  void write_npy_f32(const std::string& name, size_t count) const {
    std::string header = "{'descr': '<f4', 'fortran_order': False, 'shape': (" + std::to_string(count) + ",), }";
    header.resize(117, ' ');
    header += '\n';  // magic (6) + version (2) + length (2) + 118 = 128
    std::string npy = std::string("\x93NUMPY\x01\x00", 8) + char(header.size() & 0xff) + char(header.size() >> 8);
    write(name, npy + header + std::string(count * 4, '\0'));
  }
};

const Fixtures& fixtures() {
  static Fixtures f;
  return f;
}

// One case: gpupm ARGS (as expand_case_arg reads them) exits 2 within the time
// bound, saying every fragment; the case's output folder stays absent or empty.
void expect_bad_input(const std::vector<std::string>& args, const std::vector<std::string>& fragments) {
  const std::string out_dir = fixtures().dir + "/out";
  const gpupm::test::ProcessResult r = gpupm::test::run_case({}, args, fixtures().dir, out_dir);
  const std::string said = r.out + r.err;
  EXPECT_EQ(r.status, 2) << (r.status == 137 ? "timed out (hang)\n" : "") << said;
  for (const std::string& f : fragments) {
    const std::string fragment = gpupm::test::expand_case_arg(f, fixtures().dir, out_dir);
    EXPECT_NE(said.find(fragment), std::string::npos) << "missing '" << f << "' in:\n" << said;
  }
  EXPECT_TRUE(gpupm::test::empty_or_absent(out_dir)) << "--out " << out_dir << " holds new files";
}

const char* const kGpu = "@SRC/configs/gpu/gtx480.json";
const char* const kCompute = "@SRC/configs/workloads/compute.json";

std::vector<std::string> run_with(const std::string& workload, std::vector<std::string> extra = {}) {
  std::vector<std::string> a = {"run", "--quiet", "--gpu", kGpu, "--workload", workload, "--out", "@OUT"};
  a.insert(a.end(), extra.begin(), extra.end());
  return a;
}
std::vector<std::string> run_gpu(const std::string& gpu) {
  return {"run", "--quiet", "--gpu", gpu, "--workload", kCompute, "--out", "@OUT"};
}
std::vector<std::string> run_set(const std::string& set) { return run_with(kCompute, {"--set", set}); }
std::vector<std::string> validate(const std::string& file) { return {"validate", file}; }
std::vector<std::string> impedance(std::vector<std::string> extra) {
  std::vector<std::string> a = {"impedance", "--gpu", kGpu, "--out", "@OUT"};
  a.insert(a.end(), extra.begin(), extra.end());
  return a;
}
std::vector<std::string> experiment(std::vector<std::string> extra) {
  std::vector<std::string> a = {"experiment", "equalizer", "--out", "@OUT", "--jobs", "1"};
  a.insert(a.end(), extra.begin(), extra.end());
  return a;
}
std::vector<std::string> sweep(const std::string& spec, std::vector<std::string> extra = {}) {
  std::vector<std::string> a = {"sweep", spec, "--out", "@OUT", "--jobs", "1"};
  a.insert(a.end(), extra.begin(), extra.end());
  return a;
}

}  // namespace

#define BAD_INPUT(name, args, ...) \
  TEST(BadInput, name) { expect_bad_input(args, {__VA_ARGS__}); }

// GPU configs.
BAD_INPUT(GpuNumberOverflowsDouble, validate("@/gpu_overflow.json"), "@/gpu_overflow.json", "1e400", "1.8e308")
BAD_INPUT(GpuMalformedJson, run_gpu("@/malformed.json"), "@/malformed.json", "malformed JSON at line 1")
BAD_INPUT(GpuMissingFile, run_gpu("@/nosuch.json"), "@/nosuch.json", "cannot open file for reading: No such file")
BAD_INPUT(GpuIsFifo, run_gpu("@/fifo.json"), "@/fifo.json", "is a FIFO; expected a regular file")
BAD_INPUT(GpuIsDirectory, run_gpu("@/"), "is a directory; expected a regular file")
BAD_INPUT(GpuUnknownKey, run_set("gpu.bogus=1"), "bogus", "unknown key; allowed here:")
BAD_INPUT(GpuValueOutOfRange, run_set("gpu.sm.count=0"), "sm.count", "expected an integer in [")
BAD_INPUT(GpuLineBytesDisagree, run_set("gpu.memory.line_bytes=64"), "memory.line_bytes",
          "expected 128 (equal to sm.line_bytes), got 64")
BAD_INPUT(GpuDeepNesting, run_gpu("@/deep.json"), "@/deep.json", "nesting deeper than 256")
BAD_INPUT(GpuBasedOnMissingFile, run_gpu("@/gpu_based_on_missing.json"), "@/gpu_based_on_missing.json: based_on",
          "no file")
BAD_INPUT(GpuBasedOnItself, validate("@/gpu_based_on_loop.json"), "@/gpu_based_on_loop.json: based_on",
          "already in the chain")
BAD_INPUT(GpuBasedOnBadValue, run_gpu("@/gpu_based_on_bad_value.json"), "@/gpu_based_on_bad_value.json (based on ",
          "gtx480.json): sm.count", "expected an integer in [")
BAD_INPUT(GpuNotAnObjectValidate, validate("@/array.json"), "@/array.json", "expected a JSON object")

// Workload profiles.
BAD_INPUT(WorkloadMissingFile, run_with("@/nosuch_wl.json"), "@/nosuch_wl.json",
          "cannot open file for reading: No such file")
BAD_INPUT(WorkloadIsFifo, run_with("@/fifo.json"), "@/fifo.json", "is a FIFO")
BAD_INPUT(WorkloadIsFifoValidate, validate("@/fifo.json"), "@/fifo.json", "is a FIFO")
BAD_INPUT(WorkloadDeepNesting, validate("@/wl_deep.json"), "@/wl_deep.json", "nesting deeper than 256 levels")
BAD_INPUT(WorkloadTooManyLaunches, validate("@/wl_many_launches.json"), "kernels[10].repeat",
          "more than 1000000 kernel launches")
BAD_INPUT(WorkloadOutgrowsAddressSpace, validate("@/wl_address_space.json"), "kernels[0] (launch 81",
          "2^40-byte address space")
BAD_INPUT(WorkloadOutgrowsAddressSpaceRun, run_with("@/wl_address_space.json"), "kernels[0] (launch 81", "2^40-byte")
BAD_INPUT(WorkloadOversizedCtaInSecondApp, run_with("@/wl_big_cta_app1.json"), "apps[1].kernels[0].warps_per_cta",
          "expected at most 48")
BAD_INPUT(WorkloadUnknownKey, validate("@/wl_unknown_key.json"), "kernels[0].bogus", "unknown key")
BAD_INPUT(WorkloadRepeatZero, validate("@/wl_repeat_zero.json"), "kernels[0].repeat", "[1, 100000]")
BAD_INPUT(WorkloadRepeatAndLaunches, run_with("@/wl_repeat_and_launches.json"), "kernels[0].repeat",
          "either launches or repeat")
BAD_INPUT(WorkloadMissingName, validate("@/wl_missing_name.json"), "name: missing (required)")
BAD_INPUT(WorkloadNegativeGrid, validate("@/wl_negative_grid.json"), "kernels[0].grid_ctas",
          "expected an integer in [1, ")
BAD_INPUT(WorkloadPhasesDoNotSum, validate("@/wl_phases_sum.json"), "kernels[0].phases", "sum to 1")
BAD_INPUT(WorkloadNumberOverflowsDouble, run_with("@/wl_overflow.json"), "@/wl_overflow.json", "1.8e308")
BAD_INPUT(WorkloadDependencyRange, validate("@/wl_dep.json"), "dep_max", "dep_max >= dep_min")
BAD_INPUT(WorkloadSetBytesNotLines, validate("@/wl_set_bytes.json"), "warp_set_bytes", "multiple of 128")
BAD_INPUT(WorkloadAppsAndKernels, validate("@/wl_apps_and_kernels.json"), "apps", "either kernels")
BAD_INPUT(WorkloadThreeApps, validate("@/wl_three_apps.json"), "apps", "1 to 2 elements")
BAD_INPUT(WorkloadRespawnOneApp, validate("@/wl_respawn.json"), "respawn", "two co-running applications")
BAD_INPUT(WorkloadIterationsMismatch, validate("@/wl_iterations.json"), "kernels[0]", "\"iterations\"")
BAD_INPUT(WorkloadSetUnknownKey, run_set("workload.kernels[0].bogus=1"), "kernels[0].bogus", "unknown key")

// Program workloads.
BAD_INPUT(ProgramBufferNameEscapesDumpFolder, run_with("@/prog_buffer_escapes.json", {"--dump-buffers", "@OUT"}),
          "buffers.../../escaped", "a name usable as a file name")
BAD_INPUT(ProgramBufferNameEscapesValidate, validate("@/prog_buffer_escapes.json"), "buffers.../../escaped",
          "a name usable as a file name")
BAD_INPUT(ProgramAppNameAbsolutePath, run_with("@/prog_app_absolute.json", {"--dump-buffers", "@OUT"}), "apps[0].name",
          "a name usable as a file name", "/tmp/escaped")
BAD_INPUT(ProgramAppNameDotDot, validate("@/prog_app_dotdot.json"), "apps[1].name", "a name usable as a file name")
BAD_INPUT(ProgramUnknownKernel, run_with("@/prog_unknown_kernel.json"), "launches[0].kernel",
          "no .entry named \"nope\"", "it has: stream_copy")
BAD_INPUT(ProgramWrongArgumentCount, run_with("@/prog_arg_count.json"), "launches[0].args",
          "expected an array of 3 values")
BAD_INPUT(ProgramUnknownBuffer, run_with("@/prog_unknown_buffer.json"), "launches[0].args", "no buffer named \"nobuf\"")
BAD_INPUT(ProgramNpyCountMismatch, run_with("@/prog_npy_count.json"), "buffers.src.init.file", "holds 4 elements")
BAD_INPUT(ProgramCudaSyntaxError, run_with("@/prog_syntax_error.json"), "@/syntax_error.cu", "clang failed",
          "error: expected expression")
BAD_INPUT(ProgramPtxUnsupportedInstruction, run_with("@/prog_unsupported.json"),
          "unsupported.ptx:8:", "unsupported instruction")
BAD_INPUT(ProgramMissingSource, validate("@/prog_missing.json"), "program", "No such file")
BAD_INPUT(ProgramWrongExtension, validate("@/prog_extension.json"), "program", "expected a .cu (CUDA C++) or .ptx")
BAD_INPUT(ProgramBlockTooLarge, run_with("@/prog_block.json"), "launches[0].block", "in [1, 1024]")
BAD_INPUT(ProgramBufferType, validate("@/prog_buffer_type.json"), "buffers.src.type", "expected one of")
BAD_INPUT(ProgramDumpBuffersOfProfile, run_with(kCompute, {"--dump-buffers", "@/dump"}), "--dump-buffers",
          "only program workloads")

// PDN packages.
BAD_INPUT(PdnScaleAboveRange, run_with(kCompute, {"--pdn", "@/pdn_scale.json"}), "scale", "1000]")
BAD_INPUT(PdnUnknownKey, validate("@/pdn_unknown_key.json"), "sclae", "unknown key")
BAD_INPUT(PdnIsFifo, run_with(kCompute, {"--pdn", "@/fifo.json"}), "@/fifo.json", "is a FIFO")
BAD_INPUT(PdnMalformed, impedance({"--pdn", "@/malformed.json"}), "@/malformed.json", "malformed JSON")

// Sweep specs.
BAD_INPUT(SweepMissingBase, sweep("@/sweep_no_base.json"), "@/sweep_no_base.json", "base: missing (required)")
BAD_INPUT(SweepInvalidRun, sweep("@/sweep_bad_value.json"), "axes", "is not valid", "ctas_per_sm")
BAD_INPUT(SweepReservedAxisName, sweep("@/sweep_reserved.json"), "axes[0].name", "is a results.csv column")
BAD_INPUT(SweepNumberOverflowsDouble, sweep("@/sweep_overflow.json"), "@/sweep_overflow.json", "1.8e308")
BAD_INPUT(SweepDuplicateAxis, sweep("@/sweep_duplicate_axis.json"), "axes[1].name", "two axes named \"x\"")
BAD_INPUT(SweepSpecIsFifo, sweep("@/fifo.json"), "@/fifo.json", "is a FIFO")
BAD_INPUT(SweepValidateDetectsSpec, validate("@/sweep_bad_value.json"), "@/sweep_bad_value.json", "is not valid")
BAD_INPUT(SweepJobsOutOfRange, sweep("@SRC/configs/sweeps/example.json", {"--jobs", "1000"}), "--jobs", "1000")

// Experiment configs.
BAD_INPUT(ExperimentUnknownName, (std::vector<std::string>{"experiment", "nosuch", "--out", "@OUT"}),
          "unknown experiment \"nosuch\"", "equalizer")
BAD_INPUT(ExperimentSetUnknownKey, experiment({"--config", "@/exp_small.json", "--set", "gpu.bogus=1"}), "bogus",
          "unknown key")
BAD_INPUT(ExperimentSetOverflow, experiment({"--config", "@/exp_small.json", "--set", "gpu.power.alu_nj=1e999"}),
          "1e999", "1.8e308")
BAD_INPUT(ExperimentConfigMissingGpu, experiment({"--config", "@/exp_no_gpu.json"}), "@/exp_no_gpu.json",
          "gpu: missing (required)")
BAD_INPUT(ExperimentOnlyUnknownEntry, experiment({"--config", "@/exp_small.json", "--only", "nosuch"}),
          "no entry named \"nosuch\"")
BAD_INPUT(ExperimentSuiteUnknown, experiment({"--suite", "bogus"}), "--suite", "\"bogus\"", "{synthetic, real}")
BAD_INPUT(ExperimentSuiteDisagreesWithConfig, experiment({"--config", "@/exp_small.json", "--suite", "real"}),
          "@/exp_small.json", "suite", "--suite asks for real")
BAD_INPUT(ExperimentRealProgramMissing, experiment({"--config", "@/exp_real_missing.json"}), "nosuch/nosuch.json")
BAD_INPUT(ExperimentRealPaperKernelUnknown, experiment({"--config", "@/exp_real_bad_paper_kernel.json"}),
          "programs[0].paper_kernels.nosuch", "kernels: kmeansPoint, kmeans_centers")
BAD_INPUT(ExperimentValueOutOfRange, validate("@/exp_bad_margin.json"), "@/exp_bad_margin.json", "emergency_margin",
          "[0.01, 0.5]")
BAD_INPUT(ExperimentOracleAxisEmpty, validate("@/exp_bad_oracle_axis.json"), "@/exp_bad_oracle_axis.json",
          "oracles[0].axes.sms", "non-empty array")
BAD_INPUT(ExperimentTargetNamesAnUnknownClaim, validate("@/exp_bad_target_claim.json"), "@/exp_bad_target_claim.json",
          "targets[0].claims[1]", "a claim id of this experiment (C1,", "\"C9\"")
BAD_INPUT(ExperimentEntriesOfTheOtherSuite, validate("@/exp_programs_in_synthetic.json"),
          "@/exp_programs_in_synthetic.json", "programs: not in a synthetic suite's config", "\"kernels\"")
BAD_INPUT(ExperimentPolicyParamsUnknownKey, validate("@/exp_policy_params_unknown.json"),
          "@/exp_policy_params_unknown.json", "policy_params.alpah", "unknown key")
BAD_INPUT(ExperimentPolicyParamsOutOfRange, validate("@/exp_policy_params_range.json"),
          "@/exp_policy_params_range.json", "policy_params.alpha", "[0, 1]")
BAD_INPUT(ExperimentConfigIsFifo, experiment({"--config", "@/fifo.json"}), "@/fifo.json", "is a FIFO")
BAD_INPUT(ExperimentValidateUnknownKey, validate("@/exp_unknown_key.json"), "@/exp_unknown_key.json", "bogus",
          "unknown key")
BAD_INPUT(ExperimentValidateUnknownName, validate("@/exp_unknown_name.json"), "name", "unknown experiment \"nosuch\"")

// Command-line options of run.
BAD_INPUT(RunSeedNegative, run_with(kCompute, {"--seed=-1"}), "--seed", "[0, 18446744073709551615]")
BAD_INPUT(RunSeedOverflows, run_with(kCompute, {"--seed", "18446744073709551616"}), "--seed",
          "[0, 18446744073709551615]")
BAD_INPUT(RunSetUnknownTopLevelKey, run_set("bogus=1"), "bogus", "allowed: gpu, workload, policy, seed")
BAD_INPUT(RunSetNumberOverflowsDouble, run_set("gpu.power.alu_nj=1e999"), "gpu.power.alu_nj", "1.8e308")
BAD_INPUT(RunSetNotUtf8, run_set("workload.name=\xff\xfe"), "--set", "UTF-8")
BAD_INPUT(RunSetWithoutEquals, run_set("gpu.sm.count"), "--set", "expected path=value")
BAD_INPUT(RunSetSeedNegative, run_set("seed=-3"), "seed", "non-negative integer")
BAD_INPUT(RunUnknownPolicy, run_with(kCompute, {"--policy", "nope"}), "unknown policy \"nope\"", "baseline")
BAD_INPUT(RunVcdMissingDirectory, run_with(kCompute, {"--vcd", "@/nodir/t.vcd"}), "--vcd", "does not exist")
BAD_INPUT(RunTracePeriodWithoutVcd, run_with(kCompute, {"--trace-period-cycles", "128"}), "--trace-period-cycles",
          "only with --vcd")
BAD_INPUT(RunMissingRequiredOption, (std::vector<std::string>{"run", "--gpu", kGpu, "--out", "@OUT"}), "--workload")

// Policy plugins (--plugin; the good one in tests/plugin_test.cc).
const char* const kExpectedPlugin = "expected a policy plugin: a shared object (.so)";
BAD_INPUT(PluginMissingFile, run_with(kCompute, {"--plugin", "@/nosuch.so"}), "--plugin @/nosuch.so: no such file",
          kExpectedPlugin, "GPUPM_REGISTER_POLICY")
BAD_INPUT(PluginIsDirectory, (std::vector<std::string>{"policies", "--plugin", "@/"}), "is a directory",
          kExpectedPlugin)
BAD_INPUT(PluginNotElf, run_with(kCompute, {"--plugin=@/not_a_program.txt"}),
          "--plugin @/not_a_program.txt: is not an ELF shared object", kExpectedPlugin)
BAD_INPUT(PluginBrokenElf, run_with(kCompute, {"--plugin", "@/truncated.so"}),
          "--plugin @/truncated.so: cannot be loaded: ", kExpectedPlugin)
BAD_INPUT(PluginRegistersNoPolicy, run_with(kCompute, {"--plugin", "@PLUGIN/no_policy_plugin"}),
          "--plugin @PLUGIN/no_policy_plugin", ": registers no policy", "GPUPM_REGISTER_POLICY")
BAD_INPUT(PluginPolicyNameTaken, run_with(kCompute, {"--plugin", "@PLUGIN/sm_lowest_plugin", "--plugin", "@/copy.so"}),
          "--plugin @/copy.so: policy \"plugin-sm-lowest\" of plugin @/copy.so is already registered (plugin ",
          "expected a name no other policy has")
BAD_INPUT(PluginOfSweep, sweep("@SRC/configs/sweeps/example.json", {"--plugin", "@/nosuch.so"}), "no such file",
          kExpectedPlugin)
BAD_INPUT(PluginOfExperiment, experiment({"--config", "@/exp_small.json", "--plugin", "@/not_a_program.txt"}),
          "is not an ELF shared object")

// bench.
BAD_INPUT(BenchRepeatNegative, (std::vector<std::string>{"bench", "--repeat=-5"}), "--repeat", "1 to 1000")
BAD_INPUT(BenchMissingWorkload, (std::vector<std::string>{"bench", "--workload", "@/nosuch_wl.json"}),
          "@/nosuch_wl.json", "cannot open file for reading: No such file")
BAD_INPUT(BenchBadSet, (std::vector<std::string>{"bench", "--workload", kCompute, "--set", "gpu.bogus=1"}), "bogus",
          "unknown key")
BAD_INPUT(BenchProgramsWithoutSuite, (std::vector<std::string>{"bench", "--programs", "kmeans"}), "--programs",
          "expected --real-suite with it")
BAD_INPUT(BenchUnknownProgram, (std::vector<std::string>{"bench", "--real-suite", "--programs", "nosuch"}),
          "--programs", "no real program named 'nosuch'", "equalizer/kmeans")
BAD_INPUT(BenchSuiteAndWorkload, (std::vector<std::string>{"bench", "--real-suite", "--workload", kCompute}),
          "--workload", "not both")
BAD_INPUT(BenchAgainstNotABinary, (std::vector<std::string>{"bench", "--against", "@/nosuch_gpupm"}), "--against",
          "@/nosuch_gpupm", "not an executable file")

// impedance.
BAD_INPUT(ImpedanceFmaxInfinite, impedance({"--fmax", "inf"}), "--fmax", "a finite frequency above --fmin")
BAD_INPUT(ImpedanceFmaxNan, impedance({"--fmax", "nan"}), "--fmax", "finite")
BAD_INPUT(ImpedanceFminNegative, impedance({"--fmin=-5"}), "--fmin", "a finite frequency > 0")
BAD_INPUT(ImpedanceFminAboveFmax, impedance({"--fmin", "1e9", "--fmax", "1e6"}), "--fmax", "above --fmin")
BAD_INPUT(ImpedanceTooManyPoints, impedance({"--per-decade", "100000000"}), "--per-decade", "at most 100000")
BAD_INPUT(ImpedanceBadSet,
          impedance({"--pdn", "@SRC/configs/pdn/package_default.json", "--set", "pdn.network.scale=0"}),
          "pdn.network.scale", "expected a number in [")

// ptx and validate.
BAD_INPUT(PtxMissingFile, (std::vector<std::string>{"ptx", "@/nosuch.ptx"}), "@/nosuch.ptx", "No such file")
BAD_INPUT(PtxUnsupportedInstruction, (std::vector<std::string>{"ptx", "@/unsupported.ptx"}),
          "unsupported.ptx:8:", "unsupported instruction")
BAD_INPUT(PtxCudaSyntaxError, (std::vector<std::string>{"ptx", "@/syntax_error.cu"}), "@/syntax_error.cu",
          "error: expected expression")
BAD_INPUT(ParamsSetOutOfRange, (std::vector<std::string>{"params", "--set", "gpu.sm.count=0"}), "sm.count",
          "expected an integer in [1, 1024], got 0")
BAD_INPUT(ParamsSetOutsideGpu, (std::vector<std::string>{"params", "--set", "workload.name=x"}), "--set", "gpu.*")
BAD_INPUT(ParamsUnknownSchemaKind, (std::vector<std::string>{"params", "--schema", "gpu"}), "--schema",
          "gpu_config, workload, sweep_spec, policy")
BAD_INPUT(ValidateUnknownKind, validate("@/unknown_kind.json"), "not a GPU config", "a sweep spec",
          "an experiment config")
