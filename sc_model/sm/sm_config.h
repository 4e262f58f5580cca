// Streaming-multiprocessor configuration. Defaults are the GTX480 (Fermi) values
// of GPGPU-Sim 3.2.2 and the Equalizer paper's Table III (docs/papers.md#equalizer-gpu).
#pragma once

#include "gpupm/common/json_fwd.h"
#include "gpupm/common/param.h"

#include <cstdint>
#include <vector>

namespace gpupm {

// The largest max_warps and schedulers a config may set (their declared ranges):
// the SM keeps per-slot and per-scheduler tables of these sizes in the object.
constexpr uint32_t kSmMaxWarps = 64;
constexpr uint32_t kSmMaxSchedulers = 8;

// Latency and issue interval of an ALU instruction of a program by its type and operation group, in
// ptx::AluGroup order (add/sub, min/max, mul, mad, div, fma, other; the first five are GPGPU-Sim's
// -ptx_opcode_latency_int, _fp and _dp and -ptx_opcode_initiation_* lists): each list empty (alu_latency
// or alu_interval for every group) or one entry per group.
struct OpcodeTiming {
  std::vector<uint32_t> int_latency, int_interval, f32_latency, f32_interval, f64_latency, f64_interval;
  // The cycle after entering its pipe in which an operation's result is returned, for
  // SmConfig::alu_one_result_per_cycle (GPGPU-Sim's unit latency; empty: the latency).
  std::vector<uint32_t> int_result_stage, f32_result_stage, f64_result_stage;
};

struct SmConfig {
  uint32_t count = 15;
  uint32_t max_warps = 48;
  uint32_t max_ctas = 8;
  uint32_t schedulers = 2;  // issue slots per cycle, one ALU pipe each (warp choice: oldest_first)
  // Which scheduler picks first in a cycle: scheduler 0 always, or rotating by one
  // each cycle (GPGPU-Sim's shader_core_ctx::issue, Issue_Prio).
  bool rotate_schedulers = false;
  // Which warp a scheduler picks: GTO (the warp it issued last while it can, else
  // the oldest) or oldest first (no greedy warp; GCN's age-ordered arbitration).
  bool oldest_first = false;
  uint32_t operand_latency = 4;  // register read / operand collection before execution
  uint32_t alu_latency = 5;      // MAD
  uint32_t alu_interval = 1;     // initiation interval of each scheduler's ALU pipe
  OpcodeTiming opcode_timing;    // per type and operation group, in place of the two above
  // The ALU pipes return at most one result each a cycle (GPGPU-Sim's
  // simd_function_unit occupied bits): an instruction whose result would come in a
  // full cycle waits at its pipe's input, holding the pipe.
  bool alu_one_result_per_cycle = false;
  uint32_t sfu_latency = 20;
  uint32_t sfu_interval = 4;  // one shared SFU pipe
  uint32_t l1_sets = 64, l1_ways = 4, line_bytes = 128;
  // When a missing line takes its L1 way (at the fill, or reserved at the miss as
  // GPGPU-Sim's caches do) and the set index (line mod sets, or Fermi's hash).
  bool l1_allocate_on_miss = false;
  bool l1_fermi_hash = false;
  // The L1 (data) is invalidated whenever the SM holds no CTA (GPGPU-Sim's -gpgpu_flush_l1_cache: the
  // L1 is not coherent, so each launch starts cold); false: only gating clears it.
  bool l1_invalidate_idle = false;
  // A GPU- or system-scope fence (membar.gl, fence.*.gpu) invalidates the L1 (GPGPU-Sim with
  // -gpgpu_flush_l1_cache; shader.cc's MEMORY_BARRIER_OP handling); false: a fence is a no-op.
  bool l1_invalidate_fence = false;
  // A warp exits only once the L2 has acknowledged every line it stored (GPGPU-Sim's
  // hardware_done: stores_done), so its CTA ends a round trip after its last store;
  // false: a store is done for its warp once its line has left the LSU.
  bool store_exit_waits_for_ack = false;
  // A global load of 1-byte (2-byte) lanes is an L1 access per distinct 32 B (64 B) segment, each taking
  // the load/store unit a cycle (GPGPU-Sim's Fermi coalescer); false: one access per distinct line.
  bool narrow_load_segments = false;
  // A global atomic is one transaction per set of lanes on distinct bytes of a line, each its own request
  // (never merged in the MSHRs), taking the L2 a cycle per sector it touches (GPGPU-Sim's coalescer and
  // its L2); false: a request per line, merged with other reads of the line in flight.
  bool atomic_transactions = false;
  // A store's write request carries the 32 B sectors its lanes write, and a sectored L2 looks up only those
  // (GPGPU-Sim); false: a store writes its whole line.
  bool store_sectors = false;
  uint32_t l1_hit_latency = 20;
  // Cycles a line waits between the LSU and its L1 lookup, in a queue that holds this
  // many (GPGPU-Sim's l1_latency); 0: looked up at once. l1_hit_latency follows the lookup.
  uint32_t l1_access_latency = 0;
  uint32_t l1_mshrs = 32, l1_mshr_merges = 8;
  uint32_t miss_queue = 8;  // line requests waiting for the interconnect
  uint32_t cta_launch_latency = 20;
  uint32_t icache_bytes = 2048;  // instruction cache (kernels with a code footprint)
  uint32_t icache_ways = 4;
  // GPGPU-Sim's front end (streaming_multiprocessor.cc, front_end()): a warp's instruction buffer of this
  // many entries, filled by one fetch per SM cycle and decoded the cycle after; 0: none (a warp's next
  // instruction is there the cycle after it issues, on an instruction-cache hit).
  uint32_t instruction_buffer = 0;
  uint32_t warp_size = 32;
  // Program workloads (real kernels): occupancy resources and the shared memory.
  uint32_t shared_bytes = 49152;  // shared memory per SM (Fermi: 48 KB of the 64 KB L1/shared)
  // A unified L1/shared array (Volta-style): l1_shared_bytes > 0 is its size (the L1's
  // l1_sets x l1_ways x line_bytes); each kernel gets one of shared_carveouts as its shared
  // memory (choose_carveout) and the L1 keeps the ways left. 0: separate arrays (Fermi).
  uint32_t l1_shared_bytes = 0;
  std::vector<uint32_t> shared_carveouts;  // bytes, ascending, whole L1 ways each
  uint32_t registers = 32768;              // 32-bit registers per SM
  uint32_t max_threads_per_cta = 1024;
  uint32_t shared_latency = 24;  // shared-memory load to use, pipeline included
  uint32_t shared_interval = 2;  // cycles per conflict-free access (16-lane LD/ST unit on Fermi)
  // Operand collection of program instructions (sm/operand_collector.h); GPGPU-Sim's GTX480 values.
  uint32_t register_banks = 16;
  uint32_t collector_units_alu = 6;
  uint32_t collector_units_sfu = 8;
  uint32_t collector_units_mem = 2;
  uint32_t collector_reads = 1;  // register sources a unit reads per cycle, each from a free bank
};

// A kernel's share of a unified L1/shared array: its shared memory and the L1 ways left.
struct SharedCarveout {
  uint64_t shared_bytes = 0;
  uint32_t l1_ways = 0;
};
// The carve-out of a kernel needing `per_cta` bytes of shared memory per CTA that
// its other limits (warps, CTAs, registers) would let run `ctas` CTAs per SM: the
// smallest that holds them all, else the largest (the CUDA driver's rule: shared
// memory never lowers occupancy it can avoid lowering, the rest stays L1).
// Separate arrays: shared_bytes and every L1 way.
SharedCarveout choose_carveout(const SmConfig& c, uint64_t per_cta, uint64_t ctas);

// Every field's name, range, unit and description (common/param.h).
void describe(ParamVisitor& v, OpcodeTiming& t);
void describe(ParamVisitor& v, SmConfig& c);
SmConfig parse_sm_config(JsonReader& r);

}  // namespace gpupm
