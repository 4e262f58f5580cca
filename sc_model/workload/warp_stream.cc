#include "gpupm/workload/warp_stream.h"

#include <cmath>

namespace gpupm {

void WarpStream::start(const KernelLaunch* launch, uint32_t cta, uint32_t warp) {
  k_ = launch;
  cta_ = cta;
  warp_ = warp;
  rng_.reseed(seed_of(launch->seed, cta, warp));
  double scale = cta < launch->long_ctas ? launch->long_cta_scale : 1.0;
  length_ = std::max<uint64_t>(1, uint64_t(std::llround(double(launch->insts_per_warp) * scale)));
  stream_cap_ = uint64_t(double(launch->insts_per_warp) * (launch->long_ctas ? launch->long_cta_scale : 1.0));
  stream_stride_ = 1;
  for (const Phase& ph : launch->phases)
    stream_stride_ = std::max<uint64_t>(stream_stride_, ph.memory.lines_per_access);
  index_ = 0;
  stream_k_ = 0;
  enter_phase(0);
  // A random start inside the first ALU run keeps warps from marching in lockstep.
  alu_left_ = uint32_t(rng_.below(uint64_t(alu_left_) + 1));
}

void WarpStream::enter_phase(uint32_t p) {
  phase_ = p;
  double cum = 0.0;
  for (uint32_t i = 0; i <= p; ++i) cum += k_->phases[i].fraction;
  phase_end_ = p + 1 == k_->phases.size() ? length_ : uint64_t(std::llround(cum * double(length_)));
  mem_left_ = 0;
  alu_left_ = draw_alu_run();
}

uint32_t WarpStream::draw_alu_run() {
  const InstructionMix& m = k_->phases[phase_].mix;
  // Mean alu_per_mem x burst, spread uniformly over [1 - j, 1 + j] of it
  // (j = alu_run_jitter): how quickly warps drift apart.
  double mean = m.alu_per_mem * m.mem_burst;
  double x = mean * (1.0 - m.alu_run_jitter + 2.0 * m.alu_run_jitter * rng_.uniform());
  uint32_t n = uint32_t(x);
  if (rng_.uniform() < x - n) ++n;
  return n;
}

uint64_t WarpStream::draw_line(const MemoryPattern& m) {
  const uint64_t lpa = m.lines_per_access;
  double u = rng_.uniform();
  auto random_slot = [&](uint64_t set_bytes) {
    uint64_t slots = std::max<uint64_t>(1, set_bytes / 128 / lpa);
    return rng_.below(slots) * lpa;
  };
  if (u < m.stream) {
    uint64_t warps = k_->warps_per_cta;
    uint64_t k = stream_k_++ % std::max<uint64_t>(1, stream_cap_);
    // Grid-stride order: at step k the CTAs running together touch adjacent
    // lines, as a grid-stride loop over an array does (DRAM row locality).
    // Slots of the largest coalescing of any phase, so phases never overlap.
    return k_->address_base + ((k * k_->grid_ctas + cta_) * warps + warp_) * stream_stride_;
  }
  u -= m.stream;
  if (u < m.warp_reuse) {
    uint64_t max_set = 0;
    for (const Phase& ph : k_->phases) max_set = std::max(max_set, ph.memory.warp_set_bytes / 128);
    uint64_t w = uint64_t(cta_) * k_->warps_per_cta + warp_;
    return k_->address_base + k_->warp_sets_base + w * (max_set + 32) + random_slot(m.warp_set_bytes);
  }
  u -= m.warp_reuse;
  if (u < m.cta_reuse) {
    uint64_t max_set = 0;
    for (const Phase& ph : k_->phases) max_set = std::max(max_set, ph.memory.cta_set_bytes / 128);
    return k_->address_base + k_->cta_sets_base + uint64_t(cta_) * (max_set + 32) + random_slot(m.cta_set_bytes);
  }
  return k_->kernel_base + random_slot(m.global_set_bytes);
}

Inst WarpStream::next() {
  while (index_ >= phase_end_ && phase_ + 1 < k_->phases.size()) enter_phase(phase_ + 1);
  const Phase& ph = k_->phases[phase_];
  const InstructionMix& m = ph.mix;
  Inst in;
  uint32_t dep = m.dep_min + uint32_t(rng_.below(m.dep_max - m.dep_min + 1));
  in.dep = uint8_t(dep <= index_ ? dep : 0);
  if (m.barrier_interval && (index_ + 1) % m.barrier_interval == 0) {
    in.op = InstClass::Barrier;
    in.dep = 0;
  } else if (mem_left_ == 0 && alu_left_ > 0) {
    --alu_left_;
    in.op = rng_.chance(m.sfu_fraction) ? InstClass::Sfu : InstClass::Alu;
    // Drawn only for divergent kernels, so other kernels' streams stay as they were.
    if (m.divergence > 0.0) in.divergent = rng_.chance(m.divergence);
  } else {
    if (mem_left_ == 0) mem_left_ = m.mem_burst;
    --mem_left_;
    if (mem_left_ == 0) alu_left_ = draw_alu_run();
    in.op = rng_.chance(m.store_fraction) ? InstClass::Store : InstClass::Load;
    in.lines = uint8_t(ph.memory.lines_per_access);
    in.line = draw_line(ph.memory);
  }
  ++index_;
  return in;
}

}  // namespace gpupm
