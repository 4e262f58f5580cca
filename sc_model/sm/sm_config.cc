#include "sm/sm_config.h"

namespace gpupm {

SmConfig parse_sm_config(JsonReader& r) {
  SmConfig c;
  c.count = uint32_t(r.get_uint("count", 1, 1024, c.count));
  c.max_warps = uint32_t(r.get_uint("max_warps", 1, 64, c.max_warps));
  c.max_ctas = uint32_t(r.get_uint("max_ctas", 1, 64, c.max_ctas));
  c.schedulers = uint32_t(r.get_uint("schedulers", 1, 8, c.schedulers));
  c.operand_latency = uint32_t(r.get_uint("operand_latency", 0, 1000, c.operand_latency));
  c.alu_latency = uint32_t(r.get_uint("alu_latency", 1, 1000, c.alu_latency));
  c.alu_interval = uint32_t(r.get_uint("alu_interval", 1, 1000, c.alu_interval));
  c.sfu_latency = uint32_t(r.get_uint("sfu_latency", 1, 1000, c.sfu_latency));
  c.sfu_interval = uint32_t(r.get_uint("sfu_interval", 1, 1000, c.sfu_interval));
  c.l1_sets = uint32_t(r.get_uint("l1_sets", 1, 1u << 16, c.l1_sets));
  c.l1_ways = uint32_t(r.get_uint("l1_ways", 1, 64, c.l1_ways));
  c.line_bytes = uint32_t(r.get_uint("line_bytes", 128, 128, c.line_bytes));
  c.l1_hit_latency = uint32_t(r.get_uint("l1_hit_latency", 1, 1000, c.l1_hit_latency));
  c.l1_mshrs = uint32_t(r.get_uint("l1_mshrs", 1, 1024, c.l1_mshrs));
  c.l1_mshr_merges = uint32_t(r.get_uint("l1_mshr_merges", 1, 64, c.l1_mshr_merges));
  c.miss_queue = uint32_t(r.get_uint("miss_queue", 1, 1024, c.miss_queue));
  c.cta_launch_latency = uint32_t(r.get_uint("cta_launch_latency", 1, 100000, c.cta_launch_latency));
  c.icache_bytes = uint32_t(r.get_uint("icache_bytes", 128, 1u << 20, c.icache_bytes));
  c.icache_ways = uint32_t(r.get_uint("icache_ways", 1, 64, c.icache_ways));
  if (c.icache_bytes % (c.line_bytes * c.icache_ways))
    r.fail("icache_bytes", "expected a multiple of line_bytes x icache_ways");
  c.warp_size = uint32_t(r.get_uint("warp_size", 32, 32, c.warp_size));
  c.shared_bytes = uint32_t(r.get_uint("shared_bytes", 0, 1u << 20, c.shared_bytes));
  c.registers = uint32_t(r.get_uint("registers", 1024, 1u << 20, c.registers));
  c.max_threads_per_cta = uint32_t(r.get_uint("max_threads_per_cta", 32, 2048, c.max_threads_per_cta));
  c.shared_latency = uint32_t(r.get_uint("shared_latency", 1, 1000, c.shared_latency));
  c.shared_interval = uint32_t(r.get_uint("shared_interval", 1, 64, c.shared_interval));
  return c;
}

}  // namespace gpupm
