#include "gpupm/mem/dram_channel.h"

#include <algorithm>

namespace gpupm {

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
}

void DramChannel::enqueue(uint32_t bank, uint64_t row, bool write, uint32_t tag) {
  queue_[write].push_back({row, bank, tag});
  quiet_until_ = 0;  // the newcomer (or a mode change it causes) may go at once
}

void DramChannel::choose_mode() {
  const size_t reads = queue_[0].size(), writes = queue_[1].size();
  if (draining_) {
    if (writes == 0 || (writes <= drain_low_ && reads > 0)) draining_ = false;
  } else if (writes >= drain_high_ || (reads == 0 && writes > 0)) {
    draining_ = true;
  }
}

// One pass in arrival order: the oldest row hit that can go returns at once;
// a row command has to wait for the whole queue, since a younger hit keeps its
// bank open (no PRE) and any hit that can go comes first.
DramCommand DramChannel::schedule(uint64_t cycle) {
  choose_mode();
  // Every candidate is of the current mode: a column command's channel-wide
  // constraints (tCCD, the data bus, tWTR) are the same for all of them.
  const std::vector<Request>& queue = queue_[draining_];
  const uint64_t global = column_ready_at(draining_);
  uint64_t banks_with_hits = 0;     // bit per bank
  uint64_t banks_to_close = 0;      // open on another row than a queued request's
  size_t first_act = queue.size();  // the oldest request whose ACT can issue now
  uint64_t earliest = kNever;       // when the first blocked candidate could go
  for (size_t i = 0; i < queue.size(); ++i) {
    const Request& r = queue[i];
    const Bank& b = banks_[r.bank];
    if (b.open_row == r.row) {
      banks_with_hits |= uint64_t(1) << r.bank;
      const uint64_t ready = std::max(b.col_ready, global);
      if (cycle >= ready) return issue_column(i, cycle);
      earliest = std::min(earliest, ready);
    } else if (b.open_row != kNoRow) {
      banks_to_close |= uint64_t(1) << r.bank;
    } else {
      const uint64_t ready = std::max(b.act_ready, act_ready_);
      if (cycle < ready) {
        earliest = std::min(earliest, ready);
      } else if (first_act == queue.size()) {
        first_act = i;
      }
    }
  }
  uint64_t can_close = 0;  // banks whose PRE can issue now
  for (uint64_t m = banks_to_close & ~banks_with_hits; m != 0; m &= m - 1) {
    const uint32_t bank = uint32_t(__builtin_ctzll(m));
    if (cycle >= banks_[bank].pre_ready) {
      can_close |= uint64_t(1) << bank;
    } else {
      earliest = std::min(earliest, banks_[bank].pre_ready);
    }
  }
  if (can_close != 0)  // the oldest row command goes: a PRE if one is older than the ACT
    for (size_t i = 0; i < first_act; ++i)
      if (can_close >> queue[i].bank & 1) return precharge(queue[i].bank, cycle);
  if (first_act < queue.size()) return activate(queue[first_act].bank, queue[first_act].row, cycle);
  quiet_until_ = earliest;
  return {};
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
  b.act_ready = std::max(b.act_ready, cycle + t_.tRP);
  ++counters_.precharges;
  return {DramOp::kPrecharge, bank, row};
}

}  // namespace gpupm
