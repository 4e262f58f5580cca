// The droop predictor's port map (rtl/droop_predictor.sv <-> DroopPredIn /
// DroopPredOut) and its traits for Controller<> (controller.h); also the
// testbench's (tb/). cand_class_i[2s+1:2s] = slot s's class,
// weights_i[6c+5:6c] = class c's weight. admit, predict and throttled are
// combinational (eval()), the rest registers.
#pragma once

#include "gpupm/controllers/controller.h"
#include "gpupm/controllers/droop_predictor.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace gpupm {

struct DroopPredPorts : ControllerPortsBase {
  using Model = DroopPredictor;
  using Params = DroopPredParams;
  using In = DroopPredIn;
  using Out = DroopPredOut;
  using Raw = std::array<uint64_t, 7>;  // the outputs in port order
  static constexpr std::size_t kCombOutputs = 3;
  static constexpr const char* kBlock = "droop_predictor";
  static constexpr const char* kParamNames[] = {"SLOTS"};
  static constexpr const char* kBuiltAs = "; built: {names} ";

  static std::array<uint32_t, 1> param_values(const Params& p) { return {p.slots}; }

  static const std::vector<std::string>& signals() {
    static const std::vector<std::string> s = {"admit_o", "predict_o", "throttled_o",  "h0_o",
                                               "h1_o",    "h2_o",      "block_count_o"};
    return s;
  }

  static Raw to_raw(const Out& o) { return {o.admit, o.predict, o.throttled, o.h0, o.h1, o.h2, o.block_count}; }

  static Out from_raw(const Raw& r) {
    Out o;
    o.admit = uint8_t(r[0]), o.predict = r[1] != 0, o.throttled = r[2] != 0;
    o.h0 = uint8_t(r[3]), o.h1 = uint8_t(r[4]), o.h2 = uint8_t(r[5]), o.block_count = uint8_t(r[6]);
    return o;
  }

  // advance(n): n edges without candidates (DroopPredictor::idle).
  static In held(In in) {
    in.cand_valid = 0;
    return in;
  }
  static void advance_model(Model& m, uint64_t n) { m.idle(n); }

  static std::string describe(const In& in, const Params& p, uint64_t /*cycle*/) {
    std::string s = "inputs: cand_valid=" + std::to_string(in.cand_valid & ((1u << p.slots) - 1)) + " class=";
    for (unsigned i = 0; i < p.slots; ++i) s += char('0' + (int(in.cand_class[i]) & 3));
    s += " enable=" + std::to_string(in.enable) + " weights=";
    for (unsigned c = 0; c < 4; ++c) s += (c ? "," : "") + std::to_string(in.weight[c] & 0x3f);
    return s + " t2=" + std::to_string(in.t2) + " t3=" + std::to_string(in.t3) + " t4=" + std::to_string(in.t4) +
           " max_block=" + std::to_string(in.max_block & 7);
  }

  template <class Top>
  static void drive(Top& t, const In& in, const Params& p) {
    uint32_t cls = 0, w = 0;
    for (unsigned s = 0; s < p.slots; ++s) cls |= (uint32_t(in.cand_class[s]) & 3u) << (2 * s);
    for (unsigned c = 0; c < 4; ++c) w |= (uint32_t(in.weight[c]) & 0x3fu) << (6 * c);
    t.cand_valid_i = uint8_t(in.cand_valid & ((1u << p.slots) - 1));
    t.cand_class_i = uint8_t(cls);
    t.enable_i = in.enable;
    t.weights_i = w;
    t.t2_i = in.t2;
    t.t3_i = in.t3;
    t.t4_i = in.t4;
    t.max_block_i = in.max_block & 7;
  }

  template <class Top>
  static Raw read(const Top& t, const Params&) {
    return {t.admit_o, t.predict_o, t.throttled_o, t.h0_o, t.h1_o, t.h2_o, t.block_count_o};
  }
};

}  // namespace gpupm
