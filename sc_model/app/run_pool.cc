#include "app/run_pool.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <map>

namespace gpupm {

namespace fs = std::filesystem;

namespace {

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
      if (fs::exists(o.dir + "/report.json")) {
        o.status = 0;
        o.reused = true;
        ++done;
        ++next;
        continue;
      }
      fs::create_directories(o.dir);
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
