// Experiment configs declared once (experiment_params.h): the committed schema
// is the generated one, every shipped config reads, and a bad value names the
// file, the JSON path and what is allowed.
#include "gpupm/experiment/registry.h"

#include "support/test_support.h"

#include <gtest/gtest.h>

#include <filesystem>

namespace gpupm {
namespace {

using test::source_path;

TEST(ExperimentSchema, CommittedFileEqualsTheGeneratedOne) {
  const std::string file = "docs/schema/experiment.schema.json";
  EXPECT_EQ(test::read_file(source_path(file)), experiment_config_schema().dump(2) + "\n")
      << file << " differs from the declarations; regenerate it: build/gpupm params --schema experiment > " << file;
}

TEST(ExperimentParams, EveryShippedConfigReadsAsItsExperimentsDeclaration) {
  size_t read = 0;
  for (const ExperimentEntry& e : experiment_registry())
    for (const char* suffix : {"", "_real"}) {
      const std::string file = source_path("configs/experiments/" + e.config + std::string(suffix) + ".json");
      if (!std::filesystem::exists(file)) continue;
      const ExperimentListing l = e.list(file);
      EXPECT_FALSE(l.rows.empty()) << file;
      ++read;
    }
  EXPECT_EQ(read, 10u);
}

TEST(ExperimentParams, OutOfRangeValueNamesFilePathAndRange) {
  const std::string dir = test::temp_dir("exp_params");
  const std::string file = dir + "/h.json";
  test::write_file(file, R"({"name": "harmonia", "suite": "real", "gpu": "g.json", "suite_dir": "s",
      "variants": [{"name": "harmonia"}], "oracle": {"name": "o", "objective": {"kind": "min_ed2p"},
      "axes": {"sms": [8]}}, "classification": {"thrash_gain_min": 0.5}, "programs": [{"name": "lud"}]})");
  try {
    find_experiment("harmonia", "test", "name").list(file);
    FAIL() << "accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(file + ": classification.thrash_gain_min:"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("[1, 10]"), std::string::npos) << e.what();
  }
}

TEST(ExperimentParams, ClassificationOnlyInARealSuite) {
  const std::string dir = test::temp_dir("exp_params_cls");
  const std::string file = dir + "/e.json";
  test::write_file(file, R"({"name": "equalizer", "gpu": "g.json", "suite_dir": "s", "kernels": [{"name": "k"}],
      "classification": {"kernel_share_min": 0.05, "cache_gain_min": 1.02}})");
  try {
    find_experiment("equalizer", "test", "name").list(file);
    FAIL() << "accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("classification: only a real suite's config"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace gpupm
