// gpupm's CUDA prelude: force-included (-include) into every .cu that gpupm
// compiles with clang in -nocudainc -nocudalib mode (sc_model/program/cuda_compiler.cc).
// Without the CUDA toolkit nothing CUDA-specific is defined, so this file supplies the
// device API a kernel may use without includes, built on clang's NVPTX builtins.
// Every function here inlines to PTX instructions: no calls, no libdevice.
//
// Math mapping (PTX instruction each function becomes):
//   exact (correctly rounded / exact):
//     sqrtf -> sqrt.rn.f32      fabsf -> abs.f32        fminf/fmaxf -> min.f32/max.f32
//     floorf -> cvt.rmi.f32.f32 ceilf -> cvt.rpi.f32.f32 fmaf -> fma.rn.f32   a/b -> div.rn.f32
//   approximate (hardware approximations, like CUDA's fast intrinsics):
//     rsqrtf -> rsqrt.approx.f32
//     __expf, expf -> ex2.approx.f32 of x*log2(e)    __logf, logf -> lg2.approx.f32 times ln(2)
//     __sinf, sinf -> sin.approx.f32                 __cosf, cosf -> cos.approx.f32
//     powf(x, y) -> ex2.approx(y * lg2.approx(x)): like CUDA's __powf, valid for x > 0
//       (x == 0 gives 0 for y > 0); no special cases for negative x
//     __fdividef -> div.approx.f32
//   So expf, logf, sinf, cosf and powf are NOT the accurate CUDA library versions:
//   expect a few ulp of error, growing with |x| for expf/powf (the rounding of x*log2(e))
//   and outside [-pi, pi] for sinf/cosf.
#pragma once

#include <__clang_cuda_builtin_vars.h>  // threadIdx, blockIdx, blockDim, gridDim

#define __host__ __attribute__((host))
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __forceinline__ __inline__ __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
// __restrict__ is a clang keyword already.

#define GPUPM_DEVICE_FN static __device__ __forceinline__

struct uint3 {
  unsigned x, y, z;
};
struct dim3 {
  unsigned x, y, z;
  __host__ __device__ constexpr dim3(unsigned vx = 1, unsigned vy = 1, unsigned vz = 1) : x(vx), y(vy), z(vz) {}
};
// The builtin variables convert to dim3/uint3 (declared by the header above).
__device__ inline __cuda_builtin_threadIdx_t::operator uint3() const { return {x, y, z}; }
__device__ inline __cuda_builtin_threadIdx_t::operator dim3() const { return dim3(x, y, z); }
__device__ inline __cuda_builtin_blockIdx_t::operator uint3() const { return {x, y, z}; }
__device__ inline __cuda_builtin_blockIdx_t::operator dim3() const { return dim3(x, y, z); }
__device__ inline __cuda_builtin_blockDim_t::operator uint3() const { return {x, y, z}; }
__device__ inline __cuda_builtin_blockDim_t::operator dim3() const { return dim3(x, y, z); }
__device__ inline __cuda_builtin_gridDim_t::operator uint3() const { return {x, y, z}; }
__device__ inline __cuda_builtin_gridDim_t::operator dim3() const { return dim3(x, y, z); }

#define warpSize 32

// Vector types (the aligned ones load and store as ld/st .v2/.v4).
struct __attribute__((aligned(8))) float2 { float x, y; };
struct __attribute__((aligned(16))) float4 { float x, y, z, w; };
struct __attribute__((aligned(8))) int2 { int x, y; };
struct __attribute__((aligned(16))) int4 { int x, y, z, w; };

// ---- synchronisation ----
// clang declares __syncthreads as a builtin (bar.sync 0); define it only where it does not.
#if !__has_builtin(__syncthreads)
GPUPM_DEVICE_FN void __syncthreads() { __nvvm_bar_sync(0); }
#endif
GPUPM_DEVICE_FN void __syncwarp(unsigned mask = 0xffffffffu) { __nvvm_bar_warp_sync(mask); }
GPUPM_DEVICE_FN void __threadfence() { __nvvm_membar_gl(); }
GPUPM_DEVICE_FN void __threadfence_block() { __nvvm_membar_cta(); }

