// A program's global memory in the platform's memory (memory.data "platform",
// docs/embedding.md#data-through-the-sockets): every load, store and atomic
// of SM i reaches the platform through its socket mem_out[i]. Where the
// platform's target grants DMI (for reading, or for writing where the access
// writes), the bytes are used in place; elsewhere each access is copied in by
// a debug-transport read and, if
// it wrote, out by a debug-transport write (TLM-2.0's functional access: no
// time passes; the timing is the line requests' on the same socket).
#pragma once

#include "gpupm/ptx/ptx.h"

#include <tlm>

#include <functional>
#include <vector>

namespace gpupm {

class PlatformData : public ptx::PlatformMemory {
 public:
  using Port = std::function<tlm::tlm_fw_transport_if<>&(uint32_t sm)>;  // SM i's socket, once bound
  PlatformData(uint32_t sms, Port port);

  uint8_t* begin_access(uint32_t sm, uint64_t addr, uint32_t bytes, bool write) override;
  bool end_access(uint32_t sm) override;
  bool read(uint64_t addr, uint8_t* out, uint32_t bytes) override;
  // The target withdrew DMI for [start, end] (its invalidate_direct_mem_ptr on SM `sm`'s socket).
  void invalidate(uint32_t sm, uint64_t start, uint64_t end);

  // Accesses so far: in place by DMI, copied by debug transport (reads and writes).
  struct Counts {
    uint64_t dmi = 0, debug_reads = 0, debug_writes = 0;
  };
  const Counts& counts() const { return counts_; }

 private:
  struct Range {
    uint64_t start, end;  // inclusive, as tlm_dmi
    uint8_t* ptr;         // null: DMI denied there
    bool readable, writable;
    bool asked_read = false, asked_write = false;  // the kinds of access the target was asked for
  };
  struct Staged {  // one access copied in (the executor uses it before asking for the next)
    uint64_t addr = 0;
    uint32_t bytes = 0;
    bool write = false, valid = false;
    bool refused = false;  // a write-back of this instruction was not taken
    std::vector<uint8_t> data;
  };
  bool write_back(uint32_t sm);
  uint8_t* direct(uint32_t sm, uint64_t addr, uint32_t bytes, bool write);
  const Range& dmi_range(uint32_t sm, uint64_t addr, bool write);
  bool debug(uint32_t sm, tlm::tlm_command command, uint64_t addr, uint8_t* data, uint32_t bytes);

  Port port_;
  std::vector<std::vector<Range>> ranges_;  // per SM: granted and denied, as the target answered
  std::vector<Staged> staged_;              // per SM
  Counts counts_;
};

}  // namespace gpupm
