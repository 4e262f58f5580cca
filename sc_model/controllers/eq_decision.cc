#include "gpupm/controllers/eq_decision.h"

namespace gpupm {

EqDecision decide(const EqSums& s, uint8_t w_cta, ThresholdMode mode, uint8_t epoch_samples_log2) {
  // Alg. 1's n's, and the factor its constant thresholds are scaled by. Exact:
  // n = S and constants x 2^L (no division, no rounding). Truncated: n = S >> L.
  const bool truncate = mode == ThresholdMode::kTruncatedAverages;
  const uint8_t shift = truncate ? epoch_samples_log2 : 0;
  const uint32_t scale = truncate ? 1u : 1u << epoch_samples_log2;
  const uint32_t n_active = s.active >> shift, n_waiting = s.waiting >> shift;
  const uint32_t n_alu = s.xalu >> shift, n_mem = s.xmem >> shift;
  const uint32_t w_threshold = uint32_t(w_cta & kWctaMask) * scale;

  if (n_mem > w_threshold) return {-1, VfVote::kMem, EqBranch::kMemDefinite};
  if (n_alu > w_threshold) return {0, VfVote::kComp, EqBranch::kCompDefinite};
  if (n_mem > 2 * scale) return {0, VfVote::kMem, EqBranch::kMemLikely};
  // nWaiting > nActive/2 as 2*nWaiting > nActive: equal to integer nActive/2
  // (floor) for every integer pair, so no rounding choice hides here.
  if (2 * n_waiting > n_active) {
    if (n_alu > n_mem) return {+1, VfVote::kComp, EqBranch::kUnsatComp};
    return {+1, VfVote::kMem, EqBranch::kUnsatMem};
  }
  if (n_active == 0) return {0, VfVote::kComp, EqBranch::kIdle};
  return {};
}

const char* branch_name(EqBranch b) {
  switch (b) {
    case EqBranch::kDegenerateNone: return "degenerate_none";
    case EqBranch::kMemDefinite: return "mem_definite";
    case EqBranch::kCompDefinite: return "comp_definite";
    case EqBranch::kMemLikely: return "mem_likely";
    case EqBranch::kUnsatComp: return "unsat_comp";
    case EqBranch::kUnsatMem: return "unsat_mem";
    case EqBranch::kIdle: return "idle";
  }
  return "?";
}

}  // namespace gpupm
