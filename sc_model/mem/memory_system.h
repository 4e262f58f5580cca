// The memory V/F domain as one block: interconnect, one L2 slice and one
// FR-FCFS memory controller with GDDR5 banks per channel.
//
// Protocol on sm_in (TLM-2.0 base protocol, non-blocking, one port per SM):
//  - The SM sends BEGIN_REQ with a 128 B line request (read or write; address =
//    line address in bytes; data pointer may be a shared dummy buffer).
//  - If the slice input queue of the target channel has room the call returns
//    TLM_UPDATED with phase END_REQ; otherwise TLM_ACCEPTED, and END_REQ follows
//    later on the backward path. Until END_REQ the SM sends no new BEGIN_REQ
//    (request exclusion rule): this is the back-pressure into the LSU.
//  - Reads and writes both complete with BEGIN_RESP on the backward path (a
//    write when L2 has taken it); the SM answers TLM_COMPLETED.
// A request is processed from the first memory-domain edge after it arrived.
// Malformed requests (not READ/WRITE, length != line_bytes, address not
// line-aligned or beyond 2^40) complete at once (TLM_COMPLETED) with an error status.
//
// Timing (interconnect.h, l2_slice.h, dram_channel.h have the details). The
// domain clock is the DRAM command clock; the interconnect and L2 tick on an
// exact p/q fraction of its edges (ratio_clock.h; 700/924 = 25/33). For an
// unloaded request whose first memory edge is command cycle c0, with k0 the
// first L2 edge at or after c0, cmd(k) the command cycle of L2 edge k and
// F = line_bytes/flit_bytes flits in a read response (1 for a write ack):
//   lookup            k1 = k0 + icnt_latency
//   hit               kr = k1 + l2_latency
//   miss (bank idle)  ACT at cmd(k1)+1, RD at cmd(k1)+1+tRCD, data complete at
//                     d = cmd(k1) + 1 + tRCD + tCL + burst (command cycles);
//                     kr = (first L2 edge >= d) + dram_latency + l2_latency
//   delivered         kd = kr + ceil(F/slice_out_flits) - 1 + icnt_latency
//                          + ceil(F/sm_in_flits) - 1
// with burst = MemConfig::line_burst_cycles(false) (line_bytes/(bus_bytes*data_rate)
// unless a line is read as sector requests of whole DRAM atoms); BEGIN_RESP goes out at the
// edge cmd(kd). GTX480 defaults: hit 140 L2 cycles (200.7 ns), miss 374.9 ns.
// All of it is in memory-domain cycles: the latency in ns does not depend on
// the SM clock, and the service rate scales with the memory clock.
// With l2_clock "core" (the HD7970's L2, docs/papers.md#harmonia-classes) the L2 edges follow the
// SM clock instead: the ratio is re-derived whenever either clock changes, and
// several L2 edges may fall on one command edge; DRAM timing stays in command cycles.
#pragma once

#include "gpupm/clock/clock_domain.h"
#include "gpupm/clock/tickable.h"
#include "gpupm/mem/mem_config.h"
#include "gpupm/protocol/memory_status.h"

#include <tlm_utils/multi_passthrough_target_socket.h>

#include <memory>
#include <vector>

namespace gpupm {

class MemorySystem : public sc_core::sc_module, public Tickable, public MemoryStatus {
 public:
  tlm_utils::multi_passthrough_target_socket<MemorySystem> sm_in;

  // `clock` is the memory domain that ticks this block (the constructor adds it there).
  MemorySystem(sc_core::sc_module_name name, const MemConfig& cfg, ClockDomain& clock);
  ~MemorySystem() override;

  void tick(uint64_t cycle) override;
  uint64_t next_busy_cycle(uint64_t now) const override;

  const MemActivity& activity() const override;
  bool idle() const;  // nothing queued or in flight anywhere
  // MemConfig::l2_clock "core": the interconnect and L2 run at this (SM) clock
  // instead of l2_clock_ratio x the command clock (a no-op otherwise).
  void follow_sm_clock(const ClockDomain& sm_clock);
  // The host wrote [address, address + bytes) before a launch: with MemConfig::l2_copy_fill its lines
  // are left in the L2 (L2Slice::install_copy), in address order; a no-op otherwise.
  void host_copied(uint64_t address, uint64_t bytes);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  ClockDomain& clock_;
  tlm::tlm_sync_enum nb_transport_fw(int port, tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay);
  void end_of_elaboration() override;  // sizes the per-port state
  void accept(uint32_t id);            // the slice input took the request
  void send_end_req(uint32_t id);
  void deliver(uint32_t id);  // BEGIN_RESP to the SM
  void wake_if_sleeping();
  void follow_sm_clock_at(uint64_t cycle);
};

}  // namespace gpupm
