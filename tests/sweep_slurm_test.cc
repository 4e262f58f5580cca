// `gpupm sweep --executor slurm` on a real single-node Slurm: munged, slurmctld
// and slurmd (Debian packages) started from a temporary folder with their own
// ports and munge socket, stopped by the PIDs this test started. The results
// must equal the local executor's byte for byte, failures included; a re-run
// resubmits only the failed runs; a detached sweep is collected by a dependent
// Slurm job. ctest runs it as its own test, label `slurm`; it is skipped (with
// the reason) only when the Slurm/munge programs are not installed or the test
// is not root (slurmd must be).
#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <fcntl.h>
#include <grp.h>
#include <netinet/in.h>
#include <pwd.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include <nlohmann/json.hpp>

#include "support/test_support.h"

using gpupm::test::read_file;
using gpupm::test::run_gpupm;
using gpupm::test::source_path;
namespace fs = std::filesystem;

namespace {

std::string find_program(const std::string& name) {
  for (const char* dir : {"/usr/sbin", "/usr/bin", "/sbin", "/bin", "/usr/local/sbin", "/usr/local/bin"}) {
    std::string p = std::string(dir) + "/" + name;
    if (::access(p.c_str(), X_OK) == 0) return p;
  }
  return "";
}

int free_port() {
  int s = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  a.sin_port = 0;
  socklen_t len = sizeof a;
  int port = -1;
  if (::bind(s, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0 &&
      ::getsockname(s, reinterpret_cast<sockaddr*>(&a), &len) == 0)
    port = ntohs(a.sin_port);
  ::close(s);
  return port;
}

int sh(const std::string& cmd, std::string* out = nullptr) {
  FILE* p = ::popen((cmd + " 2>&1").c_str(), "r");
  if (!p) return -1;
  std::string text;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) text.append(buf, n);
  int st = ::pclose(p);
  if (out) *out = text;
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

// A single-node Slurm cluster in a temporary folder.
class MiniSlurm {
 public:
  // Empty if it runs; else why it cannot (a reason to skip) or what failed.
  std::string start(bool* skip) {
    *skip = true;
    for (const char* p : {"munged", "mungekey", "slurmctld", "slurmd"})
      if (find_program(p).empty())
        return std::string("Slurm test skipped: ") + p +
               " is not installed (Debian packages slurmctld slurmd slurm-client munge; scripts/install-deps.sh "
               "installs them)";
    for (const char* p : {"sbatch", "squeue", "sinfo"})
      if (find_program(p).empty())
        return std::string("Slurm test skipped: ") + p + " is not installed (package slurm-client)";
    if (::geteuid() != 0) return "Slurm test skipped: slurmd must run as root and this test is not root";
    struct passwd* mu = ::getpwnam("munge");
    if (!mu) return "Slurm test skipped: no munge user (package munge not configured)";
    *skip = false;
    char tmpl[] = "/tmp/gpupm_slurm_XXXXXX";
    if (!::mkdtemp(tmpl)) return "mkdtemp failed";
    base_ = tmpl;
    ::chmod(base_.c_str(), 0755);
    for (const char* d : {"state", "spool", "run", "log", "munge"}) fs::create_directories(base_ + "/" + d);
    const std::string md = base_ + "/munge";
    ::chmod(md.c_str(), 0700);
    if (::chown(md.c_str(), mu->pw_uid, mu->pw_gid) != 0) return "chown munge dir failed";
    std::string out;
    if (sh(find_program("mungekey") + " --create --keyfile=" + md + "/munge.key", &out) != 0) return "mungekey: " + out;
    if (::chown((md + "/munge.key").c_str(), mu->pw_uid, mu->pw_gid) != 0) return "chown munge.key failed";
    ::chmod((md + "/munge.key").c_str(), 0400);
    socket_ = md + "/munge.socket";
    pids_.push_back(spawn(
        {find_program("munged"), "-F", "--force", "--key-file=" + md + "/munge.key", "--pid-file=" + md + "/munged.pid",
         "--log-file=" + md + "/munged.log", "--seed-file=" + md + "/munged.seed", "--socket=" + socket_},
        base_ + "/log/munged.out", mu));
    if (!wait_for([&] { return fs::exists(socket_); }, 15))
      return "munged did not start: " + read_file(base_ + "/log/munged.out");

    conf_ = base_ + "/slurm.conf";
    std::ofstream c(conf_);
    // The controller's address given, not looked up: a minimal system may have no /etc/hosts.
    c << "ClusterName=gpupmtest\nSlurmctldHost=localhost(127.0.0.1)\nSlurmctldPort=" << free_port()
      << "\nSlurmdPort=" << free_port()
      << "\nSlurmUser=root\nSlurmdUser=root\nAuthType=auth/munge\nCredType=cred/munge\nAuthInfo=socket=" << socket_
      << "\nMpiDefault=none\nProctrackType=proctrack/linuxproc\nTaskPlugin=task/none\n"
         "JobAcctGatherType=jobacct_gather/none\nAccountingStorageType=accounting_storage/none\nJobCompType=jobcomp/"
         "none\n"
         "SelectType=select/cons_tres\nSelectTypeParameters=CR_Core\nSchedulerType=sched/backfill\n"
         "SchedulerParameters=batch_sched_delay=0,sched_min_interval=0\nReturnToService=2\nMailProg=/bin/true\n"
         "StateSaveLocation="
      << base_ << "/state\nSlurmdSpoolDir=" << base_ << "/spool\n"
      << "SlurmctldPidFile=" << base_ << "/run/slurmctld.pid\nSlurmdPidFile=" << base_ << "/run/slurmd.pid\n"
      << "SlurmctldLogFile=" << base_ << "/log/slurmctld.log\nSlurmdLogFile=" << base_ << "/log/slurmd.log\n"
      << "NodeName=localhost NodeAddr=127.0.0.1 CPUs=2 RealMemory=1000 State=UNKNOWN\n"
         "PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP\n";
    c.close();
    ::setenv("SLURM_CONF", conf_.c_str(), 1);  // for sinfo here and sbatch/squeue in gpupm
    pids_.push_back(spawn({find_program("slurmctld"), "-D", "-f", conf_}, base_ + "/log/slurmctld.out"));
    pids_.push_back(spawn({find_program("slurmd"), "-D", "-N", "localhost", "-f", conf_}, base_ + "/log/slurmd.out"));
    std::string state;
    if (!wait_for(
            [&] {
              sh(find_program("sinfo") + " -h -N -n localhost -o %t", &state);
              return state.find("idle") == 0;
            },
            60))
      return "the Slurm node did not become idle (sinfo: " + state + ")\n" + logs();
    return "";
  }

  std::string logs() const {
    std::string s;
    for (const char* f : {"log/slurmctld.log", "log/slurmd.log", "log/slurmctld.out", "log/slurmd.out"})
      s += std::string("--- ") + f + "\n" + read_file(base_ + "/" + f).substr(0, 4000);
    return s;
  }

  // Stops exactly the daemons this object started.
  ~MiniSlurm() {
    for (auto it = pids_.rbegin(); it != pids_.rend(); ++it) {
      pid_t pid = *it;
      if (pid <= 0) continue;
      ::kill(pid, SIGTERM);
      int st = 0;
      bool gone = false;
      for (int i = 0; i < 100 && !gone; ++i) {
        gone = ::waitpid(pid, &st, WNOHANG) == pid;
        if (!gone) std::this_thread::sleep_for(std::chrono::milliseconds(50));
      }
      if (!gone) {
        ::kill(pid, SIGKILL);
        ::waitpid(pid, &st, 0);
      }
    }
    ::unsetenv("SLURM_CONF");
    if (!base_.empty() && !::testing::Test::HasFailure()) fs::remove_all(base_);
  }

 private:
  pid_t spawn(std::vector<std::string> argv, const std::string& log, struct passwd* as = nullptr) {
    std::vector<char*> cargv;
    for (auto& a : argv) cargv.push_back(a.data());
    cargv.push_back(nullptr);
    std::fflush(nullptr);
    pid_t pid = ::fork();
    if (pid != 0) return pid;
    int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) {
      ::dup2(fd, 1);
      ::dup2(fd, 2);
      ::close(fd);
    }
    if (as && (::setgroups(0, nullptr) != 0 || ::setgid(as->pw_gid) != 0 || ::setuid(as->pw_uid) != 0)) ::_exit(126);
    ::execv(cargv[0], cargv.data());
    ::_exit(127);
  }
  template <class F>
  static bool wait_for(F ready, double seconds) {
    auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    while (std::chrono::steady_clock::now() < end) {
      if (ready()) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }
    return ready();
  }

  std::string base_, conf_, socket_;
  std::vector<pid_t> pids_;
};

// Eight short runs: two policies x two seeds x two limits, one of which no run can meet.
std::string write_spec(const std::string& dir) {
  std::string path = dir + "/spec.json";
  std::ofstream(path) << R"({"name": "slurm-vs-local", "base": {"gpu": ")" << source_path("configs/gpu/gtx480.json")
                      << R"(", "workload": ")" << source_path("configs/workloads/compute.json") << R"(",
      "set": ["workload.kernels[0].grid_ctas=30", "workload.kernels[0].insts_per_warp=500"]},
    "axes": [{"name": "policy", "policies": ["baseline", "sm-high"]},
             {"name": "seed", "set": "seed", "values": [1, 2]},
             {"name": "limit", "points": [{"label": "none", "set": ["gpu.sim.max_sim_ms=100"]},
                                          {"label": "tiny", "set": ["gpu.sim.max_sim_ms=0.0001"]}]}]})";
  return path;
}

