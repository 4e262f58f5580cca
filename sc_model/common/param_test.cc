// The declaration facility (common/param.h): one declaration read, listed and
// turned into a schema. A toy config exercises every kind of declaration.
#include "gpupm/common/param.h"

#include "gpupm/common/param_lister.h"
#include "gpupm/common/param_reader.h"
#include "gpupm/common/param_schema.h"

#include "support/error_of.h"

#include <gtest/gtest.h>

namespace gpupm {
namespace {

enum class Mode : uint8_t { kSlow = 0, kFast = 1 };

struct Item {
  std::string name;
  double weight = 0.5;
};

struct Toy {
  uint32_t count = 4;
  double ratio = 0.25;
  bool on = false;
  Mode mode = Mode::kFast;
  std::vector<uint32_t> tiles;
  struct Inner {
    uint8_t depth = 3;
  } inner;
  std::vector<Item> items;
};

void describe(ParamVisitor& v, Toy& t) {
  v.integer("count", t.count, 1, 8, "units", "how many");
  v.number("ratio", t.ratio, 0.0, 1.0, "", "a share");
  v.flag("on", t.on, "switched on");
  v.choice_of("mode", t.mode, {"slow", "fast"}, "speed");
  v.integer_list("tiles", t.tiles, 0, 15, "tile per unit");
  v.section("inner", Presence::kOptional, "nested",
            [&](ParamVisitor& s) { s.integer("depth", t.inner.depth, 1, 9, "levels", "nesting"); });
  v.list("items", t.items, 1, 3, Presence::kRequired, "things", [](ParamVisitor& s, Item& i) {
    s.text("name", i.name, "its name", Presence::kRequired);
    s.number("weight", i.weight, 0.0, 1.0, "", "its weight");
  });
  v.rule("tiles_per_unit", "one tile per unit, or none", [&t] {
    return problem_unless(t.tiles.empty() || t.tiles.size() == t.count, "tiles", "expected one tile per unit");
  });
}

using test::error_of;

// Reads `text` (named `file` in messages) into an S as a config reader does.
template <class S>
S read_as(const std::string& text, const std::string& file) {
  Json doc = parse_json_text(text, file);
  JsonReader r(doc, file, "");
  S s;
  read_params(r, s);
  r.finish();
  return s;
}

Toy read_toy(const std::string& text) { return read_as<Toy>(text, "toy.json"); }

TEST(Param, ReaderKeepsDefaultsAndReadsEveryKind) {
  Toy t = read_toy(R"({"count": 2, "mode": "slow", "tiles": [3, 4], "inner": {"depth": 7},
                       "items": [{"name": "a"}, {"name": "b", "weight": 1}]})");
  EXPECT_EQ(t.count, 2u);
  EXPECT_EQ(t.ratio, 0.25);
  EXPECT_FALSE(t.on);
  EXPECT_EQ(t.mode, Mode::kSlow);
  EXPECT_EQ(t.tiles, (std::vector<uint32_t>{3, 4}));
  EXPECT_EQ(t.inner.depth, 7);
  ASSERT_EQ(t.items.size(), 2u);
  EXPECT_EQ(t.items[0].weight, 0.5);
  EXPECT_EQ(t.items[1].name, "b");
}

TEST(Param, ReaderMessagesNameFilePathAndWhatIsAllowed) {
  const std::string items = R"("items": [{"name": "a"}])";
  EXPECT_EQ(error_of([&] { read_toy(R"({"count": 9, )" + items + "}"); }),
            "toy.json: count: expected an integer in [1, 8], got 9");
  EXPECT_EQ(error_of([&] { read_toy(R"({"inner": {"depth": 0}, )" + items + "}"); }),
            "toy.json: inner.depth: expected an integer in [1, 9], got 0");
  EXPECT_EQ(error_of([&] { read_toy(R"({"items": [{"weight": 1}]})"); }),
            "toy.json: items[0].name: missing (required)");
  EXPECT_EQ(error_of([&] { read_toy(R"({"mode": "warp", )" + items + "}"); }),
            "toy.json: mode: expected one of {slow, fast}, got \"warp\"");
  EXPECT_EQ(error_of([&] { read_toy(R"({"tiles": [1, 16], )" + items + "}"); }),
            "toy.json: tiles: element 1: expected an integer in [0, 15], got 16");
  EXPECT_EQ(error_of([&] { read_toy(R"({"tiles": [1], )" + items + "}"); }),
            "toy.json: tiles: expected one tile per unit");
  EXPECT_NE(error_of([&] { read_toy(R"({"inner": {"deep": 1}, )" + items + "}"); }).find("inner.deep: unknown key"),
            std::string::npos);
}

TEST(Param, ListerGivesValueDefaultRangeAndRules) {
  Toy t = read_toy(R"({"count": 2, "items": [{"name": "a"}, {"name": "b"}]})");
  std::vector<RuleRow> rules;
  std::vector<ParamRow> rows = list_params("toy", t, &rules);
  auto row = [&](const std::string& path) {
    for (const ParamRow& r : rows)
      if (r.path == path) return r;
    ADD_FAILURE() << "no row " << path;
    return ParamRow{};
  };
  EXPECT_EQ(row("toy.count").value, 2);
  EXPECT_EQ(row("toy.count").default_value, 4);
  EXPECT_EQ(row("toy.count").range, "[1, 8]");
  EXPECT_EQ(row("toy.count").unit, "units");
  EXPECT_EQ(row("toy.mode").value, "fast");
  EXPECT_EQ(row("toy.mode").range, "{slow, fast}");
  EXPECT_EQ(row("toy.inner.depth").default_value, 3);
  EXPECT_EQ(row("toy.items[1].name").value, "b");
  EXPECT_TRUE(row("toy.items[1].name").default_value.is_null()) << "required: no default";
  EXPECT_EQ(row("toy.items[1].weight").default_value, 0.5);
  ASSERT_EQ(rules.size(), 1u);
  EXPECT_EQ(rules[0].path, "toy.tiles_per_unit");
}

TEST(Param, SchemaSaysWhatTheReaderAccepts) {
  Json s = schema_of<Toy>();
  EXPECT_EQ(s["additionalProperties"], false);
  EXPECT_EQ(s["required"], Json::array({"items"}));
  EXPECT_EQ(s["properties"]["count"], Json::parse(R"({"type": "integer", "minimum": 1, "maximum": 8,
      "default": 4, "description": "how many", "x-unit": "units"})"));
  EXPECT_EQ(s["properties"]["mode"]["enum"], Json::array({"slow", "fast"}));
  EXPECT_EQ(s["properties"]["inner"]["properties"]["depth"]["maximum"], 9);
  EXPECT_EQ(s["properties"]["items"]["maxItems"], 3);
  EXPECT_EQ(s["properties"]["items"]["items"]["required"], Json::array({"name"}));
  EXPECT_NE(s["$comment"].get<std::string>().find("tiles_per_unit"), std::string::npos);
}

// The kinds for inputs whose values are texts, JSON kept as given, or per-variant changes.
struct Job {
  std::string path;
  std::vector<std::string> tags;
  std::vector<Json> values;
  std::vector<Json> patches;
  std::vector<Item> variants;
  uint32_t repeat = 0;
};

void describe(ParamVisitor& v, Job& j) {
  v.text_matching("path", j.path, "^[a-z.]+$", "a dotted path", "where");
  v.text_list("tags", j.tags, 0, 4, "=", "\"k=v\"", "tags");
  v.json_list("values", j.values, 1, 3, JsonItems::kValues, "values");
  v.integer("repeat", j.repeat, 1, 9, "", "times");
  v.one_of("values_or_repeat", "values or repeat", {{"values"}, {"repeat"}}, [&v] {
    return problem_unless(v.given("values") != v.given("repeat"), "", "give exactly one of values, repeat");
  });
  v.patched_fields("variants", j.patches, 5, "changes to the item", [&j](ParamVisitor& s, size_t i) {
    if (j.variants.size() <= i) j.variants.resize(i + 1);
    s.text("name", j.variants[i].name, "its name", Presence::kRequired);
    s.number("weight", j.variants[i].weight, 0.0, 1.0, "", "its weight");
  });
}

Job read_job(const std::string& text) { return read_as<Job>(text, "job.json"); }

TEST(Param, TextsJsonValuesAndPatchedVariants) {
  Job j = read_job(R"({"path": "a.b", "tags": ["x=1"], "values": [1, "two"], "name": "n",
                       "variants": [{}, {"weight": 1, "name": "m"}]})");
  EXPECT_EQ(j.tags, (std::vector<std::string>{"x=1"}));
  EXPECT_EQ(j.values[1], "two");
  ASSERT_EQ(j.variants.size(), 2u);
  EXPECT_EQ(j.variants[0].name, "n");
  EXPECT_EQ(j.variants[0].weight, 0.5);
  EXPECT_EQ(j.variants[1].name, "m");
  EXPECT_EQ(j.variants[1].weight, 1.0);
  EXPECT_EQ(read_job(R"({"repeat": 2, "name": "n"})").variants.size(), 1u) << "no patches: one variant";
}

