#include "gpupm/controllers/eq_sm_block.h"

#include <cstdio>
#include <stdexcept>

namespace gpupm {

namespace {

uint16_t low_bits(unsigned width) { return uint16_t((1u << width) - 1); }

unsigned bit_width(uint32_t v) {
  unsigned w = 0;
  for (; v; v >>= 1) ++w;
  return w;
}

uint16_t popcount(uint64_t v) { return uint16_t(__builtin_popcountll(v)); }

}  // namespace

bool operator==(const EqSmOut& a, const EqSmOut& b) {
  return a.epoch_done == b.epoch_done && a.blk_req == b.blk_req && a.vote == b.vote && a.branch == b.branch &&
         a.sums == b.sums && a.num_blocks == b.num_blocks;
}

EqSums sample_warp_states(const EqSmIn& in, uint8_t warps) {
  const uint64_t mask = warps >= 64 ? ~0ull : (1ull << warps) - 1;
  const uint64_t active = in.warp_valid & ~in.warp_paused & mask;
  const uint64_t ready = active & in.head_ready;
  const uint64_t not_issued = ~in.issued;
  const uint64_t alu = ready & in.head_is_alu & (in.xalu_def == XaluDef::kAllReady ? ~0ull : not_issued);
  const uint64_t mem = ready & in.head_is_mem &
                       (in.xmem_def == XmemDef::kReadyMinusIssued ? not_issued
                        : in.lsu_can_accept                       ? 0ull
                                                                  : ~0ull);
  return {popcount(active), popcount(active & ~in.head_ready), popcount(alu), popcount(mem)};
}

EqSmBlock::EqSmBlock(const EqSmParams& params) : p_(params) {
  const unsigned cycle_bits = p_.sample_period_log2 + p_.epoch_samples_log2;
  const unsigned sum_bits = bit_width(uint32_t(p_.warps) << p_.epoch_samples_log2);
  if (p_.warps < 1 || p_.warps > 64 || cycle_bits > 16 || sum_bits > 16)
    throw std::invalid_argument("EqSmBlock: warps must be 1..64 and counters at most 16 bits");
  sample_mask_ = low_bits(p_.sample_period_log2);
  cycle_mask_ = low_bits(cycle_bits);
  sum_mask_ = low_bits(sum_bits);
  reset();
}

void EqSmBlock::reset() {
  cycle_q_ = 0;
  smp_q_ = {};
  acc_q_ = {};
  hyst_count_q_ = 0;
  hyst_up_q_ = false;
  out_ = {};
  invariants_ok_ = true;
}

const EqSmOut& EqSmBlock::step(const EqSmIn& in) {
  out_.epoch_done = false;
  out_.blk_req = 0;
  const uint16_t next = (cycle_q_ + 1) & cycle_mask_;
  const bool sample_strobe = (next & sample_mask_) == sample_mask_;
  const EqSums tot = accumulated();
  if (cycle_q_ == cycle_mask_) {  // epoch strobe
    end_epoch(in, tot);
    acc_q_ = {};
  } else {
    acc_q_ = tot;
  }
  smp_q_ = {};
  if (sample_strobe) {
    smp_q_ = sample_warp_states(in, p_.warps);
    check_sample(smp_q_);
  }
  if (in.kernel_start) {
    out_.num_blocks = in.max_blocks & 0xf;
    out_.blk_req = 0;
    hyst_count_q_ = 0;
  }
  cycle_q_ = next;
  return out_;
}

void EqSmBlock::advance(uint32_t n) {
  if (n == 0) return;
  if (n > cycles_to_next_sample()) throw std::invalid_argument("EqSmBlock::advance: skips a sample strobe");
  if (cycle_q_ == cycle_mask_) throw std::invalid_argument("EqSmBlock::advance: skips an epoch strobe");
  out_.epoch_done = false;
  out_.blk_req = 0;
  acc_q_ = accumulated();  // the first edge adds a pending sample; the others add zero
  smp_q_ = {};
  cycle_q_ = uint16_t((cycle_q_ + n) & cycle_mask_);
}

void EqSmBlock::check_sample(const EqSums& s) {
  if (s.waiting + s.xalu + s.xmem > s.active) invariants_ok_ = false;
}

EqSums EqSmBlock::accumulated() {
  const uint16_t bound = max_sum();
  EqSums t;
  auto add = [&](uint16_t& out, uint16_t acc, uint16_t v) {
    if (acc + v > bound) invariants_ok_ = false;
    out = (acc + v) & sum_mask_;
  };
  add(t.active, acc_q_.active, smp_q_.active);
  add(t.waiting, acc_q_.waiting, smp_q_.waiting);
  add(t.xalu, acc_q_.xalu, smp_q_.xalu);
  add(t.xmem, acc_q_.xmem, smp_q_.xmem);
  return t;
}

void EqSmBlock::end_epoch(const EqSmIn& in, const EqSums& sums) {
  out_.sums = sums;
  const EqDecision d = decide(out_.sums, in.w_cta, in.threshold_mode, p_.epoch_samples_log2);
  out_.branch = d.branch;
  out_.epoch_done = true;
  if (in.enable) {
    out_.vote = d.vote;
    out_.blk_req = hysteresis(d.block_delta, in.max_blocks & 0xf);
  } else {
    out_.vote = VfVote::kNone;
    hyst_count_q_ = 0;
  }
}

// Returns the committed change (-1/0/+1) and applies it to num_blocks.
int8_t EqSmBlock::hysteresis(int8_t wanted, uint8_t max_blocks) {
  const int target = out_.num_blocks + wanted;
  if (wanted == 0 || target < 1 || target > max_blocks) {
    hyst_count_q_ = 0;
    return 0;
  }
  const bool up = wanted > 0;
  hyst_count_q_ = (hyst_count_q_ != 0 && up == hyst_up_q_) ? hyst_count_q_ + 1 : 1;
  hyst_up_q_ = up;
  if (hyst_count_q_ < kHysteresisEpochs) return 0;
  hyst_count_q_ = 0;
  out_.num_blocks = uint8_t(target);
  return wanted;
}

std::string describe(const EqSmIn& in) {
  char b[512];
  std::snprintf(b, sizeof b,
                "inputs: valid=%016llx paused=%016llx ready=%016llx mem=%016llx alu=%016llx issued=%016llx "
                "lsu_can_accept=%d w_cta=%u max_blocks=%u kernel_start=%d enable=%d xalu_def=%d xmem_def=%d "
                "threshold_mode=%d",
                (unsigned long long)in.warp_valid, (unsigned long long)in.warp_paused,
                (unsigned long long)in.head_ready, (unsigned long long)in.head_is_mem,
                (unsigned long long)in.head_is_alu, (unsigned long long)in.issued, in.lsu_can_accept, in.w_cta & 0x1f,
                in.max_blocks & 0xf, in.kernel_start, in.enable, int(in.xalu_def), int(in.xmem_def),
                int(in.threshold_mode));
  return b;
}

}  // namespace gpupm