// ---- atomics (return the old value; the address space is inferred from the pointer) ----
GPUPM_DEVICE_FN int atomicAdd(int* p, int v) { return __nvvm_atom_add_gen_i(p, v); }
GPUPM_DEVICE_FN unsigned atomicAdd(unsigned* p, unsigned v) {
  return unsigned(__nvvm_atom_add_gen_i(reinterpret_cast<int*>(p), int(v)));
}
GPUPM_DEVICE_FN unsigned long long atomicAdd(unsigned long long* p, unsigned long long v) {
  return (unsigned long long)__nvvm_atom_add_gen_ll(reinterpret_cast<long long*>(p), (long long)v);
}
GPUPM_DEVICE_FN float atomicAdd(float* p, float v) { return __nvvm_atom_add_gen_f(p, v); }
// PTX has no atom.sub; __nvvm_atom_sub_* emits a brace block with a local register, so
// subtract by adding the negation (what that block does anyway): neg + atom.add.
GPUPM_DEVICE_FN int atomicSub(int* p, int v) { return __nvvm_atom_add_gen_i(p, int(0u - unsigned(v))); }
GPUPM_DEVICE_FN unsigned atomicSub(unsigned* p, unsigned v) {
  return unsigned(__nvvm_atom_add_gen_i(reinterpret_cast<int*>(p), int(0u - v)));
}
GPUPM_DEVICE_FN int atomicMin(int* p, int v) { return __nvvm_atom_min_gen_i(p, v); }
GPUPM_DEVICE_FN unsigned atomicMin(unsigned* p, unsigned v) { return __nvvm_atom_min_gen_ui(p, v); }
GPUPM_DEVICE_FN int atomicMax(int* p, int v) { return __nvvm_atom_max_gen_i(p, v); }
GPUPM_DEVICE_FN unsigned atomicMax(unsigned* p, unsigned v) { return __nvvm_atom_max_gen_ui(p, v); }
GPUPM_DEVICE_FN int atomicExch(int* p, int v) { return __nvvm_atom_xchg_gen_i(p, v); }
GPUPM_DEVICE_FN unsigned atomicExch(unsigned* p, unsigned v) {
  return unsigned(__nvvm_atom_xchg_gen_i(reinterpret_cast<int*>(p), int(v)));
}
GPUPM_DEVICE_FN float atomicExch(float* p, float v) {
  return __builtin_bit_cast(float, __nvvm_atom_xchg_gen_i(reinterpret_cast<int*>(p), __builtin_bit_cast(int, v)));
}
GPUPM_DEVICE_FN int atomicCAS(int* p, int compare, int v) { return __nvvm_atom_cas_gen_i(p, compare, v); }
GPUPM_DEVICE_FN unsigned atomicCAS(unsigned* p, unsigned compare, unsigned v) {
  return unsigned(__nvvm_atom_cas_gen_i(reinterpret_cast<int*>(p), int(compare), int(v)));
}
GPUPM_DEVICE_FN unsigned long long atomicCAS(unsigned long long* p, unsigned long long compare, unsigned long long v) {
  return (unsigned long long)__nvvm_atom_cas_gen_ll(reinterpret_cast<long long*>(p), (long long)compare,
                                                     (long long)v);
}

