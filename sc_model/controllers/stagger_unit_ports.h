// The Verilated stagger_unit's ports <-> StaggerIn / StaggerOut: one mapping for
// the platform's RTL wrapper (stagger_unit_impl.cc) and tb/.
// hold_count_o[14*i+13:14*i] and age_o[2*i+1:2*i] are SM i's; the raw vector is
// the six scalar outputs, then hold_count of SMs 0..31, then age of SMs 0..31
// (zero beyond N_SMS).
#pragma once

#include "controllers/rtl_harness.h"
#include "controllers/stagger_unit.h"

#include <array>
#include <cstdint>
#include <cstdio>
#include <type_traits>
#include <string>
#include <vector>

namespace gpupm::rtl {

constexpr std::size_t kStaggerScalars = 6;
constexpr std::size_t kStaggerOutputs = kStaggerScalars + 2 * kStaggerMaxSms;
using StaggerRaw = std::array<uint64_t, kStaggerOutputs>;

inline const std::vector<std::string>& stagger_signals() {
  static const std::vector<std::string> s = [] {
    std::vector<std::string> v = {"hold_o", "trigger_o", "pending_o", "last_active_o", "triggers_o",
                                  "report_count_o"};
    for (unsigned i = 0; i < kStaggerMaxSms; ++i) v.push_back("hold_count_o[" + std::to_string(i) + "]");
    for (unsigned i = 0; i < kStaggerMaxSms; ++i) v.push_back("age_o[" + std::to_string(i) + "]");
    return v;
  }();
  return s;
}

inline StaggerRaw stagger_raw(const StaggerOut& o) {
  StaggerRaw r{o.hold, o.trigger, o.pending, o.last_active, o.triggers, o.report_count};
  for (unsigned i = 0; i < kStaggerMaxSms; ++i) {
    r[kStaggerScalars + i] = o.hold_count[i];
    r[kStaggerScalars + kStaggerMaxSms + i] = o.age[i];
  }
  return r;
}

inline StaggerOut stagger_from_raw(const StaggerRaw& r) {
  StaggerOut o;
  o.hold = uint32_t(r[0]), o.trigger = r[1] != 0, o.pending = uint32_t(r[2]), o.last_active = uint32_t(r[3]);
  o.triggers = uint16_t(r[4]), o.report_count = uint8_t(r[5]);
  for (unsigned i = 0; i < kStaggerMaxSms; ++i) {
    o.hold_count[i] = uint16_t(r[kStaggerScalars + i]);
    o.age[i] = uint8_t(r[kStaggerScalars + kStaggerMaxSms + i]);
  }
  return o;
}

inline uint32_t stagger_sm_mask(uint8_t n_sms) { return n_sms >= 32 ? ~0u : (1u << n_sms) - 1; }

template <class Top>
void drive_stagger_unit(Top& t, const StaggerIn& in, uint8_t n_sms) {
  using A = std::remove_reference_t<decltype(t.sm_active_i)>;
  t.sm_active_i = A(in.sm_active & stagger_sm_mask(n_sms));
  t.enable_i = in.enable;
  t.k_min_i = in.k_min & 0x3f;
  t.step_cycles_i = in.step_cycles;
  t.policy_i = uint8_t(in.policy) & 3;
  t.groups_i = in.groups & 7;
}

template <class Top>
StaggerRaw read_stagger_unit(const Top& t, uint8_t n_sms) {
  StaggerRaw r{t.hold_o, t.trigger_o, t.pending_o, t.last_active_o, t.triggers_o, t.report_count_o};
  for (unsigned i = 0; i < n_sms; ++i) {
    r[kStaggerScalars + i] = port_bits(t.hold_count_o, 14 * i, 14);
    r[kStaggerScalars + kStaggerMaxSms + i] = port_bits(t.age_o, 2 * i, 2);
  }
  return r;
}

inline std::string describe(const StaggerIn& in, uint8_t n_sms) {
  return "inputs: sm_active=0x" + [&] {
    char b[16];
    std::snprintf(b, sizeof b, "%x", in.sm_active & stagger_sm_mask(n_sms));
    return std::string(b);
  }() + " enable=" + std::to_string(in.enable) + " k_min=" + std::to_string(in.k_min & 0x3f) +
         " step=" + std::to_string(in.step_cycles) + " policy=" + std::to_string(int(in.policy) & 3) +
         " groups=" + std::to_string(in.groups & 7);
}

}  // namespace gpupm::rtl
