#include "gpupm/app/sweep_command.h"

#include <unistd.h>

#include <CLI/CLI.hpp>

#include <filesystem>
#include <iostream>
#include <map>

#include "gpupm/app/commands.h"
#include "gpupm/app/policies_command.h"
#include "gpupm/sweep/run_executor.h"
#include "gpupm/report/report_writer.h"
#include "gpupm/sweep/sweep_results.h"
#include "gpupm/sweep/sweep_spec.h"

namespace gpupm {

namespace fs = std::filesystem;

void add_executor_options(CLI::App* cmd, ExecutorOptions& exec) {
  cmd->add_option("--executor", exec.kind, "where runs execute: local (a process pool) or slurm (an sbatch array)")
      ->default_val("local")
      ->check(CLI::IsMember({"local", "slurm"}));
  add_plugin_option(cmd, exec.plugins);
  cmd->add_flag("--reuse-stale", exec.reuse_stale,
                "reuse complete runs made by a different gpupm build or from input files changed since");
  cmd->add_option("--slurm-partition", exec.slurm.partition, "slurm: sbatch --partition");
  cmd->add_option("--slurm-time", exec.slurm.time_limit, "slurm: time limit per run (sbatch --time, e.g. 00:30:00)");
  cmd->add_option("--slurm-throttle", exec.slurm.throttle, "slurm: at most N array tasks at once (--array=...%N)")
      ->check(CLI::Range(0, 100000));
  cmd->add_option("--slurm-arg", exec.slurm.extra_args,
                  "slurm: a further sbatch argument (repeatable), e.g. --slurm-arg=--qos=low")
      ->allow_extra_args(false);
  cmd->add_option("--slurm-poll", exec.slurm.poll_seconds, "slurm: squeue polling period, seconds")
      ->default_val(2.0)
      ->check(CLI::Range(0.05, 3600.0));
}

namespace {

Json plan_json(const SweepSpec& s) {
  Json points = Json::array();
  for (const auto& p : s.points) {
    Json labels = Json::object();
    for (size_t i = 0; i < s.axes.size(); ++i)
      if (!p.labels[i].empty()) labels[s.axes[i].name] = p.labels[i];
    points.push_back({{"id", p.id}, {"axes", labels}, {"args", p.run.args}});
  }
  Json axes = Json::array();
  for (const auto& a : s.axes) axes.push_back(a.name);
  return {{"name", s.name},
          {"spec", fs::absolute(s.file).string()},
          {"combine", s.combine},
          {"axes", axes},
          {"points", points}};
}

std::string describe(const SweepSpec& s, const std::string& id) {
  for (const auto& p : s.points)
    if (p.id == id) {
      std::string d;
      for (size_t i = 0; i < s.axes.size(); ++i)
        if (!p.labels[i].empty()) d += (d.empty() ? "" : ", ") + s.axes[i].name + "=" + p.labels[i];
      return "{" + d + "}";
    }
  return "";
}

}  // namespace

int command_sweep(const SweepOptions& opt) {
  SweepSpec spec;
  try {
    spec = load_sweep_spec(opt.spec_file, opt.scale);
    prepare_output_dir(opt.out_dir);
    lock_output_dir(opt.out_dir);
  } catch (const InputError& e) {
    std::cerr << "gpupm: error: " << e.what() << "\n";
    return kExitBadInput;
  }
  std::vector<RunSpec> runs = spec.unique_runs();
  pass_plugins(runs, opt.exec.plugins);
  // A file name need not be UTF-8 on Linux; JSON must be: such bytes become U+FFFD in sweep.json.
  const std::string plan = plan_json(spec).dump(2, ' ', false, Json::error_handler_t::replace);
  write_outputs(opt.out_dir, {{"sweep.json", plan + "\n"}});

  std::vector<RunOutcome> outcomes;
  if (opt.collect_only) {
    for (const RunSpec& r : runs) {
      std::string dir = (fs::path(opt.out_dir) / "runs" / r.id).string();
      RunOutcome o = rundir::read(r.id, dir);
      if (rundir::complete(dir, fingerprint_of(r), opt.exec.reuse_stale)) o = RunOutcome{r.id, dir, 0, true, false, ""};
      else if (o.status == 0) o.status = -1;
      if (o.status == -1 && o.log_tail.empty()) o.log_tail = "not run (no exit status in " + dir + ")";
      outcomes.push_back(o);
    }
  } else {
    ExecutorOptions exec = opt.exec;
    if (opt.slurm_detach) {
      exec.slurm.detach_collect_command =
          shell_quote(self_executable()) + " sweep " + shell_quote(fs::absolute(opt.spec_file).string()) + " --out " +
          shell_quote(fs::absolute(opt.out_dir).string()) + " --collect-only" +
          (opt.exec.reuse_stale ? " --reuse-stale" : "") + (opt.scale != "ci" ? " --scale " + opt.scale : "");
      for (const std::string& p : opt.exec.plugins)
        exec.slurm.detach_collect_command += " --plugin " + shell_quote(fs::absolute(p).string());
    }
    try {
      outcomes = execute_runs(runs, opt.out_dir, exec, ::isatty(2));
    } catch (const std::exception& e) {
      std::cerr << "gpupm: error: " << e.what() << "\n";
      return kExitFailure;
    }
    bool submitted = false;
    for (const auto& o : outcomes) submitted |= o.submitted;
    if (submitted) {
      std::cout << "sweep " << spec.name << ": " << runs.size() << " runs submitted; a Slurm job writes " << opt.out_dir
                << "/results.csv when they are done\n";
      return kExitOk;
    }
  }

  std::map<std::string, RunOutcome> by_id;
  size_t reused = 0, failed = 0;
  for (const auto& o : outcomes) {
    by_id[o.id] = o;
    reused += o.reused;
    failed += o.status != 0;
  }
  write_outputs(opt.out_dir, {{"results.csv", build_results_csv(spec, by_id)}});
  std::cout << "sweep " << spec.name << ": " << spec.points.size() << " points, " << runs.size() << " runs (" << reused
            << " reused, " << failed << " failed)\nresults: " << opt.out_dir << "/results.csv\n";
  if (failed) {
    std::cerr << "gpupm: " << failed << " run(s) failed:\n";
    for (const auto& o : outcomes) {
      if (o.status == 0) continue;
      std::cerr << "  " << o.id << " " << describe(spec, o.id) << ": exit status " << o.status << " (log " << o.dir
                << "/log.txt)\n";
      std::string tail = o.log_tail;
      size_t pos = 0;
      while (pos < tail.size()) {
        size_t nl = tail.find('\n', pos);
        if (nl == std::string::npos) nl = tail.size();
        std::cerr << "      | " << tail.substr(pos, nl - pos) << "\n";
        pos = nl + 1;
      }
    }
    return kExitFailure;
  }
  return kExitOk;
}

}  // namespace gpupm