TEST(Param, TextsJsonValuesAndVariantsMessages) {
  EXPECT_EQ(error_of([] { read_job(R"({"path": "A", "repeat": 1, "name": "n"})"); }),
            "job.json: path: expected a dotted path, got \"A\"");
  EXPECT_EQ(error_of([] { read_job(R"({"tags": ["x"], "repeat": 1, "name": "n"})"); }),
            "job.json: tags[0]: expected \"k=v\", got \"x\"");
  EXPECT_EQ(error_of([] { read_job(R"({"values": [null], "name": "n"})"); }),
            "job.json: values[0]: null is not a value");
  EXPECT_EQ(error_of([] { read_job(R"({"name": "n"})"); }), "job.json: give exactly one of values, repeat");
  EXPECT_EQ(error_of([] { read_job(R"({"repeat": 1, "name": "n", "variants": [{"weight": 2}]})"); }),
            "job.json: variants[0].weight: expected a number in [0, 1], got 2");
  EXPECT_EQ(error_of([] { read_job(R"({"repeat": 1, "variants": [{"name": "a"}, {"weight": 1}]})"); }),
            "job.json: variants[1].name: missing (required)");
  EXPECT_NE(error_of([] { read_job(R"({"repeat": 1, "name": "n", "nmae": 1})"); }).find("job.json: nmae: unknown key"),
            std::string::npos);
}

TEST(Param, SchemaOfTextsJsonValuesAndVariants) {
  Json s = schema_of<Job>();
  EXPECT_EQ(s["properties"]["path"]["pattern"], "^[a-z.]+$");
  EXPECT_EQ(s["properties"]["tags"]["items"]["pattern"], "=");
  EXPECT_EQ(s["properties"]["values"]["items"], Json::parse(R"({"not": {"type": "null"}})"));
  EXPECT_EQ(s["oneOf"], Json::parse(R"([{"required": ["values"]}, {"required": ["repeat"]}])"));
  EXPECT_EQ(s["required"], Json::array({"name"})) << "the variants' fields are the object's own";
  EXPECT_FALSE(s["properties"]["variants"]["items"].contains("required")) << "a patch changes any of them";
  EXPECT_EQ(s["properties"]["variants"]["items"]["properties"]["weight"]["maximum"], 1);
}

}  // namespace
}  // namespace gpupm
