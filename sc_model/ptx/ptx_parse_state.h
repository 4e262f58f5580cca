// Parser internals shared by ptx_parser.cc (structure) and ptx_decode.cc
// (instructions): the token cursor, raw operands and the per-kernel scope that
// owns register ids, hidden constant slots, variables and labels.
#pragma once

#include <algorithm>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "gpupm/ptx/ptx_decoded.h"
#include "gpupm/ptx/ptx_lexer.h"

namespace gpupm::ptx {

// The opcode families decode_instruction accepts (for messages).
constexpr const char* kSupportedFamilies =
    "mov add sub mul mad mul24 mad24 fma div rem abs neg min max and or xor not cnot shl shr bfe bfi "
    "popc clz brev prmt copysign testp rcp sqrt rsqrt ex2 lg2 sin cos setp selp slct cvt cvta ld st "
    "atom red bar barrier membar fence shfl vote activemask bra ret exit "
    "(refused: call, brx.idx, tex/tld4/txq, suld/sust/sured/suq, f16/bf16 types, .func)";

// A numeric literal as written: integer, 0f (f32 bits) or 0d (f64 bits).
struct Literal {
  enum class Kind : uint8_t { Int, F32, F64 } kind = Kind::Int;
  uint64_t bits = 0;
  void negate();
};
uint64_t literal_bits(const Literal& lit, ScalarType as);  // the value as type `as`
uint64_t negate_bits(uint64_t bits, ScalarType t);
bool is_type_directive(const std::string& text);
bool is_float(ScalarType t);
bool is_signed(ScalarType t);
ScalarType parse_type_name(const std::string& name, bool* ok);  // "u32" -> U32

class TokenCursor {
 public:
  TokenCursor(std::vector<Token> tokens, std::string file) : tokens_(std::move(tokens)), file_(std::move(file)) {}
  [[noreturn]] void fail(const Token& t, const std::string& what) const;

 protected:
  const Token& peek(size_t ahead = 0) const { return tokens_[std::min(pos_ + ahead, tokens_.size() - 1)]; }
  const Token& take() {
    const Token& t = peek();
    if (pos_ < tokens_.size() - 1) ++pos_;
    return t;
  }
  bool accept(const char* text) {
    if (peek().text != text || peek().kind == Token::Kind::String) return false;
    take();
    return true;
  }
  void expect(const char* text);
  const Token& expect_word();
  uint64_t number(const Token& t) const;
  Literal literal(const Token& t) const;
  ScalarType type_directive(const Token& t) const;  // ".u32" -> U32

  std::vector<Token> tokens_;
  size_t pos_ = 0;
  std::string file_;
};

struct Operand {
  enum class Kind : uint8_t { Name, Immediate, Vector, Address } kind = Kind::Name;
  Token tok;
  std::string name;  // Name: register/special/symbol/label; Address: base register or symbol ("" = none)
  bool negated = false;
  Literal literal;
  int64_t offset = 0;          // Address
  std::vector<Operand> elems;  // Vector elements; Name: the `|%q` second destination
};

struct RawInstruction {
  Token guard;
  bool guard_negated = false;
  Token opcode;
  std::vector<Operand> operands;
};

struct SharedDecl {
  uint32_t align = 4, size = 0;
  bool is_extern = false;
};
using GlobalNames = std::unordered_set<std::string>;

// Everything a kernel's instructions can name, and the kernel being built.
class KernelScope {
 public:
  KernelScope(Kernel& k, const std::unordered_map<std::string, SharedDecl>& module_shared,
              const GlobalNames& module_globals);
  Kernel& kernel;
  std::unordered_map<std::string, uint32_t> params;  // name -> offset

  void declare_register(const std::string& name, ScalarType type, const Token& where);
  void add_shared(const std::string& name, uint32_t align, uint32_t size, bool is_extern);
  void add_local(const std::string& name, uint32_t align, uint32_t size);
  void add_label(const Token& label);
  void add_branch_fixup(uint32_t pc, const Token& label) { fixups_.push_back({pc, label}); }

  // Register lookup: id and type, or false.
  bool find_register(const std::string& name, uint16_t* id, ScalarType* type) const;
  uint16_t constant_slot(uint64_t bits);
  uint16_t special_slot(Special s);
  uint16_t symbol_slot(const std::string& global_name);
  uint16_t dynamic_shared_slot();

  // A symbol's address in `space` terms: kind of symbol and its value.
  enum class SymbolKind { None, Param, Shared, DynamicShared, Local, Global };
  SymbolKind find_symbol(const std::string& name, uint32_t* offset);
  const TokenCursor* cursor = nullptr;  // for error messages

  // Resolves labels, hidden slot ids, reconvergence points and the register estimate.
  void finish();

 private:
  uint16_t hidden(const std::string& key, const SlotInit& init);
  struct Reg {
    uint16_t id;
    ScalarType type;
  };
  std::unordered_map<std::string, Reg> regs_;
  std::unordered_map<std::string, uint16_t> hidden_ids_;
  std::unordered_map<std::string, uint32_t> shared_, local_, labels_;
  const std::unordered_map<std::string, SharedDecl>& module_shared_;
  const GlobalNames& module_globals_;
  std::vector<std::pair<uint32_t, Token>> fixups_;
  bool dynamic_declared_ = false;
  std::string dynamic_name_;
};

constexpr uint16_t kHiddenFlag = 0x8000;  // provisional hidden slot ids until finish()
// Registers and hidden slots share one 16-bit id space (0xffff is "none"): each gets half.
constexpr uint32_t kMaxRegisters = kHiddenFlag;
constexpr uint32_t kMaxHiddenSlots = 0x7fff;

// Throws for opcodes refused before their operands are read (call, textures, f16, ...).
void refuse_unsupported(const TokenCursor& cursor, const Token& opcode);

// Decodes one instruction into scope.kernel (code, info, texts, families).
void decode_instruction(KernelScope& scope, const RawInstruction& raw);

}  // namespace gpupm::ptx
