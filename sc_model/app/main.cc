// gpupm: the command-line program (run, validate, bench).
// Exit status: 0 success, 1 failure during simulation, 2 bad input.
#include "app/commands.h"
#include "app/experiment.h"

#include <CLI/CLI.hpp>
#include <systemc>

#include <cstdlib>
#include <iostream>

int sc_main(int argc, char* argv[]) {
  using namespace gpupm;
  CLI::App app{"gpupm: SystemC/TLM-2.0 virtual platform of GPU power and performance management"};
  app.require_subcommand(1);

  RunOptions run;
  auto* run_cmd = app.add_subcommand("run", "simulate a workload on a GPU config under a policy");
  run_cmd->add_option("--gpu", run.inputs.gpu_file, "GPU config (JSON)")->required();
  run_cmd->add_option("--workload", run.inputs.workload_file, "workload (JSON)")->required();
  run_cmd->add_option("--policy", run.inputs.policy, "policy name")->default_val("baseline");
  run_cmd->add_option("--set", run.inputs.sets, "override path=value (gpu.*, workload.*, policy.*, seed)");
  run_cmd->add_option("--seed", run.seed, "random seed (default: the GPU config's sim.seed)");
  run_cmd->add_option("--vcd", run.vcd, "write a VCD trace of the main signals to FILE");
  run_cmd->add_option("--out", run.out_dir, "output directory (report.json, epochs.csv)")->required();
  run_cmd->add_flag("--quiet", run.quiet, "no progress line");

  std::vector<std::string> files;
  auto* val_cmd = app.add_subcommand("validate", "check GPU configs and workloads without running");
  val_cmd->add_option("files", files, "JSON files")->required();

  BenchOptions bench;
  auto* bench_cmd = app.add_subcommand("bench", "measure simulation speed (each workload in its own process)");
  bench_cmd->add_option("--gpu", bench.gpu_file, "GPU config")->default_val(std::string(GPUPM_SOURCE_DIR) + "/configs/gpu/gtx480.json");
  bench_cmd->add_option("--workload", bench.workloads, "workload(s)");
  bench_cmd->add_option("--repeat", bench.repeat, "runs per workload (the fastest counts)")->default_val(1);
  bench_cmd->add_option("--set", bench.sets, "override path=value");

  ExperimentOptions exp;
  auto* exp_cmd = app.add_subcommand("experiment", "run a seed paper's evaluation (runs in parallel processes)");
  exp_cmd->add_option("name", exp.name, "experiment: equalizer")->required();
  exp_cmd->add_option("--out", exp.out_dir, "output directory (runs/, summary.json, summary.md, plots)")->required();
  exp_cmd->add_option("--jobs", exp.jobs, "parallel simulations")->default_val(1)->check(CLI::Range(1, 256));
  exp_cmd->add_option("--config", exp.config, "experiment config (default configs/experiments/NAME.json)");
  exp_cmd->add_option("--only", exp.only, "run only these kernels")->delimiter(',');

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e);
    return code == 0 ? 0 : 2;
  }
  if (run_cmd->parsed()) {
    if (run_cmd->count("--seed")) run.inputs.seed = run.seed;
    return command_run(run);
  }
  if (val_cmd->parsed()) return command_validate(files);
  if (exp_cmd->parsed()) return command_experiment(exp);
  return command_bench(bench);
}

// Our own main (it takes precedence over libsystemc's) so the banner switch is
// set before SystemC's first use prints it.
int main(int argc, char* argv[]) {
  ::setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  return sc_core::sc_elab_and_sim(argc, argv);
}
