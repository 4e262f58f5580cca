#include "gpupm/experiment/runner.h"
#include "gpupm/common/build_info.h"
#include "gpupm/common/data_dir.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <iostream>

#include "gpupm/experiment/format_stats.h"
#include "gpupm/experiment/plot_script.h"
#include "gpupm/platform/run_setup.h"
#include "gpupm/program/program_workload.h"
#include "gpupm/report/report_writer.h"
#include "gpupm/workload/kernel_profile.h"

namespace gpupm {

RunSpec workload_run(const std::string& id, const std::string& gpu, const std::string& workload,
                     const std::vector<std::string>& extra) {
  std::vector<std::string> args = {"--gpu", gpu, "--workload", workload};
  args.insert(args.end(), extra.begin(), extra.end());
  return {id, args};
}

ExperimentRuns run_experiment_runs(std::vector<RunSpec> specs, const ExperimentOptions& opt) {
  for (RunSpec& s : specs) {
    for (const std::string& set : opt.sets) s.args.insert(s.args.end(), {"--set", set});
    if (opt.scale != "ci" && !s.at_scale)
      s.args.insert(s.args.end(), {"--scale", opt.scale});  // ci: the arguments (so ids) as before
  }
  pass_plugins(specs, opt.exec.plugins);
  check_runs(specs);
  prepare_output_dir(opt.out_dir);
  lock_output_dir(opt.out_dir);
  ExperimentRuns r;
  r.scale = opt.scale;
  auto t0 = std::chrono::steady_clock::now();
  r.jobs = std::max(1, opt.exec.jobs > 0 ? opt.exec.jobs : default_jobs());
  ExecutorOptions exec = opt.exec;
  exec.jobs = r.jobs;
  r.outcomes = execute_runs(specs, opt.out_dir, exec, ::isatty(2));
  r.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::vector<std::string> failed;
  for (const auto& o : r.outcomes) {
    r.reused += o.reused;
    if (const double cpu = rundir::cpu_seconds(o.dir); cpu >= 0) {
      r.cpu_seconds += cpu;
      ++r.timed;
    }
    if (o.status != 0) failed.push_back(o.id + " (exit " + std::to_string(o.status) + ", see " + o.dir + "/log.txt)");
  }
  if (!failed.empty()) {
    std::cerr << "gpupm: " << failed.size() << " run(s) failed:\n";
    for (const auto& f : failed) std::cerr << "  " << f << "\n";
    r.ok = false;
  }
  return r;
}

bool run_stage(std::vector<RunSpec> specs, const ExperimentOptions& opt, RunReports& reports,
               std::vector<ExperimentRuns>& stages) {
  stages.push_back(run_experiment_runs(std::move(specs), opt));
  if (!stages.back().ok) return false;
  std::vector<std::string> ids;
  for (const RunOutcome& o : stages.back().outcomes) ids.push_back(o.id);
  reports.read(opt.out_dir, ids);
  return true;
}

void check_profile(const std::string& profile) { parse_workload(load_json_file(profile), profile, 1); }

std::vector<ProgramLaunch> check_program(const std::string& gpu, const std::string& program, const std::string& scale) {
  RunInputs in;
  in.gpu_file = gpu;
  in.workload_file = program;
  in.scale = scale;
  in.policy = "baseline";
  const LoadedRun run = load_run(in);
  const ProgramHost* host = program_of(run.workload);
  if (!host) throw InputError(program, "program", "expected a program workload (a real suite names CUDA programs)");
  std::vector<ProgramLaunch> launches;
  for (const LaunchSpec& l : host->launches())
    launches.push_back({l.kernel, uint32_t((l.block.count() + 31) / 32), l.max_ctas_per_sm,
                        l.while_buffer >= 0 ? l.while_max : l.repeat});
  return launches;
}

const std::vector<std::string>& suite_names() {
  static const std::vector<std::string> names = {"synthetic", "real"};
  return names;
}

void check_suite_option(const std::string& suite) {
  if (suite.empty() || std::count(suite_names().begin(), suite_names().end(), suite)) return;
  throw InputError("gpupm experiment", "--suite", "unknown suite \"" + suite + "\"; expected one of {synthetic, real}");
}

ExperimentRuns all_stages(const std::vector<ExperimentRuns>& stages) {
  ExperimentRuns all = stages.front();
  for (size_t i = 1; i < stages.size(); ++i) {
    all.outcomes.insert(all.outcomes.end(), stages[i].outcomes.begin(), stages[i].outcomes.end());
    all.wall_seconds += stages[i].wall_seconds;
    all.cpu_seconds += stages[i].cpu_seconds;
    all.timed += stages[i].timed;
    all.reused += stages[i].reused;
  }
  return all;
}

std::string experiment_config_file(const ExperimentOptions& opt, const std::string& shipped_config) {
  if (!opt.config.empty()) return opt.config;
  if (opt.suite != "real") return shipped_config;
  const std::string real = shipped_config.substr(0, shipped_config.size() - 5) + "_real.json";
  if (!std::ifstream(real))
    throw InputError("gpupm experiment", "--suite",
                     "experiment \"" + opt.name + "\" has no real suite yet (no " + real + ")");
  return real;
}

std::string source_relative(const std::string& path) { return path.rfind('/', 0) == 0 ? path : data_file(path); }

void warn_if_unreproducible() {
  const std::string version = gpupm_version();
  const bool dirty = version == "unknown" || (version.size() > 6 && version.rfind("-dirty") == version.size() - 6);
  if (dirty)
    std::cerr << "gpupm: warning: this build (" << version << ") names no clean commit: "
              << "its summary.json cannot be reproduced\n";
}

Json summary_header(const std::string& experiment, const ExperimentRuns& runs) {
  Json header = {{"experiment", experiment},          {"gpupm", provenance_json()},
                 {"runs", runs.outcomes.size()},      {"reused_runs", runs.reused},
                 {"wall_seconds", runs.wall_seconds}, {"cpu_seconds", runs.cpu_seconds},
                 {"timed_runs", runs.timed},          {"jobs", runs.jobs}};
  if (runs.scale != "ci") header["scale"] = runs.scale;  // absent: ci (summaries as before)
  return header;
}

std::string runs_sentence(const ExperimentRuns& runs) {
  const std::string cpu =
      runs.timed == 0
          ? ""
          : "; the simulations took " + fixed(runs.cpu_seconds / 3600, 2) + " core-hours" +
                (runs.timed < runs.outcomes.size() ? " (the " + std::to_string(runs.timed) + " timed)" : "");
  return std::to_string(runs.outcomes.size()) + " simulations, " + std::to_string(runs.reused) +
         " of them reused from an earlier run (" + std::to_string(runs.jobs) + " jobs, " + fixed(runs.wall_seconds, 0) +
         " s wall" + cpu + ")." + (runs.scale != "ci" ? " Programs at --scale " + runs.scale + "." : "");
}

void write_summary(const std::string& out_dir, const ExperimentSummary& summary, const std::string& plot_script,
                   bool print_claims) {
  const std::string& markdown = summary.markdown;
  write_outputs(out_dir, {{"summary.json", summary.json.dump(2) + "\n"}, {"summary.md", markdown}});
  const std::string why_not = run_plot_script(plot_script, out_dir);
  if (!why_not.empty()) std::cerr << "gpupm: plots not drawn (needs python3-matplotlib): " << why_not << "\n";
  std::cout << (print_claims ? markdown : markdown.substr(0, markdown.find("## Claims"))) << "summary: " << out_dir
            << "/summary.md\n";
}

}  // namespace gpupm
