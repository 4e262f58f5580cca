// Lane-parallel helpers for the executor: register slot views, typed
// reads/writes of 64-bit lane slots, and the masked lane loop the compiler can
// vectorise. Private to sc_model/ptx/.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "gpupm/ptx/ptx_decoded.h"

namespace gpupm::ptx {

// The register file of one warp: slot s, lane l is rows[s][l] (a hidden slot's
// row may be the launch's, read by every warp); predicate slots keep a 32-bit
// lane mask in pred[s].
struct RegFile {
  uint64_t* const* rows;
  uint32_t* pred;
  uint64_t* lanes(uint16_t slot) const { return rows[slot]; }
};

// A lane slot holds any value in its low bits; readers truncate to their type.
template <class T>
inline T get(uint64_t bits) {
  if constexpr (std::is_same_v<T, float>) {
    uint32_t w = uint32_t(bits);
    float f;
    std::memcpy(&f, &w, 4);
    return f;
  } else if constexpr (std::is_same_v<T, double>) {
    double d;
    std::memcpy(&d, &bits, 8);
    return d;
  } else {
    return T(bits);
  }
}

// Signed values are sign-extended to 64 bits, unsigned zero-extended.
template <class T>
inline uint64_t put(T v) {
  if constexpr (std::is_same_v<T, float>) {
    uint32_t w;
    std::memcpy(&w, &v, 4);
    return w;
  } else if constexpr (std::is_same_v<T, double>) {
    uint64_t w;
    std::memcpy(&w, &v, 8);
    return w;
  } else if constexpr (std::is_same_v<T, bool>) {
    return v ? 1 : 0;
  } else if constexpr (std::is_signed_v<T>) {
    return uint64_t(int64_t(v));
  } else {
    return uint64_t(v);
  }
}

// Lane l's bit of an active mask, as a table: `mask & kLaneBit[l]` vectorises
// where `mask >> l` (a shift by the lane index) does not.
alignas(64) inline constexpr uint32_t kLaneBit[32] = {
    1u << 0,  1u << 1,  1u << 2,  1u << 3,  1u << 4,  1u << 5,  1u << 6,  1u << 7,  1u << 8,  1u << 9,  1u << 10,
    1u << 11, 1u << 12, 1u << 13, 1u << 14, 1u << 15, 1u << 16, 1u << 17, 1u << 18, 1u << 19, 1u << 20, 1u << 21,
    1u << 22, 1u << 23, 1u << 24, 1u << 25, 1u << 26, 1u << 27, 1u << 28, 1u << 29, 1u << 30, 1u << 31};

// d[l] = f(s[l]...) for the lanes in `mask`; every lane is computed (nothing
// here can fault) and blended so the loop vectorises. A destination may be one
// of the sources (lane l reads only lane l: ivdep).
template <class TOut, class TIn, class F, class... S>
inline void lanes(uint64_t* d, uint32_t mask, F f, const S*... s) {
  if (mask == ~0u) {  // the common full warp: no blend
#pragma GCC ivdep
    for (int l = 0; l < 32; ++l) d[l] = put<TOut>(f(get<TIn>(s[l])...));
    return;
  }
#pragma GCC ivdep
  for (int l = 0; l < 32; ++l) {
    uint64_t r = put<TOut>(f(get<TIn>(s[l])...));
    d[l] = (mask & kLaneBit[l]) ? r : d[l];
  }
}

inline void write_pred(uint32_t& p, uint32_t value, uint32_t mask) { p = (p & ~mask) | (value & mask); }

// f(lane) for each lane in `active`, in lane order; the full warp (the common
// case) as a plain counted loop the compiler can unroll.
template <class F>
[[gnu::always_inline]] inline void for_each_lane(uint32_t active, F&& f) {
  if (active == ~0u) {
    for (uint32_t lane = 0; lane < 32; ++lane) f(lane);
    return;
  }
  for (uint32_t left = active; left != 0; left &= left - 1) f(uint32_t(__builtin_ctz(left)));
}

// Calls f(T{}) with the C++ type of a PTX scalar type.
template <class F>
inline void by_type(ScalarType t, F&& f) {
  switch (t) {
    case ScalarType::S8: return f(int8_t{});
    case ScalarType::S16: return f(int16_t{});
    case ScalarType::S32: return f(int32_t{});
    case ScalarType::S64: return f(int64_t{});
    case ScalarType::B8:
    case ScalarType::U8:
    case ScalarType::Pred: return f(uint8_t{});
    case ScalarType::B16:
    case ScalarType::U16: return f(uint16_t{});
    case ScalarType::B32:
    case ScalarType::U32: return f(uint32_t{});
    case ScalarType::B64:
    case ScalarType::U64: return f(uint64_t{});
    case ScalarType::F32: return f(float{});
    case ScalarType::F64: return f(double{});
  }
}

}  // namespace gpupm::ptx
