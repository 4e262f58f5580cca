// Dependent-chain probes (issue 27): one warp runs a chain of one PTX operation, eight a loop
// iteration, so a launch's cycles grow by eight times the operation's dependent-issue distance per
// iteration: two launches of each kernel (32 and 64 iterations) give it as their difference / 256.
// The operations are inline PTX so the compiler neither folds nor reorders the chain.

extern "C" __global__ void add_s32(int* __restrict__ out, int iterations) {
  int x = threadIdx.x + 1000;
  for (int k = 0; k < iterations; ++k) {
    asm volatile("add.s32 %0, %0, 3;" : "+r"(x));
    asm volatile("add.s32 %0, %0, 3;" : "+r"(x));
    asm volatile("add.s32 %0, %0, 3;" : "+r"(x));
    asm volatile("add.s32 %0, %0, 3;" : "+r"(x));
    asm volatile("add.s32 %0, %0, 3;" : "+r"(x));
    asm volatile("add.s32 %0, %0, 3;" : "+r"(x));
    asm volatile("add.s32 %0, %0, 3;" : "+r"(x));
    asm volatile("add.s32 %0, %0, 3;" : "+r"(x));
  }
  out[threadIdx.x] = x;
}

extern "C" __global__ void min_s32(int* __restrict__ out, int iterations) {
  int x = threadIdx.x + 1000;
  for (int k = 0; k < iterations; ++k) {
    asm volatile("min.s32 %0, %0, 1000000;" : "+r"(x));
    asm volatile("min.s32 %0, %0, 1000000;" : "+r"(x));
    asm volatile("min.s32 %0, %0, 1000000;" : "+r"(x));
    asm volatile("min.s32 %0, %0, 1000000;" : "+r"(x));
    asm volatile("min.s32 %0, %0, 1000000;" : "+r"(x));
    asm volatile("min.s32 %0, %0, 1000000;" : "+r"(x));
    asm volatile("min.s32 %0, %0, 1000000;" : "+r"(x));
    asm volatile("min.s32 %0, %0, 1000000;" : "+r"(x));
  }
  out[threadIdx.x] = x;
}

extern "C" __global__ void mul_s32(int* __restrict__ out, int iterations) {
  int x = threadIdx.x + 1000;
  for (int k = 0; k < iterations; ++k) {
    asm volatile("mul.lo.s32 %0, %0, 3;" : "+r"(x));
    asm volatile("mul.lo.s32 %0, %0, 3;" : "+r"(x));
    asm volatile("mul.lo.s32 %0, %0, 3;" : "+r"(x));
    asm volatile("mul.lo.s32 %0, %0, 3;" : "+r"(x));
    asm volatile("mul.lo.s32 %0, %0, 3;" : "+r"(x));
    asm volatile("mul.lo.s32 %0, %0, 3;" : "+r"(x));
    asm volatile("mul.lo.s32 %0, %0, 3;" : "+r"(x));
    asm volatile("mul.lo.s32 %0, %0, 3;" : "+r"(x));
  }
  out[threadIdx.x] = x;
}

extern "C" __global__ void mad_s32(int* __restrict__ out, int iterations) {
  int x = threadIdx.x + 1000;
  for (int k = 0; k < iterations; ++k) {
    asm volatile("mad.lo.s32 %0, %0, 3, 1;" : "+r"(x));
    asm volatile("mad.lo.s32 %0, %0, 3, 1;" : "+r"(x));
    asm volatile("mad.lo.s32 %0, %0, 3, 1;" : "+r"(x));
    asm volatile("mad.lo.s32 %0, %0, 3, 1;" : "+r"(x));
    asm volatile("mad.lo.s32 %0, %0, 3, 1;" : "+r"(x));
    asm volatile("mad.lo.s32 %0, %0, 3, 1;" : "+r"(x));
    asm volatile("mad.lo.s32 %0, %0, 3, 1;" : "+r"(x));
    asm volatile("mad.lo.s32 %0, %0, 3, 1;" : "+r"(x));
  }
  out[threadIdx.x] = x;
}

