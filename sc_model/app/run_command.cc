#include <limits.h>
#include <unistd.h>

#include <cerrno>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>

#include "gpupm/app/commands.h"
#include "gpupm/experiment/registry.h"
#include "gpupm/app/standalone.h"
#include "gpupm/common/controller_impl.h"
#include "gpupm/program/program_workload.h"
#include "gpupm/report/report_writer.h"
#include "gpupm/sweep/sweep_spec.h"

namespace gpupm {

namespace {

// The progress line on stderr (not with --quiet): on a terminal redrawn in
// place 4 times a second; otherwise (a log) one line every 30 s of host time,
// so a long run shows it is alive and how far it is.
class Progress {
 public:
  Progress(bool on, bool terminal)
      : on_(on),
        terminal_(terminal),
        t0_(clock::now()),
        last_(t0_),
        every_(terminal ? std::chrono::milliseconds(250) : std::chrono::milliseconds(30000)) {}
  void update(const Gpu& gpu) {
    if (!on_) return;
    auto now = clock::now();
    if (now - last_ < every_) return;
    last_ = now;
    double host = std::chrono::duration<double>(now - t0_).count();
    double speed = double(gpu.sm_clock().cycles_elapsed()) / host;
    std::fprintf(stderr, "%s[gpupm] %.0f s: kernel %zu/%zu  sim %.1f us  %.2f M SM-domain cycles/s%s%s",
                 terminal_ ? "\r" : "", host, std::min(gpu.kernels_done() + 1, gpu.kernels_total()),
                 gpu.kernels_total(), sc_core::sc_time_stamp().to_seconds() * 1e6, speed / 1e6,
                 budget_used(gpu).c_str(), terminal_ ? "   " : "\n");
    shown_ = terminal_;
  }
  ~Progress() {
    if (shown_) std::fprintf(stderr, "\n");
  }

