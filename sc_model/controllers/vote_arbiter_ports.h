// Drives the Verilated vote_arbiter's input ports from a VoteArbiterIn: one
// mapping for the platform's RTL wrapper (vote_arbiter_impl.cc) and tb/.
// votes_i[2*i+1:2*i] = SM i's vote; up to 64 SMs (128 bits).
#pragma once

#include "controllers/vote_arbiter.h"

#include <verilated.h>

#include <array>
#include <cstdint>

namespace gpupm::rtl {

template <class T>
void set_vote_port(T& port, const std::array<uint32_t, 4>& w) {  // up to 64 bits: a native integer port
  port = static_cast<T>(uint64_t(w[0]) | uint64_t(w[1]) << 32);
}
template <std::size_t N>
void set_vote_port(VlWide<N>& port, const std::array<uint32_t, 4>& w) {
  for (std::size_t i = 0; i < N; ++i) port[i] = i < w.size() ? w[i] : 0;
}

template <class Top>
void drive_vote_arbiter(Top& t, const VoteArbiterIn& in, uint8_t n_sms) {
  std::array<uint32_t, 4> words{};
  for (int i = 0; i < n_sms; ++i) words[(2 * i) / 32] |= uint32_t(in.votes[i] & 3) << ((2 * i) % 32);
  set_vote_port(t.votes_i, words);
  t.votes_valid_i = in.votes_valid;
  t.mode_i = uint8_t(in.mode);
  t.rule_i = uint8_t(in.rule);
  t.sm_transition_cycles_i = in.sm_transition_cycles & 0xfff;
  t.mem_transition_cycles_i = in.mem_transition_cycles & 0xfff;
}

}  // namespace gpupm::rtl
