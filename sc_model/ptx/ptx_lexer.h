// Tokens of PTX text with their line and column, for the parser's messages.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace gpupm::ptx {

struct Token {
  enum class Kind : uint8_t { Word, Directive, Number, String, Punct, End } kind = Kind::End;
  std::string text;  // Word: identifiers, opcodes (dots included), %registers; Directive: ".reg"
  uint32_t line = 0, col = 0;
};

// Splits `text` into tokens (comments dropped); throws ParseError on a stray character.
std::vector<Token> tokenize(const std::string& text, const std::string& file);

}  // namespace gpupm::ptx
