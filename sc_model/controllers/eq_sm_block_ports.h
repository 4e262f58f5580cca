// Drives the Verilated eq_sm_block's input ports from an EqSmIn: one mapping
// for the platform's RTL wrapper (eq_sm_impl.cc) and tb/. The per-warp vectors
// are at most 64 bits (WARPS <= 64), so native integer ports; `warp_mask`
// keeps the WARPS bits the block has.
#pragma once

#include "controllers/eq_sm_block.h"

#include <cstdint>
#include <type_traits>

namespace gpupm::rtl {

template <class Top>
void drive_eq_sm_block(Top& t, const EqSmIn& in, uint64_t warp_mask) {
  using V = std::remove_reference_t<decltype(t.warp_valid_i)>;
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

}  // namespace gpupm::rtl
