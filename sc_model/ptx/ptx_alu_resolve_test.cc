// resolve_alu's handlers against execute_alu: for every operation resolve_alu
// gives a handler of its own, on every type and comparison and with the
// modifiers that change its code path, both must leave the same registers and
// predicates on random operands (special float values included) and masks.
#include <gtest/gtest.h>

#include <array>
#include <cstring>
#include <random>
#include <vector>

#include "gpupm/ptx/ptx_lanes.h"

namespace gpupm::ptx {
namespace {

constexpr uint16_t kRegs = 6;   // register slots 0..5 (32 lanes each)
constexpr uint16_t kPreds = 3;  // predicate slots

struct State {
  std::vector<uint64_t> v = std::vector<uint64_t>((kRegs + kPreds) * 32);
  std::vector<uint32_t> pred = std::vector<uint32_t>(kRegs + kPreds);
  std::array<uint64_t*, kRegs + kPreds> rows{};  // made by file(): a copied State has its own
  RegFile file() {
    for (uint16_t s = 0; s < rows.size(); ++s) rows[s] = v.data() + size_t(s) * 32;
    return RegFile{rows.data(), pred.data()};
  }
};

uint64_t random_bits(std::mt19937_64& rng, ScalarType t) {
  static const uint32_t f32[] = {0x7fc00000u, 0xffc00001u, 0x7f800000u, 0xff800000u,
                                 0x80000000u, 0x00000001u, 0x3f800000u};
  static const uint64_t f64[] = {0x7ff8000000000000ull, 0xfff8000000000001ull, 0x7ff0000000000000ull,
                                 0x8000000000000000ull, 0x0000000000000001ull, 0x3ff0000000000000ull};
  const uint64_t r = rng();
  if (r % 4 == 0 && t == ScalarType::F32) return f32[(r >> 8) % 7];
  if (r % 4 == 0 && t == ScalarType::F64) return f64[(r >> 8) % 6];
  if (r % 8 == 1) return (r >> 8) % 70;  // small values: shift counts, equal operands
  return rng();
}

Instruction make(Op op, ScalarType type, Cmp cmp, uint32_t variant) {
  Instruction in;
  in.op = op;
  in.type = type;
  in.type2 = type;
  in.cmp = cmp;
  in.ftz = variant & 1;
  in.sat = variant & 2;
  in.rnd = (variant & 4) ? Round::Rz : (variant & 8) ? Round::Rn : Round::None;
  in.mode = (variant & 16) ? Mode::Hi : (variant & 32) ? Mode::Wide : Mode::Lo;
  in.bool_op = (variant & 64) ? BoolOp::Xor : BoolOp::None;
  in.has_dst2 = variant & 128;
  in.src_negated = variant & 256;
  const bool three = op == Op::Mad || op == Op::Fma || op == Op::Selp;
  const bool one = op == Op::Mov || op == Op::Neg || op == Op::Abs || op == Op::Not;
  in.n_src = three ? 3 : one ? 1 : 2;
  in.n_dst = 1;
  in.src[0] = 1, in.src[1] = 2, in.src[2] = 3;
  in.dst[0] = uint16_t(variant % 3 == 0 ? 1 : 4);  // sometimes in place
  if (op == Op::Setp || op == Op::Selp) {
    in.src[2] = kRegs + 1;  // the predicate operand
    if (op == Op::Setp) in.dst[0] = kRegs, in.dst2 = kRegs + 2;
  }
  return in;
}

TEST(PtxAluResolve, HandlersMatchExecuteAlu) {
  const Op ops[] = {Op::Mov, Op::Selp, Op::Setp, Op::Add, Op::Sub, Op::Mul, Op::Mad, Op::Fma, Op::Min,
                    Op::Max, Op::Neg,  Op::Abs,  Op::And, Op::Or,  Op::Xor, Op::Not, Op::Shl, Op::Shr};
  const ScalarType types[] = {ScalarType::B8,  ScalarType::B16, ScalarType::B32, ScalarType::B64, ScalarType::U8,
                              ScalarType::U16, ScalarType::U32, ScalarType::U64, ScalarType::S8,  ScalarType::S16,
                              ScalarType::S32, ScalarType::S64, ScalarType::F32, ScalarType::F64, ScalarType::Pred};
  std::mt19937_64 rng(20261130);
  int own_handlers = 0, cases = 0;
  for (Op op : ops)
    for (ScalarType type : types)
      for (int c = 0; c <= int(Cmp::Nan); ++c) {
        if (op != Op::Setp && c > 0) break;
        for (uint32_t variant = 0; variant < 512; variant += 1 + uint32_t(rng() % 23)) {
          const Instruction in = make(op, type, Cmp(c), variant);
          const AluFn handler = resolve_alu(in);
          own_handlers += handler != &execute_alu;
          State before;
          for (uint64_t& x : before.v) x = random_bits(rng, type);
          for (uint32_t& p : before.pred) p = uint32_t(rng());
          const uint32_t mask = rng() % 3 == 0 ? ~0u : uint32_t(rng());
          State generic = before, resolved = before;
          execute_alu(in, generic.file(), mask);
          handler(in, resolved.file(), mask);
          ++cases;
          ASSERT_EQ(generic.v, resolved.v)
              << "op " << int(op) << " type " << int(type) << " cmp " << c << " variant " << variant;
          ASSERT_EQ(generic.pred, resolved.pred)
              << "op " << int(op) << " type " << int(type) << " cmp " << c << " variant " << variant;
        }
      }
  // The comparison means something only if most cases ran a handler of their own.
  EXPECT_GT(own_handlers, cases * 3 / 4) << own_handlers << " of " << cases;
}

TEST(PtxAluResolve, PredicateLogicAndRareOpsKeepTheGenericPath) {
  Instruction in;
  in.op = Op::And;
  in.type = ScalarType::Pred;
  EXPECT_EQ(resolve_alu(in), &execute_alu);
  in.op = Op::Cvt;
  in.type = ScalarType::F32;
  EXPECT_EQ(resolve_alu(in), &execute_alu);
  in.op = Op::Add;
  EXPECT_NE(resolve_alu(in), &execute_alu);
}

}  // namespace
}  // namespace gpupm::ptx
