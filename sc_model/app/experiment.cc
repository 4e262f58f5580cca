#include "app/experiment.h"

#include <cmath>
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

int command_experiment(const ExperimentOptions& opt) {
  try {
    if (opt.name == "equalizer") return run_equalizer_experiment(opt);
    if (opt.name == "core-shutdown") return run_core_shutdown_experiment(opt);
    throw InputError("gpupm experiment", "NAME",
                     "unknown experiment \"" + opt.name + "\"; expected one of {equalizer, core-shutdown}");
  } catch (const InputError& e) {
    std::cerr << "gpupm: error: " << e.what() << "\n";
    return kExitBadInput;
  }
}

}  // namespace gpupm
