// The experiments' number formatting and statistics: one definition of each,
// so every summary prints a ratio or a mean the same way.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace gpupm {

std::string fixed(double x, int digits);               // "%.*f"
std::string pct(double ratio);                         // 1.123 -> "+12.3%", 0.79 -> "-21.0%"
std::string percent(double fraction, int digits = 1);  // 0.123 -> "12.3%"
// The parts with SEPARATOR between them (none after an empty start).
std::string join(const std::vector<std::string>& parts, const char* separator = ", ");

// Geometric mean (of positive values); 0 for an empty list.
double geomean(const std::vector<double>& v);
// Arithmetic mean; 0 for an empty list.
double mean(const std::vector<double>& v);
// The values filed under KEY; an empty list if there are none.
const std::vector<double>& values_at(const std::map<std::string, std::vector<double>>& m, const std::string& key);

}  // namespace gpupm
