#include "gpupm/ptx/ptx_parse_state.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace gpupm::ptx {

namespace {

const std::pair<const char*, ScalarType> kTypeNames[] = {
    {"b8", ScalarType::B8},   {"b16", ScalarType::B16}, {"b32", ScalarType::B32},   {"b64", ScalarType::B64},
    {"u8", ScalarType::U8},   {"u16", ScalarType::U16}, {"u32", ScalarType::U32},   {"u64", ScalarType::U64},
    {"s8", ScalarType::S8},   {"s16", ScalarType::S16}, {"s32", ScalarType::S32},   {"s64", ScalarType::S64},
    {"f32", ScalarType::F32}, {"f64", ScalarType::F64}, {"pred", ScalarType::Pred},
};

float bits_f32(uint64_t b) {
  uint32_t w = uint32_t(b);
  float f;
  std::memcpy(&f, &w, 4);
  return f;
}
double bits_f64(uint64_t b) {
  double d;
  std::memcpy(&d, &b, 8);
  return d;
}
uint64_t f32_bits(float f) {
  uint32_t w;
  std::memcpy(&w, &f, 4);
  return w;
}
uint64_t f64_bits(double d) {
  uint64_t w;
  std::memcpy(&w, &d, 8);
  return w;
}

}  // namespace

bool is_float(ScalarType t) { return t == ScalarType::F32 || t == ScalarType::F64; }
bool is_signed(ScalarType t) {
  return t == ScalarType::S8 || t == ScalarType::S16 || t == ScalarType::S32 || t == ScalarType::S64;
}

ScalarType parse_type_name(const std::string& name, bool* ok) {
  for (const auto& [text, type] : kTypeNames)
    if (name == text) {
      *ok = true;
      return type;
    }
  *ok = false;
  return ScalarType::B32;
}

bool is_type_directive(const std::string& text) {
  bool ok = false;
  if (!text.empty() && text[0] == '.') parse_type_name(text.substr(1), &ok);
  return ok;
}

void Literal::negate() {
  if (kind == Kind::F32) bits ^= 0x80000000u;
  else if (kind == Kind::F64) bits ^= 0x8000000000000000ull;
  else bits = uint64_t(-int64_t(bits));
}

uint64_t literal_bits(const Literal& lit, ScalarType as) {
  if (as == ScalarType::F32) {
    if (lit.kind == Literal::Kind::F32) return lit.bits;
    if (lit.kind == Literal::Kind::F64) return f32_bits(float(bits_f64(lit.bits)));
    return f32_bits(float(int64_t(lit.bits)));
  }
  if (as == ScalarType::F64) {
    if (lit.kind == Literal::Kind::F64) return lit.bits;
    if (lit.kind == Literal::Kind::F32) return f64_bits(double(bits_f32(lit.bits)));
    return f64_bits(double(int64_t(lit.bits)));
  }
  return lit.bits;  // integer types read the low bits; float literals act as raw bits
}

uint64_t negate_bits(uint64_t bits, ScalarType t) {
  if (t == ScalarType::F32) return bits ^ 0x80000000u;
  if (t == ScalarType::F64) return bits ^ 0x8000000000000000ull;
  return uint64_t(-int64_t(bits));
}

void TokenCursor::fail(const Token& t, const std::string& what) const {
  throw ParseError(file_ + ":" + std::to_string(t.line) + ":" + std::to_string(t.col) + ": " + what + " (at '" +
                   t.text + "'); supported opcode families: " + kSupportedFamilies);
}

void TokenCursor::expect(const char* text) {
  if (!accept(text)) fail(peek(), std::string("expected '") + text + "'");
}

const Token& TokenCursor::expect_word() {
  if (peek().kind != Token::Kind::Word) fail(peek(), "expected a name");
  return take();
}

uint64_t TokenCursor::number(const Token& t) const {
  Literal lit = literal(t);
  if (lit.kind != Literal::Kind::Int) fail(t, "expected an integer");
  return lit.bits;
}

Literal TokenCursor::literal(const Token& t) const {
  if (t.kind != Token::Kind::Number) fail(t, "expected a number");
  std::string s = t.text;
  Literal lit;
  auto hex = [&](size_t from, size_t digits) {
    if (s.size() != from + digits) fail(t, "malformed hexadecimal float");
    return std::stoull(s.substr(from), nullptr, 16);
  };
  try {
    if (s.size() > 2 && s[0] == '0' && (s[1] == 'f' || s[1] == 'F')) {
      lit.kind = Literal::Kind::F32;
      lit.bits = hex(2, 8);
    } else if (s.size() > 2 && s[0] == '0' && (s[1] == 'd' || s[1] == 'D')) {
      lit.kind = Literal::Kind::F64;
      lit.bits = hex(2, 16);
    } else if (s.find_first_of(".eE") != std::string::npos && s.find_first_of("xX") == std::string::npos) {
      lit.kind = Literal::Kind::F64;
      lit.bits = f64_bits(std::stod(s));
    } else {
      if (!s.empty() && (s.back() == 'U' || s.back() == 'u')) s.pop_back();
      size_t used = 0;
      bool octal = s.size() > 1 && s[0] == '0' && s[1] != 'x' && s[1] != 'X';
      lit.bits = std::stoull(s, &used, octal ? 8 : 0);
      if (used != s.size()) fail(t, "malformed number");
    }
  } catch (const std::logic_error&) {
    fail(t, "malformed number");
  }
  return lit;
}

ScalarType TokenCursor::type_directive(const Token& t) const {
  bool ok = false;
  ScalarType type = ScalarType::B32;
  if (t.kind == Token::Kind::Directive) type = parse_type_name(t.text.substr(1), &ok);
  if (!ok) {
    if (t.text.find("f16") != std::string::npos || t.text.find("bf16") != std::string::npos)
      fail(t, "f16/bf16 types are not supported");
    fail(t, "expected a type (.b8 .. .f64, .pred)");
  }
  return type;
}

