// A host CPU model for tests that drive a Gpu through host_in (docs/embedding.md,
// "Host interface"): its script runs in a thread; accesses either advance a
// local time offset (temporal decoupling, `sync()` waits it off) or wait out
// their annotation at once. Interrupts are time-stamped.
#pragma once

#include "gpupm/host/command_processor.h"

#include <gtest/gtest.h>
#include <tlm_utils/simple_initiator_socket.h>

#include <functional>
#include <optional>
#include <vector>

namespace gpupm::test {

using sc_core::SC_NS;
using sc_core::sc_time;

constexpr double kLatencyNs = 10.0;  // HostInterfaceOptions' default

class HostModel : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<HostModel> bus{"bus"};
  sc_core::sc_in<bool> irq{"irq"};
  std::function<void(HostModel&)> script;
  std::vector<sc_time> irq_rises;
  sc_time offset = sc_core::SC_ZERO_TIME;        // local time ahead of sc_time_stamp()
  sc_time latency = sc_time(kLatencyNs, SC_NS);  // the GPU's access latency
  bool decoupled = false;

  explicit HostModel(sc_core::sc_module_name name) : sc_module(name) {
    SC_HAS_PROCESS(HostModel);
    SC_THREAD(run);
    SC_METHOD(on_irq);
    sensitive << irq.pos();
    dont_initialize();
  }

  uint32_t read(uint32_t addr) { return access(tlm::TLM_READ_COMMAND, addr, 0); }
  void write(uint32_t addr, uint32_t value) { access(tlm::TLM_WRITE_COMMAND, addr, value); }
  void sync() {
    sc_core::wait(offset);
    offset = sc_core::SC_ZERO_TIME;
  }
  sc_time now() const { return sc_core::sc_time_stamp() + offset; }
  // A debug read of one word: its value, or nullopt if host_in did not answer it.
  std::optional<uint32_t> debug_read(uint32_t addr) {
    uint32_t value = 0;
    tlm::tlm_generic_payload gp;
    gp.set_command(tlm::TLM_READ_COMMAND);
    gp.set_address(addr);
    gp.set_data_ptr(reinterpret_cast<unsigned char*>(&value));
    gp.set_data_length(4);
    if (bus->transport_dbg(gp) != 4) return std::nullopt;
    return value;
  }

 private:
  uint32_t access(tlm::tlm_command cmd, uint32_t addr, uint32_t value) {
    tlm::tlm_generic_payload gp;
    gp.set_command(cmd);
    gp.set_address(addr);
    gp.set_data_ptr(reinterpret_cast<unsigned char*>(&value));
    gp.set_data_length(4);
    gp.set_streaming_width(4);
    const sc_time local = now();
    sc_time delay = offset;
    bus->b_transport(gp, delay);
    EXPECT_EQ(gp.get_response_status(), tlm::TLM_OK_RESPONSE) << std::hex << addr;
    // Exactly one access latency (a write acts at the local time: the GPU may have waited the offset off).
    EXPECT_EQ(sc_core::sc_time_stamp() + delay, local + latency);
    offset = delay;
    if (!decoupled) sync();
    return value;
  }
  void run() {
    if (script) script(*this);
  }
  void on_irq() { irq_rises.push_back(sc_core::sc_time_stamp()); }
};

}  // namespace gpupm::test
