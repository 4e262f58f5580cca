#include "platform_ram.h"

#include <cstring>

PlatformRam::PlatformRam(sc_core::sc_module_name name, uint64_t base, uint64_t bytes, sc_core::sc_time latency)
    : sc_module(name), base_(base), latency_(latency), bytes_(bytes, 0) {
  in.register_b_transport(this, &PlatformRam::b_transport);
  in.register_transport_dbg(this, &PlatformRam::transport_dbg);
  in.register_get_direct_mem_ptr(this, &PlatformRam::get_direct_mem_ptr);
}

// Addresses outside the RAM (the GPU's own window, its local memory and code)
// answer with the latency and no data: the GPU sends their line requests for timing.
void PlatformRam::b_transport(int, tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) {
  delay += latency_;
  gp.set_response_status(tlm::TLM_OK_RESPONSE);
  ++(gp.is_write() ? counts_.writes : counts_.reads);
  const uint64_t addr = gp.get_address();
  const unsigned n = gp.get_data_length();
  if (!inside(addr, n)) return;
  uint8_t* at = bytes_.data() + (addr - base_);
  const unsigned char* enable = gp.get_byte_enable_ptr();
  if (gp.is_read()) {
    std::memcpy(gp.get_data_ptr(), at, n);
  } else if (!enable) {
    std::memcpy(at, gp.get_data_ptr(), n);
  } else {
    for (unsigned i = 0; i < n; ++i)
      if (enable[i % gp.get_byte_enable_length()] == TLM_BYTE_ENABLED) at[i] = gp.get_data_ptr()[i];
  }
}

unsigned PlatformRam::transport_dbg(int, tlm::tlm_generic_payload& gp) {
  const unsigned n = gp.get_data_length();
  if (!inside(gp.get_address(), n)) return 0;
  ++counts_.debug;
  uint8_t* at = bytes_.data() + (gp.get_address() - base_);
  if (gp.is_write()) std::memcpy(at, gp.get_data_ptr(), n);
  else std::memcpy(gp.get_data_ptr(), at, n);
  return n;
}

bool PlatformRam::get_direct_mem_ptr(int, tlm::tlm_generic_payload& gp, tlm::tlm_dmi& dmi) {
  if (!inside(gp.get_address(), 1)) {  // denied outside: say where the RAM is not
    const uint64_t addr = gp.get_address();
    dmi.set_start_address(addr < base_ ? 0 : base_ + bytes_.size());
    dmi.set_end_address(addr < base_ ? base_ - 1 : ~uint64_t(0));
    return false;
  }
  ++counts_.dmi_grants;
  dmi.set_dmi_ptr(bytes_.data());
  dmi.set_start_address(base_);
  dmi.set_end_address(base_ + bytes_.size() - 1);
  dmi.allow_read_write();
  return true;
}