extern "C" __global__ void div_u32(int* __restrict__ out, int iterations) {
  int x = threadIdx.x + 1000;
  for (int k = 0; k < iterations; ++k) {
    asm volatile("div.u32 %0, %0, 3;" : "+r"(x));
    asm volatile("div.u32 %0, %0, 3;" : "+r"(x));
    asm volatile("div.u32 %0, %0, 3;" : "+r"(x));
    asm volatile("div.u32 %0, %0, 3;" : "+r"(x));
    asm volatile("div.u32 %0, %0, 3;" : "+r"(x));
    asm volatile("div.u32 %0, %0, 3;" : "+r"(x));
    asm volatile("div.u32 %0, %0, 3;" : "+r"(x));
    asm volatile("div.u32 %0, %0, 3;" : "+r"(x));
  }
  out[threadIdx.x] = x;
}

extern "C" __global__ void and_b32(int* __restrict__ out, int iterations) {
  int x = threadIdx.x + 1000;
  for (int k = 0; k < iterations; ++k) {
    asm volatile("and.b32 %0, %0, 0x7fffffff;" : "+r"(x));
    asm volatile("and.b32 %0, %0, 0x7fffffff;" : "+r"(x));
    asm volatile("and.b32 %0, %0, 0x7fffffff;" : "+r"(x));
    asm volatile("and.b32 %0, %0, 0x7fffffff;" : "+r"(x));
    asm volatile("and.b32 %0, %0, 0x7fffffff;" : "+r"(x));
    asm volatile("and.b32 %0, %0, 0x7fffffff;" : "+r"(x));
    asm volatile("and.b32 %0, %0, 0x7fffffff;" : "+r"(x));
    asm volatile("and.b32 %0, %0, 0x7fffffff;" : "+r"(x));
  }
  out[threadIdx.x] = x;
}

extern "C" __global__ void add_f32(float* __restrict__ out, int iterations) {
  float x = float(threadIdx.x);
  for (int k = 0; k < iterations; ++k) {
    asm volatile("add.f32 %0, %0, 0f3F800000;" : "+f"(x));
    asm volatile("add.f32 %0, %0, 0f3F800000;" : "+f"(x));
    asm volatile("add.f32 %0, %0, 0f3F800000;" : "+f"(x));
    asm volatile("add.f32 %0, %0, 0f3F800000;" : "+f"(x));
    asm volatile("add.f32 %0, %0, 0f3F800000;" : "+f"(x));
    asm volatile("add.f32 %0, %0, 0f3F800000;" : "+f"(x));
    asm volatile("add.f32 %0, %0, 0f3F800000;" : "+f"(x));
    asm volatile("add.f32 %0, %0, 0f3F800000;" : "+f"(x));
  }
  out[threadIdx.x] = x;
}

extern "C" __global__ void min_f32(float* __restrict__ out, int iterations) {
  float x = float(threadIdx.x);
  for (int k = 0; k < iterations; ++k) {
    asm volatile("min.f32 %0, %0, 0f4B000000;" : "+f"(x));
    asm volatile("min.f32 %0, %0, 0f4B000000;" : "+f"(x));
    asm volatile("min.f32 %0, %0, 0f4B000000;" : "+f"(x));
    asm volatile("min.f32 %0, %0, 0f4B000000;" : "+f"(x));
    asm volatile("min.f32 %0, %0, 0f4B000000;" : "+f"(x));
    asm volatile("min.f32 %0, %0, 0f4B000000;" : "+f"(x));
    asm volatile("min.f32 %0, %0, 0f4B000000;" : "+f"(x));
    asm volatile("min.f32 %0, %0, 0f4B000000;" : "+f"(x));
  }
  out[threadIdx.x] = x;
}

