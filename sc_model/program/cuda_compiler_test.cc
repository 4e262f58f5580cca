#include "gpupm/program/cuda_compiler.h"

#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

#include "gpupm/common/json_reader.h"

namespace gpupm {
namespace {

namespace fs = std::filesystem;

std::string slurp(const std::string& path) {
  std::ifstream f(path);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// A private cache directory (and restored environment) per test.
class CudaCompiler : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = (fs::temp_directory_path() / ("gpupm_cuda_compiler_" + std::to_string(::getpid()))).string();
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    if (const char* c = std::getenv("GPUPM_CACHE_DIR")) saved_cache_ = c;
    ::setenv("GPUPM_CACHE_DIR", (dir_ + "/cache").c_str(), 1);
  }
  void TearDown() override {
    if (saved_cache_.empty()) ::unsetenv("GPUPM_CACHE_DIR");
    else ::setenv("GPUPM_CACHE_DIR", saved_cache_.c_str(), 1);
    ::unsetenv("GPUPM_CLANG");
    fs::remove_all(dir_);
  }
  std::string write(const std::string& name, const std::string& text) {
    std::string path = dir_ + "/" + name;
    std::ofstream(path) << text;
    return path;
  }
  void skip_without_clang() {
    if (find_cuda_clang().empty()) GTEST_SKIP() << "no clang++ installed";
  }
  std::string dir_, saved_cache_;
};

const char* kSaxpy = R"(
extern "C" __global__ void saxpy(int n, float a, const float* __restrict__ x, float* __restrict__ y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
)";

TEST_F(CudaCompiler, CompilesAKernelToPtx) {
  skip_without_clang();
  bool cached = true;
  std::string ptx = compile_cuda_to_ptx(write("saxpy.cu", kSaxpy), &cached);
  EXPECT_FALSE(cached);
  EXPECT_EQ(fs::path(ptx).parent_path(), fs::path(dir_ + "/cache/ptx"));
  std::string text = slurp(ptx);
  EXPECT_NE(text.find(".target sm_70"), std::string::npos);
  EXPECT_NE(text.find(".visible .entry saxpy("), std::string::npos) << text;
  EXPECT_NE(text.find("fma.rn.f32"), std::string::npos) << text;
  EXPECT_EQ(text.find("call"), std::string::npos) << text;
  for (const auto& e : fs::directory_iterator(dir_ + "/cache/ptx"))  // no temporary left behind
    EXPECT_EQ(e.path().extension(), ".ptx") << e.path();
}

TEST_F(CudaCompiler, SecondCompileIsACacheHit) {
  skip_without_clang();
  std::string cu = write("saxpy.cu", kSaxpy);
  bool cached = true;
  std::string first = compile_cuda_to_ptx(cu, &cached);
  EXPECT_FALSE(cached);
  auto stamp = fs::last_write_time(first);
  std::string second = compile_cuda_to_ptx(cu, &cached);
  EXPECT_TRUE(cached);
  EXPECT_EQ(first, second);
  EXPECT_EQ(fs::last_write_time(second), stamp);
  // A changed source is a different entry.
  std::string third = compile_cuda_to_ptx(write("saxpy.cu", std::string(kSaxpy) + "\n// changed\n"), &cached);
  EXPECT_FALSE(cached);
  EXPECT_NE(third, first);
}

// The InputError compiling `cu` gives: it must name the file and hold every fragment.
void expect_input_error(const std::string& cu, const std::vector<std::string>& fragments) {
  try {
    compile_cuda_to_ptx(cu);
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find(cu), std::string::npos) << msg;
    for (const std::string& f : fragments) EXPECT_NE(msg.find(f), std::string::npos) << msg;
  }
}

TEST_F(CudaCompiler, SyntaxErrorNamesTheFileAndShowsClangsDiagnostic) {
  skip_without_clang();
  std::string cu = write("broken.cu", "extern \"C\" __global__ void k(int* p) { p[0] = 1 }\n");
  expect_input_error(cu, {"error:", "expected ';'"});
  EXPECT_FALSE(fs::exists(dir_ + "/cache/ptx") && !fs::is_empty(dir_ + "/cache/ptx"));  // nothing cached
}

TEST_F(CudaCompiler, MissingClangGivesTheInstallHint) {
  ::setenv("GPUPM_CLANG", "/nonexistent/clang++", 1);
  expect_input_error(write("saxpy.cu", kSaxpy), {"install it with: apt-get install clang"});
}

