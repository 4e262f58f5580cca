#include "gpupm/program/workload_scale.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "gpupm/common/data_dir.h"
#include "gpupm/common/fnv1a.h"
#include "gpupm/common/output_files.h"
#include "gpupm/common/param_reader.h"
#include "gpupm/common/subprocess.h"
#include "gpupm/program/program_workload.h"
#include "gpupm/program/program_workload_params.h"

extern char** environ;

namespace gpupm {

namespace fs = std::filesystem;

namespace {

constexpr const char* kGeneratedWorkload = "workload.json";
constexpr const char* kManifest = "scale.json";  // written by gpupm beside the generator's files

// Where a generator's shared modules live (paper_scale.py): on its PYTHONPATH.
std::string shared_module_dir() { return data_file("configs/workloads/cuda"); }

// Module names a Python source imports at the start of a line: `import a, b.c`, `from a import x`.
std::vector<std::string> imported_modules(const std::string& text) {
  static const std::regex from_re(R"(^\s*from\s+([A-Za-z_]\w*)[\w.]*\s+import\b)");
  static const std::regex import_re(R"(^\s*import\s+(.+))");
  static const std::regex name_re(R"(^\s*([A-Za-z_]\w*))");
  std::vector<std::string> names;
  std::istringstream in(text);
  std::smatch m;
  for (std::string line; std::getline(in, line);) {
    if (std::regex_search(line, m, from_re)) {
      names.push_back(m[1]);
    } else if (std::regex_search(line, m, import_re)) {
      std::stringstream list(m[1].str());
      for (std::string item; std::getline(list, item, ',');)
        if (std::smatch n; std::regex_search(item, n, name_re)) names.push_back(n[1]);
    }
  }
  return names;
}

// "... (N lines)" of a generator's stderr: its last lines carry the cause.
std::string last_lines(const std::string& text, size_t count) {
  size_t pos = text.size();
  while (pos > 0 && text[pos - 1] == '\n') --pos;
  const size_t end = pos;
  for (size_t n = 0; pos > 0 && n < count; --pos)
    if (text[pos - 1] == '\n') ++n;
  return text.substr(pos, end - pos);
}

// The inherited environment with the generator's: the shared modules importable,
// no bytecode written into the source tree, str hashing fixed.
std::vector<std::string> generator_environment() {
  std::vector<std::string> env;
  std::string python_path = shared_module_dir();
  for (char** e = environ; *e; ++e) {
    const std::string entry = *e;
    if (entry.rfind("PYTHONPATH=", 0) == 0) python_path += ":" + entry.substr(11);
    else if (entry.rfind("PYTHONDONTWRITEBYTECODE=", 0) != 0 && entry.rfind("PYTHONHASHSEED=", 0) != 0)
      env.push_back(entry);
  }
  env.push_back("PYTHONPATH=" + python_path);
  env.push_back("PYTHONDONTWRITEBYTECODE=1");
  env.push_back("PYTHONHASHSEED=0");
  return env;
}

// An exclusive lock on FILE for the life of the object (flock: released if the process dies).
class FileLock {
 public:
  explicit FileLock(const std::string& file) : fd_(::open(file.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644)) {
    if (fd_ >= 0) ::flock(fd_, LOCK_EX);
  }
  ~FileLock() {
    if (fd_ >= 0) ::close(fd_);
  }
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;

 private:
  int fd_;
};

std::string megabytes(uint64_t bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f MB", double(bytes) / 1e6);
  return text;
}

uint64_t folder_bytes(const fs::path& dir) {
  uint64_t total = 0;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.is_regular_file()) total += e.file_size();
  return total;
}

// Runs the generator into TMP; InputError with its last stderr lines if it fails.
void run_generator(const ScaleGenerator& g, const fs::path& tmp) {
  const char* env_python = std::getenv("GPUPM_PYTHON");  // named in the message
  const std::string python = find_python3();
  const std::string where = "scales.paper.generator";
  if (python.empty())
    throw InputError(
        g.workload_file, where,
        "cannot generate the paper-scale inputs: no python3 (" +
            (env_python && *env_python ? "GPUPM_PYTHON=" + std::string(env_python) + " is not an executable"
                                       : std::string("neither /usr/bin/python3 nor python3 in PATH")) +
            "); install it with scripts/install-deps.sh (python3, python3-numpy)");
  std::vector<std::string> argv = {python, g.generator, tmp.string()};
  argv.insert(argv.end(), g.args.begin(), g.args.end());
  SubprocessOptions options;
  options.env = generator_environment();
  options.timeout_s = time_limit_from_env("GPUPM_GENERATOR_TIMEOUT", kDefaultGeneratorTimeoutS);
  SubprocessResult r;
  try {
    r = run_subprocess(argv, options);
  } catch (const SubprocessError& e) {
    throw InputError(g.workload_file, where, std::string("cannot run the generator: ") + e.what());
  }
  std::string command = "python3 " + g.generator + " OUT_DIR";
  for (const std::string& a : g.args) command += " " + a;
  if (r.timed_out)
    throw InputError(g.workload_file, where,
                     "the generator did not finish within " + std::to_string(int(options.timeout_s)) +
                         " s: " + command + " (GPUPM_GENERATOR_TIMEOUT=SECONDS allows longer)");
  if (!r.ok())
    throw InputError(g.workload_file, where,
                     "the generator failed (" + r.describe() + "): " + command + "\n" + last_lines(r.stderr_text, 12));
  if (!fs::is_regular_file(tmp / kGeneratedWorkload))
    throw InputError(g.workload_file, where,
                     "the generator wrote no OUT_DIR/" + std::string(kGeneratedWorkload) + ": " + command);
}

// The manifest gpupm keeps beside the generated files: what made them and their digest.
void write_manifest(const ScaleGenerator& g, const fs::path& dir) {
  Json files = Json::object();
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.is_regular_file()) files[fs::relative(e.path(), dir).string()] = e.file_size();
  const Json manifest = {{"workload", fs::path(g.workload_file).filename().string()},
                         {"generator", fs::path(g.generator).filename().string()},
                         {"args", g.args},
                         {"key", g.key},
                         {"inputs", generated_inputs_digest(dir.string())},
                         {"files", files}};
  std::ofstream(dir / kManifest) << manifest.dump(2) << "\n";
}

}  // namespace

