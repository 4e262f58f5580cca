#include "gpupm/common/csv_writer.h"

#include <cctype>

namespace gpupm {

std::string csv_field(const std::string& text) {
  bool quote = text.find_first_of(",\"\r\n") != std::string::npos ||
               (!text.empty() && (std::isspace(static_cast<unsigned char>(text.front())) ||
                                  std::isspace(static_cast<unsigned char>(text.back()))));
  if (!quote) return text;
  std::string q = "\"";
  for (char c : text) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

}  // namespace gpupm
