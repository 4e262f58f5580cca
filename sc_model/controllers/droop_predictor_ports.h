// The Verilated droop_predictor's ports <-> DroopPredIn / DroopPredOut: one
// mapping for the platform's RTL wrapper (droop_predictor_impl.cc) and tb/.
// cand_class_i[2s+1:2s] = slot s's class, weights_i[6c+5:6c] = class c's weight.
#pragma once

#include "controllers/droop_predictor.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace gpupm::rtl {

// The outputs in port order, as integers.
constexpr std::size_t kDroopPredOutputs = 7;
using DroopPredRaw = std::array<uint64_t, kDroopPredOutputs>;

inline const std::vector<std::string>& droop_pred_signals() {
  static const std::vector<std::string> s = {"admit_o", "predict_o", "throttled_o", "h0_o",
                                             "h1_o",    "h2_o",      "block_count_o"};
  return s;
}

inline DroopPredRaw droop_pred_raw(const DroopPredOut& o) {
  return {o.admit, o.predict, o.throttled, o.h0, o.h1, o.h2, o.block_count};
}

inline DroopPredOut droop_pred_from_raw(const DroopPredRaw& r) {
  DroopPredOut o;
  o.admit = uint8_t(r[0]), o.predict = r[1] != 0, o.throttled = r[2] != 0;
  o.h0 = uint8_t(r[3]), o.h1 = uint8_t(r[4]), o.h2 = uint8_t(r[5]), o.block_count = uint8_t(r[6]);
  return o;
}

template <class Top>
void drive_droop_predictor(Top& t, const DroopPredIn& in, uint8_t slots) {
  uint32_t cls = 0, w = 0;
  for (unsigned s = 0; s < slots; ++s) cls |= (uint32_t(in.cand_class[s]) & 3u) << (2 * s);
  for (unsigned c = 0; c < 4; ++c) w |= (uint32_t(in.weight[c]) & 0x3fu) << (6 * c);
  t.cand_valid_i = uint8_t(in.cand_valid & ((1u << slots) - 1));
  t.cand_class_i = uint8_t(cls);
  t.enable_i = in.enable;
  t.weights_i = w;
  t.t2_i = in.t2;
  t.t3_i = in.t3;
  t.t4_i = in.t4;
  t.max_block_i = in.max_block & 7;
}

template <class Top>
DroopPredRaw read_droop_predictor(const Top& t) {
  return {t.admit_o, t.predict_o, t.throttled_o, t.h0_o, t.h1_o, t.h2_o, t.block_count_o};
}

inline std::string describe(const DroopPredIn& in, uint8_t slots) {
  std::string s = "inputs: cand_valid=" + std::to_string(in.cand_valid & ((1u << slots) - 1)) + " class=";
  for (unsigned i = 0; i < slots; ++i) s += char('0' + (int(in.cand_class[i]) & 3));
  s += " enable=" + std::to_string(in.enable) + " weights=";
  for (unsigned c = 0; c < 4; ++c) s += (c ? "," : "") + std::to_string(in.weight[c] & 0x3f);
  return s + " t2=" + std::to_string(in.t2) + " t3=" + std::to_string(in.t3) + " t4=" + std::to_string(in.t4) +
         " max_block=" + std::to_string(in.max_block & 7);
}

}  // namespace gpupm::rtl
