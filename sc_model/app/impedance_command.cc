#include "gpupm/app/impedance_command.h"
#include "gpupm/common/json_reader.h"
#include "gpupm/common/data_dir.h"

#include "gpupm/app/commands.h"
#include "gpupm/experiment/plot_script.h"
#include "gpupm/platform/gpu_config.h"
#include "gpupm/platform/run_setup.h"
#include "gpupm/common/csv_writer.h"
#include "gpupm/report/report_writer.h"
#include "gpupm/vr/pdn.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <sstream>

namespace gpupm {

namespace {

// The tile nearest the grid's centre that holds an SM (a central SM sees
// neighbours on all sides; SM 0 sits in a corner).
uint32_t central_sm(const RlcPdn& pdn) {
  double best = 1e9;
  uint32_t sm = 0;
  for (uint32_t i = 0; i < pdn.sm_count(); ++i) {
    uint32_t t = pdn.tile_of(i);
    double dr = double(t / pdn.cols()) - (pdn.rows() - 1) / 2.0, dc = double(t % pdn.cols()) - (pdn.cols() - 1) / 2.0;
    double d = dr * dr + dc * dc;
    if (d < best - 1e-9) best = d, sm = i;
  }
  return sm;
}

// The sweep's frequencies: finite, 0 < fmin < fmax, and a point count that stays
// quick to compute and print (kMaxImpedancePoints).
void check_frequency_options(const ImpedanceOptions& opt) {
  auto check = [](const char* option, double value, bool ok, const std::string& allowed) {
    if (!(std::isfinite(value) && ok)) {
      std::ostringstream v;
      v << value;
      throw InputError(option, v.str(), "expected " + allowed);
    }
  };
  check("--fmin", opt.f_min, opt.f_min > 0, "a finite frequency > 0 (Hz)");
  check("--fmax", opt.f_max, opt.f_max > opt.f_min, "a finite frequency above --fmin (Hz)");
  check("--per-decade", opt.per_decade, opt.per_decade > 0, "a positive number of points per decade");
  const double points = std::log10(opt.f_max / opt.f_min) * opt.per_decade + 1;
  if (points > double(kMaxImpedancePoints))
    throw InputError("--per-decade", std::to_string(opt.per_decade),
                     "the sweep would have " + std::to_string(uint64_t(points)) + " points; expected at most " +
                         std::to_string(kMaxImpedancePoints) + " (decades x per-decade, the limit)");
}

}  // namespace

int command_impedance(const ImpedanceOptions& opt) {
  GpuConfig gpu;
  std::string origin;
  try {
    check_frequency_options(opt);
    const GpuDocument doc = load_gpu_doc(opt.gpu_file, opt.pdn_file);
    origin = gpu_doc_origin(doc, opt.pdn_file, !opt.sets.empty());
    Json wrapped = {{"gpu", doc.doc}};
    for (const std::string& s : opt.sets) apply_override(wrapped, "gpu." + s, "--set");
    const InputFileScope gpu_file_scope(opt.gpu_file);
    gpu = parse_gpu_config(wrapped["gpu"], origin);
    PdnConfig rlc = gpu.pdn;
    rlc.model = "rlc";  // the profile of the configured network, whether runs use it or not
    validate_pdn_config(rlc, gpu.sm.count, origin);
    if (!opt.out_dir.empty()) prepare_output_dir(opt.out_dir);
  } catch (const InputError& e) {
    std::cerr << "gpupm: error: " << e.what() << "\n";
    return kExitBadInput;
  }
  const PdnNetwork& net = gpu.pdn.network;
  RlcPdn pdn(net, gpu.sm.count);
  const uint32_t corner = 0, centre = central_sm(pdn);
  std::vector<double> hz, chip, local_corner, local_centre;
  const int n = int(std::round(std::log10(opt.f_max / opt.f_min) * opt.per_decade));
  for (int k = 0; k <= n; ++k) {
    double f = opt.f_min * std::pow(10.0, double(k) / opt.per_decade);
    hz.push_back(f);
    chip.push_back(std::abs(pdn.chip_impedance(f)));
    local_corner.push_back(std::abs(pdn.local_impedance(f, corner)));
    local_centre.push_back(std::abs(pdn.local_impedance(f, centre)));
  }
  // The paper's two resonances: ~1 MHz (second order) and ~100 MHz (first
  // order), split where the droop statistics split them.
  const double split = gpu.pdn.stats.split_cutoff_hz;
  Resonance second, first;
  split_resonances(find_resonances(hz, chip), split, second, first);
  std::printf("PDN '%s' (scale %.4g, %u x %u grid, %u SMs, VRM loop %.3g kHz%s), %s\n", net.name.c_str(), net.scale,
              net.rows, net.cols, gpu.sm.count, net.vrm_bandwidth_hz / 1e3,
              net.vrm_bandwidth_hz > 0 ? ", remote sense" : ": none", origin.c_str());
  std::printf("series resistance VRM->die (DC IR drop per A without regulation): %.4f mOhm\n",
              pdn.series_resistance() * 1e3);
  std::printf("chip-wide |Z(f)| (every SM draws 1/%u A, mean SM node):\n", gpu.sm.count);
  auto show = [](const char* what, const Resonance& r) {
    if (r.hz > 0) std::printf("  %-24s %9.3f MHz  %8.4f mOhm\n", what, r.hz / 1e6, r.ohm * 1e3);
    else std::printf("  %-24s none found\n", what);
  };
  show("second-order resonance", second);
  show("first-order resonance", first);
  Resonance s_loc, f_loc;
  split_resonances(find_resonances(hz, local_centre), split, s_loc, f_loc);
  std::printf("local |Z(f)| (SM %u alone, at its own node):\n", centre);
  show("second-order resonance", s_loc);
  show("first-order resonance", f_loc);
  std::printf("\n%12s %12s %14s %14s\n", "freq_hz", "chip_mohm", ("sm" + std::to_string(corner) + "_mohm").c_str(),
              ("sm" + std::to_string(centre) + "_mohm").c_str());
  for (size_t k = 0; k < hz.size(); k += size_t(std::max(1, opt.per_decade / 5)))
    std::printf("%12.4g %12.4f %14.4f %14.4f\n", hz[k], chip[k] * 1e3, local_corner[k] * 1e3, local_centre[k] * 1e3);
  if (opt.out_dir.empty()) return kExitOk;

  CsvWriter csv(8);
  csv.row({"freq_hz", "chip_ohm", "sm" + std::to_string(corner) + "_ohm", "sm" + std::to_string(centre) + "_ohm"});
  for (size_t k = 0; k < hz.size(); ++k) {
    csv << hz[k] << chip[k] << local_corner[k] << local_centre[k];
    csv.end_row();
  }
  Json meta = {{"network", net.name},
               {"source", origin},
               {"second_order", {{"hz", second.hz}, {"ohm", second.ohm}}},
               {"first_order", {{"hz", first.hz}, {"ohm", first.ohm}}},
               {"local_sm", centre},
               {"local_second_order", {{"hz", s_loc.hz}, {"ohm", s_loc.ohm}}},
               {"local_first_order", {{"hz", f_loc.hz}, {"ohm", f_loc.ohm}}},
               {"series_resistance_ohm", pdn.series_resistance()}};
  try {
    write_outputs(opt.out_dir, {{"impedance.csv", csv.str()}, {"impedance.json", meta.dump(2) + "\n"}});
  } catch (const std::exception& e) {
    std::cerr << "gpupm: error: " << e.what() << "\n";
    return kExitFailure;
  }
  std::string why_not = run_plot_script("plot_impedance.py", opt.out_dir);
  if (why_not.empty() && !std::filesystem::is_regular_file(std::filesystem::path(opt.out_dir) / "impedance.png"))
    why_not = "scripts/plot_impedance.py wrote no impedance.png";
  if (!why_not.empty())
    std::cerr << "gpupm: plot not drawn (needs python3-matplotlib): " << why_not << "; the CSV is written\n";
  std::printf("\nwrote %s/impedance.csv, impedance.json%s\n", opt.out_dir.c_str(),
              why_not.empty() ? ", impedance.png" : "");
  return kExitOk;
}

}  // namespace gpupm
