#include "common/data_dir.h"

#include <cstdlib>

namespace gpupm {

std::string data_file(const std::string& relative) {
  const char* env = std::getenv("GPUPM_DATA_DIR");
  std::string dir = (env && *env) ? env : std::string(GPUPM_SOURCE_DIR) + "/configs";
  return dir + "/" + relative;
}

}  // namespace gpupm
