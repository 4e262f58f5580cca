#include "gpupm/experiment/format_stats.h"

#include <cmath>
#include <cstdio>

namespace gpupm {

std::string fixed(double x, int digits) {
  char b[64];
  std::snprintf(b, sizeof b, "%.*f", digits, x);
  return b;
}

std::string pct(double ratio) {
  char b[64];
  std::snprintf(b, sizeof b, "%+.1f%%", (ratio - 1.0) * 100.0);
  return b;
}

std::string percent(double fraction, int digits) { return fixed(fraction * 100.0, digits) + "%"; }

std::string join(const std::vector<std::string>& parts, const char* separator) {
  std::string s;
  for (const std::string& part : parts) s += (s.empty() ? "" : separator) + part;
  return s;
}

double geomean(const std::vector<double>& v) {
  if (v.empty()) return 0.0;
  double s = 0.0;
  for (double x : v) s += std::log(x);
  return std::exp(s / double(v.size()));
}

double mean(const std::vector<double>& v) {
  double s = 0;
  for (double x : v) s += x;
  return v.empty() ? 0.0 : s / double(v.size());
}

const std::vector<double>& values_at(const std::map<std::string, std::vector<double>>& m, const std::string& key) {
  static const std::vector<double> none;
  auto it = m.find(key);
  return it == m.end() ? none : it->second;
}

}  // namespace gpupm
