// Program workloads: a CUDA (.cu) or PTX program, its device buffers and its
// launch sequence (the workload contract in docs/real_kernels.md). The
// ProgramHost plays the host program: it owns device memory, initialises the
// buffers, and hands the GWDE one launch at a time (repeat, while_nonzero).
#pragma once

#include "gpupm/program/program_workload_params.h"
#include "gpupm/ptx/ptx.h"
#include "gpupm/sm/sm_config.h"
#include "gpupm/workload/kernel_profile.h"
#include "gpupm/workload/launch_entries.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace gpupm {

struct LaunchSpec {
  std::string kernel;
  ptx::Dim3 grid, block;
  uint32_t shared_bytes = 0;
  std::vector<uint8_t> params;  // the parameter buffer (buffer addresses filled in by the host)
  std::vector<std::pair<uint32_t, size_t>> buffer_args;  // (parameter offset, buffer index)
  uint32_t repeat = 1;
  int while_buffer = -1;  // index into the buffers; -1: no while_nonzero
  uint32_t while_max = 0;
  uint32_t regs_per_thread = 0;  // 0: the PTX estimate
  const ptx::Kernel* entry = nullptr;
  uint32_t max_ctas_per_sm = 0;  // occupancy from threads, shared memory and registers
  uint32_t l1_ways = 0;          // the L1 ways its shared-memory carve-out leaves
  std::string path;              // "launches[i]" for messages
};

// Why launch `l` (its entry, grid, block, shared_bytes and regs_per_thread set)
// cannot run on `sm`: the launch's key ("grid", "block", "shared_bytes") and the
// rule; an empty key if it can, with max_ctas_per_sm and l1_ways then set.
struct LaunchShapeProblem {
  std::string key, what;
};
LaunchShapeProblem fit_launch(const SmConfig& sm, LaunchSpec& l);

class ProgramHost : public LaunchSource, public EntryLaunchSource {
 public:
  ProgramHost(std::string name, std::unique_ptr<ptx::Module> module, std::vector<BufferSpec> buffers,
              std::vector<LaunchSpec> launches, uint32_t first_kernel_index, uint32_t app, uint32_t line_bytes,
              const ptx::RunawayBounds& bounds = {});

  // The next launch, or null when the program is done; asked again after that
  // (a queue pair's re-spawn), the program starts over with its inputs as first loaded.
  std::shared_ptr<const KernelLaunch> next() override;
  size_t planned_launches() const override;
  size_t entry_count() const override { return launches_.size(); }
  void begin_entry(size_t entry) override;
  // Launches of the first run (all so far while it has not started over): a queue pair's pass.
  size_t first_pass_launches() const { return first_pass_ ? first_pass_ : issued_.size(); }
  // Distinct kernels (.entry names) the launches use: each is one kernel to the
  // policies and the report, numbered in order of first launch.
  uint32_t kernel_count() const { return uint32_t(kernel_names_.size()); }

  // Platform data (memory.data "platform", docs/embedding.md#data-through-the-sockets):
  // from now on the program's global memory is `platform` below ptx::kGpuWindow
  // and its kernels run only by begin_kernel_launch (the workload's buffers and
  // launches entries are not used); the module's variables stay the GPU's, at
  // ptx::kGpuWindow. Before the run starts.
  void use_platform_memory(ptx::PlatformMemory* platform, const SmConfig& sm);
  bool platform_data() const { return platform_ != nullptr; }
  // Why a host's kernel launch cannot run: the descriptor's field ("kernel",
  // "grid", "block", "shared_bytes") and the rule; an empty field if it can.
  // Its parameters are the caller's to check (param_bytes).
  LaunchShapeProblem kernel_launch_problem(const KernelLaunchRequest& r) const;
  uint32_t param_bytes(uint32_t kernel) const;  // of kernel `kernel` (< kernel_count())
  // Makes next() hand out `r`'s one launch, then null (r checked by kernel_launch_problem).
  void begin_kernel_launch(const KernelLaunchRequest& r) override;

