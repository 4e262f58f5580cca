// JsonReader, parse_json_text/load_json_file and apply_override (no simulation).
#include "gpupm/common/json_reader.h"

#include "support/error_of.h"
#include "support/test_support.h"

#include <gtest/gtest.h>

#include <fstream>

namespace gpupm {
namespace {

using test::error_of;

TEST(JsonReader, MalformedJsonReportsLineAndColumnOfTheBadCharacter) {
  // Line 3 is `  "b": ]`: the ']' is its 8th character.
  std::string text = "{\n  \"a\": 1,\n  \"b\": ]\n}";
  std::string err = error_of([&] { parse_json_text(text, "bad.json"); });
  EXPECT_NE(err.find("bad.json: malformed JSON at line 3, column 8: syntax error"), std::string::npos) << err;
  // A bad first character of line 2 (after a comment line, which is accepted).
  err = error_of([&] { parse_json_text("// note\n#{}", "c.json"); });
  EXPECT_NE(err.find("line 2, column 1"), std::string::npos) << err;
}

// Fuzzer finding (fuzz/corpus/pdn_network/number_overflow.json): a number
// beyond double's range escaped as nlohmann's out_of_range, not an input error.
TEST(JsonReader, NumberOverflowIsAnInputError) {
  std::string err = error_of([&] { parse_json_text("{\"c_f\": 0.1666e7777777}", "big.json"); });
  EXPECT_NE(err.find("big.json: number overflow parsing '0.1666e7777777'; numbers must lie within"), std::string::npos)
      << err;
}

TEST(JsonReader, GetUintNamesThePathOnRangeAndTypeErrors) {
  Json doc = Json::parse(R"({"sm": {"count": 11, "name": "x", "neg": -1, "half": 2.5, "whole": 3.0, "flag": true}})");
  JsonReader top(doc, "gpu.json", "");
  JsonReader sm = top.object("sm");
  EXPECT_EQ(error_of([&] { sm.get_uint("count", 1, 10); }),
            "gpu.json: sm.count: expected an integer in [1, 10], got 11");
  EXPECT_EQ(error_of([&] { sm.get_uint("name", 0, 5); }),
            "gpu.json: sm.name: expected an integer in [0, 5], got a string");
  EXPECT_EQ(error_of([&] { sm.get_uint("neg", 0, 5); }), "gpu.json: sm.neg: expected an integer in [0, 5], got -1");
  EXPECT_EQ(error_of([&] { sm.get_uint("half", 0, 5); }), "gpu.json: sm.half: expected an integer in [0, 5], got 2.5");
  EXPECT_EQ(error_of([&] { sm.get_uint("flag", 0, 5); }),
            "gpu.json: sm.flag: expected an integer in [0, 5], got a boolean");
  EXPECT_EQ(error_of([&] { sm.get_uint("missing", 0, 5); }), "gpu.json: sm.missing: missing (required)");
  EXPECT_EQ(sm.get_uint("whole", 0, 5), 3u);
  EXPECT_EQ(sm.get_uint("count", 1, 11), 11u);
  EXPECT_EQ(sm.get_uint("absent", 0, 5, 4), 4u);  // default, key stays absent
}

TEST(JsonReader, ArrayElementsCarryTheirIndexInThePath) {
  Json doc = Json::parse(R"({"levels": [{"mhz": 100}, {"mhz": -5}]})");
  JsonReader top(doc, "f.json", "");
  std::string err =
      error_of([&] { top.for_each("levels", 1, 4, [](JsonReader& r, size_t) { r.get_double("mhz", 1, 1e5); }); });
  EXPECT_EQ(err, "f.json: levels[1].mhz: expected a number in [1, 100000], got -5");
  EXPECT_EQ(error_of([&] { top.array_size("levels", 3, 4); }),
            "f.json: levels: expected an array of 3 to 4 elements, got 2");
}

TEST(JsonReader, FinishRejectsKeysNobodyRead) {
  Json doc = Json::parse(R"({"a": 1, "b": 2, "typo": 3})");
  JsonReader r(doc, "f.json", "top");
  r.get_uint("a", 0, 9);
  r.get_uint("b", 0, 9);
  std::string err = error_of([&] { r.finish(); });
  EXPECT_EQ(err.rfind("f.json: top.typo: unknown key", 0), 0u) << err;
  EXPECT_NE(err.find("a, b"), std::string::npos) << err;  // says which keys are known here
  r.get_uint("typo", 0, 9);
  EXPECT_EQ(error_of([&] { r.finish(); }), "");
}

TEST(JsonReader, ApplyOverrideWalksNestedPathsAndArrayIndices) {
  Json doc = Json::parse(R"({"sm": {"count": 15}, "kernels": [{"name": "a"}, {"name": "b", "mix": {"x": 1}}]})");
  apply_override(doc, "sm.count=20", "cli");
  apply_override(doc, "kernels[1].mix.x=2.5", "cli");
  apply_override(doc, "kernels[0].name=renamed", "cli");       // not JSON: taken as a string
  apply_override(doc, "kernels[0].tags=[1, \"two\"]", "cli");  // JSON: an array, new key
  apply_override(doc, "sm.label=\"7\"", "cli");                // a JSON string, not a number
  apply_override(doc, "sm.on=true", "cli");
  EXPECT_EQ(doc["sm"]["count"], Json(20));
  EXPECT_TRUE(doc["sm"]["count"].is_number_unsigned());
  EXPECT_EQ(doc["kernels"][1]["mix"]["x"], Json(2.5));
  EXPECT_EQ(doc["kernels"][0]["name"], Json("renamed"));
  EXPECT_EQ(doc["kernels"][0]["tags"], Json::parse(R"([1, "two"])"));
  EXPECT_EQ(doc["sm"]["label"], Json("7"));
  EXPECT_EQ(doc["sm"]["on"], Json(true));
  EXPECT_EQ(doc["kernels"][1]["name"], Json("b"));      // untouched
  apply_override(doc, "pdn.stats.margin=0.05", "cli");  // missing sections are created
  EXPECT_EQ(doc["pdn"]["stats"]["margin"], Json(0.05));
}

TEST(JsonReader, ApplyOverrideRejectsBadPathsAsInputErrors) {
  Json doc = Json::parse(R"({"sm": {"count": 15}, "kernels": [{"name": "a"}]})");
  EXPECT_EQ(error_of([&] { apply_override(doc, "kernels[3].name=x", "cli"); }),
            "cli: kernels[3].name: no array element kernels[3]");
  EXPECT_EQ(error_of([&] { apply_override(doc, "sm.count.x=1", "cli"); }),
            "cli: sm.count.x: sm.count is not an object");
  EXPECT_EQ(error_of([&] { apply_override(doc, "=1", "cli"); }), "cli: =1: expected path=value");
  EXPECT_EQ(error_of([&] { apply_override(doc, "kernels[0=1", "cli"); }), "cli: kernels[0: unclosed '['");
  // A non-numeric index is a user error like the others, not a std::invalid_argument.
  EXPECT_EQ(error_of([&] { apply_override(doc, "kernels[x].name=1", "cli"); }),
            "cli: kernels[x].name: expected an array index (digits) in [x]");
  EXPECT_EQ(error_of([&] { apply_override(doc, "kernels[-1].name=1", "cli"); }),
            "cli: kernels[-1].name: expected an array index (digits) in [-1]");
  EXPECT_NE(error_of([&] { apply_override(doc, "kernels[].name=1", "cli"); }), "");
  EXPECT_EQ(error_of([&] { apply_override(doc, "kernels.0.name=1", "cli"); }),
            "cli: kernels.0.name: kernels is an array: index it as kernels[0]");
  EXPECT_NE(error_of([&] { apply_override(doc, "new.list[0]=1", "cli"); }), "");  // fails after creating "new"
  EXPECT_EQ(doc, Json::parse(R"({"sm": {"count": 15}, "kernels": [{"name": "a"}]})"));
}

TEST(JsonReader, FilesMayCarryComments) {
  std::string path = test::temp_dir("json_reader") + "/c.json";
  std::ofstream(path) << "// header note\n{\n  \"a\": 1, // trailing note\n  /* block */ \"b\": [2]\n}\n";
  Json j = load_json_file(path);
  EXPECT_EQ(j, Json::parse(R"({"a": 1, "b": [2]})"));
  std::string err = error_of([&] { load_json_file(path + ".missing"); });
  EXPECT_EQ(err, path + ".missing: cannot open file for reading: No such file or directory");
}

}  // namespace
}  // namespace gpupm
