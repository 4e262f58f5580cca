// Deterministic per-warp instruction and address stream generated from a
// KernelLaunch: the same (launch seed, CTA, warp) always yields the same stream.
#pragma once

#include "gpupm/common/rng.h"
#include "gpupm/workload/kernel_profile.h"

#include <cstdint>

namespace gpupm {

// The class of a warp instruction as the SM issues and times it: drawn for a
// profile warp; for a program warp, its PTX timing class mapped (sm_program.cc).
// Shared: a shared-memory access (program workloads only).
enum class InstClass : uint8_t { Alu, Sfu, Load, Store, Barrier, Shared };

struct Inst {
  InstClass op = InstClass::Alu;
  uint8_t dep = 0;         // reads the result of the instruction `dep` earlier (0: none)
  uint8_t lines = 0;       // memory: consecutive 128 B lines touched
  bool divergent = false;  // ALU/SFU under a divergent branch: both paths, half the lanes each
  uint64_t line = 0;       // memory: first line address (in lines)
  // Program workloads: the lines a warp's lanes touch (not consecutive), and
  // global atomics (performed at the L2: no L1 lookup).
  const uint64_t* line_list = nullptr;
  // line_list[i]'s 32 B sectors: an atomic transaction's (SmConfig::atomic_transactions) or a store's
  // (SmConfig::store_sectors).
  const uint8_t* sector_list = nullptr;
  bool atomic = false;
  bool is_mem() const { return op == InstClass::Load || op == InstClass::Store; }
};

class WarpStream {
 public:
  WarpStream() = default;
  void start(const KernelLaunch* launch, uint32_t cta, uint32_t warp);
  bool done() const { return index_ >= length_; }
  uint64_t length() const { return length_; }
  uint64_t index() const { return index_; }  // of the next instruction
  Inst next();

 private:
  void enter_phase(uint32_t p);
  uint32_t draw_alu_run();
  uint64_t draw_line(const MemoryPattern& m);

  const KernelLaunch* k_ = nullptr;
  Rng rng_;
  uint32_t cta_ = 0, warp_ = 0;
  uint64_t index_ = 0, length_ = 0;
  uint32_t phase_ = 0;
  uint64_t phase_end_ = 0;
  uint32_t alu_left_ = 0, mem_left_ = 0;
  uint64_t stream_k_ = 0;       // stream accesses made so far
  uint64_t stream_cap_ = 0;     // stream accesses a warp may make (region size)
  uint64_t stream_stride_ = 1;  // lines per stream slot: the largest lines_per_access of all phases
};

}  // namespace gpupm
