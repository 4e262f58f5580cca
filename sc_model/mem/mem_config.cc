#include "mem/mem_config.h"

#include <string>

namespace gpupm {

namespace {

bool power_of_two(uint64_t x) { return x != 0 && (x & (x - 1)) == 0; }

void read_u32(JsonReader& r, const char* key, uint32_t& field, uint64_t lo, uint64_t hi) {
  field = uint32_t(r.get_uint(key, lo, hi, field));
}

void read_timing(JsonReader& r, DramTiming& t) {
  read_u32(r, "tCCD", t.tCCD, 1, 1000);
  read_u32(r, "tRRD", t.tRRD, 1, 1000);
  read_u32(r, "tRCD", t.tRCD, 1, 1000);
  read_u32(r, "tRAS", t.tRAS, 1, 1000);
  read_u32(r, "tRP", t.tRP, 1, 1000);
  read_u32(r, "tRC", t.tRC, 1, 2000);
  read_u32(r, "tCL", t.tCL, 1, 1000);
  read_u32(r, "tWL", t.tWL, 0, 1000);
  read_u32(r, "tWR", t.tWR, 0, 1000);
  read_u32(r, "tRTP", t.tRTP, 0, 1000);
  read_u32(r, "tWTR", t.tWTR, 0, 1000);
}

}  // namespace

std::optional<MemConfigProblem> check_mem_config(const MemConfig& c) {
  auto problem = [](std::string key, std::string what) {
    return std::optional<MemConfigProblem>(MemConfigProblem{std::move(key), std::move(what)});
  };
  if (c.channels < 1 || c.channels > 64) return problem("channels", "expected 1 to 64 channels");
  if (!power_of_two(c.line_bytes) || c.line_bytes < 32 || c.line_bytes > 4096)
    return problem("line_bytes", "expected a power of two in [32, 4096]");
  if (c.interleave_bytes == 0 || c.interleave_bytes % c.line_bytes != 0)
    return problem("interleave_bytes", "expected a non-zero multiple of line_bytes");
  if (c.banks < 1 || c.banks > 64) return problem("banks", "expected 1 to 64 banks");
  if (c.row_bytes == 0 || c.row_bytes % c.line_bytes != 0)
    return problem("row_bytes", "expected a non-zero multiple of line_bytes");
  if (c.bus_bytes == 0 || c.data_rate == 0 || c.line_bytes % (c.bus_bytes * c.data_rate) != 0)
    return problem("bus_bytes", "expected bus_bytes * data_rate to divide line_bytes");
  if (c.mc_queue < 1) return problem("mc_queue", "expected at least 1 entry");
  if (c.mc_write_queue < 1) return problem("mc_write_queue", "expected at least 1 entry");
  if (c.write_drain_high < 1 || c.write_drain_high > c.mc_write_queue)
    return problem("write_drain_high", "expected 1 to mc_write_queue");
  if (c.write_drain_low >= c.write_drain_high) return problem("write_drain_low", "expected less than write_drain_high");
  if (!(c.l2_clock_ratio >= 0.01 && c.l2_clock_ratio <= 1.0))
    return problem("l2_clock_ratio", "expected a number in [0.01, 1]");
  if (c.l2_sets < 1) return problem("l2_sets", "expected at least 1 set");
  if (c.l2_ways < 1 || c.l2_ways > 64) return problem("l2_ways", "expected 1 to 64 ways");
  if (c.l2_mshrs < 1) return problem("l2_mshrs", "expected at least 1 MSHR");
  if (c.icnt_queue < 1) return problem("icnt_queue", "expected at least 1 entry");
  if (c.flit_bytes == 0 || c.line_bytes % c.flit_bytes != 0)
    return problem("flit_bytes", "expected a divisor of line_bytes");
  if (c.slice_out_flits < 1 || c.sm_in_flits < 1)
    return problem("slice_out_flits", "expected at least 1 flit per cycle");
  const DramTiming& t = c.t;
  if (t.tCCD < 1) return problem("dram_timing.tCCD", "expected at least 1");
  if (t.tRAS < t.tRCD) return problem("dram_timing.tRAS", "expected tRAS >= tRCD");
  if (t.tRC < t.tRAS + t.tRP) return problem("dram_timing.tRC", "expected tRC >= tRAS + tRP");
  return std::nullopt;
}

MemConfig parse_mem_config(JsonReader& r) {
  MemConfig c;
  read_u32(r, "channels", c.channels, 1, 64);
  read_u32(r, "line_bytes", c.line_bytes, 32, 4096);
  read_u32(r, "interleave_bytes", c.interleave_bytes, 32, uint64_t(1) << 30);
  read_u32(r, "banks", c.banks, 1, 64);
  read_u32(r, "row_bytes", c.row_bytes, 32, uint64_t(1) << 20);
  read_u32(r, "bus_bytes", c.bus_bytes, 1, 1024);
  read_u32(r, "data_rate", c.data_rate, 1, 16);
  read_u32(r, "mc_queue", c.mc_queue, 1, 4096);
  read_u32(r, "mc_write_queue", c.mc_write_queue, 1, 4096);
  read_u32(r, "write_drain_high", c.write_drain_high, 1, 4096);
  read_u32(r, "write_drain_low", c.write_drain_low, 0, 4096);
  c.l2_clock_ratio = r.get_double("l2_clock_ratio", 0.01, 1.0, c.l2_clock_ratio);
  c.l2_follows_core = r.get_enum("l2_clock", {"memory", "core"}, "memory") == "core";
  read_u32(r, "l2_sets", c.l2_sets, 1, uint64_t(1) << 20);
  read_u32(r, "l2_ways", c.l2_ways, 1, 64);
  read_u32(r, "l2_latency", c.l2_latency, 0, 100000);
  read_u32(r, "dram_latency", c.dram_latency, 0, 100000);
  read_u32(r, "l2_mshrs", c.l2_mshrs, 1, 65536);
  read_u32(r, "icnt_latency", c.icnt_latency, 0, 100000);
  read_u32(r, "icnt_queue", c.icnt_queue, 1, 65536);
  read_u32(r, "flit_bytes", c.flit_bytes, 1, 4096);
  read_u32(r, "slice_out_flits", c.slice_out_flits, 1, 1024);
  read_u32(r, "sm_in_flits", c.sm_in_flits, 1, 1024);
  if (r.has("dram_timing")) {
    JsonReader t = r.object("dram_timing");
    read_timing(t, c.t);
    t.finish();
  }
  if (auto p = check_mem_config(c)) r.fail(p->key, p->what);
  return c;
}

}  // namespace gpupm
