// A sweep's runs live no longer than the sweep (SIGTERM or kill -9 of the sweep
// stops them), and a sweep refuses a directory another live sweep holds. The
// runs are a stand-in that sleeps, so every case takes about a second; every
// process a case starts is waited for or killed before it ends.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <thread>

#include "support/test_support.h"
#include "gpupm/sweep/run_executor.h"

using namespace gpupm;
using gpupm::test::source_path;
using gpupm::test::temp_dir;
namespace fs = std::filesystem;

namespace {

using Clock = std::chrono::steady_clock;

// A stand-in for `gpupm run` that records its pid in --out and sleeps 60 s.
std::string sleeping_run(const std::string& dir) {
  const std::string path = dir + "/sleeping_run.sh";
  std::ofstream(path) << "#!/bin/sh\nout=''\n"
                         "while [ $# -gt 0 ]; do [ \"$1\" = --out ] && out=\"$2\"; shift; done\n"
                         "echo $$ > \"$out/pid.tmp\" && mv \"$out/pid.tmp\" \"$out/pid\"\n"
                         "exec sleep 60\n";
  fs::permissions(path, fs::perms::owner_all);
  return path;
}

bool alive(pid_t pid) {
  if (::kill(pid, 0) != 0) return false;
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string pid_field, comm, state;
  stat >> pid_field >> comm >> state;
  return state != "Z";  // a zombie has stopped running
}

template <class Pred>
bool wait_until(Pred done, double seconds) {
  const auto end = Clock::now() + std::chrono::duration<double>(seconds);
  while (Clock::now() < end) {
    if (done()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return done();
}

// Starts a local sweep of two sleeping runs in a child process (the sweep's
// parent process), waits until both runs have started and returns their pids.
pid_t start_sweep(const std::string& dir, std::vector<pid_t>& run_pids) {
  const std::string runner = sleeping_run(dir);
  std::fflush(nullptr);
  pid_t sweep = ::fork();
  if (sweep == 0) {
    ExecutorOptions ex;
    ex.jobs = 2;
    ex.binary = runner;
    execute_runs({RunSpec("a", {"x"}), RunSpec("b", {"y"})}, dir + "/out", ex, false);
    ::_exit(0);
  }
  for (const char* id : {"a", "b"}) {
    const std::string pid_file = dir + "/out/runs/" + id + "/pid";
    wait_until([&] { return fs::exists(pid_file); }, 20);
    run_pids.push_back(pid_t(std::atol(gpupm::test::read_file(pid_file).c_str())));
  }
  return sweep;
}

void expect_runs_stop_when_sweep_dies(int signal) {
  const std::string dir = temp_dir("lifetime");
  std::vector<pid_t> runs;
  const pid_t sweep = start_sweep(dir, runs);
  ASSERT_EQ(runs.size(), 2u);
  for (pid_t r : runs) ASSERT_GT(r, 0);
  for (pid_t r : runs) EXPECT_TRUE(alive(r));
  ::kill(sweep, signal);
  ::waitpid(sweep, nullptr, 0);
  for (pid_t r : runs) {
    const bool stopped = wait_until([&] { return !alive(r); }, 10);
    EXPECT_TRUE(stopped) << "run " << r << " outlived its sweep (signal " << signal << ")";
    if (!stopped) ::kill(r, SIGKILL);  // leave nothing behind
  }
}

}  // namespace

TEST(SweepLifetime, SigtermOfTheSweepStopsItsRuns) { expect_runs_stop_when_sweep_dies(SIGTERM); }

TEST(SweepLifetime, KillNineOfTheSweepLeavesNoOrphanRuns) { expect_runs_stop_when_sweep_dies(SIGKILL); }

TEST(SweepLifetime, SecondSweepOnAHeldDirectoryIsRefused) {
  const std::string dir = temp_dir("lock") + "/out";
  fs::create_directories(dir);
  lock_output_dir(dir);  // this process is the live sweep
  auto r =
      gpupm::test::run_gpupm_argv({"sweep", source_path("configs/sweeps/example.json"), "--out", dir, "--jobs", "1"});
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_NE(r.err.find(dir), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("pid " + std::to_string(::getpid())), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir + "/runs"));
  EXPECT_FALSE(fs::exists(dir + "/sweep.json"));
}

TEST(SweepLifetime, LockOfAnEndedSweepIsFree) {
  const std::string dir = temp_dir("lock_free");
  pid_t child = ::fork();
  if (child == 0) {
    lock_output_dir(dir);
    ::_exit(0);
  }
  int st = 0;
  ::waitpid(child, &st, 0);
  ASSERT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0);
  EXPECT_TRUE(fs::exists(dir + "/sweep.lock"));  // left behind, but nobody holds it
  EXPECT_NO_THROW(lock_output_dir(dir));
}
