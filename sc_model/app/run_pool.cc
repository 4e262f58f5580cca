#include "app/run_pool.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

namespace gpupm {

namespace fs = std::filesystem;

namespace {

uint64_t fnv1a(const std::string& text, uint64_t h = 1469598103934665603ULL) {
  for (unsigned char c : text) h = (h ^ c) * 1099511628211ULL;
  return h;
}

std::string read_all(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

pid_t spawn(const RunSpec& spec, const std::string& dir) {
  std::vector<std::string> argv = {"gpupm", "run", "--quiet"};
  argv.insert(argv.end(), spec.args.begin(), spec.args.end());
  argv.push_back("--out");
  argv.push_back(dir);
  std::string log = dir + "/log.txt";
  std::fflush(nullptr);
  pid_t pid = ::fork();
  if (pid != 0) return pid;
  int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd >= 0) {
    ::dup2(fd, 1);
    ::dup2(fd, 2);
    ::close(fd);
  }
  std::vector<char*> cargv;
  for (auto& a : argv) cargv.push_back(a.data());
  cargv.push_back(nullptr);
  ::execv("/proc/self/exe", cargv.data());
  ::_exit(127);
}

}  // namespace

std::string inputs_fingerprint(const RunSpec& spec) {
  uint64_t h = fnv1a("gpupm-run-v1");
  for (const std::string& a : spec.args) {
    h = fnv1a(a + '\0', h);
    if (a.size() > 5 && a.compare(a.size() - 5, 5, ".json") == 0 && fs::exists(a)) h = fnv1a(read_all(a), h);
  }
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

std::vector<RunOutcome> run_pool(const std::vector<RunSpec>& specs, const std::string& out_dir, int jobs,
                                 bool progress) {
  std::vector<RunOutcome> out(specs.size());
  std::map<pid_t, size_t> running;
  size_t next = 0, done = 0, failed = 0;
  auto t0 = std::chrono::steady_clock::now();
  auto show = [&] {
    if (!progress) return;
    double el = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    double eta = done ? el / double(done) * double(specs.size() - done) : 0.0;
    std::fprintf(stderr, "\r[gpupm] runs %zu/%zu  failed %zu  elapsed %.0f s  eta %.0f s   ", done, specs.size(),
                 failed, el, eta);
  };
  while (done < specs.size()) {
    while (next < specs.size() && int(running.size()) < std::max(1, jobs)) {
      const RunSpec& s = specs[next];
      RunOutcome& o = out[next];
      o.id = s.id;
      o.dir = (fs::path(out_dir) / "runs" / s.id).string();
      const std::string fp = inputs_fingerprint(s);
      if (fs::exists(o.dir + "/report.json") && read_all(o.dir + "/inputs.fingerprint") == fp) {
        o.status = 0;
        o.reused = true;
        ++done;
        ++next;
        continue;
      }
      fs::create_directories(o.dir);
      fs::remove(o.dir + "/report.json");
      std::ofstream(o.dir + "/inputs.fingerprint") << fp;
      running[spawn(s, o.dir)] = next++;
    }
    if (running.empty()) continue;
    int status = 0;
    pid_t pid = ::wait(&status);
    auto it = running.find(pid);
    if (it == running.end()) continue;
    RunOutcome& o = out[it->second];
    o.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    if (o.status != 0) ++failed;
    running.erase(it);
    ++done;
    show();
  }
  if (progress) std::fprintf(stderr, "\n");
  return out;
}

}  // namespace gpupm
