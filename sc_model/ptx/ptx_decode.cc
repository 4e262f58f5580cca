// One PTX instruction (opcode with modifiers, operands) -> Instruction + InstInfo.
#include <algorithm>
#include <functional>
#include <unordered_map>

#include "gpupm/ptx/ptx_parse_state.h"

namespace gpupm::ptx {
namespace {

const std::pair<const char*, Special> kSpecials[] = {
    {"%tid.x", Special::TidX},
    {"%tid.y", Special::TidY},
    {"%tid.z", Special::TidZ},
    {"%ntid.x", Special::NtidX},
    {"%ntid.y", Special::NtidY},
    {"%ntid.z", Special::NtidZ},
    {"%ctaid.x", Special::CtaidX},
    {"%ctaid.y", Special::CtaidY},
    {"%ctaid.z", Special::CtaidZ},
    {"%nctaid.x", Special::NctaidX},
    {"%nctaid.y", Special::NctaidY},
    {"%nctaid.z", Special::NctaidZ},
    {"%laneid", Special::LaneId},
    {"%warpid", Special::WarpId},
    {"%nwarpid", Special::NWarpId},
    {"%smid", Special::SmId},
    {"%nsmid", Special::NSmId},
    {"%gridid", Special::GridId},
    {"%lanemask_eq", Special::LanemaskEq},
    {"%lanemask_lt", Special::LanemaskLt},
    {"%lanemask_le", Special::LanemaskLe},
    {"%lanemask_gt", Special::LanemaskGt},
    {"%lanemask_ge", Special::LanemaskGe},
};

const std::pair<const char*, Cmp> kCmps[] = {
    {"eq", Cmp::Eq},   {"ne", Cmp::Ne},   {"lt", Cmp::Lt},   {"le", Cmp::Le},   {"gt", Cmp::Gt},   {"ge", Cmp::Ge},
    {"lo", Cmp::Lt},   {"ls", Cmp::Le},   {"hi", Cmp::Gt},   {"hs", Cmp::Ge},   {"equ", Cmp::Equ}, {"neu", Cmp::Neu},
    {"ltu", Cmp::Ltu}, {"leu", Cmp::Leu}, {"gtu", Cmp::Gtu}, {"geu", Cmp::Geu}, {"num", Cmp::Num}, {"nan", Cmp::Nan},
};

const std::pair<const char*, Round> kRounds[] = {
    {"rn", Round::Rn},   {"rz", Round::Rz},   {"rm", Round::Rm},   {"rp", Round::Rp},
    {"rni", Round::Rni}, {"rzi", Round::Rzi}, {"rmi", Round::Rmi}, {"rpi", Round::Rpi},
};

const std::pair<const char*, Space> kSpaces[] = {
    {"global", Space::Global}, {"shared", Space::Shared}, {"local", Space::Local},
    {"const", Space::Const},   {"param", Space::Param},
};

const char* space_name(Space s) {
  switch (s) {
    case Space::Global: return "global";
    case Space::Shared: return "shared";
    case Space::Local: return "local";
    case Space::Const: return "const";
    case Space::Param: return "param";
    default: return "generic";
  }
}

// Modifiers ignored: memory ordering, scopes, cache operators, `.sync`/`.aligned`.
const char* const kIgnored[] = {
    "ca",      "cg",      "cs",      "lu",   "cv",  "wb",  "wt",  "nc",   "volatile", "relaxed",
    "acquire", "release", "acq_rel", "weak", "sys", "gpu", "cta", "sync", "aligned",  "L1::evict_last",
    "noftz",   "full",    "sc"};

template <class T, size_t N>
bool lookup(const std::pair<const char*, T> (&table)[N], const std::string& key, T* out) {
  for (const auto& [name, value] : table)
    if (key == name) return *out = value, true;
  return false;
}

std::vector<std::string> split_dots(const std::string& s) {
  std::vector<std::string> parts;
  size_t start = 0;
  for (size_t i = 0; i <= s.size(); ++i)
    if (i == s.size() || s[i] == '.') parts.push_back(s.substr(start, i - start)), start = i + 1;
  return parts;
}

class Decoder {
 public:
  Decoder(KernelScope& scope, const RawInstruction& raw) : s_(scope), raw_(raw) {}

