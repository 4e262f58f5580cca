#include "gpupm/mem/dram_channel.h"

#include <algorithm>

namespace gpupm {

namespace {

void set_bit(uint64_t& mask, uint32_t bank, bool on) {
  mask = (mask & ~(uint64_t(1) << bank)) | (uint64_t(on) << bank);
}

// The banks of `banks` whose command can go at `cycle` (ready_of(bank) <= cycle);
// the others' ready cycles lower `earliest`.
template <class ReadyOf>
uint64_t banks_ready(uint64_t banks, uint64_t cycle, uint64_t& earliest, ReadyOf ready_of) {
  uint64_t can_go = 0;
  for (uint64_t m = banks; m != 0; m &= m - 1) {
    const uint32_t bank = uint32_t(__builtin_ctzll(m));
    const uint64_t ready = ready_of(bank);
    if (cycle >= ready) can_go |= uint64_t(1) << bank;
    else earliest = std::min(earliest, ready);
  }
  return can_go;
}

}  // namespace

DramChannel::DramChannel(const MemConfig& cfg)
    : t_(cfg.t),
      burst_{cfg.line_burst_cycles(false), cfg.line_burst_cycles(true)},
      capacity_(cfg.mc_queue),
      write_capacity_(cfg.mc_write_queue),
      drain_high_(cfg.write_drain_high),
      drain_low_(cfg.write_drain_low),
      banks_(cfg.banks),
      reads_in_flight_(2 * cfg.mc_queue) {
  queue_[0].reserve(capacity_);
  queue_[1].reserve(write_capacity_);
  for (BankCounts& c : counts_) {
    c.hits.assign(cfg.banks, 0);
    c.misses.assign(cfg.banks, 0);
  }
}

void DramChannel::enqueue(uint32_t bank, uint64_t row, bool write, uint32_t tag) {
  queue_[write].push_back({row, bank, tag});
  count(counts_[write], bank, is_hit(queue_[write].back()), +1);
  quiet_until_ = 0;  // the newcomer (or a mode change it causes) may go at once
}

void DramChannel::count(BankCounts& c, uint32_t bank, bool hit, int32_t by) {
  uint32_t& n = (hit ? c.hits : c.misses)[bank];
  n += uint32_t(by);  // modulo 2^32: -1 takes one away
  set_bit(hit ? c.with_hits : c.with_misses, bank, n != 0);
}

// After an ACT or PRE: `hits` of the bank's queued requests hit its open row.
void DramChannel::set_hits(BankCounts& c, uint32_t bank, uint32_t hits) {
  const uint32_t queued = c.hits[bank] + c.misses[bank];
  c.hits[bank] = hits;
  c.misses[bank] = queued - hits;
  set_bit(c.with_hits, bank, hits != 0);
  set_bit(c.with_misses, bank, queued != hits);
}

bool DramChannel::counts_match_queues() const {
  for (bool write : {false, true}) {
    BankCounts recounted;
    recounted.hits.assign(banks_.size(), 0);
    recounted.misses.assign(banks_.size(), 0);
    for (const Request& r : queue_[write]) count(recounted, r.bank, is_hit(r), +1);
    const BankCounts& kept = counts_[write];
    if (kept.hits != recounted.hits || kept.misses != recounted.misses || kept.with_hits != recounted.with_hits ||
        kept.with_misses != recounted.with_misses)
      return false;
  }
  uint64_t open = 0;
  for (uint32_t bank = 0; bank < banks_.size(); ++bank) set_bit(open, bank, banks_[bank].open_row != kNoRow);
  return open == open_banks_;
}

void DramChannel::choose_mode() {
  const size_t reads = queue_[0].size(), writes = queue_[1].size();
  if (draining_) {
    if (writes == 0 || (writes <= drain_low_ && reads > 0)) draining_ = false;
  } else if (writes >= drain_high_ || (reads == 0 && writes > 0)) {
    draining_ = true;
  }
}

// FR-FCFS from the banks' counts: the oldest row hit that can go, else the
// oldest request whose row command can go (a PRE only for a bank no queued
// request hits: a younger hit keeps its bank open and is served first). The
// queue is walked only to find that oldest request among the banks that can go.
DramCommand DramChannel::schedule(uint64_t cycle) {
  choose_mode();
  // Every candidate is of the current mode: a column command's channel-wide
  // constraints (tCCD, the data bus, tWTR) are the same for all of them.
  const BankCounts& counts = counts_[draining_];
  const uint64_t global = column_ready_at(draining_);
  uint64_t earliest = kNever;  // when the first blocked candidate could go
  const uint64_t hits_can_go = banks_ready(counts.with_hits, cycle, earliest,
                                           [&](uint32_t bank) { return std::max(banks_[bank].col_ready, global); });
  if (hits_can_go != 0) return issue_column(oldest_in(hits_can_go, Wanted::kRowHit), cycle);
  // Open on another row than a queued request's, with no hit queued; closed, with a request queued.
  const uint64_t can_close = banks_ready(counts.with_misses & open_banks_ & ~counts.with_hits, cycle, earliest,
                                         [&](uint32_t bank) { return banks_[bank].pre_ready; });
  const uint64_t can_open = banks_ready(counts.with_misses & ~open_banks_, cycle, earliest,
                                        [&](uint32_t bank) { return std::max(banks_[bank].act_ready, act_ready_); });
  if ((can_close | can_open) != 0) {  // the oldest row command goes: PRE or ACT
    const Request& r = queue_[draining_][oldest_in(can_close | can_open, Wanted::kAny)];
    return (can_close >> r.bank & 1) ? precharge(r.bank, cycle) : activate(r.bank, r.row, cycle);
  }
  quiet_until_ = earliest;
  return {};
}

// Unbounded: the counts say a bank in `banks` has such a request (they are
// checked against the queues in DramChannel.CountsFollowTheQueues); a bound
// cost 1% of stream_copy's instructions.
size_t DramChannel::oldest_in(uint64_t banks, Wanted wanted) const {
  const Request* queue = queue_[draining_].data();
  size_t i = 0;
  while (!((banks >> queue[i].bank & 1) && (wanted == Wanted::kAny || is_hit(queue[i])))) ++i;
  return i;
}

// The first cycle a column command of that kind may go as far as the channel
// goes (tCCD since the last one, the data bus free when its data starts, tWTR
// before a read); its bank's tRCD comes on top.
uint64_t DramChannel::column_ready_at(bool write) const {
  const uint64_t lead = write ? t_.tWL : t_.tCL;
  const uint64_t t = std::max(col_ready_, bus_free_ > lead ? bus_free_ - lead : 0);
  return write ? t : std::max(t, read_ready_);
}

DramCommand DramChannel::issue_column(size_t index, uint64_t cycle) {
  const bool write = draining_;
  std::vector<Request>& queue = queue_[write];
  Request r = queue[index];
  queue.erase(queue.begin() + std::ptrdiff_t(index));
  count(counts_[write], r.bank, true, -1);
  Bank& b = banks_[r.bank];
  uint64_t data_end = cycle + (write ? t_.tWL : t_.tCL) + burst_[write];
  bus_free_ = data_end;
  col_ready_ = cycle + t_.tCCD;
  counters_.bus_busy += burst_[write];
  if (write) {
    b.pre_ready = std::max(b.pre_ready, data_end + t_.tWR);
    read_ready_ = std::max(read_ready_, data_end + t_.tWTR);
    ++counters_.writes;
    return {DramOp::kWrite, r.bank, r.row};
  }
  b.pre_ready = std::max(b.pre_ready, cycle + t_.tRTP);
  reads_in_flight_.push_back({data_end, r.tag});
  ++counters_.reads;
  return {DramOp::kRead, r.bank, r.row};
}

DramCommand DramChannel::activate(uint32_t bank, uint64_t row, uint64_t cycle) {
  Bank& b = banks_[bank];
  b.open_row = row;
  open_banks_ |= uint64_t(1) << bank;
  for (bool write : {false, true}) {  // the bank was closed: its queued requests were all misses
    if (!(counts_[write].with_misses >> bank & 1)) continue;
    uint32_t hits = 0;
    for (const Request& r : queue_[write]) hits += r.bank == bank && is_hit(r);
    set_hits(counts_[write], bank, hits);
  }
  b.col_ready = cycle + t_.tRCD;
  b.pre_ready = std::max(b.pre_ready, cycle + t_.tRAS);
  b.act_ready = cycle + t_.tRC;
  act_ready_ = cycle + t_.tRRD;
  ++counters_.activates;
  return {DramOp::kActivate, bank, row};
}

DramCommand DramChannel::precharge(uint32_t bank, uint64_t cycle) {
  Bank& b = banks_[bank];
  uint64_t row = b.open_row;
  b.open_row = kNoRow;
  open_banks_ &= ~(uint64_t(1) << bank);
  for (BankCounts& c : counts_) set_hits(c, bank, 0);  // only the other mode's queue can have had any
  b.act_ready = std::max(b.act_ready, cycle + t_.tRP);
  ++counters_.precharges;
  return {DramOp::kPrecharge, bank, row};
}

}  // namespace gpupm
