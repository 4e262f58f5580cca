// A line request while the memory system holds it. Requests live in a pool and
// every queue holds their ids, so moving a request is copying an integer.
#pragma once

#include <systemc>
#include <tlm>

#include <cstdint>
#include <vector>

namespace gpupm {

constexpr uint32_t kNoRequest = ~0u;

struct MemRequest {
  tlm::tlm_generic_payload* gp = nullptr;  // owned by the SM
  sc_core::sc_time accepted;               // when the slice input took it (END_REQ)
  uint64_t local_line = 0;                 // line index inside its channel
  uint32_t port = 0;
  uint32_t slice = 0;
  uint32_t next = kNoRequest;  // next request merged into the same MSHR
  bool write = false;
  uint8_t sectors = 0;  // the 32 B sectors it touches (LineSectors); 0: the whole line
  bool atomic = false;  // an atomic transaction (LineSectors)
};

// A request id with the L2 cycle from which the next stage may take it.
struct Timed {
  uint32_t id = kNoRequest;
  uint64_t ready = 0;
};

// Grows only when more requests are in flight than ever before; ids are reused
// last-freed-first, which keeps runs deterministic.
class RequestPool {
 public:
  explicit RequestPool(size_t reserve) {
    slots_.reserve(reserve);
    free_.reserve(reserve);
  }
  uint32_t alloc() {
    if (free_.empty()) {
      slots_.emplace_back();
      return uint32_t(slots_.size() - 1);
    }
    uint32_t id = free_.back();
    free_.pop_back();
    slots_[id] = MemRequest{};
    return id;
  }
  void release(uint32_t id) { free_.push_back(id); }
  MemRequest& operator[](uint32_t id) { return slots_[id]; }
  const MemRequest& operator[](uint32_t id) const { return slots_[id]; }
  size_t in_use() const { return slots_.size() - free_.size(); }

 private:
  std::vector<MemRequest> slots_;
  std::vector<uint32_t> free_;
};

}  // namespace gpupm