  void run() {
    parse_modifiers();
    in_.line = raw_.opcode.line;
    info_.line = in_.line;
    if (!raw_.guard.text.empty()) {
      in_.has_guard = true;
      in_.guard_negated = raw_.guard_negated;
      in_.guard = reg(raw_.guard.text, raw_.guard, true);
    }
    family_ = base_;
    decode();
    leftover_check();
    finish();
  }

 private:
  [[noreturn]] void fail(const std::string& what) const { s_.cursor->fail(raw_.opcode, what); }
  [[noreturn]] void fail_at(const Operand& o, const std::string& what) const { s_.cursor->fail(o.tok, what); }

  void parse_modifiers() {
    auto parts = split_dots(raw_.opcode.text);
    base_ = parts[0];
    for (size_t i = 1; i < parts.size(); ++i) {
      const std::string& m = parts[i];
      bool ok = false;
      ScalarType t = parse_type_name(m, &ok);
      Round r;
      Space sp;
      if (ok) types_.push_back(t);
      else if (m.find("f16") != std::string::npos || m == "tf32" || m == "e4m3" || m == "e5m2")
        fail("f16/bf16 types are not supported");
      else if (lookup(kRounds, m, &r)) in_.rnd = r;
      else if (lookup(kSpaces, m, &sp)) in_.space = sp, has_space_ = true;
      else if (m == "ftz") in_.ftz = true;
      else if (m == "sat") in_.sat = true;
      else if (m == "approx") in_.approx = true;
      else if (m == "uni") in_.uni = true;
      else if (m == "v2" || m == "v4") in_.vec = uint8_t(m[1] - '0');
      else if (m == "to") to_ = true;
      else if (std::find_if(std::begin(kIgnored), std::end(kIgnored), [&](const char* x) { return m == x; }) !=
               std::end(kIgnored))
        continue;
      else words_.push_back(m);
    }
  }

  // Takes the next unrecognised modifier if it is one of `options`.
  bool word(const char* w) {
    auto it = std::find(words_.begin(), words_.end(), w);
    if (it == words_.end()) return false;
    words_.erase(it);
    return true;
  }
  void leftover_check() const {
    if (!words_.empty()) fail("unsupported modifier ." + words_[0] + " for " + base_);
  }

  ScalarType type(size_t i = 0) const {
    if (types_.size() <= i) fail("missing type modifier");
    return types_[i];
  }

  void need_operands(size_t n) const {
    if (raw_.operands.size() != n)
      fail(base_ + " takes " + std::to_string(n) + " operands, got " + std::to_string(raw_.operands.size()));
  }
  const Operand& op(size_t i) const { return raw_.operands.at(i); }

  // Appends `id` keeping register-file ids first, in operand order (the SM's
  // operand collector reads and writes them through its banks); predicates after.
  template <size_t N>
  static void append_bank_first(std::array<uint16_t, N>& list, uint8_t& n, uint8_t& n_bank, uint16_t id, ScalarType t) {
    if (n >= N) return;
    list[n++] = id;
    if (t == ScalarType::Pred) return;
    std::rotate(list.begin() + n_bank, list.begin() + n - 1, list.begin() + n);
    ++n_bank;
  }
  void add_src(uint16_t id, ScalarType t) {
    if (id & kHiddenFlag) return;
    for (int i = 0; i < info_.n_src; ++i)
      if (info_.src[i] == id) return;
    append_bank_first(info_.src, info_.n_src, info_.n_bank_src, id, t);
  }
  void add_dst_info(uint16_t id, ScalarType t) { append_bank_first(info_.dst, info_.n_dst, info_.n_bank_dst, id, t); }

  uint16_t reg(const std::string& name, const Token& where, bool read) {
    uint16_t id;
    ScalarType t;
    if (!s_.find_register(name, &id, &t)) s_.cursor->fail(where, "unknown register " + name);
    if (read) add_src(id, t);
    return id;
  }

