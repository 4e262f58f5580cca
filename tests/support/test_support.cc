#include "support/test_support.h"

#include <unistd.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <sys/wait.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include <algorithm>

#include <csignal>

namespace gpupm::test {

std::string source_path(const std::string& relative) { return std::string(GPUPM_SOURCE_DIR) + "/" + relative; }

std::string cuda_workload(const std::string& program) {
  return source_path("configs/workloads/cuda/" + program + "/" + program.substr(program.rfind('/') + 1) + ".json");
}

std::string binary_path() { return GPUPM_BINARY; }

std::string test_plugin_path(const std::string& name) {
  return (std::filesystem::path(GPUPM_BINARY).parent_path() / ("libgpupm_test_" + name + ".so")).string();
}

std::string temp_dir(const std::string& tag) {
  auto dir = std::filesystem::temp_directory_path() / ("gpupm_test_" + tag + "_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir.string();
}

int run_gpupm(const std::string& args, std::string* output) {
  std::string cmd = std::string(GPUPM_BINARY) + " " + args + " 2>&1";
  FILE* p = ::popen(cmd.c_str(), "r");
  if (!p) return -1;
  std::array<char, 4096> buf;
  std::string out;
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) out.append(buf.data(), n);
  int status = ::pclose(p);
  if (output) *output = out;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::string write_file(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

std::string read_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

std::string fake_gpupm(const std::string& dir) {
  std::string path = dir + "/fake_gpupm.sh";
  std::ofstream(path)
      << "#!/bin/sh\nout=''; fail=''\n"
         "while [ $# -gt 0 ]; do case \"$1\" in --out) out=\"$2\"; shift;; --fail) fail=\"$2\"; shift;; "
         "esac; shift; done\n"
         "echo \"$out\" >> " +
             dir +
             "/counter\n"
             "if [ \"$fail\" = kill ]; then kill -9 $$; fi\n"
             "if [ -n \"$fail\" ]; then echo 'some output'; echo \"gpupm: error: boom $fail\" >&2; exit \"$fail\"; fi\n"
             "printf '{\"total\": {\"sim_time_s\": 1.5}}' > \"$out/report.json\"\n";
  ::chmod(path.c_str(), 0755);
  return path;
}

size_t fake_gpupm_starts(const std::string& dir) {
  std::string text = read_file(dir + "/counter");
  return size_t(std::count(text.begin(), text.end(), '\n'));
}

ProcessResult run_process(const std::vector<std::string>& argv, unsigned long long file_size_limit) {
  // The child's stdout and stderr go to files (two pipes would need a poll loop).
  static int calls = 0;
  const std::string base = temp_dir("process") + "/" + std::to_string(calls++);
  const std::string out_file = base + ".out", err_file = base + ".err";
  std::vector<char*> cargv;
  for (const auto& a : argv) cargv.push_back(const_cast<char*>(a.c_str()));
  cargv.push_back(nullptr);
  std::fflush(nullptr);
  pid_t pid = ::fork();
  if (pid < 0) return {};
  if (pid == 0) {
    int out = ::open(out_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int err = ::open(err_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ::dup2(out, 1);
    ::dup2(err, 2);
    if (file_size_limit) {
      struct rlimit lim = {file_size_limit, file_size_limit};
      ::setrlimit(RLIMIT_FSIZE, &lim);
      std::signal(SIGXFSZ, SIG_IGN);  // a write past the limit fails with EFBIG instead
    }
    ::execv(cargv[0], cargv.data());
    ::_exit(127);
  }
  int st = 0;
  ::waitpid(pid, &st, 0);
  ProcessResult r;
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  r.out = read_file(out_file);
  r.err = read_file(err_file);
  return r;
}

ProcessResult run_gpupm_argv(std::vector<std::string> args, unsigned long long file_size_limit) {
  args.insert(args.begin(), GPUPM_BINARY);
  return run_process(args, file_size_limit);
}

std::string expand_case_arg(const std::string& arg, const std::string& fixtures_dir, const std::string& out_dir) {
  if (arg == "@OUT") return out_dir;
  if (arg.rfind("@SRC/", 0) == 0) return source_path(arg.substr(5));
  const size_t plugin_at = arg.find("@PLUGIN/");
  if (plugin_at != std::string::npos) return arg.substr(0, plugin_at) + test_plugin_path(arg.substr(plugin_at + 8));
  std::string s = arg;
  for (size_t at = s.find("@/"); at != std::string::npos; at = s.find("@/", at)) s.replace(at, 2, fixtures_dir + "/");
  return s;
}

ProcessResult run_case(const std::vector<std::string>& env, const std::vector<std::string>& args,
                       const std::string& fixtures_dir, const std::string& out_dir) {
  std::vector<std::string> argv = {"/usr/bin/timeout", "-s", "KILL", "60", "/usr/bin/env"};
  argv.insert(argv.end(), env.begin(), env.end());
  argv.push_back(binary_path());
  for (const std::string& a : args) argv.push_back(expand_case_arg(a, fixtures_dir, out_dir));
  return run_process(argv);
}

bool empty_or_absent(const std::string& dir) {
  std::error_code ec;
  return !std::filesystem::exists(dir, ec) || std::filesystem::is_empty(dir, ec);
}

std::string gtx480_config() { return source_path("configs/gpu/gtx480.json"); }

bool report_matches_schema(const std::string& report, std::string* why) {
  ProcessResult r = run_process({"/usr/bin/python3", "-c",
                                 "import json,jsonschema,sys; jsonschema.validate(json.load(open(sys.argv[1])), "
                                 "json.load(open(sys.argv[2])))",
                                 report, source_path("docs/report.schema.json")});
  if (why) *why = r.out + r.err;
  return r.status == 0;
}

}  // namespace gpupm::test
