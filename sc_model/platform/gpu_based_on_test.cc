// A GPU config "based_on" another (run_setup.h): merged as a JSON merge patch,
// named in messages with the chain, refused when the chain is broken (the
// fingerprint of the chain's files: tests/provenance_test.cc).
#include "gpupm/platform/run_setup.h"

#include "support/error_of.h"
#include "support/test_support.h"

#include <gtest/gtest.h>

namespace gpupm {
namespace {

using test::source_path;
using test::write_file;

struct Chain {
  std::string dir = test::temp_dir("based_on");
  std::string base = write_file(dir + "/base.json", R"({"name": "base", "sm": {"count": 4, "l1_sets": 64},
      "dvfs": {"sm": {"levels": [{"name": "a", "mhz": 100, "volts": 0.9}, {"name": "b", "mhz": 200, "volts": 1.0}],
      "nominal": "b"}}})");
  std::string child = write_file(dir + "/child.json", R"(// a comment
      {"based_on": "base.json", "name": "child", "sm": {"l1_sets": 32},
       "dvfs": {"sm": {"levels": [{"name": "c", "mhz": 300, "volts": 1.1}], "nominal": "c"}}})");
};

std::string message_of(const std::string& file) {
  return test::error_of([&] { load_gpu_doc(file, ""); });
}

TEST(GpuBasedOn, ObjectsMergeKeyByKeyAndOtherValuesReplace) {
  Chain c;
  const GpuDocument d = load_gpu_doc(c.child, "");
  EXPECT_EQ(d.doc["name"], "child");
  EXPECT_EQ(d.doc["sm"]["count"], 4);                   // kept from the base
  EXPECT_EQ(d.doc["sm"]["l1_sets"], 32);                // changed
  EXPECT_EQ(d.doc["dvfs"]["sm"]["levels"].size(), 1u);  // an array replaces
  EXPECT_EQ(d.doc["dvfs"]["sm"]["nominal"], "c");
  EXPECT_FALSE(d.doc.contains("based_on"));
  EXPECT_EQ(d.files, (std::vector<std::string>{c.child, c.base}));
  EXPECT_EQ(gpu_doc_origin(d, "", true), c.child + " (based on " + c.base + ") (with --set)");
}

TEST(GpuBasedOn, AChainOfThreeNamesEveryFile) {
  Chain c;
  const std::string grandchild =
      write_file(c.dir + "/grandchild.json", R"({"based_on": "child.json", "name": "g", "sm": {"count": 8}})");
  const GpuDocument d = load_gpu_doc(grandchild, "");
  EXPECT_EQ(d.doc["sm"]["count"], 8);
  EXPECT_EQ(d.doc["sm"]["l1_sets"], 32);
  EXPECT_EQ(gpu_doc_origin(d, "", false), grandchild + " (based on " + c.child + ", on " + c.base + ")");
}

TEST(GpuBasedOn, ABrokenChainIsAnInputErrorNamingTheFileAndKey) {
  Chain c;
  const std::string loop_a = write_file(c.dir + "/a.json", R"({"based_on": "b.json", "name": "a"})");
  write_file(c.dir + "/b.json", R"({"based_on": "a.json", "name": "b"})");
  EXPECT_NE(message_of(loop_a).find("already in the chain"), std::string::npos) << message_of(loop_a);
  const std::string missing = write_file(c.dir + "/m.json", R"({"based_on": "nowhere.json", "name": "m"})");
  EXPECT_NE(message_of(missing).find(missing + ": based_on: no file"), std::string::npos) << message_of(missing);
  const std::string unnamed = write_file(c.dir + "/u.json", R"({"based_on": "base.json"})");
  EXPECT_NE(message_of(unnamed).find(unnamed + ": name:"), std::string::npos) << message_of(unnamed);
  const std::string with_null =
      write_file(c.dir + "/n.json", R"({"based_on": "base.json", "name": "n", "sm": {"l1_sets": null}})");
  EXPECT_NE(message_of(with_null).find(with_null + ": sm.l1_sets: null"), std::string::npos) << message_of(with_null);
  const std::string not_text = write_file(c.dir + "/t.json", R"({"based_on": 3, "name": "t"})");
  EXPECT_NE(message_of(not_text).find(not_text + ": based_on: expected"), std::string::npos) << message_of(not_text);
}

TEST(GpuBasedOn, LoadGpuConfigReadsTheChainAndParseRefusesAnUnmergedDocument) {
  Chain c;
  write_file(c.dir + "/whole.json", test::read_file(source_path("configs/gpu/gtx480.json")));
  const std::string derived =
      write_file(c.dir + "/derived.json", R"({"based_on": "whole.json", "name": "d", "sm": {"count": 30}})");
  EXPECT_EQ(load_gpu_config(derived).sm.count, 30u);
  EXPECT_EQ(load_gpu_config(derived).name, "d");
  try {
    parse_gpu_config(load_json_file(derived), derived);
    ADD_FAILURE() << "parse_gpu_config took a based-on document";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(derived + ": based_on: a config based on another is read from its file"),
              std::string::npos)
        << e.what();
  }
}

TEST(GpuBasedOn, TheShippedDerivedConfigsParse) {
  for (const char* name : {"gtx480_60sm", "gtx480_32sm", "gtx480_gpgpusim"}) {
    const std::string file = source_path(std::string("configs/gpu/") + name + ".json");
    const GpuDocument d = load_gpu_doc(file, "");
    ASSERT_EQ(d.files.size(), 2u) << name;
    EXPECT_EQ(d.doc["name"], name);
    EXPECT_NO_THROW(parse_gpu_config(d.doc, gpu_doc_origin(d, "", false))) << name;
  }
}

}  // namespace
}  // namespace gpupm