  // A source operand as a slot: register, immediate, special register or symbol address.
  uint16_t src(const Operand& o, ScalarType as) {
    if (o.kind == Operand::Kind::Immediate) return s_.constant_slot(literal_bits(o.literal, as));
    if (o.kind != Operand::Kind::Name) fail_at(o, "expected a register or an immediate");
    uint16_t id;
    ScalarType t;
    if (s_.find_register(o.name, &id, &t)) return add_src(id, t), id;
    Special sp;
    if (lookup(kSpecials, o.name, &sp)) return s_.special_slot(sp);
    if (o.name == "%clock" || o.name == "%clock64") fail_at(o, "%clock can only be read by mov");
    uint32_t offset = 0;
    switch (s_.find_symbol(o.name, &offset)) {
      case KernelScope::SymbolKind::Global: return s_.symbol_slot(o.name);
      case KernelScope::SymbolKind::DynamicShared: return s_.dynamic_shared_slot();
      case KernelScope::SymbolKind::None: fail_at(o, "unknown register or symbol " + o.name);
      default: return s_.constant_slot(offset);
    }
  }
  void srcs(size_t first, size_t count, ScalarType as) {
    for (size_t i = 0; i < count; ++i) in_.src[in_.n_src++] = src(op(first + i), as);
  }

  uint16_t dst(const Operand& o) {
    if (o.kind != Operand::Kind::Name || o.name[0] != '%') fail_at(o, "expected a destination register");
    uint16_t id;
    ScalarType t;
    if (!s_.find_register(o.name, &id, &t)) fail_at(o, "unknown register " + o.name);
    add_dst_info(id, t);
    return id;
  }
  void set_dst(const Operand& o) { in_.dst[in_.n_dst++] = dst(o); }

  void address(const Operand& o) {
    if (o.kind != Operand::Kind::Address) fail_at(o, "expected an address [..]");
    in_.offset = o.offset;
    if (o.name.empty()) return;
    uint16_t id;
    ScalarType t;
    if (s_.find_register(o.name, &id, &t)) {
      in_.has_base = true;
      in_.base = id;
      add_src(id, t);
      return;
    }
    uint32_t offset = 0;
    auto kind = s_.find_symbol(o.name, &offset);
    uint64_t window = 0;
    switch (kind) {
      case KernelScope::SymbolKind::None: fail_at(o, "unknown symbol " + o.name);
      case KernelScope::SymbolKind::Global: in_.has_base = true, in_.base = s_.symbol_slot(o.name); return;
      case KernelScope::SymbolKind::DynamicShared:
        in_.has_base = true, in_.base = s_.dynamic_shared_slot();
        if (in_.space == Space::Generic) in_.offset += int64_t(kSharedWindow);
        return;
      case KernelScope::SymbolKind::Shared: window = kSharedWindow; break;
      case KernelScope::SymbolKind::Local: window = kLocalWindow; break;
      case KernelScope::SymbolKind::Param: break;
    }
    in_.offset += offset + (in_.space == Space::Generic ? window : 0);
  }

  void decode() {
    static const std::unordered_map<std::string, std::function<void(Decoder*)>> table = {
        {"mov", &Decoder::mov},        {"add", &Decoder::arith},  {"sub", &Decoder::arith},
        {"mul", &Decoder::arith},      {"mad", &Decoder::arith},  {"mul24", &Decoder::arith},
        {"mad24", &Decoder::arith},    {"fma", &Decoder::arith},  {"div", &Decoder::arith},
        {"rem", &Decoder::arith},      {"abs", &Decoder::arith},  {"neg", &Decoder::arith},
        {"min", &Decoder::arith},      {"max", &Decoder::arith},  {"and", &Decoder::arith},
        {"or", &Decoder::arith},       {"xor", &Decoder::arith},  {"not", &Decoder::arith},
        {"cnot", &Decoder::arith},     {"shl", &Decoder::arith},  {"shr", &Decoder::arith},
        {"bfe", &Decoder::arith},      {"bfi", &Decoder::arith},  {"popc", &Decoder::arith},
        {"clz", &Decoder::arith},      {"brev", &Decoder::arith}, {"prmt", &Decoder::arith},
        {"copysign", &Decoder::arith}, {"rcp", &Decoder::arith},  {"sqrt", &Decoder::arith},
        {"rsqrt", &Decoder::arith},    {"ex2", &Decoder::arith},  {"lg2", &Decoder::arith},
        {"sin", &Decoder::arith},      {"cos", &Decoder::arith},  {"testp", &Decoder::testp},
        {"setp", &Decoder::setp},      {"selp", &Decoder::selp},  {"slct", &Decoder::slct},
        {"cvt", &Decoder::cvt},        {"cvta", &Decoder::cvta},  {"ld", &Decoder::ld},
        {"ldu", &Decoder::ld},         {"st", &Decoder::st},      {"atom", &Decoder::atom},
        {"red", &Decoder::atom},       {"bar", &Decoder::bar},    {"barrier", &Decoder::bar},
        {"membar", &Decoder::nop},     {"fence", &Decoder::nop},  {"prefetch", &Decoder::nop},
        {"shfl", &Decoder::shfl},      {"vote", &Decoder::vote},  {"activemask", &Decoder::activemask},
        {"bra", &Decoder::bra},        {"ret", &Decoder::exit},   {"exit", &Decoder::exit},
    };
    auto it = table.find(base_);
    if (it == table.end()) fail("unsupported instruction " + base_);
    it->second(this);
  }

