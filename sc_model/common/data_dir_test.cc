#include "gpupm/common/data_dir.h"

#include "support/test_support.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace gpupm {
namespace {

namespace fs = std::filesystem;

// Restores the process-wide lookup inputs a test changes.
struct DataDirTest : ::testing::Test {
  void TearDown() override {
    set_data_dir("");
    ::unsetenv("GPUPM_DATA_DIR");
  }
};

void touch(const fs::path& file) {
  fs::create_directories(file.parent_path());
  std::ofstream(file) << "{}\n";
}

TEST_F(DataDirTest, BuildTreeFindsTheSourceTreeThroughItsLink) {
  ::unsetenv("GPUPM_DATA_DIR");
  EXPECT_EQ(fs::path(data_root()), fs::canonical(test::source_path("")));
  EXPECT_TRUE(fs::exists(data_file("configs/cuda/gpupm_prelude.h")));
}

TEST_F(DataDirTest, SetDataDirWinsOverTheEnvironment) {
  ::setenv("GPUPM_DATA_DIR", "/from/env", 1);
  EXPECT_EQ(data_root(), "/from/env");
  set_data_dir("/from/code");
  EXPECT_EQ(data_file("configs/x.json"), "/from/code/configs/x.json");
  set_data_dir("");
  EXPECT_EQ(data_root(), "/from/env");
}

TEST_F(DataDirTest, InputPathsResolveBesideTheNamingFileThenWorkingDirThenDataRoot) {
  const fs::path root = test::temp_dir("data_dir");
  touch(root / "user/package.json");
  touch(root / "data/configs/pdn/shipped.json");
  touch(root / "data/package.json");
  set_data_dir((root / "data").string());
  EXPECT_EQ(resolve_input_path("/abs/x.json"), "/abs/x.json");
  EXPECT_EQ(resolve_input_path("configs/pdn/shipped.json"), (root / "data/configs/pdn/shipped.json").string());
  {
    const InputFileScope scope((root / "user/gpu.json").string());
    EXPECT_EQ(resolve_input_path("package.json"), (root / "user/package.json").string());
    EXPECT_EQ(resolve_input_path("configs/pdn/shipped.json"), (root / "data/configs/pdn/shipped.json").string());
    EXPECT_EQ(resolve_input_path("missing.json"), "missing.json");  // the reader names it as written
  }
  EXPECT_EQ(resolve_input_path("package.json"), (root / "data/package.json").string());  // the scope has ended
  fs::remove_all(root);
}

}  // namespace
}  // namespace gpupm