TEST_F(CudaCompiler, ClangSummaryNamesTheClangAndItsVersionOrWhyNone) {
  ::setenv("GPUPM_CLANG", "/nonexistent/clang++", 1);
  EXPECT_EQ(cuda_clang_summary(),
            "none (GPUPM_CLANG=/nonexistent/clang++ is not an executable; install it with: apt-get install clang)");
  ::unsetenv("GPUPM_CLANG");
  skip_without_clang();
  const std::string summary = cuda_clang_summary();
  EXPECT_EQ(summary.rfind(find_cuda_clang() + " (", 0), 0u) << summary;
  EXPECT_GT(clang_major_version(summary), 0) << summary;
  EXPECT_EQ(summary.find('\n'), std::string::npos) << summary;
}

TEST_F(CudaCompiler, MissingSourceIsAnInputError) {
  EXPECT_THROW(compile_cuda_to_ptx(dir_ + "/absent.cu"), InputError);
}

TEST_F(CudaCompiler, ClangVersionDecidesThePtxFeature) {
  EXPECT_EQ(clang_major_version("Debian clang version 14.0.6\nTarget: x86_64"), 14);
  EXPECT_EQ(clang_major_version("Ubuntu clang version 19.1.7 (3)"), 19);
  EXPECT_EQ(clang_major_version("gcc"), 0);
  auto has_ptx64 = [](const std::vector<std::string>& f) { return std::find(f.begin(), f.end(), "+ptx64") != f.end(); };
  EXPECT_TRUE(has_ptx64(cuda_compile_flags(14)));
  EXPECT_FALSE(has_ptx64(cuda_compile_flags(19)));
}

// Every function of the prelude's contract, each feeding a store so that none is
// optimised away, and the PTX instruction it must become.
const char* kPreludeKernel = R"(
extern __shared__ float dyn[];
extern "C" __global__ void every_function(float* __restrict__ f, int* __restrict__ i, unsigned* __restrict__ u,
                                          unsigned long long* __restrict__ ull, int w) {
  __shared__ int tile[64];
  int t = threadIdx.x + blockIdx.x * blockDim.x + blockDim.y * gridDim.x + threadIdx.y + blockIdx.y + gridDim.y;
  tile[threadIdx.x] = i[t];
  dyn[threadIdx.x] = f[t];
  __syncthreads();
  float x = f[t] + dyn[threadIdx.x ^ 1];
  int v = i[t] + tile[threadIdx.x ^ 1] + warpSize;
  unsigned uv = u[t];
  f[t + 1] = sqrtf(x) + rsqrtf(x) + fabsf(x) + fminf(x, f[2]) + fmaxf(x, f[3]) + floorf(x) + ceilf(x);
  f[t + 2] = __expf(x) + __logf(x) + __sinf(x) + __cosf(x) + __fdividef(x, f[4]);
  f[t + 3] = expf(x) * logf(x) * sinf(x) * cosf(x) * powf(x, f[5]) + fmaf(x, f[6], f[7]);
  i[t + 1] = min(v, i[2]) + max(v, i[3]);
  u[t + 1] = min(uv, u[2]) + max(uv, u[3]);
  i[t + 2] = __shfl_sync(0xffffffffu, v, 3) + __shfl_up_sync(0xffffffffu, v, 1) +
             __shfl_down_sync(0xffffffffu, v, 2) + __shfl_xor_sync(0xffffffffu, v, 4);
  u[t + 2] = __shfl_sync(0xffffffffu, uv, 5, 16) + __shfl_up_sync(0xffffffffu, uv, 1, 8) +
             __shfl_down_sync(0xffffffffu, uv, 2, 16) + __shfl_xor_sync(0xffffffffu, uv, 1, 4);
  f[t + 4] = __shfl_sync(0xffffffffu, x, 7) + __shfl_up_sync(0xffffffffu, x, 2) +
             __shfl_down_sync(0xffffffffu, x, 3) + __shfl_xor_sync(0xffffffffu, x, 8);
  i[t + 3] = atomicAdd(&i[0], v) + atomicSub(&i[1], 3) + atomicMin(&i[4], v) + atomicMax(&i[5], v) +
             atomicExch(&i[6], v) + atomicCAS(&i[7], w, v) + atomicAdd(&tile[1], 1);
  u[t + 3] = atomicAdd(&u[0], uv) + atomicSub(&u[1], 7u) + atomicMin(&u[4], uv) + atomicMax(&u[5], uv) +
             atomicExch(&u[6], uv) + atomicCAS(&u[7], 9u, uv);
  f[t + 5] = atomicAdd(&f[8], x);
  ull[t] = atomicAdd(&ull[0], 5ull);
  __threadfence();
  f[t + 6] = __ldg(&f[9]) + __int_as_float(__float_as_int(x) & 0x7fffffff);
}
)";

