// `gpupm bench`: simulation speed. SystemC elaborates once per process, so each
// measurement runs in a forked child that reports back through a pipe.
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>

#include "gpupm/app/bench_suite.h"
#include "gpupm/app/commands.h"
#include "gpupm/common/data_dir.h"
#include "gpupm/app/standalone.h"

namespace gpupm {

RunInputs bench_inputs(const BenchOptions& opt, const std::string& workload) {
  RunInputs in;
  in.gpu_file = opt.gpu_file;
  in.workload_file = workload;
  in.sets = opt.sets;
  return in;
}

namespace {

// A statistical profile with a program run's instruction count, launch shapes
// and instruction mix: what simulating the program costs beyond a profile.
Json profile_of(const Gpu& gpu) {
  const SmCounters& c = gpu.finish().sm;
  const double mem = double(std::max<uint64_t>(1, c.mem_insts));
  Json kernels = Json::array();
  for (const KernelRecord& r : gpu.kernels()) {
    const KernelLaunch& k = *r.launch;
    const uint64_t warps = uint64_t(k.grid_ctas) * k.warps_per_cta;
    kernels.push_back(
        {{"name", k.name + std::to_string(kernels.size())},
         {"grid_ctas", k.grid_ctas},
         {"warps_per_cta", k.warps_per_cta},
         {"max_ctas_per_sm", k.max_ctas_per_sm},
         {"insts_per_warp", std::max<uint64_t>(1, (k.executed_insts + warps / 2) / warps)},
         {"mix",
          {{"alu_per_mem", double(c.alu_insts + c.sfu_insts) / mem},
           {"sfu_fraction", double(c.sfu_insts) / double(std::max<uint64_t>(1, c.alu_insts + c.sfu_insts))},
           {"store_fraction", double(c.lsu.stores) / mem}}}});
  }
  return {{"name", "profile"}, {"kernels", kernels}};
}

Json measure_in_child(const BenchOptions& opt, const std::string& workload) {
  prepare_systemc();
  LoadedRun run = load_standalone_run(bench_inputs(opt, workload));
  Gpu gpu("gpu", run.gpu, run.workload, std::move(run.policy));
  auto t0 = std::chrono::steady_clock::now();
  bool done = run_alone(gpu);
  double host = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const Snapshot& s = gpu.finish();
  Json out = {{"done", done},
              {"host_s", host},
              {"sm_domain_cycles", s.sm_cycles},
              {"sm_cycles", s.sm.cycles},
              {"ticks_run", gpu.sm_ticks_run()},
              {"warp_instructions", s.sm.insts}};
  if (!run.workload.apps.empty() && run.workload.apps[0].source) out["profile"] = profile_of(gpu);
  return out;
}

bool run_child(const BenchOptions& opt, const std::string& workload, Json& out) {
  int fds[2];
  if (::pipe(fds) != 0) return false;
  std::fflush(nullptr);
  pid_t pid = ::fork();
  if (pid == 0) {
    ::close(fds[0]);
    std::string text;
    try {
      text = measure_in_child(opt, workload).dump();
    } catch (const std::exception& e) {
      text = Json{{"error", e.what()}}.dump();
    }
    ssize_t n = ::write(fds[1], text.data(), text.size());
    ::_exit(n == ssize_t(text.size()) ? 0 : 1);
  }
  ::close(fds[1]);
  std::string text;
  char buf[4096];
  ssize_t n;
  while ((n = ::read(fds[0], buf, sizeof buf)) > 0) text.append(buf, size_t(n));
  ::close(fds[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  try {
    out = Json::parse(text);
  } catch (const Json::parse_error&) {
    return false;
  }
  return !out.contains("error");
}

}  // namespace

int command_bench(const BenchOptions& opt) {
  std::vector<std::string> defaults;
  for (const char* w : {"compute", "streaming", "cache_sensitive"})
    defaults.push_back(data_file("configs/workloads/") + w + ".json");
  // Real kernels (PTX executed with the timing model): compute, copy, divergent.
  for (const char* p : {"fma_loop", "stream_copy", "particle_filter"})
    defaults.push_back(data_file("configs/workloads/cuda/") + p + "/" + p + ".json");
  if (!opt.programs.empty() && !opt.real_suite)
    throw InputError("--programs", "", "names programs of the real suite; expected --real-suite with it");
  if (opt.real_suite && !opt.workloads.empty())
    throw InputError("--workload", "", "expected either --workload or --real-suite, not both");
  if (opt.real_suite || !opt.against.empty() || !opt.binary.empty()) return command_bench_processes(opt, defaults);
  const std::vector<std::string>& workloads = opt.workloads.empty() ? defaults : opt.workloads;
  // Every input checked before the first measurement: a bad one is exit 2, not a failed child.
  for (const std::string& w : workloads) load_standalone_run(bench_inputs(opt, w));
  std::printf("%-28s %10s %14s %14s %14s %11s\n", "workload", "host_s", "SM-cycles/s", "domain_cyc/s", "warp_inst/s",
              "vs_profile");
  int status = kExitOk;
  for (const std::string& w : workloads) {
    Json best;
    for (int r = 0; r < std::max(1, opt.repeat); ++r) {
      Json res;
      if (!run_child(opt, w, res)) {
        std::cerr << "gpupm: bench of " << w
                  << " failed: " << (res.contains("error") ? res["error"].dump() : "child died") << "\n";
        status = kExitFailure;
        break;
      }
      if (best.is_null() || res["host_s"].get<double>() < best["host_s"].get<double>()) best = res;
    }
    if (best.is_null()) continue;
    double host = best["host_s"].get<double>();
    std::string name = w.substr(w.find_last_of('/') + 1);
    // A program: its host time over that of a profile with the same instructions.
    std::string ratio = "-";
    if (best.contains("profile")) {
      const std::string file = "/tmp/gpupm_bench_profile_" + std::to_string(::getpid()) + ".json";
      std::ofstream(file) << best["profile"].dump();
      Json prof;
      if (run_child(opt, file, prof)) ratio = std::to_string(host / prof["host_s"].get<double>()).substr(0, 5) + "x";
      std::remove(file.c_str());
    }
    std::printf("%-28s %10.3f %14.3e %14.3e %14.3e %11s\n", name.c_str(), host, best["sm_cycles"].get<double>() / host,
                best["sm_domain_cycles"].get<double>() / host, best["warp_instructions"].get<double>() / host,
                ratio.c_str());
  }
  return status;
}

}  // namespace gpupm
