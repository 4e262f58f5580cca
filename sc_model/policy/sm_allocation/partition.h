// The decisions of the power-aware SM allocation paper and of its comparison
// points (docs/papers.md#sm-allocation-algorithm), as pure
// functions of the offline profiles (sm_profiles.h), so each is unit-tested
// without a simulation:
//   partition()            Algorithm 1 as the prose describes it
//   partition_as_printed() Algorithm 1 line by line (k initialised to 0: (0, 0)
//                          whenever opt1 + opt2 > K and neither opt is K)
//   aging_power_split()    Aging & Power aware (modified [18]): each app its
//                          minimum-time SM count within an IPC-loss margin,
//                          capped at half the SMs; the rest gated
//   perf_aging_split()     Performance & Aging aware [9]: each app the fewest SMs
//                          within a performance-loss margin of its best IPC; on a
//                          conflict both give up SMs, down to max_cut of their
//                          best IPC; not power-aware (nothing gated)
//   smra_decide()          ILP-SMRA's run-time rule [7] as we read it
//   min_cost_pairs()       exhaustive minimum-slowdown matching of a queue (the
//                          ILP of [7] is not in the seed)
// A Split gives app 0 SMs [0, k1) and app 1 SMs [k1, k1 + k2); SMs
// [k1 + k2, K) are left over (gated or idle, as the policy decides).
#pragma once

#include "gpupm/policy/sm_allocation/sm_profiles.h"

#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

namespace gpupm {

struct Split {
  uint32_t k1 = 0, k2 = 0;
  bool operator==(const Split& o) const { return k1 == o.k1 && k2 == o.k2; }
};

struct PartitionInput {
  uint32_t opt1 = 0, opt2 = 0;      // each application's most power-efficient SM count
  double pow_ef1 = 0, pow_ef2 = 0;  // its IPC/W there
  uint32_t k_tot = 0;               // SMs of the GPU
  uint32_t step = 5;                // SMs given up at a time (the profiles' step)
};
PartitionInput partition_input(const AppProfile& app1, const AppProfile& app2, uint32_t k_tot, uint32_t step);

// 1: App1 is the more power-efficient (App2 yields SMs), 2: otherwise (ties: 2).
int partition_case(const PartitionInput& in);
// Both get their opt if opt1 + opt2 <= K (surplus left over); otherwise an opt
// equal to K first drops to K - step (the co-running cap), then the less
// power-efficient application gives up `step` SMs at a time until k1 + k2 <= K.
Split partition(const PartitionInput& in);
// The printed pseudo-code: k1 = k2 = 0, set to opt only when opt1 + opt2 <= K,
// and to K - step only for an opt equal to K.
Split partition_as_printed(const PartitionInput& in);

// The fewest profiled SMs n <= cap whose IPC is within `loss` of the best IPC at
// n <= cap (loss 0: the minimum-time count).
uint32_t fewest_sms_within(const AppProfile& a, uint32_t cap, double loss);
Split even_split(uint32_t k_tot);
Split aging_power_split(const AppProfile& app1, const AppProfile& app2, uint32_t k_tot, double margin);
Split perf_aging_split(const AppProfile& app1, const AppProfile& app2, uint32_t k_tot, uint32_t step, double margin,
                       double max_cut);

// ILP-SMRA (reactive): what one monitoring window saw of each application.
struct SmraWindow {
  uint32_t sms[2] = {0, 0};   // SMs in each application's mask
  double ipc[2] = {0, 0};     // its instructions per SM-domain cycle over its SMs
  uint32_t idle[2] = {0, 0};  // its SMs that executed nothing in the window
};
struct SmraMove {
  int from = -1;  // the application giving SMs (-1: no move)
  uint32_t count = 0;
};
// An application that leaves at least `step` SMs idle while the other leaves
// none gives `step` SMs to it; otherwise the application whose IPC per SM is
// below (1 - imbalance) x the other's gives `step` SMs to the other. Neither
// goes below `step` SMs.
SmraMove smra_decide(const SmraWindow& w, uint32_t step, double imbalance);

// Pairs of an even-length queue (indices, i < j) minimising the summed cost over
// every perfect matching (exhaustive), the cheapest pair first. Ties: the first
// matching found (lowest indices paired first).
std::vector<std::pair<size_t, size_t>> min_cost_pairs(size_t n, const std::function<double(size_t, size_t)>& cost);
// First come, first served: (0, 1), (2, 3), ...
std::vector<std::pair<size_t, size_t>> fcfs_pairs(size_t n);
// Predicted slowdown of a pair co-running on an even split, from solo profiles
// only: each app's IPC on all K SMs over its IPC on K/2, times the DRAM
// contention factor max(1, (MB_a + MB_b at K/2) / MB_max), where MB_max is the
// most DRAM bandwidth either app reached alone at any n (what the memory system
// can deliver to such traffic: random accesses saturate it well below the bus
// peak). The pair's cost is the sum of both slowdowns.
double pair_slowdown(const AppProfile& a, const AppProfile& b, uint32_t k_tot, uint32_t step);

}  // namespace gpupm
