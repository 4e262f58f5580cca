// What an SM exposes to controllers, the power model and the report: one
// interface, read-only (StreamingMultiprocessor, sm/streaming_multiprocessor.h,
// implements it).
#pragma once

#include <cstdint>

namespace gpupm {

// The load/store unit's counters (sm/lsu.h).
struct LsuStats {
  uint64_t loads = 0, stores = 0;       // warp instructions accepted
  uint64_t l1_hits = 0, l1_misses = 0;  // load lines
  uint64_t mshr_merges = 0;
  uint64_t store_lines = 0;
  // With an L1 access queue (sm.l1_access_latency > 0): a stall is a cycle in which
  // nothing moved (a refused lookup, or a full queue), a store stall one in which what
  // waited was a store, and lines waiting in the queue keep the unit busy.
  uint64_t stall_cycles = 0;        // the slot could not advance
  uint64_t store_stall_cycles = 0;  // of stall_cycles: the slot held a store
  uint64_t busy_cycles = 0;         // the slot held an instruction (advancing or stalled)
};

// Warp states in one cycle. Every resident, unpaused warp is in exactly one of
// waiting / issued / excess_alu / excess_mem / others (the Equalizer states);
// the other fields refine them so either counter definition can be formed.
struct WarpStateCounts {
  uint32_t active = 0;   // resident and not paused
  uint32_t waiting = 0;  // head instruction's operands not ready (scoreboard)
  uint32_t issued = 0;
  uint32_t excess_alu = 0;                  // ready ALU/SFU instruction not issued
  uint32_t excess_mem = 0;                  // ready memory instruction not issued
  uint32_t others = 0;                      // barrier, finished, or no instruction
  uint32_t issued_alu = 0, issued_mem = 0;  // split of issued
  uint32_t excess_mem_lsu_blocked = 0;      // of excess_mem: the LD/ST queue was full
  uint32_t paused = 0;                      // resident but paused (not in any state)
};

// The per-warp status bits a hardware warp-state counter samples (bit i = warp
// slot i), at the current SM cycle. A warp that issued this cycle shows the
// instruction it issued (ready, and its kind).
struct WarpVectors {
  uint64_t valid = 0;  // resident, unfinished, a head instruction in the buffer (not at a barrier)
  uint64_t paused = 0;
  uint64_t ready = 0;          // head operands available (scoreboard)
  uint64_t is_mem = 0;         // head is a load/store
  uint64_t is_alu = 0;         // head is an ALU/SFU instruction
  uint64_t issued = 0;         // issued this cycle
  bool lsu_can_accept = true;  // the LD/ST input latch was free at issue
};

struct SmCounters {
  uint64_t cycles = 0;        // SM cycles elapsed
  uint64_t busy_cycles = 0;   // with at least one resident CTA
  uint64_t gated_cycles = 0;  // power-gated
  uint64_t insts = 0, alu_insts = 0, sfu_insts = 0, mem_insts = 0, barrier_insts = 0;
  // Vector-ALU (ALU and SFU) work: pipe cycles occupied, and the instructions
  // issued under a divergent branch (two serialized passes, half the lanes each).
  uint64_t valu_busy_cycles = 0, divergent_insts = 0;
  uint64_t resident_cta_cycles = 0;  // sum over cycles of unpaused resident CTAs
  uint64_t resident_warp_cycles = 0;
  uint64_t ctas_completed = 0;
  uint64_t icache_misses = 0;     // instruction fetches that missed (kernels with a code footprint)
  uint64_t throttled_cycles = 0;  // cycles the droop predictor refused a dispatch candidate
  uint64_t samples = 0;           // warp-state samples taken; sums below
  uint64_t sum_active = 0, sum_waiting = 0, sum_issued = 0, sum_excess_alu = 0, sum_excess_mem = 0, sum_others = 0;
  LsuStats lsu;
};

// The SMs as the GWDE places CTAs on them: how many, and each one's CTA and
// warp slots (sm.count, sm.max_ctas, sm.max_warps in the GPU config).
struct SmSlots {
  uint32_t count = 0;
  uint32_t max_ctas = 0;
  uint32_t max_warps = 0;
};

class SmStatus {
 public:
  virtual ~SmStatus() = default;
  virtual SmCounters counters() const = 0;            // up to the current cycle
  virtual WarpStateCounts sample_states() const = 0;  // the states in the current cycle
  virtual WarpVectors warp_vectors() const = 0;       // the status bits in the current cycle
  virtual uint32_t resident_ctas() const = 0;
  virtual uint32_t active_warps() const = 0;  // resident, unpaused, unfinished
  // Active in the voltage-noise paper's sense (the global stagger's report):
  // resident, unpaused, unfinished, and not waiting on an I- or D-cache miss.
  virtual uint32_t unstalled_warps() const = 0;
};

}  // namespace gpupm

namespace gpupm {

// Sums another SM's counters into `into` (GPU-wide totals).
inline void accumulate(SmCounters& into, const SmCounters& c) {
  into.cycles += c.cycles;
  into.busy_cycles += c.busy_cycles;
  into.gated_cycles += c.gated_cycles;
  into.insts += c.insts;
  into.alu_insts += c.alu_insts;
  into.sfu_insts += c.sfu_insts;
  into.mem_insts += c.mem_insts;
  into.barrier_insts += c.barrier_insts;
  into.valu_busy_cycles += c.valu_busy_cycles;
  into.divergent_insts += c.divergent_insts;
  into.resident_cta_cycles += c.resident_cta_cycles;
  into.resident_warp_cycles += c.resident_warp_cycles;
  into.ctas_completed += c.ctas_completed;
  into.icache_misses += c.icache_misses;
  into.throttled_cycles += c.throttled_cycles;
  into.samples += c.samples;
  into.sum_active += c.sum_active;
  into.sum_waiting += c.sum_waiting;
  into.sum_issued += c.sum_issued;
  into.sum_excess_alu += c.sum_excess_alu;
  into.sum_excess_mem += c.sum_excess_mem;
  into.sum_others += c.sum_others;
  into.lsu.loads += c.lsu.loads;
  into.lsu.stores += c.lsu.stores;
  into.lsu.l1_hits += c.lsu.l1_hits;
  into.lsu.l1_misses += c.lsu.l1_misses;
  into.lsu.mshr_merges += c.lsu.mshr_merges;
  into.lsu.store_lines += c.lsu.store_lines;
  into.lsu.stall_cycles += c.lsu.stall_cycles;
  into.lsu.store_stall_cycles += c.lsu.store_stall_cycles;
  into.lsu.busy_cycles += c.lsu.busy_cycles;
}

}  // namespace gpupm
