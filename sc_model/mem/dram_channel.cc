#include "gpupm/mem/dram_channel.h"

#include <algorithm>

namespace gpupm {

DramChannel::DramChannel(const MemConfig& cfg)
    : t_(cfg.t),
      burst_(cfg.line_bytes / (cfg.bus_bytes * cfg.data_rate)),
      capacity_(cfg.mc_queue),
      write_capacity_(cfg.mc_write_queue),
      drain_high_(cfg.write_drain_high),
      drain_low_(cfg.write_drain_low),
      banks_(cfg.banks),
      reads_in_flight_(2 * cfg.mc_queue) {
  queue_.reserve(capacity_ + write_capacity_);
}

void DramChannel::enqueue(uint32_t bank, uint64_t row, bool write, uint32_t tag) {
  queue_.push_back({bank, row, write, tag});
  ++queued_[write];
  quiet_until_ = 0;  // the newcomer (or a mode change it causes) may go at once
}

void DramChannel::choose_mode() {
  if (draining_) {
    if (queued_[1] == 0 || (queued_[1] <= drain_low_ && queued_[0] > 0)) draining_ = false;
  } else if (queued_[1] >= drain_high_ || (queued_[0] == 0 && queued_[1] > 0)) {
    draining_ = true;
  }
}

DramCommand DramChannel::schedule(uint64_t cycle) {
  choose_mode();
  // Every candidate is of the current mode: a column command's channel-wide
  // constraints (tCCD, the data bus, tWTR) are the same for all of them.
  const uint64_t global = column_ready_at(draining_);
  // Banks with a queued row hit are kept open for it (bit per bank).
  uint64_t banks_with_hits = 0;
  uint64_t earliest = kNever;  // when the first blocked candidate could go
  for (size_t i = 0; i < queue_.size(); ++i) {
    const Request& r = queue_[i];
    const Bank& b = banks_[r.bank];
    if (r.write != draining_ || b.open_row != r.row) continue;
    banks_with_hits |= uint64_t(1) << r.bank;
    const uint64_t ready = std::max(b.col_ready, global);
    if (cycle >= ready) return issue_column(i, cycle);
    earliest = std::min(earliest, ready);
  }
  for (const Request& r : queue_) {
    const Bank& b = banks_[r.bank];
    if (r.write != draining_ || b.open_row == r.row) continue;
    if (b.open_row != kNoRow) {
      if (banks_with_hits >> r.bank & 1) continue;
      if (cycle >= b.pre_ready) return precharge(r.bank, cycle);
      earliest = std::min(earliest, b.pre_ready);
    } else {
      if (cycle >= b.act_ready && cycle >= act_ready_) return activate(r.bank, r.row, cycle);
      earliest = std::min(earliest, std::max(b.act_ready, act_ready_));
    }
  }
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
  Request r = queue_[index];
  queue_.erase(queue_.begin() + std::ptrdiff_t(index));
  --queued_[r.write];
  Bank& b = banks_[r.bank];
  uint64_t data_end = cycle + (r.write ? t_.tWL : t_.tCL) + burst_;
  bus_free_ = data_end;
  col_ready_ = cycle + t_.tCCD;
  counters_.bus_busy += burst_;
  if (r.write) {
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
