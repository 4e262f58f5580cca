// Dependent chains of the SFU's operations (issue 27), as dep_chains.cu: one warp runs a chain of
// one PTX operation, eight a loop iteration, each kernel at 32 and 64 iterations, so the difference
// of the two launches' cycles / 256 is the operation's dependent-issue distance. GPGPU-Sim runs
// these on its SFU unit, div.rn by the -ptx_opcode_*_fp/_dp DIV entries, the rest by _sfu.
#define STEP(OP, C) asm volatile(OP : "+" C(x));
#define CHAIN(NAME, T, INIT, C, OP)                                                    \
  extern "C" __global__ void NAME(T* __restrict__ out, int iterations) {              \
    T x = INIT;                                                                          \
    for (int k = 0; k < iterations; ++k) {                                               \
      STEP(OP, C) STEP(OP, C) STEP(OP, C) STEP(OP, C) STEP(OP, C) STEP(OP, C) STEP(OP, C) STEP(OP, C) \
    }                                                                                    \
    out[threadIdx.x] = x;                                                                \
  }

CHAIN(div_f32, float, float(threadIdx.x + 1), "f", "div.rn.f32 %0, %0, 0f3F800100;")
CHAIN(div_f64, double, double(threadIdx.x + 1), "d", "div.rn.f64 %0, %0, 0d3FF0001000000000;")
CHAIN(rcp_f32, float, float(threadIdx.x + 1), "f", "rcp.rn.f32 %0, %0;")
CHAIN(sqrt_f32, float, float(threadIdx.x + 1), "f", "sqrt.rn.f32 %0, %0;")
CHAIN(ex2_f32, float, -float(threadIdx.x + 1), "f", "ex2.approx.f32 %0, %0;")
CHAIN(lg2_f32, float, float(threadIdx.x + 2), "f", "lg2.approx.f32 %0, %0;")