size_t count_lines(const std::string& s) { return size_t(std::count(s.begin(), s.end(), '\n')); }

}  // namespace

TEST(SweepSlurm, ResultsEqualTheLocalExecutors) {
  MiniSlurm slurm;
  bool skip = false;
  std::string why = slurm.start(&skip);
  if (skip) GTEST_SKIP() << why;
  ASSERT_TRUE(why.empty()) << why;

  std::string dir = gpupm::test::temp_dir("sweep_slurm");
  std::string spec = write_spec(dir);
  std::string log;
  // Through Slurm: 8 array tasks (2 at a time), 4 of which fail.
  int rc = run_gpupm("sweep " + spec + " --out " + dir +
                         "/slurm --executor slurm --slurm-poll 0.3 --slurm-throttle 2 "
                         "--slurm-partition debug --slurm-time 10 --slurm-arg=--nice=0",
                     &log);
  EXPECT_EQ(rc, 1) << log << slurm.logs();
  EXPECT_NE(log.find("submitted Slurm array job"), std::string::npos) << log;
  EXPECT_NE(log.find("8 runs (0 reused, 4 failed)"), std::string::npos) << log;
  EXPECT_NE(log.find("max_sim_ms"), std::string::npos) << log;  // the failed runs' stderr tails
  EXPECT_EQ(count_lines(read_file(dir + "/slurm/slurm/manifest.txt")), 8u);
  // Locally, the same spec.
  EXPECT_EQ(run_gpupm("sweep " + spec + " --out " + dir + "/local --executor local --jobs 2", &log), 1) << log;
  std::string local = read_file(dir + "/local/results.csv");
  ASSERT_EQ(count_lines(local), 9u) << local;
  EXPECT_EQ(read_file(dir + "/slurm/results.csv"), local);
  for (const char* f : {"report.json", "epochs.csv"}) {
    std::istringstream rows(local);
    std::string row;
    std::getline(rows, row);
    while (std::getline(rows, row)) {
      std::string id = row.substr(0, row.find(','));
      std::string a = dir + "/slurm/runs/" + id + "/" + f, b = dir + "/local/runs/" + id + "/" + f;
      EXPECT_EQ(fs::exists(a), fs::exists(b)) << a;
      if (fs::exists(b)) {
        EXPECT_EQ(read_file(a), read_file(b)) << a;
      }
    }
  }
  // Resume through Slurm: only the four failed runs are submitted again.
  EXPECT_EQ(run_gpupm("sweep " + spec + " --out " + dir + "/slurm --executor slurm --slurm-poll 0.3", &log), 1) << log;
  EXPECT_NE(log.find("8 runs (4 reused, 4 failed)"), std::string::npos) << log;
  EXPECT_EQ(count_lines(read_file(dir + "/slurm/slurm/manifest.txt")), 4u);
  EXPECT_EQ(read_file(dir + "/slurm/results.csv"), local);
  // Detached: sbatch returns at once; a job depending on the array writes results.csv.
  EXPECT_EQ(run_gpupm("sweep " + spec + " --out " + dir + "/detached --executor slurm --slurm-detach", &log), 0) << log;
  EXPECT_NE(log.find("submitted collect job"), std::string::npos) << log;
  auto end = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  while (!fs::exists(dir + "/detached/results.csv") && std::chrono::steady_clock::now() < end)
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
  EXPECT_EQ(read_file(dir + "/detached/results.csv"), local) << slurm.logs();
}