const std::vector<std::string>& scale_names() {
  static const std::vector<std::string> names = {"ci", "paper"};
  return names;
}

void check_scale_option(const std::string& scale) {
  if (std::count(scale_names().begin(), scale_names().end(), scale)) return;
  throw InputError("--scale", scale, "expected ci (the committed inputs) or paper (the seed paper's, generated)");
}

std::vector<std::pair<std::string, std::string>> generator_sources(const std::string& generator) {
  const fs::path own = fs::path(generator).parent_path();
  const std::vector<fs::path> search = {own.empty() ? fs::path(".") : own, fs::path(shared_module_dir())};
  std::vector<std::pair<std::string, std::string>> sources = {
      {fs::path(generator).filename().string(), read_input_file(generator)}};
  std::set<std::string> seen;
  for (size_t i = 0; i < sources.size(); ++i)  // grows as imports are found
    for (const std::string& module : imported_modules(sources[i].second)) {
      if (!seen.insert(module).second) continue;
      for (const fs::path& dir : search)
        if (fs::is_regular_file(dir / (module + ".py"))) {
          sources.push_back({module + ".py", read_input_file(dir / (module + ".py"))});
          break;
        }
    }
  std::sort(sources.begin() + 1, sources.end());
  return sources;
}

ScaleGenerator scale_generator(const std::string& workload_file, const std::string& scale) {
  const Json doc = load_json_file(workload_file);
  const std::string no_variant = "this workload has no " + scale + " variant, which --scale " + scale +
                                 " asks for (a program workload declares one in \"scales\": {\"" + scale +
                                 "\": {\"generator\": ...}}, configs/workloads/cuda/README.md)";
  if (!is_program_workload(doc) || !doc.contains("program"))
    throw InputError(workload_file, "scales." + scale, no_variant);
  JsonReader r(doc, workload_file, "");
  WorkloadScales scales;
  scales.dir = fs::path(workload_file).parent_path().string();
  read_params(r, scales);  // the other keys are the program's: read when it loads
  if (!scales.paper.given()) throw InputError(workload_file, "scales." + scale, no_variant);
  ScaleGenerator g;
  g.workload_file = workload_file;
  g.generator = (fs::path(scales.dir) / scales.paper.generator).string();
  g.args = scales.paper.args;
  if (const std::string why = regular_file_problem(g.generator); !why.empty())
    throw InputError(workload_file, "scales." + scale + ".generator", g.generator + ": " + why);
  uint64_t h = fnv1a("gpupm-scale-v1\n" + scale + "\n");
  for (const auto& [name, text] : generator_sources(g.generator)) h = fnv1a(text + "\x1f", fnv1a(name + '\0', h));
  for (const std::string& a : g.args) h = fnv1a(a + '\0', fnv1a("arg", h));
  g.key = hex64(h);
  g.dir = gpupm_cache_dir() + "/inputs/" + fs::path(workload_file).stem().string() + "-" + scale + "-" + g.key;
  return g;
}

std::string generated_inputs_digest(const std::string& dir) {
  std::vector<std::string> names;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.is_regular_file() && e.path().filename() != kManifest) names.push_back(fs::relative(e.path(), dir).string());
  std::sort(names.begin(), names.end());
  uint64_t h = fnv1a("gpupm-inputs-v1");
  for (const std::string& n : names) h = fnv1a(read_input_file(fs::path(dir) / n), fnv1a(n + '\0', h));
  return hex64(h);
}

