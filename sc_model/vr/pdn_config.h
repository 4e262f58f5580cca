// Parameters of the power-delivery network (PDN) behind the SM-domain
// regulator and of the droop statistics. Read from the GPU config's `pdn`
// section; `network` is a package file (configs/pdn/*.json) or inline.
// Values are loop values (VDD and VSS rails summed). See docs/voltage_noise.md.
#pragma once

#include "gpupm/common/json_fwd.h"
#include "gpupm/common/param.h"

#include <cstdint>
#include <string>
#include <vector>

namespace gpupm {

// One series stage (R, L) feeding a shunt decoupling capacitor with ESR.
struct PdnStage {
  double r_ohm = 0, l_h = 0;    // series, loop
  double c_f = 0, esr_ohm = 0;  // shunt capacitor at the stage's output node
};

struct PdnNetwork {
  std::string name = "default";
  std::string description;
  // VRM: ideal source at the set-point; with remote sense it regulates the mean
  // die voltage through an integrating loop of this bandwidth (0: no regulation,
  // the DC IR drop stays in the node voltage).
  double vrm_bandwidth_hz = 100e3;
  PdnStage pcb{0.188e-3, 42e-12, 240e-6, 0.1666e-3};
  PdnStage package{2.0e-3, 240e-12, 26e-6, 0.5415e-3};
  // Package-to-die path (C4 bumps + die-side spreading + the package
  // capacitors' ESL, folded in), loop totals; each grid tile gets 1/N of the bumps.
  double bump_r_ohm = 0.8e-3, bump_l_h = 6.61e-12;
  // On-die grid: rows x cols tiles, die capacitance split evenly, neighbour
  // tiles joined by grid_r_ohm.
  double die_c_f = 335e-9;
  double grid_r_ohm = 0.05;
  uint32_t rows = 4, cols = 4;
  std::vector<uint32_t> sm_tiles;  // tile of SM i (row-major); empty: SM i on tile i
  // One global impedance scale s: every R and L times s, every C divided by s
  // (keeps the resonance frequencies, multiplies |Z(f)| by s). The defaults here
  // are configs/pdn/package_default.json (a test keeps them equal).
  double scale = 0.25;
  // Trapezoidal sub-steps per SM cycle (folded into one per-cycle propagator).
  uint32_t substeps = 8;
};

struct DroopStatsConfig {
  double margin = 0.08;           // emergency: droop beyond this fraction of the set-point
  double split_threshold = 0.04;  // droops classified first/second-order above this
  double split_cutoff_hz = 10e6;  // zero-phase low-pass between the two resonances
  double dominance = 0.60;        // share of the droop that makes a component dominant
  double histogram_bin = 0.005;   // of the set-point
  double histogram_max = 0.20;
  uint64_t start_cycle = 0;        // statistics leave out the cycles before it (e.g. the first launch)
  uint64_t trace_start = 0;        // per-cycle trace (pdn_trace.csv): first SM cycle
  uint64_t trace_cycles = 0;       // and how many (0: no trace)
  uint32_t event_gap_cycles = 20;  // an event ends after this many cycles below its threshold (~3 first-order periods)
};

struct PdnConfig {
  std::string model = "ideal";  // ideal | rlc
  PdnNetwork network;
  std::string network_file;  // the package file `network` names (resolved path; empty: given inline)
  DroopStatsConfig stats;
  bool enabled() const { return model == "rlc"; }
};

// Every field's name, range, unit and description (common/param.h).
void describe(ParamVisitor& v, PdnStage& s);
void describe(ParamVisitor& v, PdnNetwork& n);
void describe(ParamVisitor& v, DroopStatsConfig& s);
void describe(ParamVisitor& v, PdnConfig& c);
PdnNetwork parse_pdn_network(JsonReader& r);
PdnConfig parse_pdn_config(JsonReader& r);
// With an RLC network the SMs must fit the grid; throws InputError naming the file otherwise.
void validate_pdn_config(const PdnConfig& c, uint32_t sm_count, const std::string& file);
// The same check as a rule: the problem (key relative to the GPU config), or none.
std::optional<ParamProblem> pdn_grid_problem(const PdnConfig& c, uint32_t sm_count);

}  // namespace gpupm
