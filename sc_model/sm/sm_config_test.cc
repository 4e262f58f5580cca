// The SM section reads through its parameter declaration (common/param.h):
// the same values and messages as the reader it replaced.
#include "gpupm/common/json_reader.h"
#include "gpupm/sm/sm_config.h"

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

// The L1 policy keys: names, defaults, and the Fermi hash only on 32 or 64 sets.
TEST(SmConfig, L1AllocationAndSetIndex) {
  Json doc = Json::parse(R"({"l1_allocation": "miss", "l1_set_index": "fermi_hash", "l1_sets": 32})");
  JsonReader r(doc, "g.json", "sm");
  SmConfig c = parse_sm_config(r);
  EXPECT_TRUE(c.l1_allocate_on_miss);
  EXPECT_TRUE(c.l1_fermi_hash);
  EXPECT_FALSE(SmConfig().l1_allocate_on_miss);
  EXPECT_FALSE(SmConfig().l1_fermi_hash);
  Json bad = Json::parse(R"({"l1_set_index": "fermi_hash", "l1_sets": 48})");
  JsonReader rb(bad, "g.json", "sm");
  EXPECT_EQ(error_of(rb), "g.json: sm.l1_set_index: expected l1_sets 32 or 64 with fermi_hash");
}

// opcode_timing: seven entries a list (one per operation group), each list optional.
TEST(SmConfig, OpcodeTimingListsHaveAnEntryPerGroup) {
  Json doc = Json::parse(
      R"({"opcode_timing": {"int_latency": [4, 13, 4, 5, 145, 1, 1], "f64_interval": [8, 16, 8, 8, 130, 1, 1]}})");
  JsonReader r(doc, "g.json", "sm");
  SmConfig c = parse_sm_config(r);
  EXPECT_EQ(c.opcode_timing.int_latency, (std::vector<uint32_t>{4, 13, 4, 5, 145, 1, 1}));
  EXPECT_EQ(c.opcode_timing.f64_interval, (std::vector<uint32_t>{8, 16, 8, 8, 130, 1, 1}));
  EXPECT_TRUE(c.opcode_timing.f32_latency.empty());
  Json bad = Json::parse(R"({"opcode_timing": {"f32_latency": [4, 13, 4, 5]}})");
  JsonReader rb(bad, "g.json", "sm");
  EXPECT_EQ(error_of(rb),
            "g.json: sm.opcode_timing.f32_latency: expected 7 entries (add/sub, min/max, mul, mad, div, fma, other)");
}

// A unified 64 KB L1/shared array of 16 ways (4 KB each) with carve-outs of 0..48 KB.
SmConfig unified() {
  SmConfig c;
  c.l1_sets = 32;
  c.l1_ways = 16;
  c.l1_shared_bytes = 65536;
  c.shared_carveouts = {0, 8192, 16384, 32768, 49152};
  c.shared_bytes = 49152;
  return c;
}

// The smallest carve-out that holds every CTA the other limits allow; the L1
// keeps the ways left. Separate arrays: all of shared_bytes and every L1 way.
TEST(SmConfig, CarveoutIsTheSmallestThatKeepsOccupancy) {
  const SmConfig c = unified();
  EXPECT_EQ(choose_carveout(c, 0, 8).shared_bytes, 0u);
  EXPECT_EQ(choose_carveout(c, 0, 8).l1_ways, 16u);
  EXPECT_EQ(choose_carveout(c, 1024, 8).shared_bytes, 8192u);  // 8 KB: 14 ways left
  EXPECT_EQ(choose_carveout(c, 1024, 8).l1_ways, 14u);
  EXPECT_EQ(choose_carveout(c, 4096, 8).shared_bytes, 32768u);
  EXPECT_EQ(choose_carveout(c, 4096, 8).l1_ways, 8u);
  EXPECT_EQ(choose_carveout(c, 12288, 8).shared_bytes, 49152u);  // 96 KB wanted: the largest, 4 CTAs fit
  EXPECT_EQ(choose_carveout(c, 12288, 8).l1_ways, 4u);
  const SmConfig fermi;
  EXPECT_EQ(choose_carveout(fermi, 4096, 8).shared_bytes, fermi.shared_bytes);
  EXPECT_EQ(choose_carveout(fermi, 4096, 8).l1_ways, fermi.l1_ways);
}

TEST(SmConfig, UnifiedArrayRules) {
  auto error = [](const char* text) {
    Json doc = Json::parse(text);
    JsonReader r(doc, "g.json", "sm");
    return error_of(r);
  };
  const char* ok = R"({"l1_sets": 32, "l1_ways": 16, "l1_shared_bytes": 65536,
                       "shared_carveouts": [0, 16384, 49152], "shared_bytes": 49152})";
  EXPECT_EQ(error(ok), "");
  EXPECT_EQ(error(R"({"l1_sets": 32, "l1_ways": 8, "l1_shared_bytes": 65536,
                      "shared_carveouts": [0, 49152], "shared_bytes": 49152})"),
            "g.json: sm.l1_shared_bytes: expected l1_sets x l1_ways x line_bytes (32768)");
  EXPECT_EQ(error(R"({"l1_sets": 32, "l1_ways": 16, "l1_shared_bytes": 65536,
                      "shared_carveouts": [0, 6000, 49152], "shared_bytes": 49152})"),
            "g.json: sm.shared_carveouts: expected ascending multiples of one L1 way (4096 B) below l1_shared_bytes");
  EXPECT_EQ(error(R"({"l1_sets": 32, "l1_ways": 16, "l1_shared_bytes": 65536,
                      "shared_carveouts": [0, 65536], "shared_bytes": 65536})"),
            "g.json: sm.shared_carveouts: expected ascending multiples of one L1 way (4096 B) below l1_shared_bytes");
  EXPECT_EQ(error(R"({"l1_sets": 32, "l1_ways": 16, "l1_shared_bytes": 65536,
                      "shared_carveouts": [0, 32768], "shared_bytes": 49152})"),
            "g.json: sm.shared_carveouts: expected the largest carve-out to equal shared_bytes");
  EXPECT_EQ(error(R"({"shared_carveouts": [0]})"),
            "g.json: sm.shared_carveouts: expected none without l1_shared_bytes");
}

}  // namespace
}  // namespace gpupm
