// The pre-decoded instruction form the executor runs (private to sc_model/ptx/).
// Every source operand is a register slot: immediates, special registers and
// symbol addresses become hidden "constant slots" after the declared registers'
// (Kernel::register_slots on), filled once when a warp starts, so the hot
// path reads every operand the same way and never looks at strings.
#pragma once

#include <map>

#include <cstdint>
#include <string>
#include <vector>

#include "gpupm/ptx/ptx.h"

namespace gpupm::ptx {

// clang-format off
enum class Op : uint8_t {
  Mov, MovClock, Pack, Unpack,
  Add, Sub, Mul, Mad, Mul24, Mad24, Fma, Div, Rem, Abs, Neg, Min, Max,
  And, Or, Xor, Not, CNot, Shl, Shr, Bfe, Bfi, Popc, Clz, Brev, Prmt, Copysign, Testp,
  Rcp, Sqrt, Rsqrt, Ex2, Lg2, Sin, Cos,
  Setp, Selp, Slct, Cvt, Cvta, CvtaTo,
  Ld, St, Atom,
  Bar, Nop, Shfl, Vote, Activemask,
  Bra, Exit,
};
// clang-format on

enum class Space : uint8_t { Generic, Global, Shared, Local, Const, Param };

enum class Cmp : uint8_t { Eq, Ne, Lt, Le, Gt, Ge, Equ, Neu, Ltu, Leu, Gtu, Geu, Num, Nan };
enum class BoolOp : uint8_t { None, And, Or, Xor };
enum class Round : uint8_t { None, Rn, Rz, Rm, Rp, Rni, Rzi, Rmi, Rpi };
// Sub-mode of an opcode (meaning depends on Op).
// clang-format off
enum class Mode : uint8_t {
  None,
  Lo, Hi, Wide,                                           // mul/mad/mul24/mad24
  AtomAdd, AtomMin, AtomMax, AtomExch, AtomCas, AtomAnd, AtomOr, AtomXor, AtomInc, AtomDec,
  Up, Down, Bfly, Idx,                                    // shfl
  All, Any, Ballot, Uni,                                  // vote
  Finite, Infinite, Number, NotANumber, Normal, Subnormal,  // testp
};
// clang-format on

// Special registers a hidden slot can hold (filled per warp at start).
// clang-format off
enum class Special : uint8_t {
  TidX, TidY, TidZ, NtidX, NtidY, NtidZ, CtaidX, CtaidY, CtaidZ, NctaidX, NctaidY, NctaidZ,
  LaneId, WarpId, NWarpId, SmId, NSmId, GridId, LanemaskEq, LanemaskLt, LanemaskLe, LanemaskGt,
  LanemaskGe,
};
// clang-format on

// Generic-address windows of the shared and local state spaces (offset added).
constexpr uint64_t kSharedWindow = 0x7e0000000000ull;
constexpr uint64_t kLocalWindow = 0x7f0000000000ull;
constexpr uint64_t kWindowBytes = 1ull << 40;

constexpr uint32_t kNever = 0xffffffffu;  // reconvergence PC of a branch whose paths never meet

struct Instruction;
struct RegFile;  // ptx_lanes.h
// Arithmetic, logic, compare, select and convert instructions on the `active`
// lanes (ptx_alu.cc): execute_alu dispatches on the instruction's fields;
// resolve_alu picks, once per decoded instruction, a handler with its
// operation and type fixed (execute_alu where none is worth it).
using AluFn = void (*)(const Instruction& in, const RegFile& r, uint32_t active);
void execute_alu(const Instruction& in, const RegFile& r, uint32_t active);
AluFn resolve_alu(const Instruction& in);

struct Instruction {
  Op op = Op::Nop;
  ScalarType type = ScalarType::B32;   // the instruction type (destination type for cvt)
  ScalarType type2 = ScalarType::B32;  // cvt source type, slct/setp compare operand type
  Space space = Space::Generic;
  Mode mode = Mode::None;
  Cmp cmp = Cmp::Eq;
  BoolOp bool_op = BoolOp::None;
  Round rnd = Round::None;
  uint8_t vec = 1;  // ld/st vector width
  bool ftz = false, sat = false, approx = false, uni = false;
  bool has_guard = false, guard_negated = false;
  bool has_base = false;     // address has a register base
  bool has_dst2 = false;     // setp/shfl second (predicate) destination
  bool src_negated = false;  // the predicate source is negated (setp c operand, vote a, selp?)
  bool is_clock64 = false;
  uint8_t n_dst = 0, n_src = 0;
  uint16_t guard = 0;
  uint16_t base = 0;  // address base slot
  uint16_t dst2 = 0;
  uint16_t dst[4]{};
  uint16_t src[4]{};
  int64_t offset = 0;        // address offset (bytes)
  uint32_t target = 0;       // branch target PC
  uint32_t reconv = kNever;  // branch reconvergence PC (immediate post-dominator)
  uint32_t line = 0;
  AluFn alu = &execute_alu;  // resolve_alu's choice, set when the kernel is decoded
};

// Calls f(id) on every operand field of `in` that names a slot, used or not
// (renumbering: the decoder's hidden ids, assign_register_slots).
template <class F>
void for_each_slot_field(Instruction& in, F&& f) {
  for (auto& d : in.dst) f(d);
  for (auto& s : in.src) f(s);
  f(in.base);
  f(in.guard);
  f(in.dst2);
}

// How a hidden slot gets its value when a warp starts.
struct SlotInit {
  enum class Kind : uint8_t { Constant, Special, Symbol, DynamicShared } kind = Kind::Constant;
  uint64_t value = 0;  // Constant: bits (all lanes); predicate mask = value ? ~0 : 0
  Special special = Special::TidX;
  std::string symbol;  // Symbol: module .global/.const variable (address from DeviceMemory)
};

struct KernelExtra {
  std::vector<SlotInit> hidden;    // slot Kernel::register_slots + i
  std::vector<std::string> texts;  // per PC: opcode with modifiers, for messages
  std::vector<bool> is_pred;       // per declared register
  std::vector<uint8_t> words;      // per declared register: 32-bit registers it takes (predicates 0)
  // Source lines from the PTX's .loc directives (clang's line directives): per
  // PC the .file index and line (0: none), and the module's .file table.
  std::vector<std::pair<uint32_t, uint32_t>> locs;
  std::map<uint32_t, std::string> source_files;
};

// Registers per thread a register allocator would need at least: the most
// 32-bit words live at once, from a liveness analysis over the CFG (ptx_registers.cc).
uint32_t estimate_registers(const Kernel& k);

// Gives each declared register a slot of the warp's register file, registers
// never live at once sharing one, and the hidden constant slots the slots after
// them: renumbers every operand of k.code (k.info keeps the declared ids, which
// the SM's scoreboard and register banks time). ptx_registers.cc.
void assign_register_slots(Kernel& k);

// Fills every conditional branch's `reconv` with the immediate post-dominator
// of its basic block (ptx_cfg.cc); targets must already be resolved.
void compute_reconvergence(std::vector<Instruction>& code);

bool is_float(ScalarType t);   // f32/f64 (ptx_parse_state.cc)
bool is_signed(ScalarType t);  // s8..s64

// Offset of the .extern .shared array in a CTA's shared memory (device_memory.cc).
uint32_t shared_dynamic_base(const Kernel& k);

}  // namespace gpupm::ptx
