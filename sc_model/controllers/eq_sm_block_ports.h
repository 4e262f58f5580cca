// The Equalizer per-SM block's port map (rtl/eq_sm_block.sv <-> EqSmIn /
// EqSmOut) and its traits for Controller<> (controller.h); also the
// testbench's (tb/). The per-warp vectors are at most 64 bits (WARPS <= 64),
// so native integer ports; bits >= WARPS are driven 0.
#pragma once

#include "gpupm/controllers/controller.h"
#include "gpupm/controllers/eq_sm_block.h"

#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace gpupm {

struct EqSmPorts : ControllerPortsBase {
  using Model = EqSmBlock;
  using Params = EqSmParams;
  using In = EqSmIn;
  using Out = EqSmOut;
  using Raw = std::array<uint64_t, 9>;  // the outputs in port order
  static constexpr const char* kBlock = "eq_sm_block";
  static constexpr const char* kParamNames[] = {"WARPS", "SAMPLE_LOG2", "EPOCH_LOG2"};
  static constexpr const char* kBuiltAs = "; built {names}: ";

  static std::array<uint32_t, 3> param_values(const Params& p) {
    return {p.warps, p.sample_period_log2, p.epoch_samples_log2};
  }

  static const std::vector<std::string>& signals() {
    static const std::vector<std::string> s = {"epoch_done_o", "blk_req_o",    "vote_o",
                                               "branch_o",     "sum_active_o", "sum_waiting_o",
                                               "sum_xalu_o",   "sum_xmem_o",   "num_blocks_o"};
    return s;
  }

  static Raw to_raw(const Out& o) {
    return {o.epoch_done,     uint64_t(uint8_t(o.blk_req) & 3u),
            uint64_t(o.vote), uint64_t(o.branch),
            o.sums.active,    o.sums.waiting,
            o.sums.xalu,      o.sums.xmem,
            o.num_blocks};
  }

  static Out from_raw(const Raw& r) {
    Out o;
    o.epoch_done = r[0] != 0;
    o.blk_req = int8_t(r[1] & 2 ? int(r[1] & 3) - 4 : int(r[1] & 3));
    o.vote = VfVote(r[2]);
    o.branch = EqBranch(r[3]);
    o.sums = {uint16_t(r[4]), uint16_t(r[5]), uint16_t(r[6]), uint16_t(r[7])};
    o.num_blocks = uint8_t(r[8]);
    return o;
  }

  // kernel_start is a pulse; no other input is read off the sample strobes.
  static In held(In in) {
    in.kernel_start = false;
    return in;
  }

  // EqSmBlock::advance's preconditions: no sample or epoch strobe skipped. The
  // RTL's cycle counter is its edge count modulo the epoch (both start at reset).
  template <class Controller>
  static void check_advance(const Controller& c, uint64_t n) {
    if (n == 0) return;
    if (n > c.cycles_to_strobe()) throw std::invalid_argument("EqSmBlock::advance: skips a sample strobe");
    const uint64_t epoch_mask = mask(c.params().sample_period_log2 + c.params().epoch_samples_log2);
    if ((c.rtl_cycle() & epoch_mask) == epoch_mask)
      throw std::invalid_argument("EqSmBlock::advance: skips an epoch strobe");
  }
  static uint32_t cycles_to_strobe(const Model& m) { return m.cycles_to_next_sample(); }
  static uint32_t cycles_to_strobe(const Params& p, uint64_t rtl_cycle, const Out&) {
    const uint16_t sample_mask = mask(p.sample_period_log2);
    return sample_mask - uint32_t((rtl_cycle + 1) & sample_mask);
  }

  static std::string describe(const In& in, const Params& p, uint64_t cycle) {
    const uint64_t counter = cycle & mask(p.sample_period_log2 + p.epoch_samples_log2);
    return "block cycle counter " + std::to_string(counter) + ", " + gpupm::describe(in);
  }

  template <class Top>
  static void drive(Top& t, const In& in, const Params& p) {
    using V = std::remove_reference_t<decltype(t.warp_valid_i)>;
    const uint64_t warp_mask = p.warps >= 64 ? ~0ull : (1ull << p.warps) - 1;
    t.warp_valid_i = V(in.warp_valid & warp_mask);
    t.warp_paused_i = V(in.warp_paused & warp_mask);
    t.head_ready_i = V(in.head_ready & warp_mask);
    t.head_is_mem_i = V(in.head_is_mem & warp_mask);
    t.head_is_alu_i = V(in.head_is_alu & warp_mask);
    t.issued_i = V(in.issued & warp_mask);
    t.lsu_can_accept_i = in.lsu_can_accept;
    t.w_cta_i = in.w_cta & 0x1f;
    t.max_blocks_i = in.max_blocks & 0xf;
    t.kernel_start_i = in.kernel_start;
    t.enable_i = in.enable;
    t.xalu_def_i = uint8_t(in.xalu_def);
    t.xmem_def_i = uint8_t(in.xmem_def);
    t.threshold_mode_i = uint8_t(in.threshold_mode);
  }

  template <class Top>
  static Raw read(const Top& t, const Params&) {
    return {t.epoch_done_o,  t.blk_req_o,  t.vote_o,     t.branch_o,    t.sum_active_o,
            t.sum_waiting_o, t.sum_xalu_o, t.sum_xmem_o, t.num_blocks_o};
  }

 private:
  static uint16_t mask(unsigned bits) { return uint16_t((1u << bits) - 1); }
};

}  // namespace gpupm
