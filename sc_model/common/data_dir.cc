#include "common/data_dir.h"

#include <cstdlib>

namespace gpupm {

std::string source_tree_file(const std::string& relative) {
  return std::string(GPUPM_SOURCE_DIR) + "/" + relative;
}

std::string data_file(const std::string& relative) {
  const char* env = std::getenv("GPUPM_DATA_DIR");
  std::string dir = (env && *env) ? env : source_tree_file("configs");
  return dir + "/" + relative;
}

}  // namespace gpupm
