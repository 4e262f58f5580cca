#include "gpupm/common/data_dir.h"

#include <cstdlib>
#include <filesystem>
#include <system_error>

namespace gpupm {

namespace fs = std::filesystem;

namespace {

std::string& explicit_root() {
  static std::string root;
  return root;
}

// The folder of the input file being read (InputFileScope); empty: none.
std::string& naming_folder() {
  thread_local std::string folder;
  return folder;
}

bool holds_data(const fs::path& dir) {
  std::error_code ec;
  return fs::is_directory(dir / "configs", ec);
}

// <bindir>/../share/gpupm (installed) or <bindir>/gpupm-data (build tree).
std::string beside_executable() {
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (ec) return "";
  const fs::path bindir = exe.parent_path();
  for (const fs::path& candidate : {bindir.parent_path() / "share" / "gpupm", bindir / "gpupm-data"})
    if (holds_data(candidate)) return fs::canonical(candidate, ec).string();  // through the link: the source tree
  return "";
}

}  // namespace

void set_data_dir(const std::string& dir) { explicit_root() = dir; }

std::string data_root() {
  if (!explicit_root().empty()) return explicit_root();
  const char* env = std::getenv("GPUPM_DATA_DIR");
  if (env && *env) return env;
  const std::string beside = beside_executable();
  return beside.empty() ? "." : beside;
}

std::string data_file(const std::string& relative) { return data_root() + "/" + relative; }

std::string gpupm_cache_dir() {
  if (const char* c = std::getenv("GPUPM_CACHE_DIR"); c && *c) return c;
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return std::string(x) + "/gpupm";
  if (const char* h = std::getenv("HOME"); h && *h) return std::string(h) + "/.cache/gpupm";
  return (fs::temp_directory_path() / "gpupm-cache").string();
}

InputFileScope::InputFileScope(const std::string& file) : outer_(naming_folder()) {
  naming_folder() = fs::path(file).parent_path().string();
}

InputFileScope::~InputFileScope() { naming_folder() = outer_; }

std::string locate_input_file(const std::string& path) {
  std::error_code ec;
  if (path.empty() || fs::path(path).is_absolute() || fs::exists(path, ec)) return path;
  const std::string shipped = data_file(path);
  return fs::exists(shipped, ec) ? shipped : path;
}

std::string resolve_input_path(const std::string& path) {
  std::error_code ec;
  if (path.empty() || fs::path(path).is_absolute()) return path;
  const std::string& folder = naming_folder();
  if (!folder.empty() && fs::exists(fs::path(folder) / path, ec)) return (fs::path(folder) / path).string();
  return locate_input_file(path);
}

}  // namespace gpupm
