// `gpupm impedance`: the impedance profile |Z(f)| of a config's power-delivery
// network, its two resonances, a CSV and a plot (scripts/plot_impedance.py).
#pragma once

#include <string>
#include <vector>

namespace gpupm {

struct ImpedanceOptions {
  std::string gpu_file;
  std::string pdn_file;           // a package; default: the GPU config's pdn.network
  std::string out_dir;            // impedance.csv + impedance.png; none: print only
  std::vector<std::string> sets;  // path=value on the GPU config (e.g. pdn.network.scale=0.5)
  double f_min = 1e4, f_max = 1e9;
  int per_decade = 100;
};

// The most frequency points one profile may have (each solves the network once).
constexpr int kMaxImpedancePoints = 100000;

int command_impedance(const ImpedanceOptions& opt);

}  // namespace gpupm
