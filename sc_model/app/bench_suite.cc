// `gpupm bench --real-suite` and `gpupm bench --against REF`: every measurement
// is one `BIN run` process (single-threaded, baseline policy unless --set says
// otherwise), timed by the CPU seconds the kernel accounts to it (user + system,
// its children included), with the simulated cycles and instructions read from
// its report.json. Any gpupm binary has `run`, so a paired run can take today's
// build as the reference; the two binaries alternate program by program, so a
// machine whose load drifts slows both alike and their ratio survives.
#include <sys/resource.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>

#include "gpupm/app/bench_suite.h"
#include "gpupm/common/data_dir.h"
#include "gpupm/common/json_reader.h"
#include "gpupm/common/subprocess.h"
#include "gpupm/experiment/format_stats.h"

namespace gpupm {

namespace fs = std::filesystem;

namespace {

struct Measured {
  bool ok = false;
  double host_s = 0;     // CPU seconds of the whole `run` process
  double sm_cycles = 0;  // SM-domain cycles times the SM count (per-SM cycles)
  double warp_insts = 0;
  std::string error;
};

// argv[0] plus the arguments of one `run` of `workload` writing into `out`.
std::vector<std::string> run_args(const std::string& bin, const BenchOptions& opt, const std::string& workload,
                                  const std::string& out) {
  std::vector<std::string> a = {bin, "run", "--quiet", "--gpu", opt.gpu_file, "--workload", workload, "--out", out};
  for (const std::string& s : opt.sets) a.insert(a.end(), {"--set", s});
  return a;
}

// Starts argv with stdout to /dev/null and stderr to `err_file`; returns the
// wait status and the CPU seconds of the process and its waited-for children.
int run_timed(const std::vector<std::string>& argv, const std::string& err_file, double& cpu_s) {
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  std::fflush(nullptr);
  const pid_t pid = ::fork();
  if (pid == 0) {
    const int null_fd = ::open("/dev/null", O_RDWR);
    const int err_fd = ::open(err_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ::dup2(null_fd, 0);
    ::dup2(null_fd, 1);
    ::dup2(err_fd, 2);
    ::execv(args[0], args.data());
    ::_exit(127);
  }
  int status = 0;
  struct rusage ru {};
  if (pid < 0 || ::wait4(pid, &status, 0, &ru) < 0) return -1;
  cpu_s = cpu_seconds_of(ru);
  return status;
}

std::string tail_of(const std::string& file) {
  std::ifstream in(file);
  std::string line, last;
  while (std::getline(in, line))
    if (!line.empty()) last = line;
  return last;
}

Measured measure_run(const std::string& bin, const BenchOptions& opt, const std::string& workload,
                     const std::string& scratch) {
  Measured m;
  const std::string out = scratch + "/out";
  fs::remove_all(out);
  const int status = run_timed(run_args(bin, opt, workload, out), scratch + "/stderr", m.host_s);
  if (status != 0) {
    m.error = "exit status " + std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1) + ": " +
              tail_of(scratch + "/stderr");
    return m;
  }
  try {
    const Json report = load_json_file(out + "/report.json");
    const Json& total = report.at("total");
    m.sm_cycles =
        total.at("cycles").at("sm").get<double>() * report.at("config").at("gpu").at("sm").at("count").get<double>();
    m.warp_insts = total.at("instructions").get<double>();
    m.ok = true;
  } catch (const std::exception& e) {
    m.error = std::string("report.json: ") + e.what();
  }
  return m;
}

// The seeds' program suites: configs/workloads/cuda/<seed>/<program>/<program>.json.
std::vector<std::pair<std::string, std::string>> real_suite() {
  std::vector<std::pair<std::string, std::string>> programs;  // label seed/program, workload file
  const fs::path root = data_file("configs/workloads/cuda");
  std::error_code ec;
  for (const auto& seed : fs::directory_iterator(root, ec)) {
    if (!seed.is_directory()) continue;
    for (const auto& prog : fs::directory_iterator(seed.path(), ec)) {
      const fs::path file = prog.path() / (prog.path().filename().string() + ".json");
      if (prog.is_directory() && fs::is_regular_file(file))
        programs.push_back({seed.path().filename().string() + "/" + prog.path().filename().string(), file.string()});
    }
  }
  std::sort(programs.begin(), programs.end());
  return programs;
}

// The workloads to measure with their labels: --real-suite (narrowed by
// --programs), else --workload, else the default set.
std::vector<std::pair<std::string, std::string>> chosen(const BenchOptions& opt,
                                                        const std::vector<std::string>& defaults) {
  std::vector<std::pair<std::string, std::string>> all;
  if (!opt.real_suite) {
    for (const std::string& w : opt.workloads.empty() ? defaults : opt.workloads)
      all.push_back({fs::path(w).stem().string(), w});
    return all;
  }
  all = real_suite();
  if (opt.programs.empty()) return all;
  std::vector<std::pair<std::string, std::string>> picked;
  for (const std::string& name : opt.programs) {
    size_t before = picked.size();
    for (const auto& p : all) {  // "kmeans" names it in every suite, "equalizer/kmeans" one
      const std::string program = p.first.substr(p.first.find('/') + 1);
      if (name == p.first || name == program) picked.push_back(p);
    }
    if (picked.size() == before) {
      std::string known;
      for (const auto& p : all) known += (known.empty() ? "" : ", ") + p.first;
      throw InputError("--programs", "", "no real program named '" + name + "'; expected one of: " + known);
    }
  }
  return picked;
}

std::string self_binary() {
  std::error_code ec;
  fs::path p = fs::read_symlink("/proc/self/exe", ec);
  return ec ? std::string("gpupm") : p.string();
}

void check_binary(const std::string& bin, const char* option) {
  if (::access(bin.c_str(), X_OK) != 0 || fs::is_directory(bin))
    throw InputError(option, "", "'" + bin + "' is not an executable file; expected a gpupm binary");
}

// The best (least host time) of `repeat` runs of each binary, alternating.
std::vector<Measured> best_of(const std::vector<std::string>& bins, const BenchOptions& opt, const std::string& w,
                              const std::string& scratch, size_t turn) {
  std::vector<Measured> best(bins.size());
  for (int r = 0; r < std::max(1, opt.repeat); ++r) {
    for (size_t k = 0; k < bins.size(); ++k) {
      const size_t b = (k + turn + size_t(r)) % bins.size();  // who goes first changes every run
      Measured m = measure_run(bins[b], opt, w, scratch);
      if (!m.ok) return {m};
      if (!best[b].ok || m.host_s < best[b].host_s) best[b] = m;
    }
  }
  return best;
}

}  // namespace

int command_bench_processes(const BenchOptions& opt, const std::vector<std::string>& defaults) {
  const bool paired = !opt.against.empty();
  std::vector<std::string> bins = {opt.binary.empty() ? self_binary() : opt.binary};
  check_binary(bins[0], "--binary");
  if (paired) {
    check_binary(opt.against, "--against");
    bins.push_back(opt.against);
  }
  const auto workloads = chosen(opt, defaults);
  // Every input checked before the first measurement: a bad one is exit 2, not a failed run.
  for (const auto& w : workloads) load_standalone_run(bench_inputs(opt, w.second));
  char scratch_tpl[] = "/tmp/gpupm_bench_XXXXXX";
  if (!::mkdtemp(scratch_tpl)) throw std::runtime_error("cannot make a scratch directory in /tmp");
  const std::string scratch = scratch_tpl;

  if (paired)
    std::printf("%-34s %9s %9s %8s %13s %13s\n", "program", "ref_s", "host_s", "speedup", "SM-cycles/s", "warp_inst/s");
  else std::printf("%-34s %9s %13s %13s\n", "program", "host_s", "SM-cycles/s", "warp_inst/s");
  std::vector<double> hosts, refs, speedups, cycle_rates, inst_rates;
  int status = kExitOk;
  for (size_t i = 0; i < workloads.size(); ++i) {
    const auto& [label, file] = workloads[i];
    std::vector<Measured> m = best_of(bins, opt, file, scratch, i);
    if (m.size() < bins.size()) {
      std::cerr << "gpupm: bench of " << label << " failed: " << m[0].error << "\n";
      status = kExitFailure;
      continue;
    }
    const Measured& now = m[0];
    hosts.push_back(now.host_s);
    cycle_rates.push_back(now.sm_cycles / now.host_s);
    inst_rates.push_back(now.warp_insts / now.host_s);
    if (!paired) {
      std::printf("%-34s %9.3f %13.3e %13.3e\n", label.c_str(), now.host_s, cycle_rates.back(), inst_rates.back());
      std::fflush(stdout);
      continue;
    }
    const Measured& ref = m[1];
    // Host time per simulated cycle, so a model change that alters the cycles is still compared fairly.
    const double speedup = (ref.host_s / ref.sm_cycles) / (now.host_s / now.sm_cycles);
    refs.push_back(ref.host_s);
    speedups.push_back(speedup);
    const bool same = ref.sm_cycles == now.sm_cycles && ref.warp_insts == now.warp_insts;
    std::printf("%-34s %9.3f %9.3f %7.3fx %13.3e %13.3e%s\n", label.c_str(), ref.host_s, now.host_s, speedup,
                cycle_rates.back(), inst_rates.back(), same ? "" : "  (cycles or instructions differ)");
    std::fflush(stdout);
  }
  fs::remove_all(scratch);
  if (hosts.size() > 1) {
    if (paired)
      std::printf("%-34s %9.3f %9.3f %7.3fx %13.3e %13.3e\n", "geomean", geomean(refs), geomean(hosts),
                  geomean(speedups), geomean(cycle_rates), geomean(inst_rates));
    else
      std::printf("%-34s %9.3f %13.3e %13.3e\n", "geomean", geomean(hosts), geomean(cycle_rates), geomean(inst_rates));
  }
  return status;
}

}  // namespace gpupm
