#include "gpupm/controllers/droop_predictor.h"

#include <stdexcept>
#include <string>

namespace gpupm {

namespace {

// The increments of `p` over the history stay within every threshold.
bool within(const DroopPredIn& in, const DroopPredOut& h, int p) {
  return p - h.h0 <= in.t2 && p - h.h1 <= in.t3 && p - h.h2 <= in.t4;
}

}  // namespace

DroopPredictor::DroopPredictor(const DroopPredParams& p) : p_(p) {
  if (p.slots < 1 || p.slots > kDroopPredMaxSlots)
    throw std::invalid_argument("DroopPredictor: slots " + std::to_string(p.slots) + " outside 1..4");
}

uint16_t DroopPredictor::estimate(const DroopPredIn& in, uint8_t mask) {
  uint16_t sum = 0;
  for (unsigned s = 0; s < kDroopPredMaxSlots; ++s)
    if (mask >> s & 1) sum += in.weight[unsigned(in.cand_class[s]) & 3] & 0x3f;
  return sum;
}

DroopPredOut DroopPredictor::eval(const DroopPredIn& in) const {
  DroopPredOut o = regs_;
  const uint8_t valid = in.cand_valid & uint8_t((1u << p_.slots) - 1);
  o.predict = !within(in, regs_, estimate(in, valid));
  // The longest prefix of the valid candidates (slot order) within the thresholds.
  uint8_t prefix = 0;
  for (unsigned s = 0; s < p_.slots; ++s) {
    if (!(valid >> s & 1)) continue;
    const uint8_t longer = prefix | uint8_t(1u << s);
    if (!within(in, regs_, estimate(in, longer))) break;
    prefix = longer;
  }
  const bool forced = regs_.block_count >= (in.max_block & 7);
  o.admit = !in.enable || forced ? valid : prefix;
  o.throttled = o.admit != valid;
  return o;
}

DroopPredOut DroopPredictor::step(const DroopPredIn& in) {
  DroopPredOut o = eval(in);
  regs_.h2 = regs_.h1;
  regs_.h1 = regs_.h0;
  regs_.h0 = uint8_t(estimate(in, o.admit));
  regs_.block_count = o.throttled ? uint8_t(regs_.block_count + 1) : 0;
  o.h0 = regs_.h0, o.h1 = regs_.h1, o.h2 = regs_.h2, o.block_count = regs_.block_count;
  return o;
}

void DroopPredictor::idle(uint64_t n) {
  // With no candidates nothing is throttled: zeros shift in, block_count clears.
  for (uint64_t i = 0; i < n && i < 3; ++i) {
    regs_.h2 = regs_.h1;
    regs_.h1 = regs_.h0;
    regs_.h0 = 0;
  }
  if (n) regs_.block_count = 0;
}

}  // namespace gpupm
