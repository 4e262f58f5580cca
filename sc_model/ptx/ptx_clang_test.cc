// Real compiler output: compiles small CUDA kernels with Debian's clang
// (skipped when clang++ is not on PATH), parses the PTX and checks the results.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "gpupm/ptx/ptx_test_driver.h"

namespace gpupm::ptx::test {
namespace {

const char* kPrelude = R"(#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#include <__clang_cuda_builtin_vars.h>
)";

const char* kKernels = R"(
extern "C" __global__ void saxpy(float a, const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
extern "C" __global__ void reduce(const float* in, float* out, int n) {
  __shared__ float s[256];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  s[t] = i < n ? in[i] : 0.f;
  __syncthreads();
  for (int k = blockDim.x / 2; k >= 32; k >>= 1) {
    if (t < k) s[t] += s[t + k];
    __syncthreads();
  }
  float v = s[t];
  if (t < 32) {
    for (int o = 16; o > 0; o >>= 1) v += __nvvm_shfl_sync_down_f32(0xffffffff, v, o, 0x1f);
    if (t == 0) __nvvm_atom_add_gen_f(out, v);
  }
}
extern "C" __global__ void loopdiv(int* out, int n) {
  int t = threadIdx.x; int acc = 0;
  for (int i = 0; i < t; ++i) { if (i & 1) acc += i / (n + 1); else acc -= i % 7; }
  out[t] = acc;
}
extern "C" __global__ void localarr(int* out, int k) {
  int a[16];
  for (int i = 0; i < 16; ++i) a[i] = i * threadIdx.x;
  out[threadIdx.x] = a[(threadIdx.x + k) & 15];
}
extern "C" __global__ void atoms(unsigned* c, float* f, int* m) {
  __nvvm_atom_add_gen_f(f, 1.0f);
  unsigned old = __nvvm_atom_cas_gen_i((int*)c, 0, threadIdx.x + 1);
  __nvvm_atom_max_gen_i(m, (int)old + (int)threadIdx.x);
}
extern "C" __global__ void dbl(double* x, double a, int n) {
  int i = threadIdx.x; if (i < n) x[i] = __builtin_sqrt(x[i] * a + 1.0) / (double)(i + 1);
}
extern "C" __global__ void bytes(const unsigned char* b, int* o, short* s) {
  int i = threadIdx.x; o[i] = b[i] + (signed char)b[i + 1]; s[i] = (short)(b[i] * 3);
}
extern "C" __global__ void dyn(float* x) {
  extern __shared__ float d[];
  d[threadIdx.x] = x[threadIdx.x]; __syncthreads(); x[threadIdx.x] = d[blockDim.x - 1 - threadIdx.x];
}
__device__ float gtab[4] = {1.f, 2.f, 3.f, 4.f};
__constant__ float ctab[4] = {5.f, 6.f, 7.f, 8.f};
extern "C" __global__ void glob(float* x) { x[threadIdx.x] = gtab[threadIdx.x & 3] + ctab[threadIdx.x & 3]; }
extern "C" __global__ void misc(int* o, float* f, long long* l, unsigned long long* u, double* d, int k) {
  int t = threadIdx.x;
  float x = f[t];
  unsigned b = __nvvm_vote_ballot_sync(0xffffffff, x > 0.5f);
  int any = __nvvm_vote_any_sync(0xffffffff, t > k);
  o[t] = __builtin_popcount(b) + __builtin_clz(t + 1) + __builtin_bitreverse32(t) + __nvvm_prmt(t, k, 0x3210) + any
       + __nvvm_mul24_i(t, k) + (t < k ? t : k) + __builtin_abs(t - k);
  f[t] = __builtin_fminf(x, 1.0f) + __builtin_fmaxf(x, 0.0f) + __nvvm_div_approx_f(x, 3.0f) + __nvvm_rsqrt_approx_f(x + 1.0f)
       + __builtin_copysignf(x, -1.0f) + __builtin_fabsf(x) + __nvvm_lg2_approx_f(x + 1.0f) + __nvvm_cos_approx_f(x)
       + (float)(long long)x + __builtin_floorf(x) + __builtin_truncf(x) + __builtin_roundf(x);
  l[t] = l[t] / (k + 1) + l[t] % (k + 3) + ((l[t] >> 3) & 0xfff);
  u[t] = u[t] / (unsigned)(k + 1) + (u[t] >> 60) + __nvvm_atom_add_gen_ll((long long*)&l[40], 1);
  d[t] = d[t] * 2.0 + (double)t - __builtin_fmin(d[t], 0.25) + (double)(float)d[t];
  unsigned short s = (unsigned short)(t * 3);
  o[t + 32] = s >> 1;
  o[t + 64] = __nvvm_read_ptx_sreg_laneid() + __nvvm_read_ptx_sreg_warpid() + (int)__nvvm_read_ptx_sreg_clock();
}
extern "C" __global__ void fmaloop(float* x, int n) {
  float a = x[threadIdx.x], b = 1.0001f, c = 0.5f;
  for (int i = 0; i < n; ++i) { a = a * b + c; c = c * b + a; }
  x[threadIdx.x] = a + c;
}
)";

class PtxClang : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    if (std::system("command -v clang++ >/dev/null 2>&1") != 0) return;
    char dir_template[] = "/tmp/gpupm_ptx_clang_XXXXXX";
    std::string dir = mkdtemp(dir_template);
    std::ofstream(dir + "/prelude.h") << kPrelude;
    std::ofstream(dir + "/k.cu") << kKernels;
    std::string cmd = "cd " + dir +
                      " && clang++ -x cuda --cuda-gpu-arch=sm_70 --cuda-device-only -nocudainc -nocudalib -O3 -S"
                      " -Xclang -target-feature -Xclang +ptx64 -include prelude.h k.cu -o k.ptx 2>clang.log";
    bool compiled = std::system(cmd.c_str()) == 0;
    std::stringstream ss;
    ss << std::ifstream(dir + "/k.ptx").rdbuf();
    int removed = std::system(("rm -rf " + dir).c_str());
    (void)removed;
    if (compiled) ptx_ = new std::string(ss.str());
  }
  void SetUp() override {
    if (!ptx_) GTEST_SKIP() << "clang++ (CUDA device compilation) not available";
  }
  static Launch launch(const std::string& kernel, Dim3 grid, Dim3 block) {
    return Launch(*ptx_, kernel, grid, block, "k.ptx");
  }
  static std::string* ptx_;
};
std::string* PtxClang::ptx_ = nullptr;

