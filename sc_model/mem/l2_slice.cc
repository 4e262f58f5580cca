#include "gpupm/mem/l2_slice.h"

#include "gpupm/clock/tickable.h"

namespace gpupm {

L2Slice::L2Slice(const MemConfig& cfg, uint32_t index)
    : map_(cfg),
      index_(index),
      sets_(cfg.l2_sets),
      ways_(cfg.l2_ways),
      latency_(cfg.l2_latency),
      lines_(size_t(cfg.l2_sets) * cfg.l2_ways),
      mshrs_(cfg.l2_mshrs),
      fills_(cfg.l2_mshrs),
      lookups_per_cycle_(cfg.l2_lookups_per_cycle),
      sectors_per_request_(cfg.l2_sector_bytes == 0 ? 1 : cfg.line_bytes / cfg.l2_sector_bytes),
      victim_read_out_(cfg.l2_data_port_bytes == 0 ? 0 : cfg.line_bytes / cfg.l2_data_port_bytes),
      port_limits_(lookups_per_cycle_ != 1 || sectors_per_request_ != 1 || victim_read_out_ != 0),
      sectors_of_32_bytes_(cfg.l2_sector_bytes == 32) {
  free_mshrs_.reserve(cfg.l2_mshrs);
  for (uint32_t m = cfg.l2_mshrs; m-- > 0;) free_mshrs_.push_back(m);
}

L2Slice::Line* L2Slice::find(uint64_t local_line) {
  Line* set = &lines_[sets_.mod(local_line) * ways_];
  for (uint32_t w = 0; w < ways_; ++w)
    if (set[w].tag == local_line) return &set[w];  // an invalid way's kNoTag meets none
  return nullptr;
}

L2Slice::Line* L2Slice::victim(uint64_t local_line, bool clean_only) {
  Line* set = &lines_[sets_.mod(local_line) * ways_];
  Line* best = nullptr;
  for (uint32_t w = 0; w < ways_; ++w) {
    Line& l = set[w];
    if (l.state == State::kInvalid) return &l;
    if (l.state == State::kValid && !(clean_only && l.dirty) && (!best || l.last_use < best->last_use)) best = &l;
  }
  return best;
}

void L2Slice::write_back(const Line& line, DramChannel& dram) {
  DramLocation at = map_.dram(line.tag);
  dram.enqueue(at.bank, at.row, true, kNone);
}

void L2Slice::respond(uint32_t id, uint64_t l2_cycle, ResponseNetwork& responses) {
  responses.push(index_, id, l2_cycle + latency_);
}

L2Outcome L2Slice::stall(uint64_t local_line) {
  stalled_line_ = local_line;
  stalled_at_ = use_clock_;
  return L2Outcome::kStall;
}

L2Outcome L2Slice::lookup(uint32_t id, uint64_t l2_cycle, RequestPool& pool, DramChannel& dram,
                          ResponseNetwork& responses) {
  MemRequest& r = pool[id];
  // A stalled head missed when it was last looked up; its line can only have come in
  // with an install, and every install moves use_clock_.
  const bool known_absent = r.local_line == stalled_line_ && use_clock_ == stalled_at_;
  if (Line* line = known_absent ? nullptr : find(r.local_line)) {
    if (line->state == State::kFilling && !r.write) {
      Mshr& m = mshrs_[line->mshr];
      pool[m.tail].next = id;
      m.tail = id;
      r.next = kNoRequest;
      return L2Outcome::kMiss;
    }
    line->last_use = ++use_clock_;
    line->dirty |= r.write;
    respond(id, l2_cycle, responses);
    return L2Outcome::kHit;
  }
  // A read miss waits for a DRAM queue slot and an MSHR whatever its victim: checked
  // first, since a stalled head is looked up again every L2 cycle.
  if (!r.write && (dram.free_read_slots() == 0 || free_mshrs_.empty())) return stall(r.local_line);
  Line* v = victim(r.local_line);
  if (!v) return stall(r.local_line);
  const bool dirty_victim = v->state == State::kValid && v->dirty;
  if (dirty_victim && dram.free_write_slots() == 0) return stall(r.local_line);
  if (dirty_victim) {
    write_back(*v, dram);
    // The victim's data leaves through the data port before this lookup's own use of the port.
    port_busy_until_ = std::max(port_busy_until_, l2_cycle * lookups_per_cycle_) + victim_read_out_;
  }
  *v = Line{r.local_line, ++use_clock_, kNone, State::kValid, r.write};
  if (r.write) {
    respond(id, l2_cycle, responses);
    return L2Outcome::kMiss;
  }
  uint32_t m = free_mshrs_.back();
  free_mshrs_.pop_back();
  mshrs_[m] = Mshr{uint32_t(v - lines_.data()), id, id};
  r.next = kNoRequest;
  v->state = State::kFilling;
  v->mshr = m;
  DramLocation at = map_.dram(r.local_line);
  dram.enqueue(at.bank, at.row, false, m);
  return L2Outcome::kMiss;
}

void L2Slice::install_copy(uint64_t local_line) {
  if (Line* line = find(local_line)) {
    if (line->state == State::kValid) line->last_use = ++use_clock_;
    return;
  }
  if (Line* way = victim(local_line, true)) *way = Line{local_line, ++use_clock_, kNone, State::kValid, false};
}

void L2Slice::schedule_fill(uint32_t mshr, uint64_t fill_cycle) { fills_.push_back({mshr, fill_cycle}); }

void L2Slice::fill_due_now(uint64_t l2_cycle, RequestPool& pool, ResponseNetwork& responses) {
  while (!fills_.empty() && fills_.front().ready <= l2_cycle) {
    uint32_t m = fills_.front().id;
    fills_.pop_front();
    Line& line = lines_[mshrs_[m].line];
    line.state = State::kValid;
    line.mshr = kNone;
    for (uint32_t id = mshrs_[m].head; id != kNoRequest; id = pool[id].next) respond(id, l2_cycle, responses);
    free_mshrs_.push_back(m);
  }
}

}  // namespace gpupm
