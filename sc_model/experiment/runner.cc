#include "experiment/runner.h"
#include "common/data_dir.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <iostream>
#include <set>

#include "experiment/format_stats.h"
#include "experiment/plot_script.h"
#include "report/report_writer.h"
#include "workload/kernel_profile.h"

namespace gpupm {

RunSpec workload_run(const std::string& id, const std::string& gpu, const std::string& workload,
                     const std::vector<std::string>& extra) {
  std::vector<std::string> args = {"--gpu", gpu, "--workload", workload};
  args.insert(args.end(), extra.begin(), extra.end());
  return {id, args};
}

ExperimentRuns run_experiment_runs(std::vector<RunSpec> specs, const ExperimentOptions& opt) {
  for (RunSpec& s : specs)
    for (const std::string& set : opt.sets) s.args.insert(s.args.end(), {"--set", set});
  pass_plugins(specs, opt.exec.plugins);
  check_runs(specs);
  prepare_output_dir(opt.out_dir);
  lock_output_dir(opt.out_dir);
  ExperimentRuns r;
  auto t0 = std::chrono::steady_clock::now();
  r.jobs = std::max(1, opt.exec.jobs > 0 ? opt.exec.jobs : default_jobs());
  ExecutorOptions exec = opt.exec;
  exec.jobs = r.jobs;
  r.outcomes = execute_runs(specs, opt.out_dir, exec, ::isatty(2));
  r.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::vector<std::string> failed;
  for (const auto& o : r.outcomes) {
    r.reused += o.reused;
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

std::string source_relative(const std::string& path) {
  return path.rfind('/', 0) == 0 ? path : data_file(path);
}

SuiteConfig read_suite_config(
    const ExperimentOptions& opt, const std::string& shipped_config, const std::string& list_key,
    const std::function<void(JsonReader&)>& read_rest,
    const std::function<void(JsonReader&, const std::string&, const std::string&, bool)>& read_entry) {
  SuiteConfig c;
  c.file = opt.config.empty() ? shipped_config : opt.config;
  Json doc = load_json_file(c.file);
  JsonReader r(doc, c.file, "");
  r.get_string("name");
  r.get_string("description", "");
  c.gpu = source_relative(r.get_string("gpu"));
  c.suite = source_relative(r.get_string("suite_dir"));
  read_rest(r);
  const std::set<std::string> only(opt.only.begin(), opt.only.end());
  std::set<std::string> seen;
  r.for_each(list_key, 1, 1000, [&](JsonReader& e, size_t) {
    std::string name = e.get_string("name");
    seen.insert(name);
    read_entry(e, name, c.suite + "/" + name + ".json", only.empty() || only.count(name));
  });
  r.finish();
  for (const auto& name : opt.only)
    if (!seen.count(name)) throw InputError(c.file, list_key, "no entry named \"" + name + "\" (from --only)");
  return c;
}

Json summary_header(const std::string& experiment, const ExperimentRuns& runs) {
  return {{"experiment", experiment},
          {"gpupm", provenance_json()},
          {"runs", runs.outcomes.size()},
          {"reused_runs", runs.reused},
          {"wall_seconds", runs.wall_seconds},
          {"jobs", runs.jobs}};
}

std::string runs_sentence(const ExperimentRuns& runs) {
  return std::to_string(runs.outcomes.size()) + " simulations, " + std::to_string(runs.reused) +
         " of them reused from an earlier run (" + std::to_string(runs.jobs) + " jobs, " + fixed(runs.wall_seconds, 0) +
         " s wall).";
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
