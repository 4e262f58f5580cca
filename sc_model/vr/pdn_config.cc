#include "gpupm/vr/pdn_config.h"
#include "gpupm/common/data_dir.h"

#include "gpupm/common/param_reader.h"

namespace gpupm {

namespace {

// A relative network path: beside the GPU config naming it, from the working
// directory, or shipped (configs/pdn/...): common/data_dir.h.
std::string resolve(const std::string& path) { return resolve_input_path(path); }

std::optional<ParamProblem> tiles_on_grid(const PdnNetwork& n) {
  const uint32_t tiles = n.rows * n.cols;
  for (size_t i = 0; i < n.sm_tiles.size(); ++i)
    if (n.sm_tiles[i] >= tiles)
      return ParamProblem{"sm_tiles", "element " + std::to_string(i) + ": expected a tile index 0.." +
                                          std::to_string(tiles - 1) + ", got " + std::to_string(n.sm_tiles[i])};
  return std::nullopt;
}

}  // namespace

void describe(ParamVisitor& v, PdnStage& s) {
  v.number("r_ohm", s.r_ohm, 0.0, 10.0, "ohm", "series resistance (loop)");
  v.number("l_h", s.l_h, 1e-18, 1e-3, "H", "series inductance (loop)");
  v.number("c_f", s.c_f, 1e-12, 10.0, "F", "shunt decoupling capacitance at the stage's output");
  v.number("esr_ohm", s.esr_ohm, 0.0, 10.0, "ohm", "the capacitor's series resistance");
}

void describe(ParamVisitor& v, PdnNetwork& n) {
  v.text("name", n.name, "the package's name");
  v.text("description", n.description, "free text for people");
  v.number("vrm_bandwidth_hz", n.vrm_bandwidth_hz, 0.0, 1e6, "Hz",
           "VRM remote-sense loop bandwidth (0: no regulation)");
  v.section("pcb", Presence::kOptional, "board stage", [&](ParamVisitor& s) { describe(s, n.pcb); });
  v.section("package", Presence::kOptional, "package stage", [&](ParamVisitor& s) { describe(s, n.package); });
  v.number("bump_r_ohm", n.bump_r_ohm, 1e-9, 10.0, "ohm", "package-to-die path resistance (loop total)");
  v.number("bump_l_h", n.bump_l_h, 1e-18, 1e-6, "H", "package-to-die path inductance (loop total)");
  v.number("die_c_f", n.die_c_f, 1e-12, 1e-3, "F", "die capacitance, split evenly over the tiles");
  v.number("grid_r_ohm", n.grid_r_ohm, 1e-6, 100.0, "ohm", "resistance between neighbour tiles");
  v.integer("rows", n.rows, 1, 16, "tiles", "on-die grid rows");
  v.integer("cols", n.cols, 1, 16, "tiles", "on-die grid columns");
  v.integer_list("sm_tiles", n.sm_tiles, 0, 255, "tile of SM i, row-major (empty: SM i on tile i)");
  v.rule("tiles_on_grid", "every sm_tiles entry is a tile of the rows x cols grid", [&n] { return tiles_on_grid(n); });
  v.number("scale", n.scale, 1e-3, 1e3, "", "impedance scale: every R and L times it, every C divided by it");
  v.integer("substeps", n.substeps, 1, 256, "steps", "trapezoidal sub-steps per SM cycle");
}

void describe(ParamVisitor& v, DroopStatsConfig& s) {
  v.number("margin", s.margin, 1e-4, 0.9, "", "emergency: a droop beyond this fraction of the set-point");
  v.number("split_threshold", s.split_threshold, 1e-4, 0.9, "", "droops classified first/second-order above this");
  v.number("split_cutoff_hz", s.split_cutoff_hz, 1e3, 1e9, "Hz", "low-pass between the two resonances");
  v.number("dominance", s.dominance, 0.5, 1.0, "", "share of a droop that makes a component dominant");
  v.number("histogram_bin", s.histogram_bin, 1e-4, 0.1, "", "droop histogram bin, of the set-point");
  v.number("histogram_max", s.histogram_max, 0.01, 1.0, "", "droop histogram range, of the set-point");
  v.integer("event_gap_cycles", s.event_gap_cycles, 1, 100000, "SM cycles",
            "an event ends after this many cycles below its threshold");
  v.integer("start_cycle", s.start_cycle, 0, ~uint64_t(0) >> 1, "SM cycles",
            "statistics leave out the cycles before it");
  v.integer("trace_start", s.trace_start, 0, ~uint64_t(0) >> 1, "SM cycles", "first cycle of pdn_trace.csv");
  v.integer("trace_cycles", s.trace_cycles, 0, 1000000, "SM cycles", "cycles in pdn_trace.csv (0: no trace)");
}

void describe(ParamVisitor& v, PdnConfig& c) {
  v.choice("model", c.model, {"ideal", "rlc"}, "the network behind the SM-domain regulator: ideal, or the RLC model");
  v.section_or_file("network", "the RLC network (a package file, configs/pdn/*.json, or inline)", c.network_file,
                    resolve, [&](ParamVisitor& s) { describe(s, c.network); });
  v.section("stats", Presence::kOptional, "droop statistics", [&](ParamVisitor& s) { describe(s, c.stats); });
}

PdnNetwork parse_pdn_network(JsonReader& r) {
  PdnNetwork n;
  read_params(r, n);
  return n;
}

PdnConfig parse_pdn_config(JsonReader& r) {
  PdnConfig c;
  read_params(r, c);
  return c;
}

std::optional<ParamProblem> pdn_grid_problem(const PdnConfig& c, uint32_t sm_count) {
  if (!c.enabled()) return std::nullopt;  // an ideal network has no grid to fit
  const PdnNetwork& n = c.network;
  uint32_t tiles = n.rows * n.cols;
  if (!n.sm_tiles.empty()) {
    if (n.sm_tiles.size() != sm_count)
      return ParamProblem{"pdn.network.sm_tiles", "expected one tile per SM (" + std::to_string(sm_count) + "), got " +
                                                      std::to_string(n.sm_tiles.size())};
    std::vector<bool> used(tiles, false);
    for (uint32_t t : n.sm_tiles) {
      if (used[t]) return ParamProblem{"pdn.network.sm_tiles", "tile " + std::to_string(t) + " holds two SMs"};
      used[t] = true;
    }
  } else if (sm_count > tiles) {
    return ParamProblem{"pdn.network", "the grid has " + std::to_string(tiles) + " tiles (rows x cols) for " +
                                           std::to_string(sm_count) + " SMs; expected at least one tile per SM"};
  }
  return std::nullopt;
}

void validate_pdn_config(const PdnConfig& c, uint32_t sm_count, const std::string& file) {
  if (auto p = pdn_grid_problem(c, sm_count)) throw InputError(file, p->key, p->what);
}

}  // namespace gpupm