extern "C" __global__ void mul_f32(float* __restrict__ out, int iterations) {
  float x = float(threadIdx.x);
  for (int k = 0; k < iterations; ++k) {
    asm volatile("mul.f32 %0, %0, 0f3F7FF000;" : "+f"(x));
    asm volatile("mul.f32 %0, %0, 0f3F7FF000;" : "+f"(x));
    asm volatile("mul.f32 %0, %0, 0f3F7FF000;" : "+f"(x));
    asm volatile("mul.f32 %0, %0, 0f3F7FF000;" : "+f"(x));
    asm volatile("mul.f32 %0, %0, 0f3F7FF000;" : "+f"(x));
    asm volatile("mul.f32 %0, %0, 0f3F7FF000;" : "+f"(x));
    asm volatile("mul.f32 %0, %0, 0f3F7FF000;" : "+f"(x));
    asm volatile("mul.f32 %0, %0, 0f3F7FF000;" : "+f"(x));
  }
  out[threadIdx.x] = x;
}

extern "C" __global__ void fma_f32(float* __restrict__ out, int iterations) {
  float x = float(threadIdx.x);
  for (int k = 0; k < iterations; ++k) {
    asm volatile("fma.rn.f32 %0, %0, 0f3F7FF000, 0f3A800000;" : "+f"(x));
    asm volatile("fma.rn.f32 %0, %0, 0f3F7FF000, 0f3A800000;" : "+f"(x));
    asm volatile("fma.rn.f32 %0, %0, 0f3F7FF000, 0f3A800000;" : "+f"(x));
    asm volatile("fma.rn.f32 %0, %0, 0f3F7FF000, 0f3A800000;" : "+f"(x));
    asm volatile("fma.rn.f32 %0, %0, 0f3F7FF000, 0f3A800000;" : "+f"(x));
    asm volatile("fma.rn.f32 %0, %0, 0f3F7FF000, 0f3A800000;" : "+f"(x));
    asm volatile("fma.rn.f32 %0, %0, 0f3F7FF000, 0f3A800000;" : "+f"(x));
    asm volatile("fma.rn.f32 %0, %0, 0f3F7FF000, 0f3A800000;" : "+f"(x));
  }
  out[threadIdx.x] = x;
}

extern "C" __global__ void abs_f32(float* __restrict__ out, int iterations) {
  float x = float(threadIdx.x);
  for (int k = 0; k < iterations; ++k) {
    asm volatile("abs.f32 %0, %0;" : "+f"(x));
    asm volatile("abs.f32 %0, %0;" : "+f"(x));
    asm volatile("abs.f32 %0, %0;" : "+f"(x));
    asm volatile("abs.f32 %0, %0;" : "+f"(x));
    asm volatile("abs.f32 %0, %0;" : "+f"(x));
    asm volatile("abs.f32 %0, %0;" : "+f"(x));
    asm volatile("abs.f32 %0, %0;" : "+f"(x));
    asm volatile("abs.f32 %0, %0;" : "+f"(x));
  }
  out[threadIdx.x] = x;
}

extern "C" __global__ void add_f64(double* __restrict__ out, int iterations) {
  double x = double(threadIdx.x);
  for (int k = 0; k < iterations; ++k) {
    asm volatile("add.f64 %0, %0, 0d3FF0000000000000;" : "+d"(x));
    asm volatile("add.f64 %0, %0, 0d3FF0000000000000;" : "+d"(x));
    asm volatile("add.f64 %0, %0, 0d3FF0000000000000;" : "+d"(x));
    asm volatile("add.f64 %0, %0, 0d3FF0000000000000;" : "+d"(x));
    asm volatile("add.f64 %0, %0, 0d3FF0000000000000;" : "+d"(x));
    asm volatile("add.f64 %0, %0, 0d3FF0000000000000;" : "+d"(x));
    asm volatile("add.f64 %0, %0, 0d3FF0000000000000;" : "+d"(x));
    asm volatile("add.f64 %0, %0, 0d3FF0000000000000;" : "+d"(x));
  }
  out[threadIdx.x] = x;
}

