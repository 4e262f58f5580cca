#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <iostream>

#include "app/commands.h"
#include "platform/gpu.h"
#include "program/program_workload.h"
#include "report/report_writer.h"

namespace gpupm {

namespace {

class Progress {
 public:
  explicit Progress(bool on) : on_(on), t0_(clock::now()), last_(t0_) {}
  void update(const Gpu& gpu) {
    if (!on_) return;
    auto now = clock::now();
    if (now - last_ < std::chrono::milliseconds(250)) return;
    last_ = now;
    double host = std::chrono::duration<double>(now - t0_).count();
    double speed = double(gpu.sm_clock().cycles_elapsed()) / host;
    std::fprintf(stderr, "\r[gpupm] kernel %zu/%zu  sim %.1f us  %.2f M SM-domain cycles/s   ",
                 std::min(gpu.kernels_done() + 1, gpu.kernels_total()), gpu.kernels_total(),
                 sc_core::sc_time_stamp().to_seconds() * 1e6, speed / 1e6);
    shown_ = true;
  }
  ~Progress() {
    if (shown_) std::fprintf(stderr, "\n");
  }

 private:
  using clock = std::chrono::steady_clock;
  bool on_;
  bool shown_ = false;
  clock::time_point t0_, last_;
};

}  // namespace

int command_run(const RunOptions& opt) {
  prepare_systemc();
  LoadedRun run;
  try {
    run = load_run(opt.inputs);
    if ((!opt.dump_buffers.empty() || !opt.dump_inputs.empty()) && !program_of(run.workload))
      throw InputError("--dump-buffers/--dump-inputs", "", "only program workloads (\"program\") have buffers");
    prepare_output_dir(opt.out_dir);
    if (!opt.dump_inputs.empty()) dump_program_buffers(run.workload, opt.dump_inputs);
  } catch (const InputError& e) {
    std::cerr << "gpupm: error: " << e.what() << "\n";
    return kExitBadInput;
  }
  try {
    Gpu gpu("gpu", run.gpu, run.workload, std::move(run.policy));
    if (!opt.vcd.empty()) {
      std::string base = opt.vcd;
      if (base.size() > 4 && base.substr(base.size() - 4) == ".vcd") base.resize(base.size() - 4);
      gpu.trace_to(base);
    }
    Progress progress(!opt.quiet && ::isatty(2));
    gpu.on_epoch = [&](const Gpu& g) { progress.update(g); };
    if (!gpu.run()) {
      std::cerr << "gpupm: error: the workload did not finish within sim.max_sim_ms = " << run.gpu.sim.max_sim_ms
                << " ms of simulated time; nothing written\n";
      return kExitFailure;
    }
    Json report = build_report(gpu, run.doc);
    std::vector<std::pair<std::string, std::string>> outputs = {{"epochs.csv", build_epochs_csv(gpu, run.gpu.dvfs)}};
    if (gpu.pdn() && !gpu.pdn()->stats().trace_csv().empty())  // gpu.pdn.stats.trace_cycles
      outputs.push_back({"pdn_trace.csv", gpu.pdn()->stats().trace_csv()});
    outputs.push_back({"report.json", report.dump(2) + "\n"});  // renamed last: its presence marks a complete run
    if (!opt.dump_buffers.empty()) dump_program_buffers(run.workload, opt.dump_buffers);
    write_outputs(opt.out_dir, outputs);
    std::cout << summary_table(report);
    if (const PdnDriver* pdn = gpu.pdn()) {
      const DroopStats& d = pdn->stats();
      std::printf("voltage noise: worst droop %.2f%% (SM %u, cycle %llu), %llu emergencies > %.1f%%, "
                  "%llu PDN cycles\n",
                  d.worst_droop() * 100, d.worst_sm(), (unsigned long long)d.worst_cycle(),
                  (unsigned long long)d.emergencies(), run.gpu.pdn.stats.margin * 100,
                  (unsigned long long)pdn->steps());
    }
    std::cout << "report: " << opt.out_dir << "/report.json  epochs: " << opt.out_dir << "/epochs.csv\n";
  } catch (const InputError& e) {
    std::cerr << "gpupm: error: " << e.what() << "\n";
    return kExitBadInput;
  } catch (const std::exception& e) {
    std::cerr << "gpupm: simulation failed: " << e.what() << "\n";
    return kExitFailure;
  }
  return kExitOk;
}

int command_validate(const std::vector<std::string>& files) {
  int status = kExitOk;
  for (const std::string& f : files) {
    try {
      std::string kind = validate_file(f);
      std::cout << f << ": ok (" << kind << ")\n";
    } catch (const InputError& e) {
      std::cerr << "gpupm: error: " << e.what() << "\n";
      status = kExitBadInput;
    }
  }
  return status;
}

}  // namespace gpupm