// `gpupm experiment` runs through the same runner: one compute kernel's
// 13 simulations as a Slurm array, summarised like the local executor's.
TEST(SweepSlurm, ExperimentRunsOnSlurmToo) {
  MiniSlurm slurm;
  bool skip = false;
  std::string why = slurm.start(&skip);
  if (skip) GTEST_SKIP() << why;
  ASSERT_TRUE(why.empty()) << why;
  std::string dir = gpupm::test::temp_dir("exp_slurm");
  fs::copy_file(source_path("configs/workloads/compute.json"), dir + "/cutcp-1.json");
  std::ofstream(dir + "/exp.json") << R"({"name": "equalizer", "gpu": "configs/gpu/gtx480.json", "suite_dir": ")" << dir
                                   << R"(", "kernels": [{"name": "cutcp-1", "category": "compute"}]})";
  std::string log;
  ASSERT_EQ(run_gpupm("experiment equalizer --config " + dir + "/exp.json --out " + dir +
                          "/slurm --executor slurm "
                          "--slurm-poll 0.3",
                      &log),
            0)
      << log << slurm.logs();
  EXPECT_EQ(count_lines(read_file(dir + "/slurm/slurm/manifest.txt")), 13u);
  ASSERT_EQ(run_gpupm("experiment equalizer --config " + dir + "/exp.json --out " + dir + "/local --jobs 2", &log), 0)
      << log;
  auto kernels = [&](const std::string& d) {
    std::ifstream f(d + "/summary.json");
    return nlohmann::json::parse(f).at("kernels");
  };
  EXPECT_EQ(kernels(dir + "/slurm"), kernels(dir + "/local"));
}
