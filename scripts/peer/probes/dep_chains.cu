// Dependent-chain probes (issue 27): one warp runs a chain of one PTX operation, eight a loop
// iteration, so a launch's cycles grow by eight times the operation's dependent-issue distance per
// iteration: two launches of each kernel (32 and 64 iterations) give it as their difference / 256.
// The operations are inline PTX so the compiler neither folds nor reorders the chain. The SFU's
// operations (the last six: GPGPU-Sim runs them on its SFU unit, div.rn by the -ptx_opcode_*_fp/_dp
// DIV entries, the rest by _sfu) are launched by sfu_chains.json.
#define STEP(OP, C) asm volatile(OP : "+" C(x));
#define CHAIN(NAME, T, INIT, C, OP)                                                    \
  extern "C" __global__ void NAME(T* __restrict__ out, int iterations) {              \
    T x = INIT;                                                                          \
    for (int k = 0; k < iterations; ++k) {                                               \
      STEP(OP, C) STEP(OP, C) STEP(OP, C) STEP(OP, C) STEP(OP, C) STEP(OP, C) STEP(OP, C) STEP(OP, C) \
    }                                                                                    \
    out[threadIdx.x] = x;                                                                \
  }

CHAIN(add_s32, int, threadIdx.x + 1000, "r", "add.s32 %0, %0, 3;")
CHAIN(min_s32, int, threadIdx.x + 1000, "r", "min.s32 %0, %0, 1000000;")
CHAIN(mul_s32, int, threadIdx.x + 1000, "r", "mul.lo.s32 %0, %0, 3;")
CHAIN(mad_s32, int, threadIdx.x + 1000, "r", "mad.lo.s32 %0, %0, 3, 1;")
CHAIN(div_u32, int, threadIdx.x + 1000, "r", "div.u32 %0, %0, 3;")
CHAIN(and_b32, int, threadIdx.x + 1000, "r", "and.b32 %0, %0, 0x7fffffff;")
CHAIN(add_f32, float, float(threadIdx.x), "f", "add.f32 %0, %0, 0f3F800000;")
CHAIN(min_f32, float, float(threadIdx.x), "f", "min.f32 %0, %0, 0f4B000000;")
CHAIN(mul_f32, float, float(threadIdx.x), "f", "mul.f32 %0, %0, 0f3F7FF000;")
CHAIN(fma_f32, float, float(threadIdx.x), "f", "fma.rn.f32 %0, %0, 0f3F7FF000, 0f3A800000;")
CHAIN(abs_f32, float, float(threadIdx.x), "f", "abs.f32 %0, %0;")
CHAIN(add_f64, double, double(threadIdx.x), "d", "add.f64 %0, %0, 0d3FF0000000000000;")
CHAIN(min_f64, double, double(threadIdx.x), "d", "min.f64 %0, %0, 0d4160000000000000;")
CHAIN(mul_f64, double, double(threadIdx.x), "d", "mul.f64 %0, %0, 0d3FEFFE0000000000;")
CHAIN(fma_f64, double, double(threadIdx.x), "d", "fma.rn.f64 %0, %0, 0d3FEFFE0000000000, 0d3F50000000000000;")
CHAIN(abs_f64, double, double(threadIdx.x), "d", "abs.f64 %0, %0;")
CHAIN(div_f32, float, float(threadIdx.x + 1), "f", "div.rn.f32 %0, %0, 0f3F800100;")
CHAIN(div_f64, double, double(threadIdx.x + 1), "d", "div.rn.f64 %0, %0, 0d3FF0001000000000;")
CHAIN(rcp_f32, float, float(threadIdx.x + 1), "f", "rcp.rn.f32 %0, %0;")
CHAIN(sqrt_f32, float, float(threadIdx.x + 1), "f", "sqrt.rn.f32 %0, %0;")
CHAIN(ex2_f32, float, -float(threadIdx.x + 1), "f", "ex2.approx.f32 %0, %0;")
CHAIN(lg2_f32, float, float(threadIdx.x + 2), "f", "lg2.approx.f32 %0, %0;")