std::string ensure_generated(const ScaleGenerator& g) {
  if (fs::is_directory(g.dir)) return g.dir;
  const fs::path root = fs::path(g.dir).parent_path();
  std::error_code ec;
  fs::create_directories(root, ec);
  if (ec)
    throw InputError(g.workload_file, "scales",
                     "cannot create the cache folder " + root.string() + ": " + ec.message());
  const FileLock lock(g.dir + ".lock");
  if (fs::is_directory(g.dir)) return g.dir;  // made by another process while we waited
  const std::string tmp_prefix = ".tmp-" + fs::path(g.dir).filename().string() + "-";
  for (const auto& e : fs::directory_iterator(root, ec))  // left by a generation that died: we hold its lock now
    if (e.path().filename().string().rfind(tmp_prefix, 0) == 0) fs::remove_all(e.path(), ec);
  const fs::path tmp = root / (tmp_prefix + unique_suffix());
  fs::create_directories(tmp, ec);
  if (ec) throw InputError(g.workload_file, "scales", "cannot create " + tmp.string() + ": " + ec.message());
  std::fprintf(stderr, "gpupm: generating the inputs of %s into %s ...\n", g.workload_file.c_str(), g.dir.c_str());
  const auto t0 = std::chrono::steady_clock::now();
  try {
    run_generator(g, tmp);
    write_manifest(g, tmp);
  } catch (...) {
    fs::remove_all(tmp, ec);
    throw;
  }
  fs::rename(tmp, g.dir, ec);
  if (ec) {
    fs::remove_all(tmp, ec);
    if (!fs::is_directory(g.dir)) throw InputError(g.workload_file, "scales", "cannot rename into " + g.dir);
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::fprintf(stderr, "gpupm: generated %s in %.1f s\n", megabytes(folder_bytes(g.dir)).c_str(), seconds);
  return g.dir;
}

void make_workload_paths_absolute(Json& doc, const std::string& dir, const std::string& inputs_dir) {
  doc["program"] = (fs::path(dir) / doc["program"].get<std::string>()).string();
  const Json buffers = doc.value("buffers", Json::object());
  for (const auto& [buffer, spec] : buffers.items())
    if (spec.contains("init") && spec["init"].contains("file"))
      doc["buffers"][buffer]["init"]["file"] =
          (fs::path(inputs_dir) / spec["init"]["file"].get<std::string>()).string();
}

std::string workload_with_paper_args(const std::string& workload_file, const std::vector<std::string>& args) {
  if (scale_generator(workload_file, "paper").args == args) return workload_file;
  Json doc = load_json_file(workload_file);
  const std::string dir = fs::absolute(fs::path(workload_file).parent_path()).string();
  make_workload_paths_absolute(doc, dir, dir);
  Json& paper = doc["scales"]["paper"];
  paper["generator"] = (fs::path(dir) / paper["generator"].get<std::string>()).lexically_normal().string();
  paper["args"] = args;
  const std::string text = doc.dump(1) + "\n";
  const std::string stem = fs::path(workload_file).stem().string();
  const std::string folder = gpupm_cache_dir() + "/workloads/" + stem + "-" + hex64(fnv1a(text));
  const std::string file = folder + "/" + stem + ".json";
  if (fs::is_regular_file(file) && read_input_file(file) == text) return file;
  std::error_code ec;
  fs::create_directories(folder, ec);
  if (ec) throw InputError(workload_file, "scales.paper.args", "cannot create " + folder + ": " + ec.message());
  write_outputs(folder, {{stem + ".json", text}});
  return file;
}

ScaledWorkload load_workload_at_scale(const std::string& workload_file, const std::string& scale) {
  check_scale_option(scale);
  ScaledWorkload w;
  w.origin = workload_file;
  if (scale == "ci") {
    w.doc = load_json_file(workload_file);
    if (w.doc.is_object()) w.doc.erase("scales");  // declarations, not part of the run
    return w;
  }
  const ScaleGenerator g = scale_generator(workload_file, scale);
  const std::string dir = ensure_generated(g);
  const std::string generated = dir + "/" + kGeneratedWorkload;
  w.origin = generated + " (" + workload_file + " at --scale " + scale + ")";
  w.doc = load_json_file(generated);
  if (!w.doc.is_object()) throw InputError(w.origin, "$", "expected a JSON object (a program workload)");
  for (const char* key : {"program", "apps", "scales"})
    if (w.doc.contains(key))
      throw InputError(
          w.origin, key,
          "a generated workload has no \"" + std::string(key) + "\": it runs the declaring workload's program");
  w.doc["program"] = load_json_file(workload_file).at("program");
  w.inputs_dir = dir;
  const Json manifest = load_json_file(dir + "/" + kManifest);
  w.record = {{"name", scale},
              {"generator", fs::path(g.generator).filename().string()},
              {"args", g.args},
              {"key", g.key},
              {"inputs", manifest.value("inputs", std::string())}};
  return w;
}

}  // namespace gpupm