TEST_F(CudaCompiler, PreludeFunctionsBecomeTheExpectedPtx) {
  skip_without_clang();
  std::string text = slurp(compile_cuda_to_ptx(write("prelude_check.cu", kPreludeKernel)));
  for (const char* expected :
       {"%tid.x", "%tid.y", "%ctaid.x", "%ctaid.y", "%ntid.x", "%ntid.y", "%nctaid.x", "%nctaid.y",
        ".extern .shared .align 4 .b8 dyn[]", ".shared .align 4 .b8", "bar.sync \t0;", "sqrt.rn.f32",
        "rsqrt.approx.f32", "abs.f32", "min.f32", "max.f32", "cvt.rmi.f32.f32", "cvt.rpi.f32.f32", "ex2.approx.f32",
        "lg2.approx.f32", "sin.approx.f32", "cos.approx.f32", "div.approx.f32", "fma.rn.f32", "min.s32", "max.s32",
        "min.u32", "max.u32",
        // width 32: idx/down/xor clamp 31, up 0; width 16 -> 4127 (16<<8|31), up width 8 -> 6144, xor width 4 -> 7199
        "shfl.sync.idx.b32", "shfl.sync.up.b32", "shfl.sync.down.b32", "shfl.sync.bfly.b32", ", 3, 31, -1;",
        ", 1, 0, -1;", ", 2, 31, -1;", ", 4, 31, -1;", ", 5, 4127, -1;", ", 1, 6144, -1;", ", 2, 4127, -1;",
        ", 1, 7199, -1;", "atom.global.add.u32", "atom.global.min.s32", "atom.global.max.s32", "atom.global.min.u32",
        "atom.global.max.u32", "atom.global.exch.b32", "atom.global.cas.b32", "atom.global.add.f32",
        "atom.global.add.u64", "atom.shared.add.u32", "membar.gl", "ld.global.nc.f32"}) {
    // PTX separates opcode and operands with a tab; compare with any whitespace.
    std::string want = expected;
    bool found = text.find(want) != std::string::npos;
    if (!found && want.find(" \t") != std::string::npos)
      found = text.find(want.replace(want.find(" \t"), 2, "\t")) != std::string::npos;
    EXPECT_TRUE(found) << "missing '" << expected << "'";
  }
  for (const char* absent : {"call", ".f16", "tex.", ".f64"}) EXPECT_EQ(text.find(absent), std::string::npos) << absent;
  // One brace block (the kernel body): no nested blocks with local registers (the line directives'
  // empty .section .debug_loc { } aside).
  const std::string body = text.substr(0, text.find(".section"));
  EXPECT_EQ(std::count(body.begin(), body.end(), '{'), 1) << text;
}

// The PTX carries the .cu's lines (clang's .loc/.file), under a name that does not
// depend on where the .cu is: the cache serves one compile to every copy.
TEST_F(CudaCompiler, PtxCarriesTheSourceLinesUnderAFixedName) {
  skip_without_clang();
  const std::string text = slurp(compile_cuda_to_ptx(write("lines.cu", kSaxpy)));
  EXPECT_NE(text.find(std::string(".file\t1 \"") + kCompiledSource + "\""), std::string::npos) << text;
  EXPECT_NE(text.find(".loc\t1 4 "), std::string::npos) << text;  // `if (i < n) y[i] = ...` is line 4
  fs::create_directories(dir_ + "/elsewhere");
  bool cached = false;
  std::ofstream(dir_ + "/elsewhere/other.cu") << kSaxpy;
  compile_cuda_to_ptx(dir_ + "/elsewhere/other.cu", &cached);
  EXPECT_TRUE(cached);
}

// A .cu that includes itself twice per level (2^40 includes) compiles for ever: clang runs
// under a time limit (GPUPM_CLANG_TIMEOUT seconds) and the error says so.
TEST_F(CudaCompiler, ClangRunsUnderATimeLimit) {
  skip_without_clang();
  const std::string cu =
      write("self.cu", "#if __INCLUDE_LEVEL__ < 40\n#include \"self.cu\"\n#include \"self.cu\"\n#endif\n");
  ::setenv("GPUPM_CLANG_TIMEOUT", "1", 1);
  const auto start = std::chrono::steady_clock::now();
  try {
    compile_cuda_to_ptx(cu);
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(cu + ": clang did not finish within 1 s"), std::string::npos) << e.what();
  }
  ::unsetenv("GPUPM_CLANG_TIMEOUT");
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));
  EXPECT_TRUE(!fs::exists(dir_ + "/cache/ptx") || fs::is_empty(dir_ + "/cache/ptx"));  // no temporary left
}

}  // namespace
}  // namespace gpupm
