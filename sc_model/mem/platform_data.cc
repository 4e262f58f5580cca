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
  if (!write_back(sm)) s.refused = true;  // end_access() reports it
  s.data.resize(bytes);
  if (!debug(sm, tlm::TLM_READ_COMMAND, addr, s.data.data(), bytes)) return nullptr;
  ++counts_.debug_reads;
  s.addr = addr;
  s.bytes = bytes;
  s.write = write;
  s.valid = true;
  return s.data.data();
}

bool PlatformData::end_access(uint32_t sm) {
  const bool taken = write_back(sm) && !staged_[sm].refused;
  staged_[sm].refused = false;
  return taken;
}

// The staged bytes to the platform if the instruction wrote them; false if refused.
bool PlatformData::write_back(uint32_t sm) {
  Staged& s = staged_[sm];
  bool taken = true;
  if (s.valid && s.write) {
    taken = debug(sm, tlm::TLM_WRITE_COMMAND, s.addr, s.data.data(), s.bytes);
    ++counts_.debug_writes;
  }
  s.valid = false;
  return taken;
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

// In place, where the target granted DMI for the whole access and its kind.
uint8_t* PlatformData::direct(uint32_t sm, uint64_t addr, uint32_t bytes, bool write) {
  const Range& r = dmi_range(sm, addr, write);
  if (!r.ptr || addr + bytes - 1 > r.end || !(write ? r.writable : r.readable)) return nullptr;
  ++counts_.dmi;
  return r.ptr + (addr - r.start);
}

// The target's DMI answer for `addr`, asked for reading (a load) or for
// reading and writing (a store, an atomic): asked once per range and kind.
const PlatformData::Range& PlatformData::dmi_range(uint32_t sm, uint64_t addr, bool write) {
  auto& v = ranges_[sm];
  auto known = std::find_if(v.begin(), v.end(), [&](const Range& r) { return addr >= r.start && addr <= r.end; });
  if (known != v.end() && (write ? known->writable || known->asked_write : known->readable || known->asked_read))
    return *known;
  tlm::tlm_generic_payload gp;
  tlm::tlm_dmi dmi;
  gp.set_command(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
  gp.set_address(addr);
  Range r{};
  if (port_(sm).get_direct_mem_ptr(gp, dmi) && dmi.get_start_address() <= addr && addr <= dmi.get_end_address()) {
    r = Range{dmi.get_start_address(), dmi.get_end_address(), dmi.get_dmi_ptr(), dmi.is_read_allowed(),
              dmi.is_write_allowed()};
  } else if (known != v.end()) {  // denied for this kind only: what was granted for the other stands
    (write ? known->asked_write : known->asked_read) = true;
    return *known;
  } else {  // denied: the range the target names, at least this address
    r = Range{std::min<uint64_t>(dmi.get_start_address(), addr), std::max<uint64_t>(dmi.get_end_address(), addr),
              nullptr, false, false};
  }
  r.asked_read = !write || (known != v.end() && known->asked_read);
  r.asked_write = write || (known != v.end() && known->asked_write);
  invalidate(sm, r.start, r.end);  // a grant replaces what it covers
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
