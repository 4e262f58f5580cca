// The SM section reads through its parameter declaration (common/param.h):
// the same values and messages as the reader it replaced.
#include "sm/sm_config.h"

#include <gtest/gtest.h>

namespace gpupm {
namespace {

std::string error_of(JsonReader& r) {
  try {
    parse_sm_config(r);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

// A converted section reads as before: the same values, the same messages.
TEST(SmConfig, ReadsThroughItsDeclaration) {
  Json doc = Json::parse(R"({"count": 30, "icache_bytes": 4096})");
  JsonReader r(doc, "g.json", "sm");
  SmConfig c = parse_sm_config(r);
  EXPECT_EQ(c.count, 30u);
  EXPECT_EQ(c.icache_bytes, 4096u);
  EXPECT_EQ(c.max_warps, SmConfig().max_warps);
  Json bad = Json::parse(R"({"icache_bytes": 1000})");
  JsonReader rb(bad, "g.json", "sm");
  EXPECT_EQ(error_of(rb), "g.json: sm.icache_bytes: expected a multiple of line_bytes x icache_ways");
}

}  // namespace
}  // namespace gpupm