  void nop() {
    in_.op = Op::Nop;
    if (base_ == "membar" || base_ == "fence")  // a fence wider than the CTA (membar.cta, fence.*.cta: not)
      for (const std::string& m : split_dots(raw_.opcode.text))
        info_.gpu_fence |= m == "gl" || m == "sys" || m == "gpu";
    words_.clear();  // membar.gl / fence.sc.gpu / prefetch.global.L2 ...
  }

  void mov() {
    need_operands(2);
    in_.type = type();
    const Operand& d = op(0);
    const Operand& a = op(1);
    if (d.kind == Operand::Kind::Vector) {  // mov.b64 {%r1, %r2}, %rd1
      in_.op = Op::Unpack;
      if (d.elems.size() > 4) fail_at(d, "too many vector elements");
      for (const Operand& e : d.elems) set_dst(e);
      in_.src[in_.n_src++] = src(a, in_.type);
    } else if (a.kind == Operand::Kind::Vector) {  // mov.b64 %rd1, {%r1, %r2}
      in_.op = Op::Pack;
      set_dst(d);
      if (a.elems.size() > 4) fail_at(a, "too many vector elements");
      for (const Operand& e : a.elems) in_.src[in_.n_src++] = src(e, ScalarType::B64);
    } else if (a.kind == Operand::Kind::Name && (a.name == "%clock" || a.name == "%clock64")) {
      in_.op = Op::MovClock;
      in_.is_clock64 = a.name == "%clock64";
      set_dst(d);
    } else {
      in_.op = Op::Mov;
      set_dst(d);
      in_.src[in_.n_src++] = src(a, in_.type);
    }
  }

  static AluGroup alu_group(Op op) {
    switch (op) {
      case Op::Add:
      case Op::Sub: return AluGroup::AddSub;
      case Op::Min:
      case Op::Max: return AluGroup::MinMax;
      case Op::Mul:
      case Op::Mul24: return AluGroup::Mul;
      case Op::Mad:
      case Op::Mad24: return AluGroup::Mad;
      case Op::Div: return AluGroup::Div;
      case Op::Fma: return AluGroup::Fma;
      default: return AluGroup::Other;
    }
  }

