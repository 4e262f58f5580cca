// PTX text -> Module: module directives, variables, kernels; each instruction is
// decoded here once (ptx_decode.cc) into the form the executor runs.
#include <algorithm>
#include <cstring>
#include <map>
#include <unordered_map>

#include "gpupm/ptx/ptx_decoded.h"
#include "gpupm/ptx/ptx_lexer.h"
#include "gpupm/ptx/ptx_parse_state.h"

namespace gpupm::ptx {
namespace {

uint32_t align_up(uint32_t v, uint32_t a) { return a ? (v + a - 1) / a * a : v; }

class Parser : public TokenCursor {
 public:
  Parser(const std::string& text, const std::string& file) : TokenCursor(tokenize(text, file), file) {}

  std::unique_ptr<Module> run() {
    module_ = std::make_unique<Module>();
    module_->file = file_;
    while (peek().kind != Token::Kind::End) top_level();
    for (auto& k : module_->kernels) k->extra->source_files = source_files_;  // .file comes after the kernels
    return std::move(module_);
  }

 private:
  void top_level() {
    const Token& t = peek();
    if (t.text == ".version") {
      take();
      const Token& v = take();
      const size_t dot = v.text.find('.');
      if (v.kind != Token::Kind::Number || dot == std::string::npos || dot == 0 || dot + 1 == v.text.size() ||
          v.text.find_first_not_of("0123456789.") != std::string::npos ||
          v.text.find('.', dot + 1) != std::string::npos)
        fail(v, "expected a PTX ISA version MAJOR.MINOR such as 6.4");
      module_->version = v.text;
    } else if (t.text == ".target") {
      take();
      module_->target = take().text;
      while (accept(",")) take();
    } else if (t.text == ".address_size") {
      take();
      if (take().text != "64") fail(tokens_[pos_ - 1], "only .address_size 64 is supported");
    } else if (t.text == ".file") {
      file_directive();
    } else if (t.text == ".loc") {
      loc_directive();
    } else if (t.text == ".section") {  // debug sections: skipped with their braces
      const Token& section = take();
      while (!accept("{")) {  // a truncated file must not spin at its end
        if (peek().kind == Token::Kind::End) fail(section, "expected '{' after .section");
        take();
      }
      for (int depth = 1; depth > 0 && peek().kind != Token::Kind::End;) {
        const Token& x = take();
        depth += x.text == "{" ? 1 : x.text == "}" ? -1 : 0;
      }
    } else if (t.text == ".visible" || t.text == ".extern" || t.text == ".weak" || t.text == ".common") {
      bool is_extern = take().text == ".extern";
      declaration(is_extern);
    } else {
      declaration(false);
    }
  }

  void declaration(bool is_extern) {
    const Token& t = peek();
    refuse_opaque_type(t);
    if (t.text == ".entry") return entry();
    if (t.text == ".func") fail(t, "device functions (.func) and calls are not supported");
    if (t.text == ".global" || t.text == ".const" || t.text == ".shared") return module_variable(is_extern);
    fail(t, "unexpected token at module scope");
  }

  // `.align A .type name[N] = {...};` after the state space; fills size/align/init.
  struct VarDecl {
    std::string name;
    uint32_t align = 0, size = 0;
    bool unsized = false;
    ScalarType type = ScalarType::B8;
    std::vector<uint8_t> init;
  };
  VarDecl variable_body() {
    VarDecl v;
    if (accept(".align")) v.align = uint32_t(number(take()));
    while (peek().kind == Token::Kind::Directive && !is_type_directive(peek().text)) {  // .v4 etc.
      refuse_opaque_type(peek());
      take();
    }
    v.type = type_directive(take());
    uint32_t elem = type_bytes(v.type);
    if (!v.align) v.align = elem;
    v.name = expect_word().text;
    uint32_t count = 1;
    if (accept("[")) {
      if (accept("]")) {
        v.unsized = true;
        count = 0;
      } else {
        count = uint32_t(number(take()));
        expect("]");
      }
    }
    v.size = elem * count;
    v.init.assign(v.size, 0);
    if (accept("=")) initializer(v, elem);
    expect(";");
    return v;
  }