 private:
  using clock = std::chrono::steady_clock;
  // A program launch's share of its instruction budget (gpu.sim.warp_insts_per_grid_warp): a runaway nears 100%.
  static std::string budget_used(const Gpu& gpu) {
    for (const KernelRecord& r : gpu.running_kernels())
      if (const ptx::LaunchState* p = r.launch->program.get()) {
        char text[96];
        std::snprintf(text, sizeof text, "  %.3g M warp instructions (%.1f%% of its budget)", double(p->executed) / 1e6,
                      100.0 * double(p->executed) / double(p->max_launch_insts));
        return text;
      }
    return "";
  }
  bool on_, terminal_;
  bool shown_ = false;
  clock::time_point t0_, last_;
  std::chrono::milliseconds every_;
};

// --vcd and --trace-period-cycles, checked before anything runs (InputError: exit 2).
void check_trace_options(const RunOptions& opt, const GpuConfig& gpu) {
  namespace fs = std::filesystem;
  if (opt.vcd.empty()) {
    if (opt.trace_period_cycles) throw InputError("--trace-period-cycles", "", "only with --vcd FILE");
    return;
  }
  const fs::path file(opt.vcd);
  const fs::path dir = file.has_parent_path() ? file.parent_path() : fs::path(".");
  auto refuse = [&](const std::string& problem) {
    throw InputError("--vcd", opt.vcd, problem + "; expected a file path in an existing, writable directory");
  };
  std::error_code ec;
  if (fs::is_directory(file, ec) || !file.has_filename()) refuse("is a directory");
  // A device or FIFO would be replaced by the final rename.
  if (fs::exists(file, ec) && !fs::is_regular_file(file, ec)) refuse("is not a regular file");
  if (file.filename().string().size() > NAME_MAX)
    refuse("its name is longer than " + std::to_string(NAME_MAX) + " bytes (File name too long)");
  if (!fs::exists(dir, ec) && ec.value() != ENOTDIR) refuse("directory " + dir.string() + " does not exist");
  if (const std::string why = output_dir_problem(dir.string()); !why.empty())
    refuse("directory " + dir.string() + ": " + why);
  const uint64_t p = opt.trace_period_cycles;
  if (p && p % gpu.sim.sample_period != 0)
    throw InputError(
        "--trace-period-cycles", std::to_string(p),
        "expected a positive multiple of gpu.sim.sample_period (" + std::to_string(gpu.sim.sample_period) + ")");
}

// A droop beyond the supply itself (a node below 0 V) is no result: the linear
// RLC model has left the range where it means anything (e.g. pdn.network.scale
// near its top, 1000). The run fails (exit 1) rather than report it.
void refuse_impossible_droop(const Gpu& gpu, const GpuConfig& cfg) {
  const PdnDriver* pdn = gpu.pdn();
  if (!pdn || !(pdn->stats().worst_droop() > 1.0)) return;
  char text[320];
  std::snprintf(text, sizeof text,
                "worst droop %.2f%% of the supply (SM %u, cycle %llu) exceeds 100%%: physically impossible, the "
                "linear PDN model is outside its range (pdn.network.scale %.4g); expected a network whose droop "
                "stays below the supply; nothing written",
                pdn->stats().worst_droop() * 100, pdn->stats().worst_sm(),
                (unsigned long long)pdn->stats().worst_cycle(), cfg.pdn.network.scale);
  throw std::runtime_error(text);
}

// What a failed run prints: a lockstep mismatch (an sc_report of the model's)
// its cause alone, one line; anything else as it comes.
std::string failure_line(const std::exception& e) {
  const auto* r = dynamic_cast<const sc_core::sc_report*>(&e);
  if (r && std::string(r->get_msg_type()) == kLockstepReportId) return std::string("gpupm: error: ") + r->get_msg();
  return std::string("gpupm: simulation failed: ") + e.what();
}

}  // namespace

uint64_t parse_uint64_option(const std::string& option, const std::string& text) {
  const bool digits = !text.empty() && text.size() <= 20 && text.find_first_not_of("0123456789") == std::string::npos;
  // 20 digits may still exceed 2^64 - 1: compare as text of equal length.
  const std::string max = std::to_string(UINT64_MAX);
  if (!digits || (text.size() == max.size() && text > max))
    throw InputError(option, text, "expected an integer in [0, " + max + "]");
  return std::stoull(text);
}

int command_run(const RunOptions& opt) {
  prepare_systemc();
  LoadedRun run;
  try {
    run = load_standalone_run(opt.inputs);
    if ((!opt.dump_buffers.empty() || !opt.dump_inputs.empty()) && !program_of(run.workload))
      throw InputError("--dump-buffers/--dump-inputs", "", "only program workloads (\"program\") have buffers");
    check_trace_options(opt, run.gpu);
    if (!opt.dump_buffers.empty()) check_output_dir("--dump-buffers", opt.dump_buffers);
    if (!opt.dump_inputs.empty()) check_output_dir("--dump-inputs", opt.dump_inputs);
    prepare_output_dir(opt.out_dir);
    if (!opt.dump_inputs.empty()) dump_program_buffers(run.workload, opt.dump_inputs);
  } catch (const InputError& e) {
    std::cerr << "gpupm: error: " << e.what() << "\n";
    return kExitBadInput;
  }
  try {
    Gpu gpu("gpu", run.gpu, run.workload, std::move(run.policy));
    if (!opt.vcd.empty())
      gpu.trace_to(opt.vcd, opt.trace_period_cycles ? opt.trace_period_cycles : run.gpu.sim.sample_period);
    Progress progress(!opt.quiet, ::isatty(2));
    gpu.on_epoch = [&](const Gpu& g) { progress.update(g); };
    bool finished = false;
    try {
      finished = run_alone(gpu);
    } catch (const SimulationFailure& e) {  // a runaway may be what others wait for at a barrier
      const std::string waiting = gpu.barrier_state();
      if (waiting.empty()) throw;
      throw SimulationFailure(std::string(e.what()) + " (" + waiting + ")");
    }
    if (!finished) {
      const std::string state = gpu.unfinished_state();
      std::cerr << "gpupm: error: the workload did not finish within sim.max_sim_ms = " << run.gpu.sim.max_sim_ms
                << " ms of simulated time" << (state.empty() ? "" : " (" + state + ")") << "; nothing written\n";
      return kExitFailure;
    }
    refuse_impossible_droop(gpu, run.gpu);
    Json report = build_report(gpu, run.doc);
    if (!run.scale.is_null()) report["scale"] = run.scale;  // absent: ci
    std::vector<std::pair<std::string, std::string>> outputs = {{"epochs.csv", build_epochs_csv(gpu, run.gpu.dvfs)}};
    if (opt.sm_csv) outputs.push_back({"sm_epochs.csv", build_sm_epochs_csv(gpu)});
    if (gpu.pdn() && !gpu.pdn()->stats().trace_csv().empty())  // gpu.pdn.stats.trace_cycles
      outputs.push_back({"pdn_trace.csv", gpu.pdn()->stats().trace_csv()});
    outputs.push_back({"report.json", report.dump(2) + "\n"});  // renamed last: its presence marks a complete run
    if (!opt.dump_buffers.empty()) dump_program_buffers(run.workload, opt.dump_buffers);
    gpu.finish_trace();  // renamed into place before the outputs: report.json last marks a complete run
    try {
      write_outputs(opt.out_dir, outputs);
    } catch (...) {
      if (!opt.vcd.empty()) std::remove(opt.vcd.c_str());
      throw;
    }
    std::cout << summary_table(report);
    if (const PdnDriver* pdn = gpu.pdn()) {
      const DroopStats& d = pdn->stats();
      std::printf(
          "voltage noise: worst droop %.2f%% (SM %u, cycle %llu), %llu emergencies > %.1f%%, "
          "%llu PDN cycles\n",
          d.worst_droop() * 100, d.worst_sm(), (unsigned long long)d.worst_cycle(), (unsigned long long)d.emergencies(),
          run.gpu.pdn.stats.margin * 100, (unsigned long long)pdn->steps());
    }
    std::cout << "report: " << opt.out_dir << "/report.json  epochs: " << opt.out_dir << "/epochs.csv\n";
  } catch (const InputError& e) {
    std::cerr << "gpupm: error: " << e.what() << "\n";
    return kExitBadInput;
  } catch (const std::exception& e) {
    std::cerr << failure_line(e) << "\n";
    return kExitFailure;
  }
  return kExitOk;
}

namespace {

// What kind of input a file is, checked by the reader of the command that takes it.
std::string validate_any_input(const std::string& file, const std::string& scale) {
  const Json doc = load_json_file(file);
  if (doc.is_object() && doc.contains("base") && doc.contains("axes")) {
    load_sweep_spec(file, scale);
    return "sweep spec";
  }
  if (doc.is_object() && doc.contains("suite_dir"))
    return "experiment config, " + validate_experiment_config(file, scale);
  return validate_file(file, scale);
}

}  // namespace

int command_validate(const std::vector<std::string>& files, const std::string& scale) {
  int status = kExitOk;
  for (const std::string& f : files) {
    try {
      std::string kind = validate_any_input(f, scale);
      std::cout << f << ": ok (" << kind << ")\n";
    } catch (const InputError& e) {
      std::cerr << "gpupm: error: " << e.what() << "\n";
      status = kExitBadInput;
    }
  }
  return status;
}

}  // namespace gpupm