  // Every buffer as DIR/<name>.npy (creates DIR; none with platform data).
  void dump_buffers(const std::string& dir) const;
  const ptx::Module& module() const { return *module_; }
  // The files the program's results depend on: the source and every init file.
  std::vector<std::string> input_files;
  const std::vector<LaunchSpec>& launches() const { return launches_; }

 private:
  LaunchSpec kernel_launch_spec(const KernelLaunchRequest& r) const;  // r.kernel < kernel_count()
  void init_buffer(size_t i);
  void restart();
  void copied_all_buffers();           // the host wrote every buffer (before the first launch of a pass)
  bool flag_set(size_t buffer) const;  // element 0 of a while_nonzero buffer is non-zero

  std::string name_;
  std::unique_ptr<ptx::Module> module_;
  std::vector<BufferSpec> buffers_;
  std::vector<LaunchSpec> launches_;
  std::vector<uint64_t> addresses_;  // per buffer
  HostCopies copied_;  // what the host wrote since the last launch it handed out (KernelLaunch::host_copies)
  ptx::DeviceMemory memory_;
  uint32_t first_kernel_index_, app_, line_bytes_;
  ptx::RunawayBounds bounds_;
  ptx::PlatformMemory* platform_ = nullptr;           // platform data: the program's global memory
  SmConfig sm_;                                       // platform data: what host launches are fitted to
  std::map<const ptx::Kernel*, uint64_t> code_line_;  // each kernel's code, in lines
  size_t entry_ = 0;                                  // the launches entry being run
  size_t end_entry_ = 0;  // next() stops before this entry (all of them, or one: begin_entry)
  uint32_t done_ = 0;     // launches of that entry handed out so far
  bool awaiting_flag_ = false;
  bool finished_ = false;                  // next() returned null
  size_t first_pass_ = 0;                  // launches of the first run, once started over
  std::vector<uint64_t> code_base_;        // per launches entry, in lines
  std::vector<std::string> kernel_names_;  // in order of first launch
  std::vector<uint32_t> kernel_of_entry_;  // index into kernel_names_
  std::vector<uint32_t> invocations_;      // per kernel: launches handed out
  // Every launch handed out: the run's records point at them until the report is written.
  std::vector<std::shared_ptr<const KernelLaunch>> issued_;
};

// A workload document that runs a program ("program" instead of "kernels").
// (or "apps" whose first entry has a "program").
bool is_program_workload(const Json& doc);

// Parses a program workload document ("program" instead of "kernels"), compiles
// or reads the program, checks every launch against its entry and the SM's
// resources, and returns a one-application workload whose launches come from a
// ProgramHost. `file` is the workload's path (relative paths resolve against
// its folder); `origin` names it in messages; `bounds` limit what each launch
// may execute (gpu.sim); `inputs_dir`, when given, is where its init files are
// instead (a generated scale: program/workload_scale.h). InputError on anything wrong.
Workload load_program_workload(const Json& doc, const std::string& file, const std::string& origin, const SmConfig& sm,
                               const ptx::RunawayBounds& bounds = {}, const std::string& inputs_dir = "");

// The workload's program host (null: a profile workload).
const ProgramHost* program_of(const Workload& w);
// The files every program of the workload reads (run fingerprints).
std::vector<std::string> program_input_files(const Workload& w);
// Every buffer of every program as DIR/<name>.npy (two co-running programs:
// DIR/<app name>/<name>.npy).
void dump_program_buffers(const Workload& w, const std::string& dir);

// How `launch` occupies one SM: the CTAs that fit by threads, shared memory and
// registers, and (a unified L1/shared array) the L1 ways its carve-out leaves.
struct ProgramOccupancy {
  uint32_t ctas = 0;
  uint32_t l1_ways = 0;
};
ProgramOccupancy program_occupancy(const SmConfig& sm, const LaunchSpec& launch);

}  // namespace gpupm