// ---- warp shuffles: the c operand packs the segment width as CUDA does ----
// idx/down/xor: ((32 - width) << 8) | 0x1f (clamp to the segment's last lane); up: (32 - width) << 8.
#define GPUPM_SHFL_C_CLAMP(width) ((((32 - (width)) << 8)) | 0x1f)
#define GPUPM_SHFL_C_UP(width) (((32 - (width)) << 8))
GPUPM_DEVICE_FN int __shfl_sync(unsigned mask, int v, int src_lane, int width = 32) {
  return __nvvm_shfl_sync_idx_i32(mask, v, src_lane, GPUPM_SHFL_C_CLAMP(width));
}
GPUPM_DEVICE_FN float __shfl_sync(unsigned mask, float v, int src_lane, int width = 32) {
  return __nvvm_shfl_sync_idx_f32(mask, v, src_lane, GPUPM_SHFL_C_CLAMP(width));
}
GPUPM_DEVICE_FN unsigned __shfl_sync(unsigned mask, unsigned v, int src_lane, int width = 32) {
  return unsigned(__shfl_sync(mask, int(v), src_lane, width));
}
GPUPM_DEVICE_FN int __shfl_up_sync(unsigned mask, int v, unsigned delta, int width = 32) {
  return __nvvm_shfl_sync_up_i32(mask, v, int(delta), GPUPM_SHFL_C_UP(width));
}
GPUPM_DEVICE_FN float __shfl_up_sync(unsigned mask, float v, unsigned delta, int width = 32) {
  return __nvvm_shfl_sync_up_f32(mask, v, int(delta), GPUPM_SHFL_C_UP(width));
}
GPUPM_DEVICE_FN unsigned __shfl_up_sync(unsigned mask, unsigned v, unsigned delta, int width = 32) {
  return unsigned(__shfl_up_sync(mask, int(v), delta, width));
}
GPUPM_DEVICE_FN int __shfl_down_sync(unsigned mask, int v, unsigned delta, int width = 32) {
  return __nvvm_shfl_sync_down_i32(mask, v, int(delta), GPUPM_SHFL_C_CLAMP(width));
}
GPUPM_DEVICE_FN float __shfl_down_sync(unsigned mask, float v, unsigned delta, int width = 32) {
  return __nvvm_shfl_sync_down_f32(mask, v, int(delta), GPUPM_SHFL_C_CLAMP(width));
}
GPUPM_DEVICE_FN unsigned __shfl_down_sync(unsigned mask, unsigned v, unsigned delta, int width = 32) {
  return unsigned(__shfl_down_sync(mask, int(v), delta, width));
}
GPUPM_DEVICE_FN int __shfl_xor_sync(unsigned mask, int v, int lane_mask, int width = 32) {
  return __nvvm_shfl_sync_bfly_i32(mask, v, lane_mask, GPUPM_SHFL_C_CLAMP(width));
}
GPUPM_DEVICE_FN float __shfl_xor_sync(unsigned mask, float v, int lane_mask, int width = 32) {
  return __nvvm_shfl_sync_bfly_f32(mask, v, lane_mask, GPUPM_SHFL_C_CLAMP(width));
}
GPUPM_DEVICE_FN unsigned __shfl_xor_sync(unsigned mask, unsigned v, int lane_mask, int width = 32) {
  return unsigned(__shfl_xor_sync(mask, int(v), lane_mask, width));
}
GPUPM_DEVICE_FN unsigned __ballot_sync(unsigned mask, int predicate) { return __nvvm_vote_ballot_sync(mask, predicate != 0); }
GPUPM_DEVICE_FN int __any_sync(unsigned mask, int predicate) { return __nvvm_vote_any_sync(mask, predicate != 0); }
GPUPM_DEVICE_FN int __all_sync(unsigned mask, int predicate) { return __nvvm_vote_all_sync(mask, predicate != 0); }

