#include "gpupm/program/cuda_compiler.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <mutex>
#include <regex>
#include <sstream>

#include "gpupm/common/data_dir.h"
#include "gpupm/common/fnv1a.h"
#include "gpupm/common/json_reader.h"
#include "gpupm/common/subprocess.h"

namespace gpupm {

namespace fs = std::filesystem;

namespace {

const char* const kInstallHint = "install it with: apt-get install clang";

// clang's diagnostics can run to pages; the first lines carry the cause.
// They name the source as stdin: the .cu's path is put in its place.
std::string trim_diagnostics(std::string text, const std::string& cu_file) {
  for (size_t at = text.find("<stdin>"); at != std::string::npos; at = text.find("<stdin>", at + cu_file.size()))
    text.replace(at, 7, cu_file);
  const size_t max_chars = 4000, max_lines = 40;
  std::string out;
  size_t lines = 0;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (line.find("warning: CUDA version") != std::string::npos) continue;
    if (++lines > max_lines || out.size() + line.size() > max_chars) {
      out += "... (diagnostics truncated)\n";
      break;
    }
    out += line + "\n";
  }
  while (!out.empty() && out.back() == '\n') out.pop_back();
  return out;
}

// Why find_cuda_clang() found none.
std::string no_clang_reason() {
  const char* env = std::getenv("GPUPM_CLANG");
  return (env && *env) ? std::string("GPUPM_CLANG=") + env + " is not an executable"
                       : "no clang++, clang++-19 ... clang++-14 in PATH";
}

// `clang --version` once per binary and modification time: the version is part
// of every cache key, and a cache hit should not start clang at all after the first.
std::string clang_version_text(const std::string& clang, const std::string& cu_file) {
  static std::mutex mutex;
  static std::map<std::string, std::string> known;
  struct stat st {};
  ::stat(clang.c_str(), &st);
  std::string key = clang + "@" + std::to_string(st.st_mtime) + ":" + std::to_string(st.st_size);
  std::lock_guard<std::mutex> lock(mutex);
  auto it = known.find(key);
  if (it != known.end()) return it->second;
  SubprocessResult r;
  try {
    r = run_subprocess({clang, "--version"});
  } catch (const SubprocessError& e) {
    throw InputError(cu_file, "", std::string("cannot compile CUDA: ") + e.what() + "; " + kInstallHint);
  }
  if (!r.ok())
    throw InputError(cu_file, "", "cannot compile CUDA: '" + clang + " --version' failed (" + r.describe() + ")");
  return known[key] = r.stdout_text;
}

}  // namespace

std::string find_cuda_clang() {
  if (const char* env = std::getenv("GPUPM_CLANG"); env && *env) return find_program({env});
  return find_program({"clang++", "clang++-19", "clang++-18", "clang++-17", "clang++-16", "clang++-15", "clang++-14"});
}

std::string cuda_clang_summary() {
  const std::string clang = find_cuda_clang();
  if (clang.empty()) return std::string("none (") + no_clang_reason() + "; " + kInstallHint + ")";
  try {
    const SubprocessResult r = run_subprocess({clang, "--version"});
    if (!r.ok()) return clang + " (--version failed: " + r.describe() + ")";
    return clang + " (" + r.stdout_text.substr(0, r.stdout_text.find('\n')) + ")";
  } catch (const SubprocessError& e) {
    return clang + " (" + e.what() + ")";
  }
}

int clang_major_version(const std::string& version_text) {
  std::smatch m;
  static const std::regex re(R"(clang version (\d+)\.)");
  return std::regex_search(version_text, m, re) ? std::stoi(m[1]) : 0;
}

std::vector<std::string> cuda_compile_flags(int clang_major) {
  std::vector<std::string> flags = {"-x", "cuda", "--cuda-gpu-arch=sm_70", "--cuda-device-only", "-nocudainc",
                                    "-nocudalib",
                                    // never look for (or at) an installed CUDA toolkit: the PTX must not
                                    // depend on whether /usr/local/cuda exists
                                    "--cuda-path=/nonexistent/gpupm-no-cuda-toolkit", "-O3", "-S", "-std=c++17",
                                    // .loc/.file line directives (no other debug information, the same
                                    // instructions): a fault names the .cu line. The source comes on stdin,
                                    // so the PTX names it kCompiledSource wherever the .cu lives.
                                    "-gline-directives-only", "-fdebug-compilation-dir=."};
  // clang 14 defaults to a PTX ISA without the *_sync warp builtins; later versions pick one that has them.
  if (clang_major > 0 && clang_major < 15)
    for (const char* f : {"-Xclang", "-target-feature", "-Xclang", "+ptx64"}) flags.push_back(f);
  return flags;
}

