// docs/schema/*.schema.json: generated from the declarations (they cannot
// drift), and every shipped input under configs/ valid against them.
#include "gpupm/common/json_reader.h"
#include "gpupm/sweep/config_schemas.h"

#include "support/test_support.h"

#include <gtest/gtest.h>

namespace gpupm {
namespace {

using test::source_path;

TEST(ConfigSchema, CommittedFilesEqualTheGeneratedOnes) {
  for (const std::string& kind : config_schema_kinds()) {
    const std::string file = "docs/schema/" + kind + ".schema.json";
    const std::string committed = test::read_file(source_path(file));
    EXPECT_EQ(committed, config_schema(kind).dump(2) + "\n")
        << file << " differs from the declarations; regenerate it: build/gpupm params --schema " << kind << " > "
        << file;
  }
}

TEST(ConfigSchema, UnknownKindIsAnInputError) { EXPECT_THROW(config_schema("gpu"), InputError); }

TEST(ConfigSchema, PolicySchemaTellsThePoliciesApartByName) {
  const Json s = config_schema("policy");
  bool equalizer = false;
  for (const Json& p : s.at("oneOf")) {
    EXPECT_EQ(p["required"][0], "name");
    if (p["properties"]["name"]["const"] != "equalizer-perf") continue;
    equalizer = true;
    const Json& period = p["properties"]["sample_period_log2"];
    EXPECT_EQ(period["minimum"], 1);
    EXPECT_EQ(period["maximum"], 12);
    EXPECT_EQ(period["default"], 7);
    EXPECT_EQ(p["properties"]["vote_rule"]["enum"], Json::array({"plurality", "strict"}));
  }
  EXPECT_TRUE(equalizer);
}

TEST(ConfigSchema, GpuSchemaCarriesTheDeclaredRanges) {
  const Json s = config_schema("gpu_config").at("else");  // a whole config
  const Json& count = s["properties"]["sm"]["properties"]["count"];
  EXPECT_EQ(count["minimum"], 1);
  EXPECT_EQ(count["maximum"], 1024);
  EXPECT_EQ(count["default"], 15);
  EXPECT_EQ(s["required"], Json::array({"name", "sm", "memory", "dvfs", "power"}));
  EXPECT_EQ(s["properties"]["memory"]["properties"]["l2_clock"]["enum"], Json::array({"memory", "core"}));
}

// A config "based_on" another is a merge patch: no section is required, but an array (which replaces) is whole.
TEST(ConfigSchema, ABasedOnGpuConfigIsAMergePatch) {
  const Json s = config_schema("gpu_config");
  EXPECT_EQ(s["if"], Json({{"required", {"based_on"}}}));
  const Json& patch = s["then"];
  EXPECT_EQ(patch["required"], Json::array({"name", "based_on"}));
  EXPECT_EQ(patch["properties"]["based_on"]["type"], "string");
  EXPECT_FALSE(patch["properties"]["dvfs"].contains("required"));
  EXPECT_FALSE(patch["properties"]["dvfs"]["properties"]["sm"].contains("required"));
  EXPECT_EQ(patch["properties"]["dvfs"]["properties"]["sm"]["properties"]["levels"]["items"]["required"],
            Json::array({"name", "mhz", "volts"}));
  EXPECT_EQ(patch["properties"]["sm"]["properties"]["count"]["maximum"], 1024);
  EXPECT_EQ(patch["additionalProperties"], false);
}

// Every GPU config, workload and sweep spec under configs/ (scripts/check_schemas.py,
// python3 jsonschema; skipped when the module is missing).
TEST(ConfigSchema, ShippedInputsMatchTheirSchemas) {
  test::ProcessResult r =
      test::run_process({"/usr/bin/python3", source_path("scripts/check_schemas.py"), source_path("")});
  if (r.status == 77) GTEST_SKIP() << r.out;
  EXPECT_EQ(r.status, 0) << r.out << r.err;
}

}  // namespace
}  // namespace gpupm
