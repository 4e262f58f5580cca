#include "gpupm/sm/sm_config.h"

#include "gpupm/common/param_reader.h"

#include <optional>
#include <string>

namespace gpupm {

namespace {

// ptx::kAluGroups (static_assert in sm_program.cc), apart so the config readers (fuzz/) need no PTX library.
constexpr size_t kAluGroups = 7;

std::optional<ParamProblem> unified_problem(const SmConfig& c) {
  if (c.l1_shared_bytes == 0)
    return problem_unless(c.shared_carveouts.empty(), "shared_carveouts", "expected none without l1_shared_bytes");
  if (c.l1_shared_bytes != uint64_t(c.l1_sets) * c.l1_ways * c.line_bytes)
    return ParamProblem{"l1_shared_bytes", "expected l1_sets x l1_ways x line_bytes (" +
                                               std::to_string(uint64_t(c.l1_sets) * c.l1_ways * c.line_bytes) + ")"};
  const uint64_t way = uint64_t(c.l1_sets) * c.line_bytes;
  for (size_t i = 0; i < c.shared_carveouts.size(); ++i) {
    const uint32_t b = c.shared_carveouts[i];
    if (b % way != 0 || b >= c.l1_shared_bytes || (i > 0 && b <= c.shared_carveouts[i - 1]))
      return ParamProblem{"shared_carveouts", "expected ascending multiples of one L1 way (" + std::to_string(way) +
                                                  " B) below l1_shared_bytes"};
  }
  return problem_unless(!c.shared_carveouts.empty() && c.shared_carveouts.back() == c.shared_bytes, "shared_carveouts",
                        "expected the largest carve-out to equal shared_bytes");
}

}  // namespace

SharedCarveout choose_carveout(const SmConfig& c, uint64_t per_cta, uint64_t ctas) {
  if (c.l1_shared_bytes == 0) return {c.shared_bytes, c.l1_ways};
  uint64_t pick = c.shared_carveouts.back();
  for (uint32_t b : c.shared_carveouts)
    if (b >= per_cta * ctas) {
      pick = b;
      break;
    }
  return {pick, c.l1_ways - uint32_t(pick / (uint64_t(c.l1_sets) * c.line_bytes))};
}

void describe(ParamVisitor& v, OpcodeTiming& t) {
  static constexpr const char* kLatency =
      "cycles from issue past operand_latency to the result, of add/sub, min/max, mul, mad, div, fma and other "
      "operations";
  static constexpr const char* kInterval =
      "cycles the ALU pipe is busy, of add/sub, min/max, mul, mad, div, fma and other operations";
  static constexpr const char* kStage =
      "the cycle after entering its pipe in which the result is returned, of add/sub, min/max, mul, mad, div, fma "
      "and other operations, for alu_results one_per_cycle (GPGPU-Sim's -ptx_opcode_latency_*); left out: the "
      "latency";
  const struct {
    const char* name;
    std::vector<uint32_t>& list;
    const char* description;
  } lists[] = {{"int_latency", t.int_latency, kLatency},         {"int_interval", t.int_interval, kInterval},
               {"f32_latency", t.f32_latency, kLatency},         {"f32_interval", t.f32_interval, kInterval},
               {"f64_latency", t.f64_latency, kLatency},         {"f64_interval", t.f64_interval, kInterval},
               {"int_result_stage", t.int_result_stage, kStage}, {"f32_result_stage", t.f32_result_stage, kStage},
               {"f64_result_stage", t.f64_result_stage, kStage}};
  for (const auto& l : lists) {
    v.integer_list(l.name, l.list, 1, 1000, l.description);
    v.rule(l.name, "seven entries, one per operation group", [name = l.name, list = &l.list] {
      return problem_unless(list->empty() || list->size() == kAluGroups, name,
                            "expected 7 entries (add/sub, min/max, mul, mad, div, fma, other)");
    });
  }
}

void describe(ParamVisitor& v, SmConfig& c) {
  v.integer("count", c.count, 1, 1024, "SMs", "streaming multiprocessors on the chip");
  v.integer("max_warps", c.max_warps, 1, kSmMaxWarps, "warps", "resident warps per SM");
  v.integer("max_ctas", c.max_ctas, 1, 64, "CTAs", "resident CTAs per SM");
  v.integer("schedulers", c.schedulers, 1, kSmMaxSchedulers, "",
            "warp schedulers (issue slots per cycle, one ALU pipe each; warp_order says which warp each picks)");
  v.choice_of("scheduler_priority", c.rotate_schedulers, {"fixed", "rotating"},
              "which scheduler picks first in a cycle (they share the LSU latch and the collector units): "
              "scheduler 0 always, or the first rotating by one each cycle (GPGPU-Sim's fair round robin between "
              "schedulers); with a droop predictor attached the order stays fixed (it admits a prefix in slot order)");
  v.choice_of("warp_order", c.oldest_first, {"gto", "oldest"},
              "which ready warp a scheduler issues: greedy then oldest (the warp it issued last while that one can, "
              "else the oldest that can), or oldest first (no greedy warp: the oldest that can, every cycle; "
              "GCN's age-ordered wavefront arbitration within a SIMD)");
  v.integer("operand_latency", c.operand_latency, 0, 1000, "cycles",
            "register read and operand collection before execution");
  v.integer("alu_latency", c.alu_latency, 1, 1000, "cycles", "ALU (MAD) latency");
  v.integer("alu_interval", c.alu_interval, 1, 1000, "cycles", "initiation interval of each scheduler's ALU pipe");
  v.section("opcode_timing", Presence::kOptional,
            "latency and issue interval of a program's ALU instructions by type and operation group (add/sub, "
            "min/max, mul, mad, div, fma, other), as GPGPU-Sim's -ptx_opcode_latency_* and "
            "-ptx_opcode_initiation_*; a list left out: alu_latency or alu_interval for every group; a float "
            "division runs on the SFU pipe, timed by its type's div entry where that list is given (GPGPU-Sim's "
            "DIV_OP), else by sfu_latency and sfu_interval",
            [&](ParamVisitor& s) { describe(s, c.opcode_timing); });
  v.choice_of("alu_results", c.alu_one_result_per_cycle, {"unlimited", "one_per_cycle"},
              "results the SM's ALU pipes return a cycle: any number, or one each (a program's instruction whose "
              "result would come in a cycle every pipe already returns one in waits at its pipe's input, and the "
              "pipe takes nothing else until it goes in: GPGPU-Sim's simd_function_unit::can_issue, whose "
              "instructions go to any SP unit; the cycle is opcode_timing's result stage after entry, which "
              "matters only where the stages differ)");
  v.integer("sfu_latency", c.sfu_latency, 1, 1000, "cycles", "SFU latency");
  v.integer("sfu_interval", c.sfu_interval, 1, 1000, "cycles", "initiation interval of the one shared SFU pipe");
  v.integer("l1_sets", c.l1_sets, 1, 1u << 16, "sets", "L1 data cache sets");
  v.integer("l1_ways", c.l1_ways, 1, 64, "ways", "L1 data cache associativity");
  v.integer("line_bytes", c.line_bytes, 128, 128, "bytes", "cache line (one memory request)");
  v.choice_of("l1_allocation", c.l1_allocate_on_miss, {"fill", "miss"},
              "when a missing line takes its L1 way: at its fill (the least recently used way then), or at the miss "
              "(GPGPU-Sim's allocate-on-miss: the way is reserved, LRU-stamped then, until the fill makes it valid; "
              "a set whose ways all wait for fills stalls the load/store unit until one arrives)");
  v.choice_of("l1_set_index", c.l1_fermi_hash, {"linear", "fermi_hash"},
              "L1 set of a line: line mod l1_sets, or Fermi's hash of the address bits (Nugteren et al., HPCA 2014; "
              "GPGPU-Sim's FERMI_HASH_SET_FUNCTION; 32 or 64 sets)");
  v.choice_of("l1_invalidate", c.l1_invalidate_idle, {"never", "idle"},
              "when the L1 data cache is invalidated besides gating: never, or whenever the SM holds no CTA "
              "(GPGPU-Sim's -gpgpu_flush_l1_cache: the L1 is not coherent, so every launch finds it cold)");
  v.flag("l1_invalidate_fence", c.l1_invalidate_fence,
         "a fence at GPU or system scope (membar.gl, membar.sys, fence.*.gpu) invalidates the SM's L1, as GPGPU-Sim "
         "does with -gpgpu_flush_l1_cache; off: a fence costs an issue slot and nothing else");
  v.choice_of("store_completion", c.store_exit_waits_for_ack, {"sent", "acknowledged"},
              "when a store is done for its warp's exit: once its lines have left the load/store unit, or once the "
              "L2 has acknowledged each of them (GPGPU-Sim: a warp with stores outstanding does not exit, so its CTA "
              "ends a memory round trip after its last store)");
  v.choice_of("load_coalescing", c.narrow_load_segments, {"line", "segment"},
              "how a program's global load is split into L1 accesses (each a cycle of the load/store unit): one per "
              "distinct line, or as GPGPU-Sim's Fermi coalescer (-gpgpu_coalesce_arch 20) one per distinct 32 B "
              "segment for 1-byte lanes and 64 B segment for 2-byte lanes (one per line for wider lanes); stores "
              "stay one access per line");
  v.choice_of("atomic_requests", c.atomic_transactions, {"per_line", "per_transaction"},
              "how a program's global atomic reaches the L2: a request per distinct line, merged in the MSHRs with "
              "other reads of the line in flight, or as GPGPU-Sim's coalescer makes them: a transaction per set of "
              "lanes on distinct bytes of a line (lanes on one address serialise), each its own request, holding the "
              "L2 slice a cycle per 32 B sector it touches");
  v.choice_of("store_requests", c.store_sectors, {"line", "sectors"},
              "what a program's global store sends the L2 for each line it writes: the whole line, or only the 32 B "
              "sectors its lanes write, as GPGPU-Sim's coalescer sizes a store (a sectored L2 then looks up only "
              "those, and the request carries only their data); the L2 still keeps and writes back whole lines");
  v.rule("l1_fermi_hash_sets", "the Fermi hash indexes 32 or 64 sets", [&c] {
    return problem_unless(!c.l1_fermi_hash || c.l1_sets == 32 || c.l1_sets == 64, "l1_set_index",
                          "expected l1_sets 32 or 64 with fermi_hash");
  });
  v.integer("l1_hit_latency", c.l1_hit_latency, 1, 1000, "cycles",
            "L1 hit, pipeline included (from the lookup when l1_access_latency > 0)");
  v.integer("l1_access_latency", c.l1_access_latency, 0, 1000, "cycles",
            "a line's wait between the load/store unit and its L1 lookup, hit or miss, in a queue that holds this many "
            "lines, one entering and one looked up a cycle, in order, a refused lookup holding those behind it "
            "(GPGPU-Sim's l1_latency queue; atomics skip it); 0: looked up at once");
  v.integer("l1_mshrs", c.l1_mshrs, 1, 1024, "entries", "L1 miss status holding registers");
  v.integer("l1_mshr_merges", c.l1_mshr_merges, 1, 64, "requests", "requests merged into one MSHR");
  v.integer("miss_queue", c.miss_queue, 1, 1024, "lines", "line requests waiting for the interconnect");
  v.integer("cta_launch_latency", c.cta_launch_latency, 1, 100000, "cycles", "CTA set-up in the SM");
  v.integer("icache_bytes", c.icache_bytes, 128, 1u << 20, "bytes",
            "instruction cache (kernels with a code footprint)");
  v.integer("icache_ways", c.icache_ways, 1, 64, "ways", "instruction cache associativity");
  v.rule("icache_geometry", "icache_bytes is a multiple of line_bytes x icache_ways", [&c] {
    return problem_unless(c.icache_bytes % (c.line_bytes * c.icache_ways) == 0, "icache_bytes",
                          "expected a multiple of line_bytes x icache_ways");
  });
  v.integer("instruction_buffer", c.instruction_buffer, 0, 8, "instructions",
            "a warp's instruction buffer, filled as GPGPU-Sim's front end fills it (0: none, a warp's next "
            "instruction is there the cycle after it issues, on an instruction-cache hit): each cycle the SM "
            "fetches for one warp, the first after the one fetched last whose buffer is empty, this many "
            "consecutive instructions on one instruction-cache access, decoded into the buffer the next cycle and "
            "issued from the cycle after; the fetch reads on from the instruction after the last one issued, and "
            "buffered instructions off the path the warp took are discarded when its scheduler next looks at it "
            "(GPGPU-Sim: 2, shader_core_ctx::fetch and decode)");
  v.integer("warp_size", c.warp_size, 32, 32, "threads", "threads per warp");
  v.integer("shared_bytes", c.shared_bytes, 0, 1u << 20, "bytes", "shared memory per SM (program workloads)");
  v.integer("l1_shared_bytes", c.l1_shared_bytes, 0, 1u << 20, "bytes",
            "unified L1/shared array per SM (0: separate L1 and shared memory)");
  v.integer_list("shared_carveouts", c.shared_carveouts, 0, 1u << 20,
                 "shared-memory sizes a unified array can give a kernel, bytes (the L1 keeps the rest)");
  v.rule("unified_l1_shared",
         "a unified array is the L1's size, its carve-outs whole L1 ways, ascending, "
         "below the array, the largest equal to shared_bytes",
         [&c] { return unified_problem(c); });
  v.integer("registers", c.registers, 1024, 1u << 20, "registers", "32-bit registers per SM (program workloads)");
  v.integer("max_threads_per_cta", c.max_threads_per_cta, 32, 2048, "threads", "largest CTA (program workloads)");
  v.integer("shared_latency", c.shared_latency, 1, 1000, "cycles", "shared-memory load to use, pipeline included");
  v.integer("shared_interval", c.shared_interval, 1, 64, "cycles", "cycles per conflict-free shared-memory access");
  v.integer("register_banks", c.register_banks, 1, 64, "banks",
            "register-file banks, one access each per cycle (program workloads)");
  v.integer("collector_units_alu", c.collector_units_alu, 1, 64, "units",
            "operand collector units for ALU instructions (program workloads)");
  v.integer("collector_units_sfu", c.collector_units_sfu, 1, 64, "units",
            "operand collector units for SFU instructions (program workloads)");
  v.integer("collector_units_mem", c.collector_units_mem, 1, 64, "units",
            "operand collector units for load, store, atomic and shared-memory instructions (program workloads)");
  v.integer("collector_reads", c.collector_reads, 1, 8, "operands",
            "register sources a collector unit reads in one cycle, each from a different free bank (GPGPU-Sim's "
            "units take every source whose bank is free: 8 covers any instruction; program workloads)");
}

SmConfig parse_sm_config(JsonReader& r) {
  SmConfig c;
  read_params(r, c);
  return c;
}

}  // namespace gpupm
