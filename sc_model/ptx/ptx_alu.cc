// Arithmetic, logic, compare, select and convert semantics, lane-parallel.
// Floating point: .rn is the C++ operator (IEEE, correctly rounded); .rz/.rm/.rp
// switch the host rounding mode around the instruction; .approx forms use the
// libm function in the instruction's precision (0 ulp of libm, not the
// hardware's approximation error); .ftz flushes f32 subnormal inputs and
// results to sign-preserving zero; .sat clamps to [0, 1] (NaN -> 0).
#include <algorithm>
#include <cfenv>
#include <cmath>
#include <limits>

#include "gpupm/ptx/ptx_lanes.h"

namespace gpupm::ptx {
namespace {

template <class T>
constexpr bool kFloat = std::is_floating_point_v<T>;
template <class T>
constexpr int kBits = int(sizeof(T) * 8);

template <class T>
T flush(T x) {
  if constexpr (std::is_same_v<T, float>)
    if (std::fpclassify(x) == FP_SUBNORMAL) return std::copysign(0.0f, x);
  return x;
}
template <class T>
T saturate(T x) {
  if (std::isnan(x)) return T(0);
  return x < T(0) ? T(0) : x > T(1) ? T(1) : x;
}

// Switches the host rounding mode for .rz/.rm/.rp (restored on scope exit).
class RoundingScope {
 public:
  explicit RoundingScope(Round r) {
    int mode = r == Round::Rz ? FE_TOWARDZERO : r == Round::Rm ? FE_DOWNWARD : r == Round::Rp ? FE_UPWARD : -1;
    if (mode < 0) return;
    saved_ = std::fegetround();
    std::fesetround(mode);
  }
  ~RoundingScope() {
    if (saved_ >= 0) std::fesetround(saved_);
  }

