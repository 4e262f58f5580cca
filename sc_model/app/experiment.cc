#include "app/experiment.h"

#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <sstream>

#include "app/commands.h"
#include "app/plot_script.h"
#include "report/report_writer.h"
#include "workload/kernel_profile.h"

#include <algorithm>
#include <fstream>
#include <set>

namespace gpupm {

double geomean(const std::vector<double>& v) {
  if (v.empty()) return 0.0;
  double s = 0.0;
  for (double x : v) s += std::log(x);
  return std::exp(s / double(v.size()));
}

RunSpec workload_run(const std::string& id, const std::string& gpu, const std::string& workload,
                     const std::vector<std::string>& extra) {
  std::vector<std::string> args = {"--gpu", gpu, "--workload", workload};
  args.insert(args.end(), extra.begin(), extra.end());
  return {id, args};
}

ExperimentRuns run_experiment_runs(std::vector<RunSpec> specs, const ExperimentOptions& opt) {
  for (RunSpec& s : specs)
    for (const std::string& set : opt.sets) s.args.insert(s.args.end(), {"--set", set});
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

SuiteConfig read_suite_config(
    const ExperimentOptions& opt, const std::string& default_name, const std::string& list_key,
    const std::function<void(JsonReader&)>& read_rest,
    const std::function<void(JsonReader&, const std::string&, const std::string&, bool)>& read_entry) {
  SuiteConfig c;
  c.file = opt.config.empty() ? std::string(GPUPM_SOURCE_DIR) + "/configs/experiments/" + default_name + ".json"
                              : opt.config;
  Json doc = load_json_file(c.file);
  JsonReader r(doc, c.file, "");
  r.get_string("name");
  r.get_string("description", "");
  auto resolve = [](const std::string& p) { return p.rfind('/', 0) == 0 ? p : std::string(GPUPM_SOURCE_DIR) + "/" + p; };
  c.gpu = resolve(r.get_string("gpu"));
  c.suite = resolve(r.get_string("suite_dir"));
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

const Json& ExperimentResults::report(const std::string& id) {
  auto it = cache_.find(id);
  if (it != cache_.end()) return it->second;
  Json j;
  std::ifstream f(dir_ + "/runs/" + id + "/report.json");
  if (f) j = Json::parse(f, nullptr, false);
  if (j.is_discarded()) j = Json();
  return cache_[id] = j;
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

void write_summary(const std::string& out_dir, const Json& summary, const std::string& markdown,
                   const std::string& plot_script, bool print_claims) {
  write_outputs(out_dir, {{"summary.json", summary.dump(2) + "\n"}, {"summary.md", markdown}});
  const std::string why_not = run_plot_script(plot_script, out_dir);
  if (!why_not.empty()) std::cerr << "gpupm: plots not drawn (needs python3-matplotlib): " << why_not << "\n";
  std::cout << (print_claims ? markdown : markdown.substr(0, markdown.find("## Claims"))) << "summary: " << out_dir
            << "/summary.md\n";
}

Claim judged_claim(std::string id, std::string text, std::string paper, std::string measured, std::string tolerance,
                   bool ok, std::string note_if_fail) {
  return {std::move(id), std::move(text), std::move(paper), std::move(measured), std::move(tolerance),
          ok ? "pass" : "fail", ok ? "" : std::move(note_if_fail)};
}

Claim na_claim(std::string id, std::string text, std::string paper, std::string note) {
  return {std::move(id), std::move(text), std::move(paper), "-", "-", "n/a", std::move(note)};
}

std::string fixed(double x, int digits) {
  char b[64];
  std::snprintf(b, sizeof b, "%.*f", digits, x);
  return b;
}

std::string pct(double ratio) {
  char b[64];
  std::snprintf(b, sizeof b, "%+.1f%%", (ratio - 1.0) * 100.0);
  return b;
}

Json claims_json(const std::vector<Claim>& claims) {
  Json a = Json::array();
  for (const Claim& c : claims)
    a.push_back({{"id", c.id},
                 {"claim", c.text},
                 {"paper", c.paper},
                 {"measured", c.measured},
                 {"tolerance", c.tolerance},
                 {"verdict", c.verdict},
                 {"note", c.note}});
  return a;
}

std::string claims_markdown(const std::vector<Claim>& claims) {
  std::ostringstream md;
  md << "| id | claim | paper | ours | tolerance | verdict | note |\n|---|---|---|---|---|---|---|\n";
  for (const Claim& c : claims)
    md << "| " << c.id << " | " << c.text << " | " << c.paper << " | " << c.measured << " | " << c.tolerance << " | "
       << (c.verdict == "pass" ? "pass" : c.verdict == "fail" ? "**FAIL**" : "n/a") << " | " << c.note << " |\n";
  return md.str();
}

namespace {

struct ExperimentKind {
  const char* name;
  int (*run)(const ExperimentOptions&);
  void (*check)(const ExperimentOptions&);
};

const std::vector<ExperimentKind>& experiment_kinds() {
  static const std::vector<ExperimentKind> kinds = {
      {"equalizer", run_equalizer_experiment, check_equalizer_config},
      {"core-shutdown", run_core_shutdown_experiment, check_core_shutdown_config},
      {"voltage-noise", run_voltage_noise_experiment, check_voltage_noise_config},
      {"sm-allocation", run_sm_allocation_experiment, check_sm_allocation_config},
      {"harmonia", run_harmonia_experiment, check_harmonia_config}};
  return kinds;
}

const ExperimentKind& experiment_kind(const std::string& name, const std::string& file, const std::string& path) {
  std::string names;
  for (const ExperimentKind& k : experiment_kinds()) {
    if (name == k.name) return k;
    names += (names.empty() ? "" : ", ") + std::string(k.name);
  }
  throw InputError(file, path, "unknown experiment \"" + name + "\"; expected one of {" + names + "}");
}

}  // namespace

int command_experiment(const ExperimentOptions& opt) {  // errors: main's net (bad input: 2)
  return experiment_kind(opt.name, "gpupm experiment", "NAME").run(opt);
}

std::string validate_experiment_config(const std::string& file) {
  Json doc = load_json_file(file);
  JsonReader r(doc, file, "");
  const std::string name = r.get_string("name");
  ExperimentOptions opt;
  opt.name = name;
  opt.config = file;
  experiment_kind(name, file, "name").check(opt);
  return name;
}

}  // namespace gpupm
