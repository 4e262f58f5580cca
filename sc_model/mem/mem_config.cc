#include "gpupm/mem/mem_config.h"

#include "gpupm/common/param_reader.h"

#include <string>

namespace gpupm {

namespace {

bool power_of_two(uint64_t x) { return x != 0 && (x & (x - 1)) == 0; }

using Check = std::optional<ParamProblem>;

}  // namespace

// Some rules repeat a field's range: a config built in code has not been read.
const std::vector<MemConfigRule>& mem_config_rules() {
  static const std::vector<MemConfigRule> rules = {
      {"protocol_of_external", "protocol lt only with system external",
       [](const MemConfig& c) {
         return problem_unless(!c.loosely_timed || c.external, "protocol",
                               "\"lt\" is the protocol of a platform's memory: it needs system \"external\"");
       }},
      {"data_of_external", "data platform only with system external",
       [](const MemConfig& c) {
         return problem_unless(
             !c.platform_data || c.external, "data",
             "\"platform\" puts a program's data in a platform's memory: it needs system \"external\"");
       }},
      {"channels", "1 to 64 channels",
       [](const MemConfig& c) {
         return problem_unless(c.channels >= 1 && c.channels <= 64, "channels", "expected 1 to 64 channels");
       }},
      {"line_size", "line_bytes a power of two in [32, 4096]",
       [](const MemConfig& c) {
         return problem_unless(power_of_two(c.line_bytes) && c.line_bytes >= 32 && c.line_bytes <= 4096, "line_bytes",
                               "expected a power of two in [32, 4096]");
       }},
      {"interleave_lines", "interleave_bytes a non-zero multiple of line_bytes",
       [](const MemConfig& c) {
         return problem_unless(c.interleave_bytes != 0 && c.interleave_bytes % c.line_bytes == 0, "interleave_bytes",
                               "expected a non-zero multiple of line_bytes");
       }},
      {"banks", "1 to 64 banks",
       [](const MemConfig& c) {
         return problem_unless(c.banks >= 1 && c.banks <= 64, "banks", "expected 1 to 64 banks");
       }},
      {"row_lines", "row_bytes a non-zero multiple of line_bytes",
       [](const MemConfig& c) {
         return problem_unless(c.row_bytes != 0 && c.row_bytes % c.line_bytes == 0, "row_bytes",
                               "expected a non-zero multiple of line_bytes");
       }},
      {"bursts_per_line", "bus_bytes x data_rate divides line_bytes",
       [](const MemConfig& c) {
         return problem_unless(c.bus_bytes != 0 && c.data_rate != 0 && c.line_bytes % (c.bus_bytes * c.data_rate) == 0,
                               "bus_bytes", "expected bus_bytes * data_rate to divide line_bytes");
       }},
      {"read_queue", "mc_queue at least 1",
       [](const MemConfig& c) { return problem_unless(c.mc_queue >= 1, "mc_queue", "expected at least 1 entry"); }},
      {"write_queue", "mc_write_queue at least 1",
       [](const MemConfig& c) {
         return problem_unless(c.mc_write_queue >= 1, "mc_write_queue", "expected at least 1 entry");
       }},
      {"drain_high", "write_drain_high in [1, mc_write_queue]",
       [](const MemConfig& c) {
         return problem_unless(c.write_drain_high >= 1 && c.write_drain_high <= c.mc_write_queue, "write_drain_high",
                               "expected 1 to mc_write_queue");
       }},
      {"drain_low", "write_drain_low below write_drain_high",
       [](const MemConfig& c) {
         return problem_unless(c.write_drain_low < c.write_drain_high, "write_drain_low",
                               "expected less than write_drain_high");
       }},
      {"l2_clock_ratio", "l2_clock_ratio in [0.01, 1]",
       [](const MemConfig& c) {
         return problem_unless(c.l2_clock_ratio >= 0.01 && c.l2_clock_ratio <= 1.0, "l2_clock_ratio",
                               "expected a number in [0.01, 1]");
       }},
      {"l2_sets", "l2_sets at least 1",
       [](const MemConfig& c) { return problem_unless(c.l2_sets >= 1, "l2_sets", "expected at least 1 set"); }},
      {"l2_ways", "1 to 64 L2 ways",
       [](const MemConfig& c) {
         return problem_unless(c.l2_ways >= 1 && c.l2_ways <= 64, "l2_ways", "expected 1 to 64 ways");
       }},
      {"l2_mshrs", "l2_mshrs at least 1",
       [](const MemConfig& c) { return problem_unless(c.l2_mshrs >= 1, "l2_mshrs", "expected at least 1 MSHR"); }},
      {"l2_sectors", "l2_sector_bytes is 0 or divides line_bytes",
       [](const MemConfig& c) {
         return problem_unless(c.l2_sector_bytes == 0 || c.line_bytes % c.l2_sector_bytes == 0, "l2_sector_bytes",
                               "expected 0 or a divisor of line_bytes (" + std::to_string(c.line_bytes) + ")");
       }},
      {"dram_atom", "dram_atom_bytes is 0 or a multiple of bus_bytes x data_rate",
       [](const MemConfig& c) {
         const uint32_t per_cycle = c.bus_bytes * c.data_rate;
         return problem_unless(c.dram_atom_bytes == 0 || (per_cycle != 0 && c.dram_atom_bytes % per_cycle == 0),
                               "dram_atom_bytes",
                               "expected 0 or a multiple of bus_bytes * data_rate (" + std::to_string(per_cycle) + ")");
       }},
      {"l2_data_port", "l2_data_port_bytes is 0 or divides line_bytes",
       [](const MemConfig& c) {
         return problem_unless(c.l2_data_port_bytes == 0 || c.line_bytes % c.l2_data_port_bytes == 0,
                               "l2_data_port_bytes",
                               "expected 0 or a divisor of line_bytes (" + std::to_string(c.line_bytes) + ")");
       }},
      {"icnt_queue", "icnt_queue at least 1",
       [](const MemConfig& c) { return problem_unless(c.icnt_queue >= 1, "icnt_queue", "expected at least 1 entry"); }},
      {"flits_per_line", "flit_bytes divides line_bytes",
       [](const MemConfig& c) {
         return problem_unless(c.flit_bytes != 0 && c.line_bytes % c.flit_bytes == 0, "flit_bytes",
                               "expected a divisor of line_bytes");
       }},
      {"flit_ports", "slice_out_flits and sm_in_flits at least 1",
       [](const MemConfig& c) {
         return problem_unless(c.slice_out_flits >= 1 && c.sm_in_flits >= 1, "slice_out_flits",
                               "expected at least 1 flit per cycle");
       }},
      {"tccd", "dram_timing.tCCD at least 1",
       [](const MemConfig& c) { return problem_unless(c.t.tCCD >= 1, "dram_timing.tCCD", "expected at least 1"); }},
      {"tras", "tRAS >= tRCD",
       [](const MemConfig& c) {
         return problem_unless(c.t.tRAS >= c.t.tRCD, "dram_timing.tRAS", "expected tRAS >= tRCD");
       }},
      {"trc", "tRC >= tRAS + tRP",
       [](const MemConfig& c) {
         return problem_unless(c.t.tRC >= c.t.tRAS + c.t.tRP, "dram_timing.tRC", "expected tRC >= tRAS + tRP");
       }},
  };
  return rules;
}

std::optional<MemConfigProblem> check_mem_config(const MemConfig& c) {
  for (const MemConfigRule& rule : mem_config_rules())
    if (Check p = rule.check(c)) return p;
  return std::nullopt;
}

void describe(ParamVisitor& v, DramTiming& t) {
  v.integer("tCCD", t.tCCD, 1, 1000, "cycles", "column to column");
  v.integer("tRRD", t.tRRD, 1, 1000, "cycles", "activate to activate, different banks");
  v.integer("tRCD", t.tRCD, 1, 1000, "cycles", "activate to column command");
  v.integer("tRAS", t.tRAS, 1, 1000, "cycles", "activate to precharge");
  v.integer("tRP", t.tRP, 1, 1000, "cycles", "precharge to activate");
  v.integer("tRC", t.tRC, 1, 2000, "cycles", "activate to activate, same bank");
  v.integer("tCL", t.tCL, 1, 1000, "cycles", "read column command to data");
  v.integer("tWL", t.tWL, 0, 1000, "cycles", "write column command to data");
  v.integer("tWR", t.tWR, 0, 1000, "cycles", "write recovery before precharge");
  v.integer("tRTP", t.tRTP, 0, 1000, "cycles", "read to precharge");
  v.integer("tWTR", t.tWTR, 0, 1000, "cycles", "write to read turnaround (GPGPU-Sim tCDLR)");
}

void describe(ParamVisitor& v, MemConfig& c) {
  v.choice_of("system", c.external, {"internal", "external"},
              "the memory behind the SMs: this model's interconnect, L2 and DRAM, or an embedding platform's own, "
              "bound to gpupm::Gpu::mem_out() (docs/embedding.md#external-memory; the gpupm program refuses it)");
  v.choice_of(
      "protocol", c.loosely_timed, {"at", "lt"},
      "with system external: how mem_out talks to the platform's memory: approximately timed "
      "(nb_transport) or loosely timed (b_transport with an annotated delay; docs/embedding.md#external-memory)");
  v.choice_of("data", c.platform_data, {"workload", "platform"},
              "with system external: where a program's global memory is: the workload's buffers inside the GPU, or "
              "the platform's memory through mem_out, kernels launched by a host with LAUNCH_KERNEL "
              "(docs/embedding.md#data-through-the-sockets)");
  v.integer("channels", c.channels, 1, 64, "channels", "memory controllers, each with its DRAM and L2 slice");
  v.integer("line_bytes", c.line_bytes, 32, 4096, "bytes", "cache line (equal to sm.line_bytes)");
  v.integer("interleave_bytes", c.interleave_bytes, 32, uint64_t(1) << 30, "bytes",
            "consecutive bytes mapped to one channel");
  v.choice_of("channel_index", c.hashed_channels, {"consecutive", "hashed"},
              "chunk to channel: chunk mod channels, or each run of channels chunks rotated by a hash of its index");
  v.integer("banks", c.banks, 1, 64, "banks", "DRAM banks per channel");
  v.integer("row_bytes", c.row_bytes, 32, uint64_t(1) << 20, "bytes", "DRAM row (page)");
  v.integer("bus_bytes", c.bus_bytes, 1, 1024, "bytes", "data bus width per channel");
  v.integer("data_rate", c.data_rate, 1, 16, "transfers", "transfers per command clock (GDDR5: 4)");
  v.integer("mc_queue", c.mc_queue, 1, 4096, "requests", "read queue per channel (FR-FCFS)");
  v.integer("mc_write_queue", c.mc_write_queue, 1, 4096, "requests", "posted writes per channel, drained in batches");
  v.integer("write_drain_high", c.write_drain_high, 1, 4096, "requests", "start draining writes at this many");
  v.integer("write_drain_low", c.write_drain_low, 0, 4096, "requests", "stop draining (if reads wait) at this many");
  v.number("l2_clock_ratio", c.l2_clock_ratio, 0.01, 1.0, "", "interconnect and L2 clock / DRAM command clock");
  v.choice_of("l2_clock", c.l2_follows_core, {"memory", "core"},
              "the clock of the interconnect and L2: the memory clock x l2_clock_ratio, or the SM clock");
  v.integer("l2_sets", c.l2_sets, 1, uint64_t(1) << 20, "sets", "L2 sets per channel slice");
  v.integer("l2_ways", c.l2_ways, 1, 64, "ways", "L2 associativity");
  v.integer("l2_latency", c.l2_latency, 0, 100000, "L2 cycles", "slice input to hit data (rop_latency)");
  v.integer("dram_latency", c.dram_latency, 0, 100000, "L2 cycles", "added to a miss (GPGPU-Sim dram_latency)");
  v.integer("l2_mshrs", c.l2_mshrs, 1, 65536, "entries", "outstanding misses per slice");
  v.integer("l2_sector_bytes", c.l2_sector_bytes, 0, 4096, "bytes",
            "the L2 looks a request up sector by sector, each sector one lookup of the slice's port (GPGPU-Sim's "
            "sectored L2: 32); a request is a whole line, a write's too (GPGPU-Sim's looks up only the sectors a "
            "store touched); 0: a line is one lookup");
  v.integer("l2_lookups_per_cycle", c.l2_lookups_per_cycle, 1, 64, "lookups",
            "lookups a slice's port starts per L2 cycle (a sector each, or a line when l2_sector_bytes is 0; "
            "GPGPU-Sim: one per sub-partition, 2 a channel)");
  v.integer("l2_data_port_bytes", c.l2_data_port_bytes, 0, 4096, "bytes",
            "the L2 data array's port: reading a dirty victim out for its write-back holds the slice's lookup "
            "port for line_bytes / this many lookups (GPGPU-Sim's data_port_width: 32 on its GTX480); 0: free");
  v.integer("dram_atom_bytes", c.dram_atom_bytes, 0, 4096, "bytes",
            "the DRAM's smallest transfer (GPGPU-Sim's dram_atom_size, burst length x bus width: 64 on its GTX480); "
            "with l2_sector_bytes, a line is read from DRAM as one request per sector, each holding the data bus "
            "for whole atoms (a 32 B sector costs a 64 B atom); a write-back is the line in whole atoms; 0: a line "
            "is one burst");
  v.flag("l2_copy_fill", c.l2_copy_fill,
         "the host's copies to the GPU before a launch (a program's buffers, a while_nonzero flag) leave their "
         "lines in the L2, clean and most recently used, as a copy engine writing through the L2 does "
         "(GPGPU-Sim's -gpgpu_perf_sim_memcpy); a line whose set has only dirty or filling ways is left out");
  v.integer("icnt_latency", c.icnt_latency, 0, 100000, "L2 cycles", "interconnect traversal, each direction");
  v.integer("icnt_queue", c.icnt_queue, 1, 65536, "requests", "requests waiting at each slice input");
  v.integer("flit_bytes", c.flit_bytes, 1, 4096, "bytes", "interconnect flit");
  v.integer("slice_out_flits", c.slice_out_flits, 1, 1024, "flits", "response flits per L2 cycle per slice");
  v.integer("sm_in_flits", c.sm_in_flits, 1, 1024, "flits", "response flits per L2 cycle into each SM");
  v.choice_of("response_crossbar", c.blocking_responses, {"queued", "blocking"},
              "the response side's crossbar: each SM port queues every flit the slices send it and takes in "
              "sm_in_flits a cycle, or an input-queued crossbar: each slice has slice_out_flits output ports of a "
              "flit a cycle, one per sub-partition (a response takes its line's), each SM port takes sm_in_flits a "
              "cycle from all of them together (in rotating priority), and an output whose head response finds its SM "
              "port full sends nothing that cycle (head-of-line blocking, as GPGPU-Sim's one-virtual-channel "
              "router; the delay does not hold back the L2)");
  v.section("dram_timing", Presence::kOptional, "DRAM timing in command-clock cycles",
            [&](ParamVisitor& s) { describe(s, c.t); });
  for (const MemConfigRule& rule : mem_config_rules())
    v.rule(rule.name, rule.description, [&c, &rule] { return rule.check(c); });
}

MemConfig parse_mem_config(JsonReader& r) {
  MemConfig c;
  read_params(r, c);
  return c;
}

}  // namespace gpupm
