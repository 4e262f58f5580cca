// The platform's host CPU: a thread that drives the GPU through its host
// interface only (docs/embedding.md#host-interface), in loosely-timed style
// (each access waits out its annotated delay). It sets the policy's level,
// launches every launch entry on its own and waits for each one's interrupt,
// ends the run and polls STATUS until RUN_ENDED, then reads back the counters,
// the V/F level and the policy's registers.
#pragma once

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include <cstdint>

// What the host read back, for sc_main to print and check.
struct HostReadings {
  uint32_t launch_entries = 0, commands_done = 0;
  uint32_t irq_rises = 0;              // counted on the irq line
  bool launches_by_interrupt = false;  // every LAUNCH_DONE was seen in IRQ_STATUS after an irq edge
  bool run_ended = false;              // STATUS.RUN_ENDED, polled
  uint64_t instructions = 0, sm_cycles = 0, time_fs = 0;
  double energy_j = 0;
  uint32_t vf_sm_level = 0, vf_sm_khz = 0;
  uint32_t policy_level = 0, policy_decisions = 0;
};

class HostCpu : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<HostCpu> bus{"bus"};
  sc_core::sc_in<bool> irq{"irq"};

  // `sm_level`: what the host writes to the policy's LEVEL register before launching.
  HostCpu(sc_core::sc_module_name name, uint32_t sm_level);
  const HostReadings& readings() const { return readings_; }

 private:
  void run();
  void launch_and_wait_for_irq(uint32_t entry);
  void end_run_and_poll();
  void read_back();
  uint32_t read(uint32_t addr);
  void write(uint32_t addr, uint32_t value);
  uint32_t access(tlm::tlm_command command, uint32_t addr, uint32_t value);
  uint64_t counter(uint32_t index);
  void count_irq() { ++readings_.irq_rises; }

  const uint32_t sm_level_;
  HostReadings readings_;
  tlm::tlm_generic_payload payload_;  // reused by every access
  uint32_t word_ = 0;                 // its data
};
