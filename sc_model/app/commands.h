#pragma once

#include "platform/run_setup.h"

#include <string>
#include <vector>

namespace gpupm {

struct RunOptions {
  RunInputs inputs;
  uint64_t seed = 0;
  std::string vcd;                 // VCD trace file (empty: none)
  uint64_t trace_period_cycles = 0;  // 0: every warp-state sample (sim.sample_period)
  bool sm_csv = false;             // also write sm_epochs.csv (per-SM power and energy per epoch)
  std::string out_dir;
  bool quiet = false;
};

struct BenchOptions {
  std::string gpu_file;
  std::vector<std::string> workloads;
  std::vector<std::string> sets;
  int repeat = 1;
};

int command_run(const RunOptions& opt);
int command_validate(const std::vector<std::string>& files);
int command_bench(const BenchOptions& opt);

// Exit statuses.
constexpr int kExitOk = 0, kExitFailure = 1, kExitBadInput = 2;

}  // namespace gpupm
