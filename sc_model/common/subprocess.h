// Starting external programs without a shell: the argument vector reaches the
// program verbatim (spaces, quotes and ';' are data, never syntax), stdout and
// stderr are captured separately, and a program that cannot be started is an
// error naming it rather than a shell's exit status 127.
#pragma once

#include <sys/resource.h>

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace gpupm {

// The program could not be started (not found, not executable, bad working
// directory) or the pipes could not be set up.
struct SubprocessError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct SubprocessOptions {
  std::string working_dir;                      // empty: the caller's
  std::optional<std::vector<std::string>> env;  // "NAME=value" entries replacing the environment; unset: inherit
  bool capture_stdout = true;                   // false: the child writes to the caller's stdout
  bool capture_stderr = true;                   // false: the child writes to the caller's stderr
  std::string stdin_file;                       // the child's stdin ("": /dev/null)
  double timeout_s = 0;                         // > 0: killed (with its process group) after this long
};

struct SubprocessResult {
  int exit_code = -1;      // the exit status when the program exited, else -1
  int signal = 0;          // the signal that ended it, else 0
  bool timed_out = false;  // killed at SubprocessOptions::timeout_s
  std::string stdout_text;
  std::string stderr_text;
  bool ok() const { return signal == 0 && exit_code == 0; }
  std::string describe() const;  // "exit status 3" / "killed by signal 9 (Killed)" / "killed after 120 s"
};

// Runs argv[0] with arguments argv[1..] and waits for it. A name without '/'
// is searched in PATH. stdin is /dev/null. Throws SubprocessError when the
// program cannot be started; a program that runs and fails is a result.
SubprocessResult run_subprocess(const std::vector<std::string>& argv, const SubprocessOptions& options = {});

// The first candidate that is an executable file: a name containing '/' is
// checked as a path, other names are searched in PATH. "" when none is.
std::string find_program(const std::vector<std::string>& candidates);
// The python3 gpupm runs (generators, plots): $GPUPM_PYTHON when set, else
// /usr/bin/python3 (Debian's, with python3-numpy), else python3 in PATH; "" when none is.
std::string find_python3();

// The CPU seconds (user + system) a waited-for process took, from wait4's rusage.
double cpu_seconds_of(const struct rusage& usage);

// A time limit the user may set in the environment: VARIABLE's value in
// seconds, default_s when unset or empty; InputError naming VARIABLE unless the
// value is a number in (0, 1e6].
double time_limit_from_env(const char* variable, double default_s);

// "PID.N.TIME": a name part no other process, and no other call in this one, makes.
std::string unique_suffix();

}  // namespace gpupm
