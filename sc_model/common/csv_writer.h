// The one CSV writer behind every CSV the project writes (epochs.csv,
// sm_epochs.csv, pdn_trace.csv, results.csv, impedance.csv): fields are
// separated by commas and quoted per RFC 4180 only where needed, so a kernel
// named `gemm<float, 128>` stays one column in pandas or Python's csv module.
// Numbers go through an ostream with the caller's precision, exactly as the
// writers formatted them before this class existed.
#pragma once

#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

namespace gpupm {

// A field as RFC 4180 wants it: quoted (quotes doubled) when it holds a comma,
// a quote, CR or LF, or begins or ends with white space (which readers trim).
std::string csv_field(const std::string& text);

class CsvWriter {
 public:
  explicit CsvWriter(int precision = 6) { out_.precision(precision); }

  CsvWriter& operator<<(const std::string& text) { return put(csv_field(text)); }
  CsvWriter& operator<<(const char* text) { return *this << std::string(text); }
  // Numbers never need quoting: formatted by the stream as they are.
  template <class Number, class = std::enable_if_t<std::is_arithmetic_v<Number>>>
  CsvWriter& operator<<(Number n) {
    separate();
    out_ << n;
    return *this;
  }
  // A field already formatted (e.g. by snprintf) and known to need no quoting.
  CsvWriter& preformatted(const std::string& text) { return put(text); }
  // A whole row of text fields.
  void row(const std::vector<std::string>& fields) {
    for (const auto& f : fields) *this << f;
    end_row();
  }
  void end_row() {
    out_ << '\n';
    first_ = true;
  }
  std::string str() const { return out_.str(); }

 private:
  void separate() {
    if (!first_) out_ << ',';
    first_ = false;
  }
  CsvWriter& put(const std::string& text) {
    separate();
    out_ << text;
    return *this;
  }

  std::ostringstream out_;
  bool first_ = true;
};

}  // namespace gpupm