TEST_F(PtxClang, Saxpy) {
  Launch l = launch("saxpy", Dim3{2, 1, 1}, Dim3{64, 1, 1});
  std::vector<float> x(128), y(128);
  for (int i = 0; i < 128; ++i) x[i] = float(i), y[i] = 1.0f;
  uint64_t px = l.buffer(x), py = l.buffer(y);
  l.param(0, 2.0f);
  l.param(1, px);
  l.param(2, py);
  l.param(3, int32_t(100));
  l.run();
  std::vector<float> got = l.read<float>(py, 128);
  for (int i = 0; i < 128; ++i) EXPECT_EQ(got[i], i < 100 ? 2.0f * float(i) + 1.0f : 1.0f) << i;
}

TEST_F(PtxClang, ReductionWithSharedBarrierShuffleAndAtomic) {
  Launch l = launch("reduce", Dim3{2, 1, 1}, Dim3{256, 1, 1});
  std::vector<float> in(512);
  for (int i = 0; i < 512; ++i) in[i] = float(i % 10);
  uint64_t pin = l.buffer(in), pout = l.buffer(std::vector<float>{0.0f});
  l.param(0, pin);
  l.param(1, pout);
  l.param(2, int32_t(500));
  l.run();
  float expect = 0;
  for (int i = 0; i < 500; ++i) expect += float(i % 10);
  EXPECT_EQ(l.read<float>(pout, 1)[0], expect);
  EXPECT_GT(l.state.kernel->opcode_families.at("shfl"), 0u);
}

TEST_F(PtxClang, LoopWithDivergenceAndIntegerDivision) {
  Launch l = launch("loopdiv", Dim3{}, Dim3{64, 1, 1});
  uint64_t out = l.buffer(std::vector<int32_t>(64, 0));
  l.param(0, out);
  l.param(1, int32_t(2));
  l.run();
  std::vector<int32_t> got = l.read<int32_t>(out, 64);
  for (int t = 0; t < 64; ++t) {
    int acc = 0;
    for (int i = 0; i < t; ++i) acc += (i & 1) ? i / 3 : -(i % 7);
    EXPECT_EQ(got[t], acc) << t;
  }
}