  void arith() {
    static const std::unordered_map<std::string, std::pair<Op, int>> ops = {
        // op, source count
        {"add", {Op::Add, 2}},   {"sub", {Op::Sub, 2}},     {"mul", {Op::Mul, 2}},
        {"mad", {Op::Mad, 3}},   {"mul24", {Op::Mul24, 2}}, {"mad24", {Op::Mad24, 3}},
        {"fma", {Op::Fma, 3}},   {"div", {Op::Div, 2}},     {"rem", {Op::Rem, 2}},
        {"abs", {Op::Abs, 1}},   {"neg", {Op::Neg, 1}},     {"min", {Op::Min, 2}},
        {"max", {Op::Max, 2}},   {"and", {Op::And, 2}},     {"or", {Op::Or, 2}},
        {"xor", {Op::Xor, 2}},   {"not", {Op::Not, 1}},     {"cnot", {Op::CNot, 1}},
        {"shl", {Op::Shl, 2}},   {"shr", {Op::Shr, 2}},     {"bfe", {Op::Bfe, 3}},
        {"bfi", {Op::Bfi, 4}},   {"popc", {Op::Popc, 1}},   {"clz", {Op::Clz, 1}},
        {"brev", {Op::Brev, 1}}, {"prmt", {Op::Prmt, 3}},   {"copysign", {Op::Copysign, 2}},
        {"rcp", {Op::Rcp, 1}},   {"sqrt", {Op::Sqrt, 1}},   {"rsqrt", {Op::Rsqrt, 1}},
        {"ex2", {Op::Ex2, 1}},   {"lg2", {Op::Lg2, 1}},     {"sin", {Op::Sin, 1}},
        {"cos", {Op::Cos, 1}},
    };
    auto [opcode, n] = ops.at(base_);
    in_.op = opcode;
    in_.type = type();
    need_operands(size_t(n) + 1);
    if (word("lo")) in_.mode = Mode::Lo;
    else if (word("hi")) in_.mode = Mode::Hi;
    else if (word("wide")) in_.mode = Mode::Wide;
    if (word("cc")) fail("carry (.cc) arithmetic is not supported");
    if (opcode == Op::Prmt && !words_.empty()) fail("only the default prmt mode is supported");
    bool fp = is_float(in_.type);
    if (fp && opcode == Op::Mad) in_.op = Op::Fma;  // mad.rn.f32 is fused
    if (fp && (opcode == Op::Div || opcode == Op::Rcp || opcode == Op::Sqrt || opcode == Op::Rsqrt ||
               opcode == Op::Ex2 || opcode == Op::Lg2 || opcode == Op::Sin || opcode == Op::Cos))
      info_.cls = TimingClass::Sfu;
    info_.alu_group = alu_group(in_.op);
    info_.alu_type = in_.type == ScalarType::F32   ? AluType::F32
                     : in_.type == ScalarType::F64 ? AluType::F64
                                                   : AluType::Int;
    set_dst(op(0));
    for (int i = 0; i < n; ++i) {
      // Shift amounts and bit-field positions are u32 whatever the type.
      bool u32_operand = (i == 1 && (opcode == Op::Shl || opcode == Op::Shr)) || (opcode == Op::Bfe && i >= 1) ||
                         (opcode == Op::Bfi && i >= 2) || (opcode == Op::Prmt);
      in_.src[in_.n_src++] = src(op(size_t(i) + 1), u32_operand ? ScalarType::U32 : in_.type);
    }
  }

  void testp() {
    static const std::pair<const char*, Mode> modes[] = {{"finite", Mode::Finite}, {"infinite", Mode::Infinite},
                                                         {"number", Mode::Number}, {"notanumber", Mode::NotANumber},
                                                         {"normal", Mode::Normal}, {"subnormal", Mode::Subnormal}};
    in_.op = Op::Testp;
    in_.type = type();
    need_operands(2);
    for (const auto& [name, mode] : modes)
      if (word(name)) in_.mode = mode;
    if (in_.mode == Mode::None) fail("testp needs a test (.finite, .number, ...)");
    set_dst(op(0));
    in_.src[in_.n_src++] = src(op(1), in_.type);
  }

  void pred_dsts(const Operand& d) {
    set_dst(d);
    if (!d.elems.empty()) {
      in_.has_dst2 = true;
      in_.dst2 = dst(d.elems[0]);
    }
  }

  void setp() {
    in_.op = Op::Setp;
    in_.type = type();
    for (const auto& [name, cmp] : kCmps)
      if (word(name)) {
        in_.cmp = cmp;
        break;
      }
    if (word("and")) in_.bool_op = BoolOp::And;
    else if (word("or")) in_.bool_op = BoolOp::Or;
    else if (word("xor")) in_.bool_op = BoolOp::Xor;
    need_operands(in_.bool_op == BoolOp::None ? 3 : 4);
    pred_dsts(op(0));
    srcs(1, 2, in_.type);
    if (in_.bool_op != BoolOp::None) {
      in_.src_negated = op(3).negated;
      in_.src[in_.n_src++] = src(op(3), ScalarType::Pred);
    }
  }

  void selp() {
    in_.op = Op::Selp;
    in_.type = type();
    need_operands(4);
    set_dst(op(0));
    srcs(1, 2, in_.type);
    in_.src_negated = op(3).negated;
    in_.src[in_.n_src++] = src(op(3), ScalarType::Pred);
  }

