// gpupm: the command-line program (run, validate, bench, experiment, sweep, policies, ...).
// Exit status: 0 success, 1 failure during simulation, 2 bad input.
#include "gpupm/app/commands.h"
#include "gpupm/common/build_info.h"
#include "gpupm/common/data_dir.h"
#include "gpupm/app/impedance_command.h"
#include "gpupm/app/params_command.h"
#include "gpupm/app/policies_command.h"
#include "gpupm/app/sweep_command.h"
#include "gpupm/experiment/registry.h"
#include "gpupm/program/cuda_compiler.h"
#include "gpupm/program/workload_scale.h"

#include <CLI/CLI.hpp>
#include <systemc>

#include <algorithm>
#include <cstdlib>
#include <iostream>

namespace {

// --scale on run, validate, sweep and experiment (program/workload_scale.h).
void add_scale_option(CLI::App* cmd, std::string& scale) {
  cmd->add_option("--scale", scale,
                  "program inputs: ci (the committed ones) or paper (the seed paper's, generated on first use into "
                  "${GPUPM_CACHE_DIR:-${XDG_CACHE_HOME:-~/.cache}/gpupm}/inputs)")
      ->default_val("ci")
      ->check(CLI::IsMember(gpupm::scale_names()));
}

}  // namespace

int sc_main(int argc, char* argv[]) {
  using namespace gpupm;
  if (int status = preload_plugins(argc, argv)) return status;
  CLI::App app{"gpupm: SystemC/TLM-2.0 virtual platform of GPU power and performance management"};
  app.require_subcommand(1);
  // A function, so clang starts only when --version is asked for.
  app.set_version_flag(
      "--version",
      [] {
        return std::string("gpupm ") + gpupm_version() + " (build " + gpupm_build_id() +
               ")\nCUDA clang: " + cuda_clang_summary();
      },
      "print the version (git describe when built), the build id (a hash of the model's sources) and the clang "
      "CUDA programs compile with (their PTX, and so their results, depend on its version)");

  RunOptions run;
  auto* run_cmd = app.add_subcommand("run", "simulate a workload on a GPU config under a policy");
  run_cmd->add_option("--gpu", run.inputs.gpu_file, "GPU config (JSON)")->required();
  run_cmd->add_option("--workload", run.inputs.workload_file, "workload (JSON)")->required();
  run_cmd
      ->add_option("--policy", run.inputs.policy,
                   "policy: " + policy_name_list() + " (gpupm policies says what each does)")
      ->default_val("baseline");
  std::vector<std::string> run_plugins;  // loaded by preload_plugins
  add_plugin_option(run_cmd, run_plugins);
  run_cmd->add_option("--set", run.inputs.sets, "override path=value (gpu.*, workload.*, policy.*, seed)");
  run_cmd->add_option("--seed", run.seed, "random seed (default: the GPU config's sim.seed)");
  run_cmd->add_option("--vcd", run.vcd, "write a VCD trace (per-SM warps, CTAs, power; V/F, voltages, kernel) to FILE");
  run_cmd->add_option("--trace-period-cycles", run.trace_period_cycles,
                      "VCD sample period in SM cycles, a multiple of gpu.sim.sample_period (default: that period)");
  run_cmd->add_flag("--sm-csv", run.sm_csv, "also write sm_epochs.csv: per-SM power and energy per epoch");
  run_cmd->add_option("--out", run.out_dir, "output directory (report.json, epochs.csv)")->required();
  run_cmd->add_flag("--quiet", run.quiet, "no progress line");
  run_cmd->add_option("--dump-buffers", run.dump_buffers,
                      "program workloads: write every buffer after the last launch as DIR/<name>.npy");
  run_cmd->add_option("--dump-inputs", run.dump_inputs,
                      "program workloads: write every buffer before the first launch as DIR/<name>.npy");
  run_cmd->add_option("--pdn", run.inputs.pdn_file,
                      "power-delivery network package (configs/pdn/*.json): RLC network on");
  add_scale_option(run_cmd, run.inputs.scale);

  std::vector<std::string> files;
  auto* val_cmd = app.add_subcommand("validate", "check GPU configs and workloads without running");
  val_cmd->add_option("files", files, "JSON files")->required();
  std::string validate_scale;
  add_scale_option(val_cmd, validate_scale);

  BenchOptions bench;
  auto* bench_cmd = app.add_subcommand("bench", "measure simulation speed (each workload in its own process)");
  bench_cmd->add_option("--gpu", bench.gpu_file, "GPU config")->default_val(data_file("configs/gpu/gtx480.json"));
  bench_cmd->add_option("--workload", bench.workloads, "workload(s)");
  bench_cmd->add_option("--repeat", bench.repeat, "runs per workload (the fastest counts)")
      ->default_val(1)
      ->check(CLI::Range(1, 1000));
  bench_cmd->add_option("--set", bench.sets, "override path=value");
  bench_cmd->add_flag("--real-suite", bench.real_suite,
                      "every program of configs/workloads/cuda/<seed>/ (each a `run` process: CPU seconds, "
                      "SM-cycles/s, warp instructions/s, geomean)");
  bench_cmd->add_option("--programs", bench.programs, "--real-suite: only these (e.g. kmeans,harmonia/lud)")
      ->delimiter(',');
  bench_cmd->add_option("--against", bench.against,
                        "paired: also run this reference gpupm binary, alternating per program; prints the "
                        "speed-up (its host time per SM cycle over ours) and the geomean");
  bench_cmd->add_option("--binary", bench.binary,
                        "with --real-suite or --against: measure this binary instead of this one");

  ExperimentOptions exp;
  auto* exp_cmd = app.add_subcommand("experiment", "run a seed paper's evaluation (runs in parallel processes)");
  exp_cmd->add_option("name", exp.name, "experiment: " + experiment_names())->required();
  exp_cmd->add_option("--out", exp.out_dir, "output directory (runs/, summary.json, summary.md, plots)")->required();
  exp_cmd->add_option("--jobs", exp.exec.jobs, "parallel simulations (local executor; default: the number of cores)")
      ->default_val(0)
      ->check(CLI::Range(0, 256));
  exp_cmd->add_option("--config", exp.config,
                      "experiment config (default configs/experiments/NAME.json; --suite real: NAME_real.json)");
  exp_cmd->add_option("--suite", exp.suite,
                      "synthetic (kernel profiles, the default) or real (CUDA programs, configs/workloads/cuda/)");
  exp_cmd->add_option("--only", exp.only, "run only these kernels or programs (sm-allocation: these queues)")
      ->delimiter(',');
  exp_cmd->add_option("--set", exp.sets, "PATH=VALUE for every run, e.g. gpu.controller_impl=lockstep");
  add_scale_option(exp_cmd, exp.scale);
  add_executor_options(exp_cmd, exp.exec);

  SweepOptions sweep;
  auto* sweep_cmd =
      app.add_subcommand("sweep", "run a design-space sweep (SPEC.json: base, axes) into DIR/results.csv");
  sweep_cmd->add_option("spec", sweep.spec_file, "sweep spec (JSON)")->required();
  sweep_cmd->add_option("--out", sweep.out_dir, "output directory (runs/<id>/, results.csv, sweep.json)")->required();
  sweep_cmd
      ->add_option("--jobs", sweep.exec.jobs, "parallel simulations (local executor; default: the number of cores)")
      ->default_val(0)
      ->check(CLI::Range(0, 256));
  add_executor_options(sweep_cmd, sweep.exec);
  sweep_cmd->add_flag("--slurm-detach", sweep.slurm_detach,
                      "slurm: return after submitting; a dependent job (afterany) writes results.csv");
  sweep_cmd->add_flag("--collect-only", sweep.collect_only, "run nothing; write results.csv from DIR/runs/");
  add_scale_option(sweep_cmd, sweep.scale);

  std::string ptx_file;
  auto* ptx_cmd = app.add_subcommand("ptx", "list a program's kernels, parameters and opcode families (.ptx or .cu)");
  ptx_cmd->add_option("file", ptx_file, "PTX or CUDA file")->required();

  ImpedanceOptions imp;
  auto* imp_cmd = app.add_subcommand("impedance", "print and plot the PDN impedance profile |Z(f)| and its resonances");
  imp_cmd->add_option("--gpu", imp.gpu_file, "GPU config (JSON)")->required();
  imp_cmd->add_option("--pdn", imp.pdn_file, "package (configs/pdn/*.json; default: the config's pdn.network)");
  imp_cmd->add_option("--out", imp.out_dir, "write impedance.csv, impedance.json and impedance.png here");
  imp_cmd->add_option("--set", imp.sets,
                      "override path=value in the GPU config (with --pdn: e.g. pdn.network.scale=0.5)");
  imp_cmd->add_option("--fmin", imp.f_min, "lowest frequency (Hz)")->default_val(1e4);
  imp_cmd->add_option("--fmax", imp.f_max, "highest frequency (Hz)")->default_val(1e9);
  imp_cmd->add_option("--per-decade", imp.per_decade, "points per decade")->default_val(100);

  std::vector<std::string> listed_plugins;  // loaded by preload_plugins
  auto* policies_cmd =
      app.add_subcommand("policies", "list the policies --policy accepts (with --plugin: a plugin's too)");
  add_plugin_option(policies_cmd, listed_plugins);

  ParamsOptions params;
  CLI::App* params_cmd = add_params_command(app, params);

  // CLI11 takes an unknown first word for a positional and only says a subcommand is required.
  const std::vector<CLI::App*> commands = app.get_subcommands({});
  if (argc > 1 && argv[1][0] != '-' &&
      std::none_of(commands.begin(), commands.end(), [&](CLI::App* c) { return c->check_name(argv[1]); })) {
    std::string names;
    for (const CLI::App* c : commands) names += (names.empty() ? "" : ", ") + c->get_name();
    std::cerr << "gpupm: error: unknown command '" << argv[1] << "'; expected one of: " << names << "\n";
    return kExitBadInput;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e);
    return code == 0 ? 0 : 2;
  }
  // Each command reports its own errors; this is the net for what escapes one
  // (bad input: 2; anything else, e.g. sbatch missing or a full disk: 1).
  try {
    if (run_cmd->parsed()) {
      if (run_cmd->count("--seed")) run.inputs.seed = parse_uint64_option("--seed", run.seed);
      return command_run(run);
    }
    if (val_cmd->parsed()) return command_validate(files, validate_scale);
    if (policies_cmd->parsed()) return command_policies();
    if (params_cmd->parsed()) return command_params(params);
    if (imp_cmd->parsed()) return command_impedance(imp);
    if (ptx_cmd->parsed()) return command_ptx(ptx_file);
    if (exp_cmd->parsed()) return command_experiment(exp);
    if (sweep_cmd->parsed()) return command_sweep(sweep);
    return command_bench(bench);
  } catch (const InputError& e) {
    std::cerr << "gpupm: error: " << e.what() << "\n";
    return kExitBadInput;
  } catch (const std::exception& e) {
    std::cerr << "gpupm: error: " << e.what() << "\n";
    return kExitFailure;
  }
}

// Our own main (it takes precedence over libsystemc's) so the banner switch is
// set before SystemC's first use prints it.
int main(int argc, char* argv[]) {
  ::setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  return sc_core::sc_elab_and_sim(argc, argv);
}