TEST_F(PtxClang, LocalArrayIndexedDynamically) {
  Launch l = launch("localarr", Dim3{}, Dim3{32, 1, 1});
  uint64_t out = l.buffer(std::vector<int32_t>(32, 0));
  l.param(0, out);
  l.param(1, int32_t(5));
  l.run();
  std::vector<int32_t> got = l.read<int32_t>(out, 32);
  for (int t = 0; t < 32; ++t) EXPECT_EQ(got[t], ((t + 5) & 15) * t) << t;
}

TEST_F(PtxClang, AtomicsFloatAddCasMax) {
  Launch l = launch("atoms", Dim3{}, Dim3{40, 1, 1});
  uint64_t c = l.buffer(std::vector<uint32_t>{0}), f = l.buffer(std::vector<float>{0.0f}),
           m = l.buffer(std::vector<int32_t>{0});
  l.param(0, c);
  l.param(1, f);
  l.param(2, m);
  l.run();
  EXPECT_EQ(l.read<float>(f, 1)[0], 40.0f);
  EXPECT_EQ(l.read<uint32_t>(c, 1)[0], 1u);     // lane 0 of warp 0 wins the CAS
  EXPECT_EQ(l.read<int32_t>(m, 1)[0], 1 + 39);  // every later CAS returns 1
}

TEST_F(PtxClang, DoublePrecision) {
  Launch l = launch("dbl", Dim3{}, Dim3{32, 1, 1});
  std::vector<double> x(32);
  for (int i = 0; i < 32; ++i) x[i] = 0.5 * i;
  uint64_t px = l.buffer(x);
  l.param(0, px);
  l.param(1, 3.0);
  l.param(2, int32_t(20));
  l.run();
  std::vector<double> got = l.read<double>(px, 32);
  for (int i = 0; i < 32; ++i)
    EXPECT_EQ(got[i], i < 20 ? std::sqrt(std::fma(0.5 * i, 3.0, 1.0)) / double(i + 1) : 0.5 * i) << i;
}

TEST_F(PtxClang, ByteLoadsAndShorts) {
  Launch l = launch("bytes", Dim3{}, Dim3{32, 1, 1});
  std::vector<uint8_t> b(33);
  for (int i = 0; i < 33; ++i) b[i] = uint8_t(i * 37);
  uint64_t pb = l.buffer(b), po = l.buffer(std::vector<int32_t>(32)), ps = l.buffer(std::vector<int16_t>(32));
  l.param(0, pb);
  l.param(1, po);
  l.param(2, ps);
  l.run();
  std::vector<int32_t> o = l.read<int32_t>(po, 32);
  std::vector<int16_t> s = l.read<int16_t>(ps, 32);
  for (int i = 0; i < 32; ++i) {
    EXPECT_EQ(o[i], int(b[i]) + int(int8_t(b[i + 1]))) << i;
    EXPECT_EQ(s[i], int16_t(b[i] * 3)) << i;
  }
}

TEST_F(PtxClang, DynamicSharedAndModuleVariables) {
  Launch l = launch("dyn", Dim3{}, Dim3{64, 1, 1});
  std::vector<float> x(64);
  for (int i = 0; i < 64; ++i) x[i] = float(i);
  uint64_t px = l.buffer(x);
  l.param(0, px);
  l.state.dynamic_shared_bytes = 256;
  l.run();
  std::vector<float> got = l.read<float>(px, 64);
  for (int i = 0; i < 64; ++i) EXPECT_EQ(got[i], float(63 - i)) << i;

  Launch g = launch("glob", Dim3{}, Dim3{32, 1, 1});
  uint64_t out = g.buffer(std::vector<float>(32));
  g.param(0, out);
  g.run();
  std::vector<float> v = g.read<float>(out, 32);
  for (int i = 0; i < 32; ++i) EXPECT_EQ(v[i], float((i & 3) + 1) + float((i & 3) + 5)) << i;
}

