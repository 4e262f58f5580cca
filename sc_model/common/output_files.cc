#include "common/output_files.h"

#include "common/json_reader.h"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>

namespace gpupm {

namespace fs = std::filesystem;

void prepare_output_dir(const std::string& dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec || !fs::is_directory(dir)) throw InputError(dir, "", "cannot create output directory: " + ec.message());
  if (::access(dir.c_str(), W_OK) != 0) throw InputError(dir, "", "output directory is not writable");
}

void write_outputs(const std::string& dir, const std::vector<std::pair<std::string, std::string>>& files) {
  std::vector<std::pair<fs::path, fs::path>> moves;
  for (const auto& [name, content] : files) {
    fs::path final_path = fs::path(dir) / name;
    fs::path tmp = fs::path(dir) / ("." + name + ".tmp" + std::to_string(::getpid()));
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    f << content;
    f.close();
    if (!f) {
      for (const auto& m : moves) fs::remove(m.first);
      fs::remove(tmp);
      throw std::runtime_error("cannot write " + tmp.string());
    }
    moves.push_back({tmp, final_path});
  }
  for (const auto& [tmp, final_path] : moves) fs::rename(tmp, final_path);
}

}  // namespace gpupm
