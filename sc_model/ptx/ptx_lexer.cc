#include "gpupm/ptx/ptx_lexer.h"

#include <cctype>

#include "gpupm/ptx/ptx_parse_state.h"

namespace gpupm::ptx {
namespace {

bool word_start(char c) { return std::isalpha(uint8_t(c)) || c == '_' || c == '$' || c == '%'; }
bool word_char(char c) { return std::isalnum(uint8_t(c)) || c == '_' || c == '$' || c == '.'; }

class Lexer {
 public:
  Lexer(const std::string& text, const std::string& file) : s_(text), file_(file) {}

  std::vector<Token> run() {
    std::vector<Token> out;
    while (skip_space_and_comments(), i_ < s_.size()) out.push_back(next());
    out.push_back(Token{Token::Kind::End, "end of file", line_, col()});
    return out;
  }

 private:
  uint32_t col() const { return uint32_t(i_ - line_start_ + 1); }

  void advance() {
    if (s_[i_] == '\n') {
      ++line_;
      line_start_ = i_ + 1;
    }
    ++i_;
  }

  void skip_space_and_comments() {
    while (i_ < s_.size()) {
      if (std::isspace(uint8_t(s_[i_]))) {
        advance();
      } else if (s_.compare(i_, 2, "//") == 0) {
        while (i_ < s_.size() && s_[i_] != '\n') advance();
      } else if (s_.compare(i_, 2, "/*") == 0) {
        while (i_ < s_.size() && s_.compare(i_, 2, "*/") != 0) advance();
        if (i_ < s_.size()) advance(), advance();
      } else {
        return;
      }
    }
  }

  Token take(Token::Kind kind, size_t end) {
    Token t{kind, s_.substr(i_, end - i_), line_, col()};
    while (i_ < end) advance();
    return t;
  }

  Token next() {
    char c = s_[i_];
    size_t j = i_ + 1;
    if (word_start(c) || (c == '.' && i_ + 1 < s_.size() && word_start(s_[i_ + 1]))) {
      while (j < s_.size() && word_char(s_[j])) ++j;
      return take(c == '.' ? Token::Kind::Directive : Token::Kind::Word, j);
    }
    if (std::isdigit(uint8_t(c))) {  // 123, 0x1F, 0f3F800000, 0d..., 6.4, 1.5e3, 10U
      while (j < s_.size() && (std::isalnum(uint8_t(s_[j])) || s_[j] == '.')) ++j;
      return take(Token::Kind::Number, j);
    }
    if (c == '"') {
      while (j < s_.size() && s_[j] != '"' && s_[j] != '\n') ++j;
      return take(Token::Kind::String, j + 1);
    }
    if (std::string(",;:[]{}()<>+-@!|=").find(c) != std::string::npos) return take(Token::Kind::Punct, j);
    throw ParseError(file_ + ":" + std::to_string(line_) + ":" + std::to_string(col()) +
                     ": unexpected character (at '" + std::string(1, c) +
                     "'); supported opcode families: " + kSupportedFamilies);
  }

  const std::string& s_;
  const std::string& file_;
  size_t i_ = 0, line_start_ = 0;
  uint32_t line_ = 1;
};

}  // namespace

std::vector<Token> tokenize(const std::string& text, const std::string& file) { return Lexer(text, file).run(); }

}  // namespace gpupm::ptx
