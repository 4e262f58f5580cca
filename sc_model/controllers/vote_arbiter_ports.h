// The vote arbiter's port map (rtl/vote_arbiter.sv <-> VoteArbiterIn / Out)
// and its traits for Controller<> (controller.h); also the testbench's (tb/).
// votes_i[2*i+1:2*i] = SM i's vote; up to 64 SMs (128 bits).
#pragma once

#include "gpupm/controllers/controller.h"
#include "gpupm/controllers/port_bits.h"
#include "gpupm/controllers/vote_arbiter.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace gpupm {

struct VoteArbiterPorts : ControllerPortsBase {
  using Model = VoteArbiter;
  using Params = VoteArbiterParams;
  using In = VoteArbiterIn;
  using Out = VoteArbiterOut;
  using Raw = std::array<uint64_t, 13>;
  static constexpr const char* kBlock = "vote_arbiter";
  static constexpr const char* kParamNames[] = {"N_SMS"};
  static constexpr const char* kBuiltAs = " (the GPU's SM count); built: ";

  static std::array<uint32_t, 1> param_values(const Params& p) { return {p.n_sms}; }

  static const std::vector<std::string>& signals() {
    static const std::vector<std::string> s = {
        "sm_level_o", "mem_level_o", "sm_changed_o", "mem_changed_o", "sm_busy_o",   "mem_busy_o",  "busy_o",
        "decided_o",  "winner_o",    "action_o",     "count_comp_o",  "count_mem_o", "count_none_o"};
    return s;
  }

  static Raw to_raw(const Out& o) {
    return {uint64_t(o.sm_level),
            uint64_t(o.mem_level),
            o.sm_changed,
            o.mem_changed,
            o.sm_busy,
            o.mem_busy,
            o.busy,
            o.decided,
            uint64_t(o.winner),
            uint64_t(o.action),
            o.counts.comp,
            o.counts.mem,
            o.counts.none};
  }

  static Out from_raw(const Raw& r) {
    Out o;
    o.sm_level = VfLevelCode(r[0]);
    o.mem_level = VfLevelCode(r[1]);
    o.sm_changed = r[2], o.mem_changed = r[3], o.sm_busy = r[4], o.mem_busy = r[5], o.busy = r[6];
    o.decided = r[7];
    o.winner = VfVote(r[8]);
    o.action = ArbiterAction(r[9]);
    o.counts = {uint8_t(r[10]), uint8_t(r[11]), uint8_t(r[12])};
    return o;
  }

  // The votes are read on the valid pulse only.
  static In held(In in) {
    in.votes_valid = false;
    return in;
  }

  static std::string describe(const In& in, const Params& p, uint64_t /*cycle*/) {
    std::string votes;
    for (int i = p.n_sms - 1; i >= 0; --i) votes += char('0' + (in.votes[i] & 3));
    return "inputs: votes_valid=" + std::to_string(in.votes_valid) + " votes(SM " + std::to_string(p.n_sms - 1) +
           "..0)=" + votes + " mode=" + std::to_string(int(in.mode)) + " rule=" + std::to_string(int(in.rule)) +
           " sm_T=" + std::to_string(in.sm_transition_cycles & 0xfff) +
           " mem_T=" + std::to_string(in.mem_transition_cycles & 0xfff);
  }

  template <class Top>
  static void drive(Top& t, const In& in, const Params& p) {
    std::array<uint32_t, 4> words{};
    for (int i = 0; i < p.n_sms; ++i) words[(2 * i) / 32] |= uint32_t(in.votes[i] & 3) << ((2 * i) % 32);
    rtl::set_port_words(t.votes_i, words);
    t.votes_valid_i = in.votes_valid;
    t.mode_i = uint8_t(in.mode);
    t.rule_i = uint8_t(in.rule);
    t.sm_transition_cycles_i = in.sm_transition_cycles & 0xfff;
    t.mem_transition_cycles_i = in.mem_transition_cycles & 0xfff;
  }

  template <class Top>
  static Raw read(const Top& t, const Params&) {
    return {t.sm_level_o, t.mem_level_o, t.sm_changed_o, t.mem_changed_o, t.sm_busy_o,   t.mem_busy_o,  t.busy_o,
            t.decided_o,  t.winner_o,    t.action_o,     t.count_comp_o,  t.count_mem_o, t.count_none_o};
  }
};

}  // namespace gpupm
