// The stagger unit's port map (rtl/stagger_unit.sv <-> StaggerIn / StaggerOut)
// and its traits for Controller<> (controller.h); also the testbench's (tb/).
// hold_count_o[14*i+13:14*i] and age_o[2*i+1:2*i] are SM i's; the raw vector is
// the six scalar outputs, then hold_count of SMs 0..63, then age of SMs 0..63
// (zero beyond N_SMS).
#pragma once

#include "gpupm/controllers/controller.h"
#include "gpupm/controllers/port_bits.h"
#include "gpupm/controllers/stagger_unit.h"

#include <array>
#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace gpupm {

struct StaggerPorts : ControllerPortsBase {
  using Model = StaggerUnit;
  using Params = StaggerParams;
  using In = StaggerIn;
  using Out = StaggerOut;
  static constexpr std::size_t kScalars = 6;
  using Raw = std::array<uint64_t, kScalars + 2 * kStaggerMaxSms>;
  static constexpr const char* kBlock = "stagger_unit";
  static constexpr const char* kParamNames[] = {"N_SMS", "REPORT_PERIOD", "WINDOW_SLOTS"};
  static constexpr const char* kBuiltAs = "; built: {names} ";

  static std::array<uint32_t, 3> param_values(const Params& p) { return {p.n_sms, p.report_period, p.window_slots}; }

  static const std::vector<std::string>& signals() {
    static const std::vector<std::string> s = [] {
      std::vector<std::string> v = {"hold_o",        "trigger_o",  "pending_o",
                                    "last_active_o", "triggers_o", "report_count_o"};
      for (unsigned i = 0; i < kStaggerMaxSms; ++i) v.push_back("hold_count_o[" + std::to_string(i) + "]");
      for (unsigned i = 0; i < kStaggerMaxSms; ++i) v.push_back("age_o[" + std::to_string(i) + "]");
      return v;
    }();
    return s;
  }

  static Raw to_raw(const Out& o) {
    Raw r{o.hold, o.trigger, o.pending, o.last_active, o.triggers, o.report_count};
    for (unsigned i = 0; i < kStaggerMaxSms; ++i) {
      r[kScalars + i] = o.hold_count[i];
      r[kScalars + kStaggerMaxSms + i] = o.age[i];
    }
    return r;
  }

  static Out from_raw(const Raw& r) {
    Out o;
    o.hold = r[0], o.trigger = r[1] != 0, o.pending = r[2], o.last_active = r[3];
    o.triggers = uint16_t(r[4]), o.report_count = uint8_t(r[5]);
    for (unsigned i = 0; i < kStaggerMaxSms; ++i) {
      o.hold_count[i] = uint16_t(r[kScalars + i]);
      o.age[i] = uint8_t(r[kScalars + kStaggerMaxSms + i]);
    }
    return o;
  }

  static In held(const In& in) { return in; }  // no input is read off the strobe

  // StaggerUnit::advance's precondition: no report strobe skipped.
  template <class Controller>
  static void check_advance(const Controller& c, uint64_t n) {
    if (n > c.cycles_to_strobe())
      throw std::logic_error("StaggerUnit::advance(" + std::to_string(n) + "): skips a report strobe (" +
                             std::to_string(c.cycles_to_strobe()) + " cycles away)");
  }
  static uint32_t cycles_to_strobe(const Model& m) { return m.cycles_to_strobe(); }
  static uint32_t cycles_to_strobe(const Params& p, uint64_t /*rtl_cycle*/, const Out& o) {
    return uint32_t(p.report_period - 1 - o.report_count);
  }

  static uint64_t sm_mask(uint8_t n_sms) { return n_sms >= 64 ? ~0ull : (1ull << n_sms) - 1; }

  static std::string describe(const In& in, const Params& p, uint64_t /*cycle*/) {
    char active[24];
    std::snprintf(active, sizeof active, "%llx", (unsigned long long)(in.sm_active & sm_mask(p.n_sms)));
    return "inputs: sm_active=0x" + std::string(active) + " enable=" + std::to_string(in.enable) +
           " k_min=" + std::to_string(in.k_min & 0x3f) + " step=" + std::to_string(in.step_cycles) +
           " policy=" + std::to_string(int(in.policy) & 3) + " groups=" + std::to_string(in.groups & 7);
  }

  template <class Top>
  static void drive(Top& t, const In& in, const Params& p) {
    using A = std::remove_reference_t<decltype(t.sm_active_i)>;
    t.sm_active_i = A(in.sm_active & sm_mask(p.n_sms));
    t.enable_i = in.enable;
    t.k_min_i = in.k_min & 0x3f;
    t.step_cycles_i = in.step_cycles;
    t.policy_i = uint8_t(in.policy) & 3;
    t.groups_i = in.groups & 7;
  }

  template <class Top>
  static Raw read(const Top& t, const Params& p) {
    Raw r{t.hold_o, t.trigger_o, t.pending_o, t.last_active_o, t.triggers_o, t.report_count_o};
    for (unsigned i = 0; i < p.n_sms; ++i) {
      r[kScalars + i] = rtl::port_bits(t.hold_count_o, 14 * i, 14);
      r[kScalars + kStaggerMaxSms + i] = rtl::port_bits(t.age_o, 2 * i, 2);
    }
    return r;
  }
};

}  // namespace gpupm
