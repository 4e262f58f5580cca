#include "gpupm/policy/policy_plugin.h"

#include "gpupm/policy/policy_registry.h"

#include <dlfcn.h>

#include <filesystem>
#include <fstream>
#include <set>

namespace gpupm {

namespace {

namespace fs = std::filesystem;

const char* const kExpected =
    "expected a policy plugin: a shared object (.so) built against this gpupm whose code registers at least one "
    "policy with GPUPM_REGISTER_POLICY (docs/embedding.md#policy-plugins)";

[[noreturn]] void refuse(const std::string& file, const std::string& problem) {
  throw InputError("--plugin " + file, "", problem + "; " + kExpected);
}

bool starts_like_elf(const std::string& file) {
  char magic[4] = {};
  std::ifstream in(file, std::ios::binary);
  return in.read(magic, sizeof magic) && magic[0] == 0x7f && magic[1] == 'E' && magic[2] == 'L' && magic[3] == 'F';
}

// Before dlopen, which would block on a FIFO or say little about a text file.
void check_file(const std::string& file) {
  std::error_code ec;
  const fs::file_status st = fs::status(file, ec);
  if (!fs::exists(st)) refuse(file, "no such file");
  if (fs::is_directory(st)) refuse(file, "is a directory");
  if (!fs::is_regular_file(st)) refuse(file, "is not a regular file");
  if (!starts_like_elf(file)) refuse(file, "is not an ELF shared object");
}

}  // namespace

void load_policy_plugin(const std::string& file) {
  static std::set<std::string> loaded;
  check_file(file);
  const std::string path = fs::canonical(file).string();  // with a '/': dlopen searches no library path
  if (loaded.count(path)) return;
  const size_t policies_before = registered_policies().size();
  const size_t problems_before = policy_registration_problems().size();
  set_registration_origin("plugin " + file);
  void* handle = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  set_registration_origin("linked in");
  if (!handle) refuse(file, std::string("cannot be loaded: ") + ::dlerror());
  const auto& problems = policy_registration_problems();
  if (problems.size() > problems_before) throw InputError("--plugin " + file, "", problems[problems_before]);
  if (registered_policies().size() == policies_before) refuse(file, "registers no policy");
  loaded.insert(path);
}

}  // namespace gpupm