// ---- float math (see the mapping at the top) ----
GPUPM_DEVICE_FN float sqrtf(float x) { return __nvvm_sqrt_rn_f(x); }
GPUPM_DEVICE_FN float rsqrtf(float x) { return __nvvm_rsqrt_approx_f(x); }
GPUPM_DEVICE_FN float fabsf(float x) { return __builtin_fabsf(x); }
GPUPM_DEVICE_FN float fminf(float a, float b) { return __nvvm_fmin_f(a, b); }
GPUPM_DEVICE_FN float fmaxf(float a, float b) { return __nvvm_fmax_f(a, b); }
GPUPM_DEVICE_FN float floorf(float x) { return __builtin_floorf(x); }
GPUPM_DEVICE_FN float ceilf(float x) { return __builtin_ceilf(x); }
GPUPM_DEVICE_FN float fmaf(float a, float b, float c) { return __nvvm_fma_rn_f(a, b, c); }
GPUPM_DEVICE_FN float __expf(float x) { return __nvvm_ex2_approx_f(x * 1.4426950408889634f); }
GPUPM_DEVICE_FN float __logf(float x) { return __nvvm_lg2_approx_f(x) * 0.6931471805599453f; }
GPUPM_DEVICE_FN float __sinf(float x) { return __nvvm_sin_approx_f(x); }
GPUPM_DEVICE_FN float __cosf(float x) { return __nvvm_cos_approx_f(x); }
GPUPM_DEVICE_FN float __fdividef(float a, float b) { return __nvvm_div_approx_f(a, b); }
GPUPM_DEVICE_FN float __powf(float x, float y) { return __nvvm_ex2_approx_f(y * __nvvm_lg2_approx_f(x)); }
GPUPM_DEVICE_FN float expf(float x) { return __expf(x); }      // approximate
GPUPM_DEVICE_FN float logf(float x) { return __logf(x); }      // approximate
GPUPM_DEVICE_FN float sinf(float x) { return __sinf(x); }      // approximate
GPUPM_DEVICE_FN float cosf(float x) { return __cosf(x); }      // approximate
GPUPM_DEVICE_FN float powf(float x, float y) { return __powf(x, y); }  // approximate, x > 0

// ---- bit reinterpretation, read-only loads ----
GPUPM_DEVICE_FN int __float_as_int(float x) { return __builtin_bit_cast(int, x); }
GPUPM_DEVICE_FN unsigned __float_as_uint(float x) { return __builtin_bit_cast(unsigned, x); }
GPUPM_DEVICE_FN float __int_as_float(int x) { return __builtin_bit_cast(float, x); }
GPUPM_DEVICE_FN float __uint_as_float(unsigned x) { return __builtin_bit_cast(float, x); }
GPUPM_DEVICE_FN float __ldg(const float* p) { return __nvvm_ldg_f(p); }
GPUPM_DEVICE_FN int __ldg(const int* p) { return __nvvm_ldg_i(p); }
GPUPM_DEVICE_FN unsigned __ldg(const unsigned* p) { return __nvvm_ldg_ui(p); }
GPUPM_DEVICE_FN int __popc(unsigned x) { return __builtin_popcount(x); }

// ---- integer min/max (mixed signedness compares as unsigned, as CUDA's) ----
GPUPM_DEVICE_FN int min(int a, int b) { return a < b ? a : b; }
GPUPM_DEVICE_FN int max(int a, int b) { return a > b ? a : b; }
GPUPM_DEVICE_FN unsigned min(unsigned a, unsigned b) { return a < b ? a : b; }
GPUPM_DEVICE_FN unsigned max(unsigned a, unsigned b) { return a > b ? a : b; }
GPUPM_DEVICE_FN unsigned min(int a, unsigned b) { return min(unsigned(a), b); }
GPUPM_DEVICE_FN unsigned min(unsigned a, int b) { return min(a, unsigned(b)); }
GPUPM_DEVICE_FN unsigned max(int a, unsigned b) { return max(unsigned(a), b); }
GPUPM_DEVICE_FN unsigned max(unsigned a, int b) { return max(a, unsigned(b)); }
GPUPM_DEVICE_FN float min(float a, float b) { return fminf(a, b); }
GPUPM_DEVICE_FN float max(float a, float b) { return fmaxf(a, b); }

#undef GPUPM_DEVICE_FN
