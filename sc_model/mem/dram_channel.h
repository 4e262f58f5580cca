// One GDDR channel: its banks with open-row state, the command and data-bus
// timing of DramTiming, and an FR-FCFS scheduler over a queue of mc_queue line
// requests. It issues at most one command per command cycle:
//  1. the oldest request that hits an open row and whose RD/WR can issue now;
//  2. else the oldest request whose row command can issue now: PRE of a bank
//     open on another row (only once no queued request hits that row, so
//     pending hits are served first), or ACT of a closed bank.
// Writes are posted into their own queue (mc_write_queue) and drained in
// batches: the scheduler serves reads until the write queue reaches
// write_drain_high (or no read is waiting), then only writes down to
// write_drain_low, so the bus turns around between reads and writes rarely.
// A burst of one line holds the data bus line_bytes/(bus_bytes*data_rate)
// command cycles (MemConfig::line_burst_cycles: a read takes more when it
// moves as sector requests of whole DRAM atoms); read data is complete
// tCL + burst after the RD.
#pragma once

#include "gpupm/clock/tickable.h"
#include "gpupm/mem/mem_config.h"
#include "gpupm/mem/ring.h"

#include <cstdint>
#include <vector>

namespace gpupm {

enum class DramOp : uint8_t { kNone, kActivate, kPrecharge, kRead, kWrite };

struct DramCommand {
  DramOp op = DramOp::kNone;
  uint32_t bank = 0;
  uint64_t row = 0;
};

struct DramCounters {
  uint64_t activates = 0, precharges = 0, reads = 0, writes = 0;
  uint64_t bus_busy = 0;  // data-bus cycles
};

class DramChannel {
 public:
  explicit DramChannel(const MemConfig& cfg);

  size_t free_read_slots() const { return capacity_ - queue_[0].size(); }
  size_t free_write_slots() const { return write_capacity_ - queue_[1].size(); }
  bool has_queued() const { return !queue_[0].empty() || !queue_[1].empty(); }
  bool idle() const { return !has_queued() && reads_in_flight_.empty(); }
  // `tag` comes back with the read's data (writes need no answer). Rows are
  // below 2^35 (addresses below 2^40 bytes), never kNoRow.
  void enqueue(uint32_t bank, uint64_t row, bool write, uint32_t tag);
  // Command cycle `cycle`: issues at most one command and returns it.
  DramCommand step(uint64_t cycle) {
    if (cycle < quiet_until_) return {};  // nothing queued can issue before then
    return schedule(cycle);
  }
  // Pops the oldest read whose data has fully arrived by `cycle`.
  bool pop_read_done(uint64_t cycle, uint32_t* tag, uint64_t* done_cycle) {
    if (next_read_done() > cycle) return false;
    *tag = reads_in_flight_.front().tag;
    *done_cycle = reads_in_flight_.front().done;
    reads_in_flight_.pop_front();
    return true;
  }
  uint64_t next_read_done() const {  // kNever when no read is in flight
    return reads_in_flight_.empty() ? kNever : reads_in_flight_.front().done;
  }
  uint32_t burst_cycles(bool write = false) const { return burst_[write]; }
  const DramCounters& counters() const { return counters_; }
  // The scheduler's per-bank counts and open-bank bits recounted from the queues
  // and the banks: whether they agree (for tests; the scheduler trusts them).
  bool counts_match_queues() const;

 private:
  static constexpr uint64_t kNoRow = ~uint64_t(0);
  struct Request {
    uint64_t row;
    uint32_t bank;
    uint32_t tag;
  };
  struct Bank {
    uint64_t open_row = kNoRow;
    uint64_t act_ready = 0;  // tRC since ACT, tRP since PRE
    uint64_t pre_ready = 0;  // tRAS since ACT, tRTP since RD, tWR after write data
    uint64_t col_ready = 0;  // tRCD since ACT
  };
  struct ReadInFlight {
    uint64_t done;
    uint32_t tag;
  };

  // A mode's queued requests per bank, counted as hits of the bank's open row
  // and the rest, with a bit per bank where a count is not zero: the scheduler
  // reads the banks' states from these and walks the queue only to pick the
  // oldest request of the banks that can go.
  struct BankCounts {
    std::vector<uint32_t> hits, misses;
    uint64_t with_hits = 0, with_misses = 0;
  };

  DramCommand schedule(uint64_t cycle);        // step() past quiet_until_
  uint64_t column_ready_at(bool write) const;  // channel-wide; the bank's col_ready on top
  void choose_mode();
  bool is_hit(const Request& r) const { return banks_[r.bank].open_row == r.row; }
  enum class Wanted : uint8_t { kAny, kRowHit };
  // The oldest request of the current mode whose bank is in `banks` (kRowHit:
  // that hits its bank's open row).
  size_t oldest_in(uint64_t banks, Wanted wanted) const;
  DramCommand issue_column(size_t index, uint64_t cycle);  // of the current mode's queue
  DramCommand activate(uint32_t bank, uint64_t row, uint64_t cycle);
  DramCommand precharge(uint32_t bank, uint64_t cycle);
  static void count(BankCounts& c, uint32_t bank, bool hit, int32_t by);
  static void set_hits(BankCounts& c, uint32_t bank, uint32_t hits);

  DramTiming t_;
  uint32_t burst_[2];  // a read's, a write's
  size_t capacity_;
  size_t write_capacity_;
  size_t drain_high_, drain_low_;
  bool draining_ = false;     // serving writes
  uint64_t quiet_until_ = 0;  // step() issued nothing and nothing can issue before this
  // Reads and writes apart, each in arrival order, oldest first: the scheduler
  // only ever looks at the current mode's requests, so only their order counts.
  std::vector<Request> queue_[2];
  BankCounts counts_[2];  // of queue_[0] and queue_[1]
  std::vector<Bank> banks_;
  uint64_t open_banks_ = 0;             // bit per bank with an open row
  uint64_t act_ready_ = 0;              // tRRD since the last ACT to any bank
  uint64_t col_ready_ = 0;              // tCCD since the last column command
  uint64_t bus_free_ = 0;               // first cycle the data bus is free
  uint64_t read_ready_ = 0;             // tWTR after the last write data
  Ring<ReadInFlight> reads_in_flight_;  // data-end order (the bus serialises them)
  DramCounters counters_;
};

}  // namespace gpupm
