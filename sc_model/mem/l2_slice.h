// One L2 slice (the slice of one channel): l2_sets x l2_ways lines, LRU,
// write-back and write-allocate, with l2_mshrs miss-status registers.
//
// Its lookup port takes l2_lookups_per_cycle sector lookups an L2 cycle, and a
// request (a whole line) needs line_bytes / l2_sector_bytes of them (one when
// l2_sector_bytes is 0), an atomic transaction a whole cycle per sector it touches:
// port_free/take_port, the caller's to respect. Reading a
// dirty victim out for its write-back holds the port for line_bytes /
// l2_data_port_bytes lookups more (none when that is 0). Outcomes:
//  - hit on a present line: the response leaves the data array l2_latency
//    cycles after the lookup; a write marks the line dirty.
//  - read to a line being filled: merged into its MSHR (counted as a miss).
//  - write to a line being filled: the full-line write marks it dirty and is
//    acknowledged like a hit.
//  - read miss: takes an MSHR and a victim way at once (the way is reserved
//    until the fill), queues a DRAM read, and a dirty victim's DRAM write.
//  - write miss: full-line write, so no DRAM read: the victim way becomes the
//    new dirty line (its dirty victim is written back) and the write is
//    acknowledged like a hit.
// A miss that cannot get an MSHR, a victim (all ways being filled) or room in
// the controller queue stalls: nothing changes and the caller retries.
// When the DRAM data is complete (command cycle d) the fill happens dram_latency
// L2 cycles after the first L2 edge at or after d; the MSHR frees then and every
// merged request's response leaves the data array l2_latency cycles later.
#pragma once

#include "gpupm/common/divisor.h"
#include "gpupm/mem/address_map.h"
#include "gpupm/mem/dram_channel.h"
#include "gpupm/mem/interconnect.h"
#include "gpupm/mem/mem_config.h"
#include "gpupm/mem/mem_request.h"
#include "gpupm/mem/ring.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace gpupm {

enum class L2Outcome : uint8_t { kStall, kHit, kMiss };

class L2Slice {
 public:
  L2Slice(const MemConfig& cfg, uint32_t index);

  // Looks request `id` up in L2 cycle `l2_cycle`; kStall: nothing changed, retry later.
  L2Outcome lookup(uint32_t id, uint64_t l2_cycle, RequestPool& pool, DramChannel& dram, ResponseNetwork& responses);
  // A copy from the host wrote the line (no timing): it is made present and most recently used, taking a
  // free or clean way (never a dirty or filling one: the line is left out then, so no write-back is lost).
  void install_copy(uint64_t local_line);
  // The DRAM read of `mshr` finished; its fill happens in L2 cycle `fill_cycle`.
  void schedule_fill(uint32_t mshr, uint64_t fill_cycle);
  // Performs the fills due by `l2_cycle`.
  void fill_due(uint64_t l2_cycle, RequestPool& pool, ResponseNetwork& responses) {
    if (next_fill() <= l2_cycle) fill_due_now(l2_cycle, pool, responses);
  }

  uint64_t next_fill() const { return fills_.empty() ? kNever : fills_.front().ready; }  // kNever if none is scheduled
  // Whether the lookup port can start a request in L2 cycle `l2_cycle`. take_port books it for a lookup
  // that went ahead and says whether it can start another in the same cycle. A port of a line a cycle (the
  // default) keeps no state: one lookup a cycle.
  bool port_free(uint64_t l2_cycle) const {
    return !port_limits_ || port_busy_until_ < (l2_cycle + 1) * lookups_per_cycle_;
  }
  bool take_port(uint64_t l2_cycle, uint64_t lookups) {
    if (!port_limits_) return false;
    port_busy_until_ = std::max(port_busy_until_, l2_cycle * lookups_per_cycle_) + lookups;
    return port_busy_until_ < (l2_cycle + 1) * lookups_per_cycle_;
  }
  // The sector lookups request `r` holds the port for: a line's sectors, a partial write's own (GPGPU-Sim
  // looks up the sectors a request carries), or an atomic transaction's whole cycle per sector (GPGPU-Sim
  // performs it in one sub-partition, a sector a cycle). Without sectors (l2_sector_bytes 0), one.
  uint64_t port_lookups(const MemRequest& r) const {
    if (!r.sectors || !sectors_of_32_bytes_) return sectors_per_request_;
    const uint64_t touched = uint64_t(__builtin_popcount(r.sectors));
    return r.atomic ? touched * lookups_per_cycle_ : touched;
  }
  uint32_t mshrs_in_use() const { return uint32_t(mshrs_.size() - free_mshrs_.size()); }

 private:
  static constexpr uint32_t kNone = ~0u;
  enum class State : uint8_t { kInvalid, kValid, kFilling };
  // An invalid way's tag: no channel-local line index (below 2^35: addresses are
  // below 2^40 bytes) meets it, so a lookup compares tags alone (a way never
  // becomes invalid again).
  static constexpr uint64_t kNoTag = ~uint64_t(0);
  struct Line {
    uint64_t tag = kNoTag;  // channel-local line index
    uint64_t last_use = 0;
    uint32_t mshr = kNone;
    State state = State::kInvalid;
    bool dirty = false;
  };
  struct Mshr {
    uint32_t line = 0;  // index into lines_
    uint32_t head = kNoRequest, tail = kNoRequest;
  };

  void fill_due_now(uint64_t l2_cycle, RequestPool& pool, ResponseNetwork& responses);
  Line* find(uint64_t local_line);
  // An invalid way, else the LRU valid one (clean_only: the LRU clean one); nullptr if there is none.
  Line* victim(uint64_t local_line, bool clean_only = false);
  void write_back(const Line& line, DramChannel& dram);
  void respond(uint32_t id, uint64_t l2_cycle, ResponseNetwork& responses);
  L2Outcome stall(uint64_t local_line);  // kStall, noting that the line was absent

  AddressMap map_;
  uint32_t index_;
  Divisor sets_;
  uint32_t ways_, latency_;
  std::vector<Line> lines_;  // set-major
  std::vector<Mshr> mshrs_;
  std::vector<uint32_t> free_mshrs_;                 // stack: lowest id on top first
  Ring<Timed> fills_;                                // Timed.id = MSHR; fill-cycle order
  uint64_t use_clock_ = 0;                           // moves at every hit and install
  uint64_t stalled_line_ = kNoTag, stalled_at_ = 0;  // the last stalled miss and use_clock_ then
  uint64_t lookups_per_cycle_, sectors_per_request_;
  uint64_t victim_read_out_;      // lookups a dirty victim's read-out holds the port for
  bool port_limits_;              // not a line a cycle
  bool sectors_of_32_bytes_;      // l2_sector_bytes 32: a request's LineSectors are lookups
  uint64_t port_busy_until_ = 0;  // in sector lookups: L2 cycle x lookups_per_cycle_
};

}  // namespace gpupm