  void initializer(VarDecl& v, uint32_t elem) {
    bool braces = accept("{");
    for (uint32_t i = 0;; ++i) {
      const Token& t = peek();
      if (t.kind != Token::Kind::Number && t.text != "-") fail(t, "unsupported initialiser (only numbers)");
      bool neg = accept("-");
      Literal lit = literal(take());
      uint64_t bits = literal_bits(lit, v.type);
      if (neg) bits = negate_bits(bits, v.type);
      if ((i + 1) * elem > v.init.size()) fail(t, "too many initialisers");
      std::memcpy(v.init.data() + i * elem, &bits, elem);
      if (!braces || !accept(",")) break;
    }
    if (braces) expect("}");
  }

  void module_variable(bool is_extern) {
    std::string space = take().text;
    VarDecl v = variable_body();
    if (space == ".shared") {
      module_shared_[v.name] = SharedDecl{v.align, v.size, is_extern || v.unsized};
      return;
    }
    Module::Variable mv;
    mv.name = v.name;
    mv.is_const = space == ".const";
    mv.align = v.align;
    mv.init = std::move(v.init);
    if (mv.init.empty()) mv.init.assign(1, 0);
    module_globals_.insert(v.name);
    module_->variables.push_back(std::move(mv));
  }

  void entry() {
    take();  // .entry
    auto kernel = std::make_unique<Kernel>();
    kernel->file = file_;
    const Token& name = expect_word();
    if (module_->find(name.text)) fail(name, "a second .entry named " + name.text + " (kernel names must differ)");
    kernel->name = name.text;
    KernelScope scope(*kernel, module_shared_, module_globals_);
    scope.cursor = this;
    if (accept("(")) {
      while (!accept(")")) {
        expect(".param");
        VarDecl p = variable_body_no_semicolon();
        Param param{p.name, p.type, p.size, align_up(kernel->param_bytes, p.align)};
        kernel->param_bytes = param.offset + param.size;
        scope.params[p.name] = param.offset;
        kernel->params.push_back(param);
        accept(",");
      }
    }
    while (!accept("{")) {  // .maxntid 256, 1, 1 and other performance directives
      if (peek().kind == Token::Kind::End) fail(peek(), "missing kernel body");
      take();
    }
    declare_registers(scope);
    body(scope);
    if (kernel->code.empty()) fail(name, "kernel has no instructions");  // the executor needs one to start at
    scope.finish();
    module_->kernels.push_back(std::move(kernel));
  }

  VarDecl variable_body_no_semicolon() {
    VarDecl v;
    if (accept(".align")) v.align = uint32_t(number(take()));
    v.type = type_directive(take());
    v.name = expect_word().text;
    uint32_t count = 1;
    if (accept("[")) {
      count = uint32_t(number(take()));
      expect("]");
    }
    v.size = type_bytes(v.type) * count;
    if (!v.align) v.align = type_bytes(v.type);
    return v;
  }

  // First pass over the body: every `.reg` so register ids are dense and known
  // before instructions refer to them.
  void declare_registers(KernelScope& scope) {
    size_t save = pos_;
    int depth = 1;
    while (depth > 0 && peek().kind != Token::Kind::End) {
      const Token& t = take();
      if (t.text == "{") ++depth;
      if (t.text == "}") --depth;
      if (t.text != ".reg") continue;
      ScalarType type = type_directive(take());
      do {
        std::string name = expect_word().text;
        if (accept("<")) {
          const Token& count = take();
          uint64_t n = number(count);
          if (n > kMaxRegisters)
            fail(count, "too many registers: a kernel declares at most " + std::to_string(kMaxRegisters));
          expect(">");
          for (uint64_t i = 0; i < n; ++i) scope.declare_register(name + std::to_string(i), type, t);
        } else {
          scope.declare_register(name, type, t);
        }
      } while (accept(","));
      expect(";");
    }
    pos_ = save;
  }

  // Skips up to and including the statement's ';' (the cursor stays at the
  // end of the tokens, so a file that ends first would otherwise spin there).
  void skip_statement(const Token& start) {
    while (take().text != ";")
      if (peek().kind == Token::Kind::End) fail(start, "missing ';' at the end of the statement");
  }

