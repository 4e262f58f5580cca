// What the memory system shares with the SMs and exposes to the power model,
// the policies and the report (MemorySystem, mem/memory_system.h, implements it;
// its header describes the line-request protocol on sm_in; ExternalMemoryPort,
// mem/external_memory_port.h, passes that protocol to a platform's memory).
#pragma once

#include <cstdint>

namespace gpupm {

// The model's physical address space: requests at or beyond it are errors.
constexpr uint64_t kAddressSpaceBytes = uint64_t(1) << 40;

// Monotonic activity counters (the power model and the report read them).
struct MemActivity {
  uint64_t reads = 0, writes = 0;       // line requests accepted (END_REQ)
  uint64_t l2_hits = 0, l2_misses = 0;  // per lookup; a read merged into a pending
                                        // miss is a miss, a write to a line being
                                        // filled a hit
  uint64_t icnt_flits = 0;              // request + response flits
  uint64_t dram_activates = 0, dram_precharges = 0;
  uint64_t dram_reads = 0, dram_writes = 0;  // 128 B bursts
  uint64_t dram_bus_busy = 0;                // data-bus cycles, summed over channels,
                                             // counted when the burst is issued
  uint64_t l2_cycles = 0;                    // interconnect/L2 edges up to now, skipped ones too
  uint64_t read_latency_sum_ps = 0;          // request accepted (END_REQ) -> BEGIN_RESP sent
  uint64_t read_responses = 0;
};

// A memory side the GPU's blocks read: the model's own memory system, or the
// port to a platform's memory (memory.system "external"), which sees only the
// SM-side counters (reads, writes, read responses and their latency).
class MemoryStatus {
 public:
  virtual ~MemoryStatus() = default;
  // Live counters: the reference stays valid and its fields update in place.
  virtual const MemActivity& activity() const = 0;
};

}  // namespace gpupm