TEST_F(PtxClang, FmaLoop) {
  Launch l = launch("fmaloop", Dim3{}, Dim3{32, 1, 1});
  std::vector<float> x(32);
  for (int i = 0; i < 32; ++i) x[i] = 0.01f * float(i);
  uint64_t px = l.buffer(x);
  l.param(0, px);
  l.param(1, int32_t(50));
  l.run();
  std::vector<float> got = l.read<float>(px, 32);
  for (int i = 0; i < 32; ++i) {
    float a = 0.01f * float(i), b = 1.0001f, c = 0.5f;
    for (int k = 0; k < 50; ++k) a = std::fma(a, b, c), c = std::fma(c, b, a);
    EXPECT_EQ(got[i], a + c) << i;
  }
}

TEST_F(PtxClang, MiscIntrinsicsVotesAndConversions) {
  Launch l = launch("misc", Dim3{}, Dim3{32, 1, 1});
  const int k = 9;
  std::vector<float> f(32);
  std::vector<int64_t> ll(41);
  std::vector<uint64_t> u(32);
  std::vector<double> d(32);
  for (int t = 0; t < 32; ++t) {
    f[t] = 0.07f * float(t) - 0.3f;
    ll[t] = int64_t(t) * 1000003 - 7;
    u[t] = (uint64_t(t) << 58) + 12345;
    d[t] = 0.125 * t;
  }
  uint64_t po = l.buffer(std::vector<int32_t>(96)), pf = l.buffer(f), pl = l.buffer(ll), pu = l.buffer(u),
           pd = l.buffer(d);
  l.param(0, po);
  l.param(1, pf);
  l.param(2, pl);
  l.param(3, pu);
  l.param(4, pd);
  l.param(5, int32_t(k));
  l.run();
  std::vector<int32_t> o = l.read<int32_t>(po, 96);
  std::vector<float> fo = l.read<float>(pf, 32);
  std::vector<int64_t> lo = l.read<int64_t>(pl, 41);
  std::vector<uint64_t> uo = l.read<uint64_t>(pu, 32);
  std::vector<double> dout = l.read<double>(pd, 32);
  uint32_t ballot = 0;
  for (int t = 0; t < 32; ++t) ballot |= uint32_t(f[t] > 0.5f) << t;
  for (int t = 0; t < 32; ++t) {
    uint32_t rev = 0;
    for (int i = 0; i < 32; ++i) rev |= ((uint32_t(t) >> i) & 1) << (31 - i);
    int expect = __builtin_popcount(ballot) + __builtin_clz(uint32_t(t + 1)) + int(rev) + t + 1 + t * k +
                 std::min(t, k) + std::abs(t - k);
    EXPECT_EQ(o[t], expect) << t;
    EXPECT_EQ(o[t + 32], ((t * 3) & 0xffff) >> 1) << t;
    EXPECT_EQ(o[t + 64] - t, o[64]) << "%laneid + %warpid (0) + one %clock value for the warp";
    float x = f[t];
    float ef = std::fmin(x, 1.0f) + std::fmax(x, 0.0f) + x / 3.0f + 1.0f / std::sqrt(x + 1.0f) + -std::fabs(x) +
               std::fabs(x) + std::log2(x + 1.0f) + std::cos(x) + float(int64_t(x)) + std::floor(x) + std::trunc(x) +
               std::round(x);
    EXPECT_NEAR(fo[t], ef, 1e-5f) << t;
    EXPECT_EQ(lo[t], ll[t] / (k + 1) + ll[t] % (k + 3) + ((ll[t] >> 3) & 0xfff)) << t;
    EXPECT_EQ(dout[t], d[t] * 2.0 + double(t) - std::fmin(d[t], 0.25) + double(float(d[t]))) << t;
  }
  EXPECT_GT(o[64], 0);
  EXPECT_EQ(lo[40], 32);
  std::vector<uint64_t> olds;
  for (int t = 0; t < 32; ++t) olds.push_back(uo[t] - (u[t] / uint64_t(k + 1) + (u[t] >> 60)));
  std::sort(olds.begin(), olds.end());
  for (int t = 0; t < 32; ++t) EXPECT_EQ(olds[t], uint64_t(t));  // atomic add returned 0..31
}

}  // namespace
}  // namespace gpupm::ptx::test
