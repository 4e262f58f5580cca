// Memory-domain configuration: interconnect, L2 slices, memory controllers and
// GDDR5 DRAM. The domain clock is the DRAM command clock; the interconnect and
// L2 run at l2_clock_ratio of it. Defaults are the GTX480 values of GPGPU-Sim
// 3.2.2 (docs/papers.md#equalizer-gpu); configs/gpu/gtx480.json says where each comes from.
#pragma once

#include "gpupm/common/json_fwd.h"
#include "gpupm/common/param.h"
#include "gpupm/protocol/memory_status.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gpupm {

struct DramTiming {  // in DRAM command-clock cycles (Hynix H5GQ1H24AFR)
  uint32_t tCCD = 2, tRRD = 6, tRCD = 12, tRAS = 28, tRP = 12, tRC = 40;
  uint32_t tCL = 12, tWL = 4, tWR = 12, tRTP = 2, tWTR = 5;  // tWTR: GPGPU-Sim tCDLR
};

struct MemConfig {
  // "system": "internal" (the blocks below) or "external": the platform that
  // embeds the GPU binds its own memory to the SMs' requests (Gpu::mem_out());
  // only line_bytes applies then.
  bool external = false;
  // "protocol" of the external memory: "at" (nb_transport, the platform's target
  // paces END_REQ and BEGIN_RESP) or "lt" (one b_transport per request; the
  // response comes back after the call's annotated delay).
  bool loosely_timed = false;
  // "data": "workload" (a program's buffers are the workload's, inside the
  // GPU) or "platform" (with system "external": its global memory is the
  // platform's, reached through mem_out, and a host launches its kernels).
  bool platform_data = false;
  uint32_t channels = 6;
  uint32_t line_bytes = 128;
  uint32_t interleave_bytes = 256;  // consecutive bytes mapped to one channel
  // Channel of a chunk: "consecutive" (chunk mod channels) or "hashed": each run of
  // `channels` consecutive chunks still covers every channel once, rotated by a hash
  // of the run's index, so strides that are multiples of the run do not camp on few
  // channels (GPGPU-Sim's partition indexing, e.g. the TITAN X config's random one).
  bool hashed_channels = false;
  // DRAM
  uint32_t banks = 16;
  uint32_t row_bytes = 2048;
  uint32_t bus_bytes = 8;          // data bus width per channel (2 chips x 32 bit)
  uint32_t data_rate = 4;          // transfers per command clock (GDDR5 QDR)
  uint32_t mc_queue = 16;          // read queue per channel (FR-FCFS)
  uint32_t mc_write_queue = 32;    // posted writes per channel, drained in batches
  uint32_t write_drain_high = 24;  // start draining writes at this many
  uint32_t write_drain_low = 8;    // stop draining (if reads wait) at this many
  DramTiming t;
  // Interconnect and L2 (clocked at l2_clock_ratio x the DRAM command clock)
  double l2_clock_ratio = 700.0 / 924.0;
  // "l2_clock": "memory" (the above) or "core": the interconnect and L2 run at
  // the SM clock (l2_clock_ratio then only sets their clock before the first edge).
  bool l2_follows_core = false;
  uint32_t l2_sets = 128;  // per channel slice (2 GPGPU-Sim sub-partitions)
  uint32_t l2_ways = 8;
  uint32_t l2_latency = 120;    // L2 cycles from slice input to hit data (rop_latency)
  uint32_t dram_latency = 100;  // L2 cycles added to a miss (GPGPU-Sim dram_latency)
  uint32_t l2_mshrs = 64;       // outstanding misses per slice
  // The slice's lookup port: a request (a whole line) takes line_bytes / l2_sector_bytes sector
  // lookups (one if 0), l2_lookups_per_cycle of them an L2 cycle (GPGPU-Sim: 32 B sectors, one
  // per sub-partition a cycle).
  uint32_t l2_sector_bytes = 0;
  uint32_t l2_lookups_per_cycle = 1;
  // The width of the L2 data array's port: reading a dirty victim out for its write-back holds the
  // slice's lookup port for line_bytes / l2_data_port_bytes lookups (GPGPU-Sim's data_port_width:
  // 32); 0: the read-out is free.
  uint32_t l2_data_port_bytes = 0;
  // The DRAM's smallest transfer (GPGPU-Sim's dram_atom_size: burst length x bus width): with L2
  // sectors, a line is read from DRAM as one request per sector, each holding the data bus for whole
  // atoms (a 32 B sector costs a 64 B atom); a write-back stays one request of the line. 0: a line
  // is one burst of line_bytes either way.
  uint32_t dram_atom_bytes = 0;
  // The host's copies to the GPU leave their lines in the L2 (clean, most recently used), as a copy engine
  // writing through the L2 does (GPGPU-Sim's -gpgpu_perf_sim_memcpy); false: a program starts with a cold L2.
  bool l2_copy_fill = false;
  uint32_t icnt_latency = 8;  // L2 cycles, each direction
  uint32_t icnt_queue = 16;   // requests waiting at each slice input
  uint32_t flit_bytes = 32;
  uint32_t slice_out_flits = 2;  // response flits per L2 cycle per slice
  uint32_t sm_in_flits = 1;      // response flits per L2 cycle into each SM
  // "response_crossbar": "queued" (each SM port queues what reaches it) or "blocking"
  // (an input-queued crossbar: a slice's head response waits while its SM port is full).
  bool blocking_responses = false;

  // Data-bus command cycles of one line's transfer: line_bytes in one burst, rounded up to whole
  // atoms; a read with l2_sector_bytes, each sector's request rounded up to whole atoms.
  uint32_t line_burst_cycles(bool write) const {
    const uint32_t per_cycle = bus_bytes * data_rate;
    if (dram_atom_bytes == 0) return line_bytes / per_cycle;
    const uint32_t request = write || l2_sector_bytes == 0 ? line_bytes : l2_sector_bytes;
    const uint32_t atoms_per_request = (request + dram_atom_bytes - 1) / dram_atom_bytes;
    return line_bytes / request * atoms_per_request * (dram_atom_bytes / per_cycle);
  }
  double peak_bandwidth_bytes_per_s(double dram_clock_hz) const {
    return double(channels) * bus_bytes * data_rate * dram_clock_hz;
  }
};

// Every field's name, range, unit and description (common/param.h), the
// optional object "dram_timing" and the consistency rules below.
void describe(ParamVisitor& v, MemConfig& c);
void describe(ParamVisitor& v, DramTiming& t);
// Reads the keys declared above (all optional, defaults above); the caller calls
// r.finish(). Errors name the JSON path and what is allowed.
MemConfig parse_mem_config(JsonReader& r);

// The consistency rules of a memory config, by name: what the reader checks
// after the fields, and what a config built in code is checked against.
struct MemConfigRule {
  const char* name;
  const char* description;
  std::optional<ParamProblem> (*check)(const MemConfig& c);
};
const std::vector<MemConfigRule>& mem_config_rules();

// The first broken rule of a config built in code (key as JSON path relative
// to the memory config, e.g. "dram_timing.tRC"), or nothing.
using MemConfigProblem = ParamProblem;
std::optional<MemConfigProblem> check_mem_config(const MemConfig& c);

}  // namespace gpupm
