#include "gpupm/controllers/stagger_unit.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace gpupm {

StaggerUnit::StaggerUnit(const StaggerParams& p) : p_(p) {
  if (p.n_sms < 1 || p.n_sms > kStaggerMaxSms || p.report_period < 1 || p.report_period > 16 || p.window_slots < 1 ||
      p.window_slots > 3)
    throw std::invalid_argument("StaggerUnit: n_sms " + std::to_string(p.n_sms) + ", report_period " +
                                std::to_string(p.report_period) + ", window_slots " + std::to_string(p.window_slots) +
                                " outside 1..64, 1..16, 1..3");
}

uint32_t StaggerUnit::cycles_to_strobe() const { return uint32_t(p_.report_period - 1 - out_.report_count); }

const StaggerOut& StaggerUnit::step(const StaggerIn& in) {
  const bool strobe = out_.report_count == p_.report_period - 1;
  const uint64_t all = p_.n_sms >= 64 ? ~0ull : (1ull << p_.n_sms) - 1;
  StaggerOut& o = out_;
  // Hold counters count down; the last edge's detection loads its SMs' holds.
  for (unsigned i = 0; i < p_.n_sms; ++i) {
    if (o.trigger && (load_mask_ >> i & 1)) o.hold_count[i] = load_val_[i];
    else if (o.hold_count[i]) --o.hold_count[i];
  }
  o.trigger = false;
  o.report_count = strobe ? 0 : uint8_t(o.report_count + 1);
  if (strobe) {
    const uint64_t active = in.sm_active & all;
    const uint64_t rising = active & ~o.last_active;
    o.last_active = active;
    // Age the pending transitions (expiring at WINDOW_SLOTS), then add this slot's.
    for (unsigned i = 0; i < p_.n_sms; ++i) {
      const uint64_t b = 1ull << i;
      if (rising & b) {
        o.pending |= b;
        o.age[i] = 0;
      } else if ((o.pending & b) && o.age[i] + 1 < p_.window_slots) {
        ++o.age[i];
      } else {
        o.pending &= ~b;
        o.age[i] = 0;
      }
    }
    const unsigned n = unsigned(__builtin_popcountll(o.pending));
    if (in.enable && n >= (in.k_min & 0x3fu)) {
      // Rank: oldest transition first, then lowest SM id.
      std::array<uint8_t, kStaggerMaxSms> order{};
      unsigned k = 0;
      for (unsigned i = 0; i < p_.n_sms; ++i)
        if (o.pending >> i & 1) order[k++] = uint8_t(i);
      std::stable_sort(order.begin(), order.begin() + k, [&](uint8_t a, uint8_t b) { return o.age[a] > o.age[b]; });
      const unsigned groups = (in.groups & 7u) ? (in.groups & 7u) : 1u;
      for (unsigned r = 0; r < k; ++r) {
        unsigned m = r;  // kCumulative and reserved 3
        if (in.policy == StaggerPolicy::kUniform) m = 1;
        else if (in.policy == StaggerPolicy::kGrouped) m = r % groups;
        load_val_[order[r]] = uint16_t(in.step_cycles * m);
      }
      load_mask_ = o.pending;
      o.pending = 0;
      o.age = {};
      o.trigger = true;
      if (o.triggers != 0xffff) ++o.triggers;
    }
  }
  o.hold = 0;
  for (unsigned i = 0; i < p_.n_sms; ++i)
    if (o.hold_count[i]) o.hold |= 1ull << i;
  return o;
}

void StaggerUnit::advance(uint32_t n) {
  if (n > cycles_to_strobe())
    throw std::logic_error("StaggerUnit::advance(" + std::to_string(n) + "): skips a report strobe (" +
                           std::to_string(cycles_to_strobe()) + " cycles away)");
  if (n == 0) return;
  out_.report_count = uint8_t(out_.report_count + n);
  out_.hold = 0;
  for (unsigned i = 0; i < p_.n_sms; ++i) {
    const bool load = out_.trigger && (load_mask_ >> i & 1);  // at the first of the n edges
    const uint32_t v = load ? load_val_[i] : out_.hold_count[i], down = load ? n - 1 : n;
    out_.hold_count[i] = uint16_t(v > down ? v - down : 0);
    if (out_.hold_count[i]) out_.hold |= 1ull << i;
  }
  out_.trigger = false;
}

}  // namespace gpupm
