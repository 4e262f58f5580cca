// Offline profiles of the power-aware SM allocation paper
// (docs/papers.md#sm-allocation-profiles): each application run
// alone on n = step, 2 step, ..., K SMs (the others power-gated), one point per
// n with the paper's tuple A(n, opt, IPC, MB, L2->L1, MCR, pow, powEf).
// `gpupm experiment sm-allocation` measures them (static-point runs) and writes
// them as JSON; the SM allocation policies read that file (policy.profiles).
//
// File format (every key is checked; bad input names the file, JSON path and
// what is allowed):
//   {"format": "gpupm-sm-profiles", "gpu": "gtx480_60sm", "sms": 60, "step": 5,
//    "class_thresholds": {"active_mbu": 0.25, "active_l2_l1_gbps": 50, "cache_l2_hit": 0.5, "mixed_l2_hit": 0.25},
//    "apps": [{"name": "a1", "class": "A", "opt": 60,
//              "points": [{"n": 5, "time_s": ..., "ipc": ..., "power_w": ..., "pow_ef": ...,
//                          "dram_gbps": ..., "mbu": ..., "l2_l1_gbps": ..., "l2_hit_rate": ...,
//                          "mcr": ...}, ...]}]}
// points: exactly n = step, 2 step, ..., sms in order; opt: one of them.
#pragma once

#include "gpupm/common/json_fwd.h"

#include <cstdint>
#include <string>
#include <vector>

namespace gpupm {

struct ProfilePoint {
  uint32_t n = 0;         // SMs the application ran on
  double time_s = 0;      // its run time
  double ipc = 0;         // warp instructions per SM-domain cycle (whole GPU)
  double power_w = 0;     // average power
  double pow_ef = 0;      // IPC / W
  double dram_gbps = 0;   // MB: DRAM bandwidth
  double mbu = 0;         // DRAM data-bus utilisation, 0..1
  double l2_l1_gbps = 0;  // L2 -> L1 bandwidth (read data returned to the SMs)
  double l2_hit_rate = 0;
  double mcr = 0;  // memory / compute instructions
};

// Thresholds of the class assignment (the paper follows [7], whose thresholds
// are not in the seed: these are ours), applied to the run on all K SMs. The
// paper's two bandwidths say whether the memory system matters, the L2 hit rate
// where the traffic is served:
//   A   mbu < active_mbu and l2_l1_gbps < active_l2_l1_gbps (compute: little traffic)
//   C   otherwise, l2_hit_rate >= cache_l2_hit           (served by the L2)
//   MC  otherwise, l2_hit_rate >= mixed_l2_hit           (both)
//   M   otherwise                                         (served by DRAM)
struct ClassThresholds {
  double active_mbu = 0.25;
  double active_l2_l1_gbps = 50.0;
  double cache_l2_hit = 0.50;
  double mixed_l2_hit = 0.25;
};
std::string classify(const ProfilePoint& full_gpu, const ClassThresholds& t);
// The optional object `key` of `parent` (defaults where absent).
ClassThresholds parse_class_thresholds(JsonReader& parent, const std::string& key);
Json class_thresholds_json(const ClassThresholds& t);

struct AppProfile {
  std::string name;
  std::string cls;                           // A, M, C or MC
  uint32_t opt = 0;                          // the n with the highest pow_ef
  std::vector<ProfilePoint> points;          // n = step, 2 step, ..., K
  const ProfilePoint& at(uint32_t n) const;  // throws std::out_of_range for an n not profiled
};

struct ProfileSet {
  std::string gpu;
  uint32_t sms = 0, step = 0;
  ClassThresholds thresholds;
  std::vector<AppProfile> apps;
  const AppProfile* find(const std::string& name) const;
};

// The n with the highest pow_ef (ties: the smaller n).
uint32_t best_pow_ef(const std::vector<ProfilePoint>& points);

ProfileSet load_profiles(const std::string& file);
ProfileSet parse_profiles(const Json& doc, const std::string& file);
Json profiles_json(const ProfileSet& p);

// The profiles of a two-application workload, in app order, checked against the
// GPU: the file must hold both names and be made for sm_count SMs (else InputError
// naming the file). *step receives the profiles' SM step.
std::vector<AppProfile> profiles_for_apps(const std::string& file, const std::vector<std::string>& app_names,
                                          uint32_t sm_count, uint32_t* step);

}  // namespace gpupm