  void body(KernelScope& scope) {
    int depth = 1;
    for (;;) {
      const Token& t = peek();
      if (t.kind == Token::Kind::End) fail(t, "missing '}' at the end of the kernel");
      if (accept("{")) {
        ++depth;
      } else if (accept("}")) {
        if (--depth == 0) return;
      } else if (t.text == ".reg") {
        skip_statement(t);
      } else if (t.text == ".shared" || t.text == ".local") {
        std::string space = take().text;
        VarDecl v = variable_body();
        if (space == ".shared") scope.add_shared(v.name, v.align, v.size, v.unsized);
        else scope.add_local(v.name, v.align, v.size);
      } else if (t.text == ".loc") {  // the source line of the instructions that follow
        loc_directive();
      } else if (t.text == ".pragma") {
        skip_statement(t);
      } else if (t.kind == Token::Kind::Word && peek(1).text == ":") {
        scope.add_label(take());
        take();
      } else if (t.kind == Token::Kind::Directive) {
        fail(t, "unsupported directive in a kernel body");
      } else {
        instruction(scope);
      }
    }
  }

  void instruction(KernelScope& scope) {
    RawInstruction raw;
    if (accept("@")) {
      raw.guard_negated = accept("!");
      raw.guard = expect_word();
    }
    raw.opcode = expect_word();
    refuse_unsupported(*this, raw.opcode);
    if (peek().text != ";") {
      do raw.operands.push_back(operand(scope));
      while (accept(","));
    }
    expect(";");
    decode_instruction(scope, raw);
    scope.kernel.extra->locs.resize(scope.kernel.code.size(), loc_);
  }

  // `.file N "name" [, timestamp, size]`: source file N of the line directives.
  void file_directive() {
    const Token& directive = take();
    const Token& index = take();
    const Token& name = take();
    if (index.kind != Token::Kind::Number || name.kind != Token::Kind::String || name.text.size() < 2)
      fail(directive, "expected .file INDEX \"NAME\"");
    source_files_[uint32_t(number(index))] = name.text.substr(1, name.text.size() - 2);
    if (peek().line == directive.line) skip_rest_of_line(directive.line);
  }

  // `.loc FILE LINE COLUMN [...]`: the source line of what follows (0: none).
  void loc_directive() {
    const Token& directive = take();
    const Token& file = take();
    const Token& line = take();
    if (file.kind != Token::Kind::Number || line.kind != Token::Kind::Number)
      fail(directive, "expected .loc FILE LINE COLUMN");
    loc_ = {uint32_t(number(file)), uint32_t(number(line))};
    skip_rest_of_line(directive.line);
  }

  // Textures, samplers and surfaces (the opaque .texref/.samplerref/.surfref types).
  void refuse_opaque_type(const Token& t) const {
    if (t.text == ".texref" || t.text == ".samplerref" || t.text == ".surfref" || t.text == ".tex")
      fail(t, "textures, samplers and surfaces (" + t.text + ") are not supported");
  }

  Operand operand(KernelScope& scope) {
    Operand o;
    o.tok = peek();
    if (accept("[")) {
      o.kind = Operand::Kind::Address;
      const Token& base = peek();
      if (base.kind == Token::Kind::Word) {
        take();
        o.name = base.text;
        if (accept("+")) o.offset = signed_number();
      } else {
        o.offset = signed_number();
      }
      expect("]");
    } else if (accept("{")) {
      o.kind = Operand::Kind::Vector;
      do o.elems.push_back(operand(scope));
      while (accept(","));
      expect("}");
    } else if (accept("!")) {
      o = operand(scope);
      o.negated = true;
    } else if (o.tok.kind == Token::Kind::Number || o.tok.text == "-") {
      o.kind = Operand::Kind::Immediate;
      bool neg = accept("-");
      o.literal = literal(take());
      if (neg) o.literal.negate();
    } else {
      o.kind = Operand::Kind::Name;
      o.name = expect_word().text;
      if (accept("|")) o.elems.push_back(operand(scope));  // %p|%q
    }
    return o;
  }

  void skip_rest_of_line(uint32_t line) {
    while (peek().kind != Token::Kind::End && peek().line == line) take();
  }

  int64_t signed_number() {
    bool neg = accept("-");
    int64_t v = int64_t(number(take()));
    return neg ? -v : v;
  }

  std::unique_ptr<Module> module_;
  std::map<uint32_t, std::string> source_files_;  // .file
  std::pair<uint32_t, uint32_t> loc_{0, 0};       // the last .loc: file, line
  std::unordered_map<std::string, SharedDecl> module_shared_;
  GlobalNames module_globals_;
};

}  // namespace

std::unique_ptr<Module> parse(const std::string& text, const std::string& file) { return Parser(text, file).run(); }

}  // namespace gpupm::ptx