  void slct() {
    in_.op = Op::Slct;
    in_.type = type(0);
    in_.type2 = type(1);
    need_operands(4);
    set_dst(op(0));
    srcs(1, 2, in_.type);
    in_.src[in_.n_src++] = src(op(3), in_.type2);
  }

  void cvt() {
    in_.op = Op::Cvt;
    in_.type = type(0);
    in_.type2 = type(1);
    need_operands(2);
    set_dst(op(0));
    in_.src[in_.n_src++] = src(op(1), in_.type2);
  }

  void cvta() {
    in_.op = to_ ? Op::CvtaTo : Op::Cvta;
    in_.type = type();
    if (!has_space_) fail("cvta needs a state space");
    need_operands(2);
    set_dst(op(0));
    in_.src[in_.n_src++] = src(op(1), ScalarType::U64);
    family_ = std::string("cvta") + (to_ ? ".to." : ".") + space_name(in_.space);
  }

  void memory_family(TimingClass generic) {
    family_ = base_ == "red" ? "atom" : base_ == "ldu" ? "ld" : base_;
    family_ += std::string(".") + space_name(in_.space);
    switch (in_.space) {
      case Space::Shared: info_.cls = TimingClass::Shared; break;
      case Space::Param:
      case Space::Const: info_.cls = TimingClass::Alu; break;
      case Space::Global:
      case Space::Local:
      case Space::Generic: info_.cls = generic; break;
    }
    if (generic == TimingClass::Atomic && in_.space == Space::Local) fail("atomics on .local are not allowed");
  }

  void ld() {
    in_.op = Op::Ld;
    in_.type = type();
    memory_family(TimingClass::Load);
    if (in_.space == Space::Local) info_.cls = TimingClass::Load;
    need_operands(2);
    const Operand& d = op(0);
    if (d.kind == Operand::Kind::Vector) {
      if (d.elems.size() != in_.vec) fail_at(d, "vector size does not match ." + std::to_string(in_.vec));
      for (const Operand& e : d.elems) set_dst(e);
    } else {
      if (in_.vec != 1) fail_at(d, "vector load needs {..} destinations");
      set_dst(d);
    }
    address(op(1));
  }

  void st() {
    in_.op = Op::St;
    in_.type = type();
    memory_family(TimingClass::Store);
    need_operands(2);
    address(op(0));
    const Operand& v = op(1);
    if (v.kind == Operand::Kind::Vector) {
      if (v.elems.size() != in_.vec) fail_at(v, "vector size does not match ." + std::to_string(in_.vec));
      for (const Operand& e : v.elems) in_.src[in_.n_src++] = src(e, in_.type);
    } else {
      if (in_.vec != 1) fail_at(v, "vector store needs {..} values");
      in_.src[in_.n_src++] = src(v, in_.type);
    }
  }

  void atom() {
    static const std::pair<const char*, Mode> modes[] = {
        {"add", Mode::AtomAdd}, {"min", Mode::AtomMin}, {"max", Mode::AtomMax}, {"exch", Mode::AtomExch},
        {"cas", Mode::AtomCas}, {"and", Mode::AtomAnd}, {"or", Mode::AtomOr},   {"xor", Mode::AtomXor},
        {"inc", Mode::AtomInc}, {"dec", Mode::AtomDec}};
    in_.op = Op::Atom;
    in_.type = type();
    for (const auto& [name, mode] : modes)
      if (word(name)) in_.mode = mode;
    if (in_.mode == Mode::None) fail(base_ + " needs an operation (.add, .cas, ...)");
    if (type_bytes(in_.type) < 4) fail("atomics on 8/16-bit types are not supported");
    if (in_.type == ScalarType::F64 && in_.mode != Mode::AtomAdd && in_.mode != Mode::AtomExch)
      fail("unsupported atomic on .f64");
    memory_family(TimingClass::Atomic);
    bool red = base_ == "red";
    size_t values = in_.mode == Mode::AtomCas ? 2 : 1;
    need_operands(values + (red ? 1 : 2));
    size_t at = 0;
    if (!red) set_dst(op(at++));
    address(op(at++));
    srcs(at, values, in_.type);
  }

