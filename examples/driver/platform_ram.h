// The platform's RAM: one loosely-timed target every initiator binds to (the
// CPU's bus and each of the GPU's mem_out sockets). b_transport moves data and
// adds a fixed latency, honouring byte enables (the GPU's line writes enable
// none: their data went at execution); debug transport and DMI (read and
// write, the whole RAM) reach the same bytes.
#pragma once

#include <systemc>
#include <tlm>
#include <tlm_utils/multi_passthrough_target_socket.h>

#include <cstdint>
#include <vector>

class PlatformRam : public sc_core::sc_module {
 public:
  tlm_utils::multi_passthrough_target_socket<PlatformRam> in{"in"};

  PlatformRam(sc_core::sc_module_name name, uint64_t base, uint64_t bytes, sc_core::sc_time latency);
  uint64_t base() const { return base_; }
  uint64_t size() const { return bytes_.size(); }

  struct Counts {
    uint64_t reads = 0, writes = 0;  // b_transport calls
    uint64_t debug = 0, dmi_grants = 0;
  };
  const Counts& counts() const { return counts_; }

 private:
  void b_transport(int port, tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);
  unsigned transport_dbg(int port, tlm::tlm_generic_payload& gp);
  bool get_direct_mem_ptr(int port, tlm::tlm_generic_payload& gp, tlm::tlm_dmi& dmi);
  bool inside(uint64_t addr, uint64_t n) const { return addr >= base_ && addr - base_ + n <= bytes_.size(); }

  const uint64_t base_;
  const sc_core::sc_time latency_;
  std::vector<uint8_t> bytes_;
  Counts counts_;
};
