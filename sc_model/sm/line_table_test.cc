#include "gpupm/sm/line_table.h"

#include <gtest/gtest.h>

#include <map>
#include <random>

namespace gpupm {
namespace {

// Random inserts and erases against std::map, with lines that collide on
// their home slot (multiples of a large power of two) so probes wrap and erase
// must shift later entries back.
TEST(LineTable, AgreesWithAMapUnderChurn) {
  constexpr uint32_t kEntries = 32;
  LineTable table(kEntries);
  std::map<uint64_t, int> model;
  std::mt19937_64 rng(11);
  std::vector<int> free_entries;
  for (int e = kEntries - 1; e >= 0; --e) free_entries.push_back(e);
  for (int step = 0; step < 200000; ++step) {
    const uint64_t line = (rng() % 3 == 0) ? (rng() % 64) << 40 : rng() % 96;
    const int found = table.find(line);
    auto it = model.find(line);
    ASSERT_EQ(found, it == model.end() ? -1 : it->second) << "line " << line << " step " << step;
    if (it != model.end() && rng() % 2) {
      table.erase(line);
      free_entries.push_back(it->second);
      model.erase(it);
    } else if (it == model.end() && !free_entries.empty()) {
      const int e = free_entries.back();
      free_entries.pop_back();
      table.insert(line, e);
      model[line] = e;
    }
  }
  for (const auto& [line, e] : model) EXPECT_EQ(table.find(line), e);
}

}  // namespace
}  // namespace gpupm
