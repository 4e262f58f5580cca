#pragma once

#include "gpupm/platform/run_setup.h"

#include <string>
#include <vector>

namespace gpupm {

struct RunOptions {
  RunInputs inputs;
  std::string seed;                  // --seed as given: checked by parse_uint64_option
  std::string vcd;                   // VCD trace file (empty: none)
  uint64_t trace_period_cycles = 0;  // 0: every warp-state sample (sim.sample_period)
  bool sm_csv = false;               // also write sm_epochs.csv (per-SM power and energy per epoch)
  std::string out_dir;
  bool quiet = false;
  std::string dump_buffers;  // program workloads: every buffer after the last launch (DIR/<name>.npy)
  std::string dump_inputs;   // program workloads: every buffer before the first launch
};

struct BenchOptions {
  std::string gpu_file;
  std::vector<std::string> workloads;
  std::vector<std::string> sets;
  int repeat = 1;
  bool real_suite = false;            // every program of configs/workloads/cuda/<seed>/, one `run` process each
  std::vector<std::string> programs;  // --real-suite: only these (program or seed/program)
  std::string against;                // paired: the reference binary, run alternately with `binary`
  std::string binary;                 // the binary measured by process (empty: this one)
};

int command_run(const RunOptions& opt);
int command_validate(const std::vector<std::string>& files, const std::string& scale = "ci");
int command_bench(const BenchOptions& opt);
int command_ptx(const std::string& file);  // kernels, parameters and opcode families of a .ptx or .cu

// A non-negative integer option (`--seed 42`); InputError naming the option otherwise.
uint64_t parse_uint64_option(const std::string& option, const std::string& text);

// Exit statuses.
constexpr int kExitOk = 0, kExitFailure = 1, kExitBadInput = 2;

}  // namespace gpupm
