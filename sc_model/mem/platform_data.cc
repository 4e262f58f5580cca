#include "gpupm/mem/platform_data.h"

#include <algorithm>
#include <cstring>

namespace gpupm {

PlatformData::PlatformData(uint32_t sms, Port port) : port_(std::move(port)), ranges_(sms), staged_(sms) {}

uint8_t* PlatformData::begin_access(uint32_t sm, uint64_t addr, uint32_t bytes, bool write) {
  if (bytes == 0 || addr + bytes < addr) return nullptr;
  if (uint8_t* p = direct(sm, addr, bytes, write)) return p;
  Staged& s = staged_[sm];
  if (s.valid && addr >= s.addr && addr + bytes <= s.addr + s.bytes) {  // the same bytes again (an atomic's lanes)
    s.write |= write;
    return s.data.data() + (addr - s.addr);
  }
  end_access(sm);
  s.data.resize(bytes);
  if (!debug(sm, tlm::TLM_READ_COMMAND, addr, s.data.data(), bytes)) return nullptr;
  ++counts_.debug_reads;
  s = Staged{addr, bytes, write, true, std::move(s.data)};
  return s.data.data();
}

void PlatformData::end_access(uint32_t sm) {
  Staged& s = staged_[sm];
  if (s.valid && s.write) {
    debug(sm, tlm::TLM_WRITE_COMMAND, s.addr, s.data.data(), s.bytes);  // read back just now: it answers
    ++counts_.debug_writes;
  }
  s.valid = false;
}

bool PlatformData::read(uint64_t addr, uint8_t* out, uint32_t bytes) {
  const uint8_t* p = begin_access(0, addr, bytes, false);
  if (p) std::memcpy(out, p, bytes);
  end_access(0);
  return p != nullptr;
}

void PlatformData::invalidate(uint32_t sm, uint64_t start, uint64_t end) {
  auto& v = ranges_[sm];
  v.erase(std::remove_if(v.begin(), v.end(), [&](const Range& r) { return r.start <= end && start <= r.end; }),
          v.end());
}

// In place, where the target granted DMI for the whole access (and writing, if it writes).
uint8_t* PlatformData::direct(uint32_t sm, uint64_t addr, uint32_t bytes, bool write) {
  const Range& r = dmi_range(sm, addr);
  if (!r.ptr || addr + bytes - 1 > r.end || (write && !r.writable)) return nullptr;
  ++counts_.dmi;
  return r.ptr + (addr - r.start);
}

// The target's DMI answer for `addr`: asked once per range it names.
const PlatformData::Range& PlatformData::dmi_range(uint32_t sm, uint64_t addr) {
  auto& v = ranges_[sm];
  for (const Range& r : v)
    if (addr >= r.start && addr <= r.end) return r;
  tlm::tlm_generic_payload gp;
  tlm::tlm_dmi dmi;
  gp.set_command(tlm::TLM_WRITE_COMMAND);  // asks for reading and writing
  gp.set_address(addr);
  Range r{};
  if (port_(sm).get_direct_mem_ptr(gp, dmi) && dmi.is_read_allowed() && dmi.get_start_address() <= addr &&
      addr <= dmi.get_end_address()) {
    r = Range{dmi.get_start_address(), dmi.get_end_address(), dmi.get_dmi_ptr(), dmi.is_write_allowed()};
  } else {  // denied: the range the target names, at least this address
    r = Range{std::min<uint64_t>(dmi.get_start_address(), addr), std::max<uint64_t>(dmi.get_end_address(), addr),
              nullptr, false};
  }
  v.push_back(r);
  return v.back();
}

bool PlatformData::debug(uint32_t sm, tlm::tlm_command command, uint64_t addr, uint8_t* data, uint32_t bytes) {
  tlm::tlm_generic_payload gp;
  gp.set_command(command);
  gp.set_address(addr);
  gp.set_data_ptr(data);
  gp.set_data_length(bytes);
  gp.set_streaming_width(bytes);
  return port_(sm).transport_dbg(gp) == bytes;
}

}  // namespace gpupm