std::string ptx_cache_dir() { return gpupm_cache_dir() + "/ptx"; }

std::string compile_cuda_to_ptx(const std::string& cu_file, bool* from_cache) {
  if (from_cache) *from_cache = false;
  const std::string source = read_input_file(cu_file);
  const std::string prelude_path = data_file("configs/cuda/gpupm_prelude.h");
  if (!regular_file_problem(prelude_path).empty())
    throw InputError(
        prelude_path, "",
        "cannot read gpupm's CUDA prelude (set GPUPM_DATA_DIR to gpupm's data folder, <prefix>/share/gpupm)");
  const std::string prelude = read_input_file(prelude_path);

  std::string clang = find_cuda_clang();
  if (clang.empty())
    throw InputError(cu_file, "", std::string("cannot compile CUDA: ") + no_clang_reason() + "; " + kInstallHint);
  std::string version = clang_version_text(clang, cu_file);
  std::vector<std::string> flags = cuda_compile_flags(clang_major_version(version));

  uint64_t h = fnv1a(source);
  h = fnv1a("\x1f" + prelude, h);
  h = fnv1a("\x1f" + version, h);
  for (const auto& f : flags) h = fnv1a("\x1f" + f, h);
  std::string dir = ptx_cache_dir();
  std::string ptx = dir + "/" + hex64(h) + ".ptx";
  if (fs::exists(ptx)) {
    if (from_cache) *from_cache = true;
    return ptx;
  }
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw InputError(cu_file, "", "cannot create the PTX cache directory " + dir + ": " + ec.message());

  // clang writes into a private folder (its own temporaries too: a clang
  // stopped at the time limit leaves them); the rename makes the entry appear
  // whole, so concurrent compiles of one program never read a half-written file.
  const std::string work = fs::absolute(dir).string() + "/.compile." + unique_suffix();
  fs::create_directory(work, ec);
  if (ec) throw InputError(cu_file, "", "cannot create a folder in the PTX cache " + dir + ": " + ec.message());
  struct RemoveWork {
    std::string dir;
    ~RemoveWork() {
      std::error_code ignored;
      fs::remove_all(dir, ignored);
    }
  } remove_work{work};
  const std::string tmp = work + "/out.ptx";
  std::vector<std::string> argv = {clang};
  argv.insert(argv.end(), flags.begin(), flags.end());
  for (const std::string& a :
       {std::string("-include"), fs::absolute(prelude_path).string(), std::string("-"), std::string("-o"), tmp})
    argv.push_back(a);
  SubprocessOptions run;
  run.stdin_file = cu_file;  // in its folder: `#include "x.h"` finds its neighbours
  run.working_dir = fs::absolute(cu_file).parent_path().string();
  run.timeout_s =
      time_limit_from_env("GPUPM_CLANG_TIMEOUT", kDefaultClangTimeoutS);  // a suite program compiles in ~1 s
  SubprocessResult r;
  try {
    r = run_subprocess(argv, run);
  } catch (const SubprocessError& e) {
    throw InputError(cu_file, "", std::string("cannot compile CUDA: ") + e.what() + "; " + kInstallHint);
  }
  if (r.timed_out) {
    throw InputError(cu_file, "",
                     "clang did not finish within " + std::to_string(int(run.timeout_s)) +
                         " s and was stopped (a file that includes itself, or a compile-time "
                         "computation that never ends?); GPUPM_CLANG_TIMEOUT=SECONDS allows longer");
  }
  if (!r.ok()) {
    throw InputError(cu_file, "", "clang failed (" + r.describe() + "):\n" + trim_diagnostics(r.stderr_text, cu_file));
  }
  fs::rename(tmp, ptx, ec);
  if (ec) {
    fs::remove(tmp, ec);
    throw InputError(cu_file, "", "cannot write the PTX cache entry " + ptx + ": " + ec.message());
  }
  return ptx;
}

}  // namespace gpupm