KernelScope::KernelScope(Kernel& k, const std::unordered_map<std::string, SharedDecl>& module_shared,
                         const GlobalNames& module_globals)
    : kernel(k), module_shared_(module_shared), module_globals_(module_globals) {
  kernel.extra = std::make_unique<KernelExtra>();
}

void KernelScope::declare_register(const std::string& name, ScalarType type, const Token& where) {
  if (regs_.count(name)) cursor->fail(where, "register " + name + " declared twice");
  if (kernel.num_regs >= kMaxRegisters)
    cursor->fail(where, "too many registers: a kernel declares at most " + std::to_string(kMaxRegisters));
  regs_[name] = Reg{uint16_t(kernel.num_regs++), type};
  kernel.extra->is_pred.push_back(type == ScalarType::Pred);
  kernel.extra->words.push_back(type == ScalarType::Pred ? 0 : type_bytes(type) == 8 ? 2 : 1);
}

bool KernelScope::find_register(const std::string& name, uint16_t* id, ScalarType* type) const {
  auto it = regs_.find(name);
  if (it == regs_.end()) return false;
  *id = it->second.id;
  *type = it->second.type;
  return true;
}

static uint32_t align_to(uint32_t v, uint32_t a) { return a ? (v + a - 1) / a * a : v; }

void KernelScope::add_shared(const std::string& name, uint32_t align, uint32_t size, bool is_extern) {
  if (is_extern) {
    dynamic_declared_ = true;
    dynamic_name_ = name;
    return;
  }
  uint32_t offset = align_to(kernel.shared_static_bytes, align);
  shared_[name] = offset;
  kernel.shared_static_bytes = offset + size;
}

void KernelScope::add_local(const std::string& name, uint32_t align, uint32_t size) {
  uint32_t offset = align_to(kernel.local_bytes, align);
  local_[name] = offset;
  kernel.local_bytes = offset + size;
}

void KernelScope::add_label(const Token& label) {
  if (!labels_.emplace(label.text, uint32_t(kernel.code.size())).second) cursor->fail(label, "label defined twice");
}

KernelScope::SymbolKind KernelScope::find_symbol(const std::string& name, uint32_t* offset) {
  if (auto it = params.find(name); it != params.end()) return *offset = it->second, SymbolKind::Param;
  if (auto it = shared_.find(name); it != shared_.end()) return *offset = it->second, SymbolKind::Shared;
  if (auto it = local_.find(name); it != local_.end()) return *offset = it->second, SymbolKind::Local;
  if (dynamic_declared_ && name == dynamic_name_) return *offset = 0, SymbolKind::DynamicShared;
  if (auto it = module_shared_.find(name); it != module_shared_.end()) {
    if (it->second.is_extern) {
      kernel.uses_dynamic_shared = true;
      return *offset = 0, SymbolKind::DynamicShared;
    }
    add_shared(name, it->second.align, it->second.size, false);  // laid out on first use
    return *offset = shared_[name], SymbolKind::Shared;
  }
  if (module_globals_.count(name)) return *offset = 0, SymbolKind::Global;
  return SymbolKind::None;
}

uint16_t KernelScope::hidden(const std::string& key, const SlotInit& init) {
  auto it = hidden_ids_.find(key);
  if (it != hidden_ids_.end()) return it->second;
  // Checked here, where the id is made: a wrapped id would alias slot 0 and run silently wrong.
  if (kernel.extra->hidden.size() >= kMaxHiddenSlots)
    throw ParseError(kernel.file + ": kernel " + kernel.name + ": more than " + std::to_string(kMaxHiddenSlots) +
                     " distinct immediates, special registers and symbols (the limit of one kernel)");
  uint16_t id = uint16_t(kHiddenFlag | kernel.extra->hidden.size());
  kernel.extra->hidden.push_back(init);
  hidden_ids_[key] = id;
  return id;
}

uint16_t KernelScope::constant_slot(uint64_t bits) {
  SlotInit init;
  init.value = bits;
  return hidden("c" + std::to_string(bits), init);
}

uint16_t KernelScope::special_slot(Special s) {
  SlotInit init;
  init.kind = SlotInit::Kind::Special;
  init.special = s;
  return hidden("s" + std::to_string(int(s)), init);
}

uint16_t KernelScope::symbol_slot(const std::string& global_name) {
  SlotInit init;
  init.kind = SlotInit::Kind::Symbol;
  init.symbol = global_name;
  return hidden("g" + global_name, init);
}

uint16_t KernelScope::dynamic_shared_slot() {
  kernel.uses_dynamic_shared = true;
  SlotInit init;
  init.kind = SlotInit::Kind::DynamicShared;
  return hidden("d", init);
}

void KernelScope::finish() {
  for (const auto& [pc, label] : fixups_) {
    auto it = labels_.find(label.text);
    if (it == labels_.end()) cursor->fail(label, "undefined label");
    kernel.code[pc].target = it->second;
  }
  if (kernel.num_regs + kernel.extra->hidden.size() >= 0xffff)
    throw ParseError(kernel.file + ": kernel " + kernel.name + ": too many registers and constants");
  auto fix = [&](uint16_t& id) {
    if (id & kHiddenFlag) id = uint16_t(kernel.num_regs + (id & ~kHiddenFlag));
  };
  for (Instruction& in : kernel.code) {
    for_each_slot_field(in, fix);
    in.alu = resolve_alu(in);
  }
  compute_reconvergence(kernel.code);
  kernel.regs_per_thread = estimate_registers(kernel);
  assign_register_slots(kernel);
}

}  // namespace gpupm::ptx