extern "C" __global__ void min_f64(double* __restrict__ out, int iterations) {
  double x = double(threadIdx.x);
  for (int k = 0; k < iterations; ++k) {
    asm volatile("min.f64 %0, %0, 0d4160000000000000;" : "+d"(x));
    asm volatile("min.f64 %0, %0, 0d4160000000000000;" : "+d"(x));
    asm volatile("min.f64 %0, %0, 0d4160000000000000;" : "+d"(x));
    asm volatile("min.f64 %0, %0, 0d4160000000000000;" : "+d"(x));
    asm volatile("min.f64 %0, %0, 0d4160000000000000;" : "+d"(x));
    asm volatile("min.f64 %0, %0, 0d4160000000000000;" : "+d"(x));
    asm volatile("min.f64 %0, %0, 0d4160000000000000;" : "+d"(x));
    asm volatile("min.f64 %0, %0, 0d4160000000000000;" : "+d"(x));
  }
  out[threadIdx.x] = x;
}

extern "C" __global__ void mul_f64(double* __restrict__ out, int iterations) {
  double x = double(threadIdx.x);
  for (int k = 0; k < iterations; ++k) {
    asm volatile("mul.f64 %0, %0, 0d3FEFFE0000000000;" : "+d"(x));
    asm volatile("mul.f64 %0, %0, 0d3FEFFE0000000000;" : "+d"(x));
    asm volatile("mul.f64 %0, %0, 0d3FEFFE0000000000;" : "+d"(x));
    asm volatile("mul.f64 %0, %0, 0d3FEFFE0000000000;" : "+d"(x));
    asm volatile("mul.f64 %0, %0, 0d3FEFFE0000000000;" : "+d"(x));
    asm volatile("mul.f64 %0, %0, 0d3FEFFE0000000000;" : "+d"(x));
    asm volatile("mul.f64 %0, %0, 0d3FEFFE0000000000;" : "+d"(x));
    asm volatile("mul.f64 %0, %0, 0d3FEFFE0000000000;" : "+d"(x));
  }
  out[threadIdx.x] = x;
}

extern "C" __global__ void fma_f64(double* __restrict__ out, int iterations) {
  double x = double(threadIdx.x);
  for (int k = 0; k < iterations; ++k) {
    asm volatile("fma.rn.f64 %0, %0, 0d3FEFFE0000000000, 0d3F50000000000000;" : "+d"(x));
    asm volatile("fma.rn.f64 %0, %0, 0d3FEFFE0000000000, 0d3F50000000000000;" : "+d"(x));
    asm volatile("fma.rn.f64 %0, %0, 0d3FEFFE0000000000, 0d3F50000000000000;" : "+d"(x));
    asm volatile("fma.rn.f64 %0, %0, 0d3FEFFE0000000000, 0d3F50000000000000;" : "+d"(x));
    asm volatile("fma.rn.f64 %0, %0, 0d3FEFFE0000000000, 0d3F50000000000000;" : "+d"(x));
    asm volatile("fma.rn.f64 %0, %0, 0d3FEFFE0000000000, 0d3F50000000000000;" : "+d"(x));
    asm volatile("fma.rn.f64 %0, %0, 0d3FEFFE0000000000, 0d3F50000000000000;" : "+d"(x));
    asm volatile("fma.rn.f64 %0, %0, 0d3FEFFE0000000000, 0d3F50000000000000;" : "+d"(x));
  }
  out[threadIdx.x] = x;
}

extern "C" __global__ void abs_f64(double* __restrict__ out, int iterations) {
  double x = double(threadIdx.x);
  for (int k = 0; k < iterations; ++k) {
    asm volatile("abs.f64 %0, %0;" : "+d"(x));
    asm volatile("abs.f64 %0, %0;" : "+d"(x));
    asm volatile("abs.f64 %0, %0;" : "+d"(x));
    asm volatile("abs.f64 %0, %0;" : "+d"(x));
    asm volatile("abs.f64 %0, %0;" : "+d"(x));
    asm volatile("abs.f64 %0, %0;" : "+d"(x));
    asm volatile("abs.f64 %0, %0;" : "+d"(x));
    asm volatile("abs.f64 %0, %0;" : "+d"(x));
  }
  out[threadIdx.x] = x;
}