  void bar() {
    in_.op = Op::Bar;
    info_.cls = TimingClass::Barrier;
    if (base_ == "bar" && word("warp")) {  // bar.warp.sync mask: a no-op for this executor
      in_.op = Op::Nop;
      info_.cls = TimingClass::Alu;
      family_ = "bar.warp";
      if (!raw_.operands.empty()) in_.src[in_.n_src++] = src(op(0), ScalarType::U32);
      return;
    }
    if (word("arrive") || word("red")) fail("only bar.sync / barrier.sync are supported");
    if (raw_.operands.size() > 2) fail("bar.sync takes at most 2 operands");
    for (size_t i = 0; i < raw_.operands.size(); ++i) in_.src[in_.n_src++] = src(op(i), ScalarType::U32);
    family_ = "bar";
  }

  void shfl() {
    static const std::pair<const char*, Mode> modes[] = {
        {"up", Mode::Up}, {"down", Mode::Down}, {"bfly", Mode::Bfly}, {"idx", Mode::Idx}};
    in_.op = Op::Shfl;
    in_.type = type();
    for (const auto& [name, mode] : modes)
      if (word(name)) in_.mode = mode;
    if (in_.mode == Mode::None) fail("shfl needs a mode (.up/.down/.bfly/.idx)");
    if (raw_.operands.size() != 4 && raw_.operands.size() != 5) fail("shfl takes 4 or 5 operands");
    pred_dsts(op(0));
    srcs(1, 3, ScalarType::B32);
    in_.src[in_.n_src++] = raw_.operands.size() == 5 ? src(op(4), ScalarType::B32) : s_.constant_slot(0xffffffffu);
  }

  void vote() {
    static const std::pair<const char*, Mode> modes[] = {
        {"all", Mode::All}, {"any", Mode::Any}, {"ballot", Mode::Ballot}, {"uni", Mode::Uni}};
    in_.op = Op::Vote;
    in_.type = type();
    for (const auto& [name, mode] : modes)
      if (word(name)) in_.mode = mode;
    if (in_.mode == Mode::None) fail("vote needs a mode (.all/.any/.ballot/.uni)");
    if (raw_.operands.size() != 2 && raw_.operands.size() != 3) fail("vote takes 2 or 3 operands");
    set_dst(op(0));
    in_.src_negated = op(1).negated;
    in_.src[in_.n_src++] = src(op(1), ScalarType::Pred);
    in_.src[in_.n_src++] = raw_.operands.size() == 3 ? src(op(2), ScalarType::B32) : s_.constant_slot(0xffffffffu);
  }

  void activemask() {
    in_.op = Op::Activemask;
    in_.type = type();
    need_operands(1);
    set_dst(op(0));
  }

  void bra() {
    in_.op = Op::Bra;
    need_operands(1);
    if (op(0).kind != Operand::Kind::Name) fail_at(op(0), "expected a label");
    s_.add_branch_fixup(uint32_t(s_.kernel.code.size()), op(0).tok);
  }

  void exit() {
    in_.op = Op::Exit;
    need_operands(0);
  }

  void finish() {
    Kernel& k = s_.kernel;
    k.code.push_back(in_);
    k.info.push_back(info_);
    k.extra->texts.push_back(raw_.opcode.text);
    ++k.opcode_families[family_];
  }

  KernelScope& s_;
  const RawInstruction& raw_;
  Instruction in_;
  InstInfo info_;
  std::string base_, family_;
  std::vector<ScalarType> types_;
  std::vector<std::string> words_;
  bool has_space_ = false, to_ = false;
};

}  // namespace

void decode_instruction(KernelScope& scope, const RawInstruction& raw) { Decoder(scope, raw).run(); }

void refuse_unsupported(const TokenCursor& cursor, const Token& opcode) {
  static const char* const refused[] = {"call", "brx", "tex", "tld4", "txq", "suld", "sust", "sured", "suq"};
  auto parts = split_dots(opcode.text);
  for (const char* r : refused)
    if (parts[0] == r)
      cursor.fail(opcode, parts[0] + " is not supported (calls, indirect branches, textures and surfaces are refused)");
  for (const std::string& m : parts)
    if (m.find("f16") != std::string::npos) cursor.fail(opcode, "f16/bf16 types are not supported");
}

}  // namespace gpupm::ptx
