// Equalizer's Algorithm 1 (docs/papers.md#equalizer-algorithm-1, I2 fixed) as a pure function of one
// epoch's warp-state sums: the combinational decision logic of the per-SM block.
#pragma once

#include "gpupm/controllers/vote_arbiter.h"  // VfVote: the code the frequency manager reads

#include <cstdint>

namespace gpupm {

// How Alg. 1's per-sample thresholds (W_cta, 2, nActive/2) meet sums of 2^L samples.
enum class ThresholdMode : uint8_t {
  kExactSums = 0,          // the exact average: S_mem > 2^L*W_cta, S_mem > 2^L*2, 2*S_wait > S_active, ...
  kTruncatedAverages = 1,  // every n of Alg. 1 is floor(S / 2^L), then Alg. 1 as written
};

// One value per outcome of Alg. 1, for coverage (3 bits). 0 is the reset value. RTL codes: rtl/gpupm_pkg.sv.
enum class EqBranch : uint8_t {
  kDegenerateNone = 0,  // no line matched (unsaturated, most warps not waiting)
  kMemDefinite = 1,     // line 7:  nMem > W_cta                  -> blocks-1, MEM
  kCompDefinite = 2,    // line 10: nALU > W_cta                  -> COMP
  kMemLikely = 3,       // line 12: nMem > 2                      -> MEM
  kUnsatComp = 4,       // line 14, 16: nWaiting > nActive/2, nALU > nMem  -> blocks+1, COMP
  kUnsatMem = 5,        // line 14, 18: as above, nALU <= nMem (tie: MEM)  -> blocks+1, MEM
  kIdle = 6,            // line 21: nActive == 0                  -> COMP
};

// Per-epoch sums of the per-sample warp counts (11 bits with the defaults);
// the same struct carries one sample's popcounts.
struct EqSums {
  uint16_t active = 0, waiting = 0, xalu = 0, xmem = 0;
};
inline bool operator==(const EqSums& a, const EqSums& b) {
  return a.active == b.active && a.waiting == b.waiting && a.xalu == b.xalu && a.xmem == b.xmem;
}

struct EqDecision {
  int8_t block_delta = 0;  // wanted numBlocks change (-1/0/+1), before hysteresis
  VfVote vote = VfVote::kNone;
  EqBranch branch = EqBranch::kDegenerateNone;
};

constexpr uint8_t kDefaultEpochSamplesLog2 = 5;  // 32 samples per epoch
constexpr uint8_t kWctaMask = 0x1f;              // W_cta[4:0]

// w_cta is masked to 5 bits. epoch_samples_log2 = L, the number of samples summed is 2^L.
EqDecision decide(const EqSums& sums, uint8_t w_cta, ThresholdMode mode,
                  uint8_t epoch_samples_log2 = kDefaultEpochSamplesLog2);

const char* branch_name(EqBranch b);

}  // namespace gpupm
