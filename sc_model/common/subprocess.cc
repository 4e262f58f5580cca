#include "gpupm/common/subprocess.h"

#include "gpupm/common/json_reader.h"

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <signal.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <optional>

extern char** environ;

namespace gpupm {

namespace {

bool is_executable_file(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(path.c_str(), X_OK) == 0;
}

// A pipe whose ends close themselves on exec: the child only keeps the ends
// dup2'ed onto its stdout/stderr, so EOF arrives when the child exits.
struct Pipe {
  int fd[2] = {-1, -1};
  void open() {
    if (::pipe2(fd, O_CLOEXEC) != 0)
      throw SubprocessError(std::string("cannot create a pipe: ") + std::strerror(errno));
  }
  void close_end(int i) {
    if (fd[i] >= 0) ::close(fd[i]);
    fd[i] = -1;
  }
  ~Pipe() {
    close_end(0);
    close_end(1);
  }
};

// posix_spawn's attribute and file-action objects, destroyed on every path.
struct SpawnSetup {
  posix_spawn_file_actions_t actions;
  posix_spawnattr_t attr;
  SpawnSetup() {
    posix_spawn_file_actions_init(&actions);
    posix_spawnattr_init(&attr);
  }
  ~SpawnSetup() {
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attr);
  }
};

// Reads both pipes until both reach EOF; poll keeps a child that fills one
// pipe while we wait on the other from blocking forever. Past `deadline` (when
// set) the child's process group is killed, which closes the pipes.
void drain(Pipe& out, Pipe& err, std::string& out_text, std::string& err_text, pid_t pid,
           std::optional<std::chrono::steady_clock::time_point> deadline, bool* timed_out) {
  char buf[65536];
  while (out.fd[0] >= 0 || err.fd[0] >= 0) {
    pollfd fds[2];
    Pipe* pipes[2];
    std::string* texts[2];
    nfds_t n = 0;
    if (out.fd[0] >= 0) fds[n] = {out.fd[0], POLLIN, 0}, pipes[n] = &out, texts[n++] = &out_text;
    if (err.fd[0] >= 0) fds[n] = {err.fd[0], POLLIN, 0}, pipes[n] = &err, texts[n++] = &err_text;
    int wait_ms = -1;
    if (deadline && !*timed_out) {
      const auto left =
          std::chrono::duration_cast<std::chrono::milliseconds>(*deadline - std::chrono::steady_clock::now());
      wait_ms = int(std::max<long long>(0, std::min<long long>(left.count(), 1 << 30)));
    }
    const int ready = ::poll(fds, n, wait_ms);
    if (ready < 0) {
      if (errno == EINTR) continue;
      throw SubprocessError(std::string("poll failed: ") + std::strerror(errno));
    }
    if (ready == 0) {  // the deadline passed
      *timed_out = true;
      ::kill(-pid, SIGKILL);
      continue;
    }
    for (nfds_t i = 0; i < n; ++i) {
      if (!(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      ssize_t got = ::read(fds[i].fd, buf, sizeof buf);
      if (got > 0) {
        texts[i]->append(buf, size_t(got));
      } else if (got == 0 || errno != EINTR) {
        pipes[i]->close_end(0);
      }
    }
  }
}

// Waits for the child; past the deadline (no pipes to watch) it is killed.
int wait_for(pid_t pid, std::optional<std::chrono::steady_clock::time_point> deadline, bool* timed_out) {
  int status = 0;
  for (;;) {
    const pid_t got = ::waitpid(pid, &status, deadline && !*timed_out ? WNOHANG : 0);
    if (got == pid) return status;
    if (got < 0 && errno != EINTR) throw SubprocessError(std::string("waitpid failed: ") + std::strerror(errno));
    if (got == 0 && std::chrono::steady_clock::now() >= *deadline) {
      *timed_out = true;
      ::kill(-pid, SIGKILL);
    } else if (got == 0) {
      ::usleep(10000);
    }
  }
}

}  // namespace

std::string SubprocessResult::describe() const {
  if (timed_out) return "did not finish in time: killed";
  if (signal != 0) return "killed by signal " + std::to_string(signal) + " (" + strsignal(signal) + ")";
  return "exit status " + std::to_string(exit_code);
}

std::string find_python3() {
  const char* env_python = std::getenv("GPUPM_PYTHON");
  return env_python && *env_python ? find_program({env_python}) : find_program({"/usr/bin/python3", "python3"});
}

std::string unique_suffix() {
  static std::atomic<uint64_t> counter{0};
  const auto now = std::chrono::steady_clock::now().time_since_epoch().count();
  return std::to_string(::getpid()) + "." + std::to_string(counter++) + "." + std::to_string(now);
}

std::string find_program(const std::vector<std::string>& candidates) {
  const char* path_env = std::getenv("PATH");
  std::string path = path_env ? path_env : "/usr/local/bin:/usr/bin:/bin";
  for (const auto& name : candidates) {
    if (name.empty()) continue;
    if (name.find('/') != std::string::npos) {
      if (is_executable_file(name)) return name;
      continue;
    }
    size_t start = 0;
    while (start <= path.size()) {
      size_t end = path.find(':', start);
      if (end == std::string::npos) end = path.size();
      std::string dir = path.substr(start, end - start);
      std::string full = (dir.empty() ? std::string(".") : dir) + "/" + name;  // an empty entry is "."
      if (is_executable_file(full)) return full;
      start = end + 1;
    }
  }
  return "";
}

SubprocessResult run_subprocess(const std::vector<std::string>& argv, const SubprocessOptions& options) {
  if (argv.empty() || argv[0].empty()) throw SubprocessError("no program to run (empty argument vector)");
  // Resolving the program ourselves gives a clear message instead of a child that exits 127.
  std::string program = find_program({argv[0]});
  if (program.empty()) {
    bool is_path = argv[0].find('/') != std::string::npos;
    throw SubprocessError("cannot run '" + argv[0] +
                          "': " + (is_path ? "no such executable file" : "not found in PATH"));
  }
  if (!options.working_dir.empty()) {
    struct stat st;
    if (::stat(options.working_dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
      throw SubprocessError("cannot run '" + argv[0] + "': working directory '" + options.working_dir +
                            "' does not exist");
  }

  Pipe out, err;
  SpawnSetup setup;
  posix_spawn_file_actions_addopen(&setup.actions, 0,
                                   options.stdin_file.empty() ? "/dev/null" : options.stdin_file.c_str(), O_RDONLY, 0);
  if (options.timeout_s > 0) {  // its own process group: the time limit kills everything it started
    posix_spawnattr_setpgroup(&setup.attr, 0);
    posix_spawnattr_setflags(&setup.attr, POSIX_SPAWN_SETPGROUP);
  }
  if (options.capture_stdout) {
    out.open();
    posix_spawn_file_actions_adddup2(&setup.actions, out.fd[1], 1);
  }
  if (options.capture_stderr) {
    err.open();
    posix_spawn_file_actions_adddup2(&setup.actions, err.fd[1], 2);
  }
  if (!options.working_dir.empty()) posix_spawn_file_actions_addchdir_np(&setup.actions, options.working_dir.c_str());

  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  std::vector<char*> env_ptrs;
  char** envp = environ;
  if (options.env) {
    for (const auto& e : *options.env) env_ptrs.push_back(const_cast<char*>(e.c_str()));
    env_ptrs.push_back(nullptr);
    envp = env_ptrs.data();
  }

  pid_t pid = -1;
  int rc = ::posix_spawn(&pid, program.c_str(), &setup.actions, &setup.attr, args.data(), envp);
  if (rc != 0) throw SubprocessError("cannot run '" + argv[0] + "': " + std::strerror(rc));
  out.close_end(1);  // the child holds its own copies; ours would keep EOF away
  err.close_end(1);

  SubprocessResult result;
  std::optional<std::chrono::steady_clock::time_point> deadline;
  if (options.timeout_s > 0)
    deadline = std::chrono::steady_clock::now() +
               std::chrono::milliseconds(static_cast<long long>(std::min(options.timeout_s, 1e9) * 1000));
  try {
    drain(out, err, result.stdout_text, result.stderr_text, pid, deadline, &result.timed_out);
  } catch (...) {
    int ignored;
    ::waitpid(pid, &ignored, 0);  // no zombie left behind
    throw;
  }
  const int status = wait_for(pid, deadline, &result.timed_out);
  if (WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) result.signal = WTERMSIG(status);
  return result;
}

double cpu_seconds_of(const struct rusage& usage) {
  auto seconds = [](const timeval& t) { return double(t.tv_sec) + double(t.tv_usec) * 1e-6; };
  return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

double time_limit_from_env(const char* variable, double default_s) {
  const char* env = std::getenv(variable);
  if (!env || !*env) return default_s;
  char* end = nullptr;
  const double s = std::strtod(env, &end);
  if (*end != '\0' || !(s > 0) || s > 1e6) throw InputError(variable, env, "expected a number of seconds in (0, 1e6]");
  return s;
}

}  // namespace gpupm
