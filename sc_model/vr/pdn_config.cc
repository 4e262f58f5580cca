#include "vr/pdn_config.h"

#include <filesystem>

namespace gpupm {

namespace {

PdnStage parse_stage(JsonReader& r, const PdnStage& d) {
  PdnStage s;
  s.r_ohm = r.get_double("r_ohm", 0.0, 10.0, d.r_ohm);
  s.l_h = r.get_double("l_h", 1e-18, 1e-3, d.l_h);
  s.c_f = r.get_double("c_f", 1e-12, 10.0, d.c_f);
  s.esr_ohm = r.get_double("esr_ohm", 0.0, 10.0, d.esr_ohm);
  return s;
}

// A relative network path is looked up from the working directory, then from
// the source tree (so configs/pdn/... works from anywhere).
std::string resolve(const std::string& path) {
  namespace fs = std::filesystem;
  if (fs::path(path).is_absolute() || fs::exists(path)) return path;
  fs::path in_tree = fs::path(GPUPM_SOURCE_DIR) / path;
  return fs::exists(in_tree) ? in_tree.string() : path;
}

}  // namespace

PdnNetwork parse_pdn_network(JsonReader& r) {
  PdnNetwork n;
  const PdnNetwork d;
  n.name = r.get_string("name", d.name);
  n.description = r.get_string("description", "");
  n.vrm_bandwidth_hz = r.get_double("vrm_bandwidth_hz", 0.0, 1e6, d.vrm_bandwidth_hz);
  if (r.has("pcb")) {
    JsonReader s = r.object("pcb");
    n.pcb = parse_stage(s, d.pcb);
    s.finish();
  }
  if (r.has("package")) {
    JsonReader s = r.object("package");
    n.package = parse_stage(s, d.package);
    s.finish();
  }
  n.bump_r_ohm = r.get_double("bump_r_ohm", 1e-9, 10.0, d.bump_r_ohm);
  n.bump_l_h = r.get_double("bump_l_h", 1e-18, 1e-6, d.bump_l_h);
  n.die_c_f = r.get_double("die_c_f", 1e-12, 1e-3, d.die_c_f);
  n.grid_r_ohm = r.get_double("grid_r_ohm", 1e-6, 100.0, d.grid_r_ohm);
  n.rows = uint32_t(r.get_uint("rows", 1, 16, d.rows));
  n.cols = uint32_t(r.get_uint("cols", 1, 16, d.cols));
  if (r.has("sm_tiles")) {
    const Json& a = r.raw("sm_tiles");
    if (!a.is_array()) r.fail("sm_tiles", "expected an array of tile indices (row-major)");
    for (size_t i = 0; i < a.size(); ++i) {
      if (!a[i].is_number_unsigned() || a[i].get<uint64_t>() >= uint64_t(n.rows) * n.cols)
        r.fail("sm_tiles", "element " + std::to_string(i) + ": expected a tile index 0.." +
                               std::to_string(n.rows * n.cols - 1) + ", got " + a[i].dump());
      n.sm_tiles.push_back(a[i].get<uint32_t>());
    }
  }
  n.scale = r.get_double("scale", 1e-3, 1e3, d.scale);
  n.substeps = uint32_t(r.get_uint("substeps", 1, 256, d.substeps));
  return n;
}

PdnConfig parse_pdn_config(JsonReader& r) {
  PdnConfig c;
  c.model = r.get_enum("model", {"ideal", "rlc"}, "ideal");
  if (r.has("network")) {
    const Json& v = r.raw("network");
    if (v.is_string()) {
      std::string file = resolve(v.get<std::string>());
      Json doc;
      try {
        doc = load_json_file(file);
      } catch (const InputError& e) {
        r.fail("network", std::string("cannot read the package file: ") + e.what());
      }
      JsonReader n(doc, file, "");
      c.network = parse_pdn_network(n);
      c.network_file = file;
      n.finish();
    } else {
      JsonReader n = r.object("network");
      c.network = parse_pdn_network(n);
      n.finish();
    }
  }
  if (r.has("stats")) {
    JsonReader s = r.object("stats");
    const DroopStatsConfig d;
    c.stats.margin = s.get_double("margin", 1e-4, 0.9, d.margin);
    c.stats.split_threshold = s.get_double("split_threshold", 1e-4, 0.9, d.split_threshold);
    c.stats.split_cutoff_hz = s.get_double("split_cutoff_hz", 1e3, 1e9, d.split_cutoff_hz);
    c.stats.dominance = s.get_double("dominance", 0.5, 1.0, d.dominance);
    c.stats.histogram_bin = s.get_double("histogram_bin", 1e-4, 0.1, d.histogram_bin);
    c.stats.histogram_max = s.get_double("histogram_max", 0.01, 1.0, d.histogram_max);
    c.stats.event_gap_cycles = uint32_t(s.get_uint("event_gap_cycles", 1, 100000, d.event_gap_cycles));
    c.stats.start_cycle = s.get_uint("start_cycle", 0, ~uint64_t(0) >> 1, d.start_cycle);
    c.stats.trace_start = s.get_uint("trace_start", 0, ~uint64_t(0) >> 1, d.trace_start);
    c.stats.trace_cycles = s.get_uint("trace_cycles", 0, 1000000, d.trace_cycles);
    s.finish();
  }
  return c;
}

void validate_pdn_config(const PdnConfig& c, uint32_t sm_count, const std::string& file) {
  if (!c.enabled()) return;  // an ideal network has no grid to fit
  const PdnNetwork& n = c.network;
  uint32_t tiles = n.rows * n.cols;
  if (!n.sm_tiles.empty()) {
    if (n.sm_tiles.size() != sm_count)
      throw InputError(file, "pdn.network.sm_tiles",
                       "expected one tile per SM (" + std::to_string(sm_count) + "), got " +
                           std::to_string(n.sm_tiles.size()));
    std::vector<bool> used(tiles, false);
    for (uint32_t t : n.sm_tiles) {
      if (used[t]) throw InputError(file, "pdn.network.sm_tiles", "tile " + std::to_string(t) + " holds two SMs");
      used[t] = true;
    }
  } else if (sm_count > tiles) {
    throw InputError(file, "pdn.network",
                     "the grid has " + std::to_string(tiles) + " tiles (rows x cols) for " + std::to_string(sm_count) +
                         " SMs; expected at least one tile per SM");
  }
}

}  // namespace gpupm
