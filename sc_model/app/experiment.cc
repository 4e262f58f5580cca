#include "app/experiment.h"

#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <sstream>

#include "app/commands.h"

namespace gpupm {

double geomean(const std::vector<double>& v) {
  if (v.empty()) return 0.0;
  double s = 0.0;
  for (double x : v) s += std::log(x);
  return std::exp(s / double(v.size()));
}

ExperimentRuns run_experiment_runs(std::vector<RunSpec> specs, const ExperimentOptions& opt) {
  for (RunSpec& s : specs)
    for (const std::string& set : opt.sets) s.args.insert(s.args.end(), {"--set", set});
  ExperimentRuns r;
  auto t0 = std::chrono::steady_clock::now();
  r.outcomes = run_pool(specs, opt.out_dir, opt.exec, ::isatty(2));
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

int command_experiment(const ExperimentOptions& opt) {  // errors: main's net (bad input: 2)
  if (opt.name == "equalizer") return run_equalizer_experiment(opt);
  if (opt.name == "core-shutdown") return run_core_shutdown_experiment(opt);
  throw InputError("gpupm experiment", "NAME",
                   "unknown experiment \"" + opt.name + "\"; expected one of {equalizer, core-shutdown}");
}

}  // namespace gpupm
