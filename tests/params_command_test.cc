// `gpupm params`: the declared parameters of a GPU config with their values
// after --set, as a table or JSON, and the schemas (--schema KIND).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "support/test_support.h"

namespace {

using gpupm::test::run_gpupm_argv;
using gpupm::test::source_path;

TEST(ParamsCommand, ListsValueDefaultRangeAndUnitAfterSet) {
  auto r = run_gpupm_argv({"params", "--gpu", source_path("configs/gpu/gtx480.json"), "--set", "gpu.sm.count=30"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out.rfind("path ", 0), 0u) << "a header line first";
  const size_t at = r.out.find("\ngpu.sm.count ");
  ASSERT_NE(at, std::string::npos) << r.out;
  const std::string line = r.out.substr(at + 1, r.out.find('\n', at + 1) - at - 1);
  for (const char* part : {"integer", " 30 ", " 15 ", "[1, 1024]", "SMs"})
    EXPECT_NE(line.find(part), std::string::npos) << "'" << part << "' in: " << line;
  EXPECT_NE(r.out.find("gpu.dvfs.sm.levels[2].mhz"), std::string::npos);
  EXPECT_NE(r.out.find("gpu.sm.icache_geometry"), std::string::npos) << "the rules are listed";
}

TEST(ParamsCommand, JsonListsEveryRow) {
  auto r = run_gpupm_argv({"params", "--json", "--set", "gpu.memory.l2_clock=core"});
  ASSERT_EQ(r.status, 0) << r.err;
  const nlohmann::json doc = nlohmann::json::parse(r.out);
  bool seen = false;
  for (const auto& p : doc.at("parameters"))
    if (p.at("path") == "gpu.memory.l2_clock") {
      seen = true;
      EXPECT_EQ(p.at("value"), "core");
      EXPECT_EQ(p.at("default"), "memory");
      EXPECT_EQ(p.at("range"), "{memory, core}");
    }
  EXPECT_TRUE(seen);
}

TEST(ParamsCommand, SchemaPrintsTheCommittedFile) {
  auto r = run_gpupm_argv({"params", "--schema", "workload"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, gpupm::test::read_file(source_path("docs/schema/workload.schema.json")));
}

}  // namespace