 private:
  int saved_ = -1;
};

// A float op with the instruction's .ftz / .sat applied around `f`.
template <class T, class F, class... S>
void float_lanes(const Instruction& in, uint64_t* d, uint32_t m, F f, const S*... s) {
  if (!in.ftz && !in.sat) return lanes<T, T>(d, m, f, s...);
  bool ftz = in.ftz, sat = in.sat;
  lanes<T, T>(
      d, m,
      [&](auto... x) {
        T r = ftz ? flush(f(flush(x)...)) : f(x...);
        return sat ? saturate(r) : r;
      },
      s...);
}

// Plain fused multiply-add lanes (no .ftz/.sat/rounding mode), the hot path of
// FMA loops: on x86-64 GCC builds a second clone for FMA-capable CPUs so
// std::fma becomes one instruction instead of a libm call per lane.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define GPUPM_FMA_CLONES __attribute__((target_clones("fma", "default")))
#else
#define GPUPM_FMA_CLONES
#endif
// The loops are spelled out (no helper templates) so all of it is compiled for
// the clone's target; the full warp without a blend, and the lane bits from a
// table, so both vectorise.
GPUPM_FMA_CLONES void fma_lanes_f32(uint64_t* d, uint32_t m, const uint64_t* a, const uint64_t* b, const uint64_t* c) {
  auto one = [](uint64_t a, uint64_t b, uint64_t c) {
    uint32_t wa = uint32_t(a), wb = uint32_t(b), wc = uint32_t(c), wr;
    float x, y, z;
    std::memcpy(&x, &wa, 4);
    std::memcpy(&y, &wb, 4);
    std::memcpy(&z, &wc, 4);
    float r = __builtin_fmaf(x, y, z);
    std::memcpy(&wr, &r, 4);
    return uint64_t(wr);
  };
  if (m == ~0u) {
#pragma GCC ivdep
    for (int l = 0; l < 32; ++l) d[l] = one(a[l], b[l], c[l]);
    return;
  }
#pragma GCC ivdep
  for (int l = 0; l < 32; ++l) d[l] = (m & kLaneBit[l]) ? one(a[l], b[l], c[l]) : d[l];
}
GPUPM_FMA_CLONES void fma_lanes_f64(uint64_t* d, uint32_t m, const uint64_t* a, const uint64_t* b, const uint64_t* c) {
  auto one = [](uint64_t a, uint64_t b, uint64_t c) {
    double x, y, z;
    std::memcpy(&x, &a, 8);
    std::memcpy(&y, &b, 8);
    std::memcpy(&z, &c, 8);
    double r = __builtin_fma(x, y, z);
    uint64_t wr;
    std::memcpy(&wr, &r, 8);
    return wr;
  };
#pragma GCC ivdep
  for (int l = 0; l < 32; ++l) d[l] = (m & kLaneBit[l]) ? one(a[l], b[l], c[l]) : d[l];
}

template <class T>
using Unsigned = std::make_unsigned_t<T>;
template <class T>
struct Wider;
// clang-format off
template <> struct Wider<int16_t> { using type = int32_t; };
template <> struct Wider<uint16_t> { using type = uint32_t; };
template <> struct Wider<int32_t> { using type = int64_t; };
template <> struct Wider<uint32_t> { using type = uint64_t; };
template <> struct Wider<int64_t> { using type = __int128; };
template <> struct Wider<uint64_t> { using type = unsigned __int128; };
template <> struct Wider<int8_t> { using type = int16_t; };
template <> struct Wider<uint8_t> { using type = uint16_t; };
// clang-format on

// Integer product: .lo (wrapping), .hi (upper half) or .wide (double width).
template <class T>
uint64_t int_mul(T a, T b, Mode mode) {
  using W = typename Wider<T>::type;
  W p = W(a) * W(b);
  if (mode == Mode::Hi) return put<T>(T(p >> kBits<T>));
  if (mode == Mode::Wide) {
    if constexpr (sizeof(T) <= 4) return put<W>(p);
  }
  return put<T>(T(Unsigned<T>(a) * Unsigned<T>(b)));
}

template <class T>
T int_div(T a, T b) {
  if (b == 0) return T(~Unsigned<T>(0));  // PTX leaves it unspecified: all ones
  if constexpr (std::is_signed_v<T>)
    if (a == std::numeric_limits<T>::min() && b == T(-1)) return a;
  return T(a / b);
}
template <class T>
T int_rem(T a, T b) {
  if (b == 0) return a;  // unspecified in PTX: the dividend
  if constexpr (std::is_signed_v<T>)
    if (b == T(-1)) return 0;
  return T(a % b);
}

// PTX min/max: if one operand is NaN the result is the other.
template <class T>
T pick(T a, T b, bool want_min) {
  if constexpr (kFloat<T>) {
    if (std::isnan(a)) return b;
    if (std::isnan(b)) return a;
    if (a == b) return want_min ? (std::signbit(a) ? a : b) : (std::signbit(a) ? b : a);  // -0 < +0
  }
  return want_min ? (b < a ? b : a) : (a < b ? b : a);
}

template <class T>
T shift(T a, uint32_t n, bool left) {
  using U = Unsigned<T>;
  if (left) return n >= uint32_t(kBits<T>) ? T(0) : T(U(a) << n);
  if (n >= uint32_t(kBits<T>)) return std::is_signed_v<T> && a < 0 ? T(-1) : T(0);
  return T(a >> n);
}

template <class T>
T bit_extract(T a, uint32_t b, uint32_t c) {
  using U = Unsigned<T>;
  const uint32_t w = kBits<T>, pos = b & 0xff, len = c & 0xff;
  uint32_t from_a = pos >= w ? 0 : std::min(len, w - pos);  // field bits that exist in a
  uint64_t field = pos >= w ? 0 : uint64_t(U(a)) >> pos;
  uint64_t keep = from_a >= 64 ? ~0ull : (1ull << from_a) - 1;
  field &= keep;
  bool sign = std::is_signed_v<T> && len > 0 && ((uint64_t(U(a)) >> std::min(pos + len - 1, w - 1)) & 1);
  if (sign) field |= ~keep;
  return T(U(field));
}

template <class T>
T bit_insert(T a, T b, uint32_t c, uint32_t d) {
  using U = Unsigned<T>;
  const uint32_t w = kBits<T>, pos = c & 0xff, len = d & 0xff;
  if (pos >= w || len == 0) return b;
  U mask = U((len >= 64 ? ~0ull : (1ull << len) - 1) << pos);
  return T((U(b) & U(~mask)) | (U(U(a) << pos) & mask));
}

uint32_t permute(uint32_t a, uint32_t b, uint32_t c) {
  uint64_t bytes = uint64_t(b) << 32 | a;
  uint32_t r = 0;
  for (int i = 0; i < 4; ++i) {
    uint32_t sel = (c >> (4 * i)) & 0xf;
    uint32_t byte = uint32_t(bytes >> (8 * (sel & 7))) & 0xff;
    if (sel & 8) byte = (byte & 0x80) ? 0xff : 0;  // sign replicate
    r |= byte << (8 * i);
  }
  return r;
}

template <class T>
T reverse_bits(T a) {
  using U = Unsigned<T>;
  U x = U(a), r = 0;
  for (int i = 0; i < kBits<T>; ++i) r = U(r << 1) | U((x >> i) & 1);
  return T(r);
}

template <class T>
[[gnu::always_inline]] inline bool compare(T a, T b, Cmp cmp) {
  bool unordered = false;
  if constexpr (kFloat<T>) unordered = std::isnan(a) || std::isnan(b);
  switch (cmp) {
    case Cmp::Eq: return !unordered && a == b;
    case Cmp::Ne: return !unordered && a != b;
    case Cmp::Lt: return !unordered && a < b;
    case Cmp::Le: return !unordered && a <= b;
    case Cmp::Gt: return !unordered && a > b;
    case Cmp::Ge: return !unordered && a >= b;
    case Cmp::Equ: return unordered || a == b;
    case Cmp::Neu: return unordered || a != b;
    case Cmp::Ltu: return unordered || a < b;
    case Cmp::Leu: return unordered || a <= b;
    case Cmp::Gtu: return unordered || a > b;
    case Cmp::Geu: return unordered || a >= b;
    case Cmp::Num: return !unordered;
    case Cmp::Nan: return unordered;
  }
  return false;
}

uint32_t combine(uint32_t x, uint32_t c, BoolOp op) {
  switch (op) {
    case BoolOp::And: return x & c;
    case BoolOp::Or: return x | c;
    case BoolOp::Xor: return x ^ c;
    default: return x;
  }
}

template <class T>
bool test_property(T x, Mode mode) {
  switch (mode) {
    case Mode::Finite: return std::isfinite(x);
    case Mode::Infinite: return std::isinf(x);
    case Mode::Number: return !std::isnan(x);
    case Mode::NotANumber: return std::isnan(x);
    case Mode::Normal: return std::isnormal(x);
    case Mode::Subnormal: return std::fpclassify(x) == FP_SUBNORMAL;
    default: return false;
  }
}

template <class F>
F round_integral(F x, Round r) {
  switch (r) {
    case Round::Rni: return std::nearbyint(x);  // ties to even in the default mode
    case Round::Rzi: return std::trunc(x);
    case Round::Rmi: return std::floor(x);
    case Round::Rpi: return std::ceil(x);
    default: return x;
  }
}

// PTX float -> integer conversions saturate: NaN -> 0, out of range clamps.
template <class D, class S>
D float_to_int(S x, Round r) {
  if (std::isnan(x)) return D(0);
  S v = round_integral(x, r == Round::None ? Round::Rzi : r);
  if (v <= S(std::numeric_limits<D>::min())) return std::numeric_limits<D>::min();
  if (v >= S(std::numeric_limits<D>::max())) return std::numeric_limits<D>::max();
  return D(v);
}

template <class D, class S>
D int_to_int(S x, bool sat) {
  if (!sat) return D(x);
  using Lim = std::numeric_limits<D>;
  if constexpr (std::is_signed_v<S>) {
    if (x < 0 && (!std::is_signed_v<D> || int64_t(x) < int64_t(Lim::min()))) return Lim::min();
  }
  if (x > 0 && uint64_t(x) > uint64_t(Lim::max())) return Lim::max();
  return D(x);
}

template <class D, class S>
D convert(S x, const Instruction& in) {
  if constexpr (kFloat<D> && kFloat<S>) {
    S v = in.ftz ? flush(x) : x;
    D r = D(round_integral(v, in.rnd));
    if (in.ftz) r = flush(r);
    return in.sat ? saturate(r) : r;
  } else if constexpr (kFloat<D>) {
    D r = D(x);
    return in.sat ? saturate(r) : r;
  } else if constexpr (kFloat<S>) {
    return float_to_int<D>(in.ftz ? flush(x) : x, in.rnd);
  } else {
    return int_to_int<D>(x, in.sat);
  }
}

void convert_lanes(const Instruction& in, const RegFile& r, uint32_t m) {
  uint64_t* d = r.lanes(in.dst[0]);
  const uint64_t* a = r.lanes(in.src[0]);
  by_type(in.type2, [&](auto src_zero) {
    using S = decltype(src_zero);
    by_type(in.type, [&](auto dst_zero) {
      using D = decltype(dst_zero);
      lanes<D, S>(
          d, m, [&](S x) { return convert<D>(x, in); }, a);
    });
  });
}

void pred_logic(const Instruction& in, const RegFile& r, uint32_t m) {
  uint32_t& d = r.pred[in.dst[0]];
  uint32_t a = r.pred[in.src[0]], b = in.n_src > 1 ? r.pred[in.src[1]] : 0;
  switch (in.op) {
    case Op::Mov: return write_pred(d, a, m);
    case Op::And: return write_pred(d, a & b, m);
    case Op::Or: return write_pred(d, a | b, m);
    case Op::Xor: return write_pred(d, a ^ b, m);
    case Op::Not:
    case Op::CNot: return write_pred(d, ~a, m);
    default: return;
  }
}

// `cmp` is the instruction's, or that as a constant in a handler resolved at decode time.
template <class T>
[[gnu::always_inline]] inline void setp_cmp(const Instruction& in, const RegFile& r, uint32_t m, Cmp cmp) {
  const uint64_t *a = r.lanes(in.src[0]), *b = r.lanes(in.src[1]);
  uint32_t bits = 0;
  for (int l = 0; l < 32; ++l) bits |= uint32_t(compare(get<T>(a[l]), get<T>(b[l]), cmp)) << l;
  uint32_t c = 0;
  if (in.bool_op != BoolOp::None) c = in.src_negated ? ~r.pred[in.src[2]] : r.pred[in.src[2]];
  write_pred(r.pred[in.dst[0]], combine(bits, c, in.bool_op), m);
  if (in.has_dst2) write_pred(r.pred[in.dst2], combine(~bits, c, in.bool_op), m);
}
template <class T>
void setp_lanes(const Instruction& in, const RegFile& r, uint32_t m) {
  setp_cmp<T>(in, r, m, in.cmp);
}

void mov_lanes(const Instruction& in, const RegFile& r, uint32_t m) {
  const uint64_t* a = r.lanes(in.src[0]);
  lanes<uint64_t, uint64_t>(
      r.lanes(in.dst[0]), m, [](uint64_t x) { return x; }, a);
}

void selp_lanes(const Instruction& in, const RegFile& r, uint32_t m) {
  uint32_t c = in.src_negated ? ~r.pred[in.src[2]] : r.pred[in.src[2]];
  const uint64_t *a = r.lanes(in.src[0]), *b = r.lanes(in.src[1]);
  uint64_t* d = r.lanes(in.dst[0]);
  for (int l = 0; l < 32; ++l)
    if ((m >> l) & 1) d[l] = ((c >> l) & 1) ? a[l] : b[l];
}

// Integer-only operations on type T (shifts, bit fields, counts, logic). `op` is
// the instruction's, or that as a constant in a handler resolved at decode time.
template <class T>
[[gnu::always_inline]] inline void int_only(const Instruction& in, const RegFile& r, uint32_t m, Op op) {
  uint64_t* d = r.lanes(in.dst[0]);
  const uint64_t* a = r.lanes(in.src[0]);
  const uint64_t* b = in.n_src > 1 ? r.lanes(in.src[1]) : a;
  const uint64_t* c = in.n_src > 2 ? r.lanes(in.src[2]) : a;
  const uint64_t* e = in.n_src > 3 ? r.lanes(in.src[3]) : a;
  using U = Unsigned<T>;
  switch (op) {
    case Op::And:
      return lanes<T, T>(
          d, m, [](T x, T y) { return T(x & y); }, a, b);
    case Op::Or:
      return lanes<T, T>(
          d, m, [](T x, T y) { return T(x | y); }, a, b);
    case Op::Xor:
      return lanes<T, T>(
          d, m, [](T x, T y) { return T(x ^ y); }, a, b);
    case Op::Not:
      return lanes<T, T>(
          d, m, [](T x) { return T(~x); }, a);
    case Op::CNot:
      return lanes<T, T>(
          d, m, [](T x) { return T(x == 0); }, a);
    case Op::Shl:
    case Op::Shr: {
      bool left = op == Op::Shl;
      return lanes<T, uint64_t>(
          d, m, [=](uint64_t x, uint64_t n) { return shift(T(x), uint32_t(n), left); }, a, b);
    }
    case Op::Bfe:
      return lanes<T, uint64_t>(
          d, m, [](uint64_t x, uint64_t p, uint64_t n) { return bit_extract(T(x), uint32_t(p), uint32_t(n)); }, a, b,
          c);
    case Op::Bfi:
      return lanes<T, uint64_t>(
          d, m,
          [](uint64_t x, uint64_t y, uint64_t p, uint64_t n) {
            return bit_insert(T(x), T(y), uint32_t(p), uint32_t(n));
          },
          a, b, c, e);
    case Op::Popc:
      return lanes<uint32_t, T>(
          d, m, [](T x) { return uint32_t(__builtin_popcountll(uint64_t(U(x)))); }, a);
    case Op::Clz:
      return lanes<uint32_t, T>(
          d, m,
          [](T x) { return x == 0 ? uint32_t(kBits<T>) : uint32_t(__builtin_clzll(uint64_t(U(x)))) - (64 - kBits<T>); },
          a);
    case Op::Brev:
      return lanes<T, T>(
          d, m, [](T x) { return reverse_bits(x); }, a);
    case Op::Prmt: return lanes<uint32_t, uint32_t>(d, m, permute, a, b, c);
    case Op::Rem:
      return lanes<T, T>(
          d, m, [](T x, T y) { return int_rem(x, y); }, a, b);
    case Op::Mul24:
    case Op::Mad24: {
      bool hi = in.mode == Mode::Hi, mad = op == Op::Mad24;
      return lanes<uint32_t, uint64_t>(
          d, m,
          [=](uint64_t x, uint64_t y, uint64_t z) {
            auto narrow = [](uint64_t v) {
              return std::is_signed_v<T> ? int64_t(int32_t(uint32_t(v) << 8) >> 8) : int64_t(v & 0xffffff);
            };
            int64_t p = narrow(x) * narrow(y);
            return uint32_t(hi ? uint64_t(p) >> 16 : uint64_t(p)) + (mad ? uint32_t(z) : 0);
          },
          a, b, c);
    }
    default: return;
  }
}

// Operations defined for integers and floats (`op` as int_only's).
template <class T>
[[gnu::always_inline]] inline void arithmetic_op(const Instruction& in, const RegFile& r, uint32_t m, Op op) {
  uint64_t* d = r.lanes(in.dst[0]);
  const uint64_t* a = r.lanes(in.src[0]);
  const uint64_t* b = in.n_src > 1 ? r.lanes(in.src[1]) : a;
  const uint64_t* c = in.n_src > 2 ? r.lanes(in.src[2]) : a;
  if constexpr (kFloat<T>) {
    RoundingScope rounding(in.rnd);
    switch (op) {
      case Op::Add:
        return float_lanes<T>(
            in, d, m, [](T x, T y) { return x + y; }, a, b);
      case Op::Sub:
        return float_lanes<T>(
            in, d, m, [](T x, T y) { return x - y; }, a, b);
      case Op::Mul:
        return float_lanes<T>(
            in, d, m, [](T x, T y) { return x * y; }, a, b);
      case Op::Fma:
        if (!in.ftz && !in.sat && (in.rnd == Round::Rn || in.rnd == Round::None))
          return std::is_same_v<T, float> ? fma_lanes_f32(d, m, a, b, c) : fma_lanes_f64(d, m, a, b, c);
        return float_lanes<T>(
            in, d, m, [](T x, T y, T z) { return std::fma(x, y, z); }, a, b, c);
      case Op::Div:
        return float_lanes<T>(
            in, d, m, [](T x, T y) { return x / y; }, a, b);
      case Op::Abs:
        return float_lanes<T>(
            in, d, m, [](T x) { return std::fabs(x); }, a);
      case Op::Neg:
        return float_lanes<T>(
            in, d, m, [](T x) { return -x; }, a);
      case Op::Min:
        return float_lanes<T>(
            in, d, m, [](T x, T y) { return pick(x, y, true); }, a, b);
      case Op::Max:
        return float_lanes<T>(
            in, d, m, [](T x, T y) { return pick(x, y, false); }, a, b);
      case Op::Copysign:
        return lanes<T, T>(
            d, m, [](T x, T y) { return std::copysign(y, x); }, a, b);
      case Op::Rcp:
        return float_lanes<T>(
            in, d, m, [](T x) { return T(1) / x; }, a);
      case Op::Sqrt:
        return float_lanes<T>(
            in, d, m, [](T x) { return std::sqrt(x); }, a);
      case Op::Rsqrt:
        return float_lanes<T>(
            in, d, m, [](T x) { return T(1) / std::sqrt(x); }, a);
      case Op::Ex2:
        return float_lanes<T>(
            in, d, m, [](T x) { return std::exp2(x); }, a);
      case Op::Lg2:
        return float_lanes<T>(
            in, d, m, [](T x) { return std::log2(x); }, a);
      case Op::Sin:
        return float_lanes<T>(
            in, d, m, [](T x) { return std::sin(x); }, a);
      case Op::Cos:
        return float_lanes<T>(
            in, d, m, [](T x) { return std::cos(x); }, a);
      default: return;
    }
  } else {
    using U = Unsigned<T>;
    bool sat32 = in.sat && std::is_same_v<T, int32_t>;
    switch (op) {
      case Op::Add:
        if (sat32)
          return lanes<int32_t, int64_t>(
              d, m,
              [](int64_t x, int64_t y) {
                return int32_t(std::clamp<int64_t>(int64_t(int32_t(x)) + int32_t(y), INT32_MIN, INT32_MAX));
              },
              a, b);
        return lanes<T, T>(
            d, m, [](T x, T y) { return T(U(x) + U(y)); }, a, b);
      case Op::Sub:
        if (sat32)
          return lanes<int32_t, int64_t>(
              d, m,
              [](int64_t x, int64_t y) {
                return int32_t(std::clamp<int64_t>(int64_t(int32_t(x)) - int32_t(y), INT32_MIN, INT32_MAX));
              },
              a, b);
        return lanes<T, T>(
            d, m, [](T x, T y) { return T(U(x) - U(y)); }, a, b);
      case Op::Mul: {
        Mode mode = in.mode;
        return lanes<uint64_t, T>(
            d, m, [=](T x, T y) { return int_mul(x, y, mode); }, a, b);
      }
      case Op::Mad: {
        Mode mode = in.mode;  // .wide adds a double-width c
        return lanes<uint64_t, uint64_t>(
            d, m,
            [=](uint64_t x, uint64_t y, uint64_t z) {
              uint64_t p = int_mul(T(x), T(y), mode);
              return mode == Mode::Wide ? p + z : put<T>(T(U(p) + U(z)));
            },
            a, b, c);
      }
      case Op::Div:
        return lanes<T, T>(
            d, m, [](T x, T y) { return int_div(x, y); }, a, b);
      case Op::Abs:
        return lanes<T, T>(
            d, m, [](T x) { return x < 0 ? T(U(0) - U(x)) : x; }, a);
      case Op::Neg:
        return lanes<T, T>(
            d, m, [](T x) { return T(U(0) - U(x)); }, a);
      case Op::Min:
        return lanes<T, T>(
            d, m, [](T x, T y) { return pick(x, y, true); }, a, b);
      case Op::Max:
        return lanes<T, T>(
            d, m, [](T x, T y) { return pick(x, y, false); }, a, b);
      default: return int_only<T>(in, r, m, op);
    }
  }
}

template <class T>
void arithmetic(const Instruction& in, const RegFile& r, uint32_t m) {
  arithmetic_op<T>(in, r, m, in.op);
}

}  // namespace

void execute_alu(const Instruction& in, const RegFile& r, uint32_t m) {
  if (in.type == ScalarType::Pred && in.op != Op::Setp && in.op != Op::Selp) return pred_logic(in, r, m);
  switch (in.op) {
    case Op::Mov: return mov_lanes(in, r, m);
    case Op::Setp: return by_type(in.type, [&](auto z) { setp_lanes<decltype(z)>(in, r, m); });
    case Op::Selp: return selp_lanes(in, r, m);
    case Op::Slct: {
      const uint64_t *a = r.lanes(in.src[0]), *b = r.lanes(in.src[1]), *c = r.lanes(in.src[2]);
      bool f32 = in.type2 == ScalarType::F32;
      return lanes<uint64_t, uint64_t>(
          r.lanes(in.dst[0]), m,
          [=](uint64_t x, uint64_t y, uint64_t z) {
            bool first = f32 ? get<float>(z) >= 0.0f : get<int32_t>(z) >= 0;
            return first ? x : y;
          },
          a, b, c);
    }
    case Op::Testp: {
      const uint64_t* a = r.lanes(in.src[0]);
      uint32_t bits = 0;
      for (int l = 0; l < 32; ++l)
        bits |= uint32_t(in.type == ScalarType::F32 ? test_property(get<float>(a[l]), in.mode)
                                                    : test_property(get<double>(a[l]), in.mode))
                << l;
      return write_pred(r.pred[in.dst[0]], bits, m);
    }
    case Op::Cvt: {
      RoundingScope rounding(in.rnd);
      return convert_lanes(in, r, m);
    }
    default: return by_type(in.type, [&](auto z) { arithmetic<decltype(z)>(in, r, m); });
  }
}

// Handlers with the operation (and comparison) fixed at compile time: the same
// code as execute_alu's path for that instruction, without its dispatch.
namespace {

template <class T, Op kOp>
void arithmetic_fixed(const Instruction& in, const RegFile& r, uint32_t m) {
  arithmetic_op<T>(in, r, m, kOp);
}
template <class T, Cmp kCmp>
void setp_fixed(const Instruction& in, const RegFile& r, uint32_t m) {
  setp_cmp<T>(in, r, m, kCmp);
}

template <Op kOp>
AluFn arithmetic_for(ScalarType t) {
  AluFn f = &execute_alu;
  by_type(t, [&](auto z) { f = &arithmetic_fixed<decltype(z), kOp>; });
  return f;
}
template <Cmp kCmp>
AluFn setp_for(ScalarType t) {
  AluFn f = &execute_alu;
  by_type(t, [&](auto z) { f = &setp_fixed<decltype(z), kCmp>; });
  return f;
}

AluFn resolve_setp(const Instruction& in) {
  switch (in.cmp) {
    case Cmp::Eq: return setp_for<Cmp::Eq>(in.type);
    case Cmp::Ne: return setp_for<Cmp::Ne>(in.type);
    case Cmp::Lt: return setp_for<Cmp::Lt>(in.type);
    case Cmp::Le: return setp_for<Cmp::Le>(in.type);
    case Cmp::Gt: return setp_for<Cmp::Gt>(in.type);
    case Cmp::Ge: return setp_for<Cmp::Ge>(in.type);
    case Cmp::Equ: return setp_for<Cmp::Equ>(in.type);
    case Cmp::Neu: return setp_for<Cmp::Neu>(in.type);
    case Cmp::Ltu: return setp_for<Cmp::Ltu>(in.type);
    case Cmp::Leu: return setp_for<Cmp::Leu>(in.type);
    case Cmp::Gtu: return setp_for<Cmp::Gtu>(in.type);
    case Cmp::Geu: return setp_for<Cmp::Geu>(in.type);
    case Cmp::Num: return setp_for<Cmp::Num>(in.type);
    case Cmp::Nan: return setp_for<Cmp::Nan>(in.type);
  }
  return &execute_alu;
}

}  // namespace

AluFn resolve_alu(const Instruction& in) {
  if (in.type == ScalarType::Pred && in.op != Op::Setp && in.op != Op::Selp) return &execute_alu;  // pred_logic
  switch (in.op) {
    case Op::Mov: return &mov_lanes;
    case Op::Selp: return &selp_lanes;
    case Op::Setp: return resolve_setp(in);
    case Op::Add: return arithmetic_for<Op::Add>(in.type);
    case Op::Sub: return arithmetic_for<Op::Sub>(in.type);
    case Op::Mul: return arithmetic_for<Op::Mul>(in.type);
    case Op::Mad: return arithmetic_for<Op::Mad>(in.type);
    case Op::Fma: return arithmetic_for<Op::Fma>(in.type);
    case Op::Min: return arithmetic_for<Op::Min>(in.type);
    case Op::Max: return arithmetic_for<Op::Max>(in.type);
    case Op::Neg: return arithmetic_for<Op::Neg>(in.type);
    case Op::Abs: return arithmetic_for<Op::Abs>(in.type);
    case Op::And: return arithmetic_for<Op::And>(in.type);
    case Op::Or: return arithmetic_for<Op::Or>(in.type);
    case Op::Xor: return arithmetic_for<Op::Xor>(in.type);
    case Op::Not: return arithmetic_for<Op::Not>(in.type);
    case Op::Shl: return arithmetic_for<Op::Shl>(in.type);
    case Op::Shr: return arithmetic_for<Op::Shr>(in.type);
    default: return &execute_alu;  // the rest: rarer, or dispatch not worth a handler
  }
}

}  // namespace gpupm::ptx
