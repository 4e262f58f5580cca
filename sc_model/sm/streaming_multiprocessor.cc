#include "gpupm/sm/streaming_multiprocessor.h"

#include "gpupm/clock/time_now.h"

#include <algorithm>

namespace gpupm {

using sc_core::sc_time;

StreamingMultiprocessor::StreamingMultiprocessor(sc_core::sc_module_name name, uint32_t id, const SmConfig& cfg,
                                                 ClockDomain& clock)
    : sc_module(name),
      mem_out("mem_out"),
      gwde_out("gwde_out"),
      cta_in("cta_in"),
      ctrl_in("ctrl_in"),
      id_(id),
      cfg_(cfg),
      clock_(clock),
      lsu_(cfg),
      icache_(cfg.icache_bytes, cfg.icache_ways, cfg.line_bytes),
      collector_(cfg),
      warps_(cfg.max_warps),
      issue_(cfg),
      ctas_(cfg.max_ctas),
      dummy_data_(cfg.line_bytes, 0),
      line_(cfg.line_bytes),
      ibuffer_(cfg.instruction_buffer) {
  mem_out.register_nb_transport_bw(this, &StreamingMultiprocessor::nb_transport_bw);
  cta_in.register_b_transport(this, &StreamingMultiprocessor::cta_b_transport);
  ctrl_in.register_b_transport(this, &StreamingMultiprocessor::ctrl_b_transport);
  static_assert(kSmMaxWarps <= 64, "the front end keeps a bit per warp slot");
  for (uint16_t s = 0; s < cfg.max_warps; ++s) sched_warps_[issue_.scheduler_of(s)] |= uint64_t(1) << s;
  const OpcodeTiming& t = cfg.opcode_timing;
  const std::vector<uint32_t>* lists[ptx::kAluTypes][3] = {{&t.int_latency, &t.int_interval, &t.int_result_stage},
                                                           {&t.f32_latency, &t.f32_interval, &t.f32_result_stage},
                                                           {&t.f64_latency, &t.f64_interval, &t.f64_result_stage}};
  for (size_t type = 0; type < ptx::kAluTypes; ++type)
    for (size_t group = 0; group < ptx::kAluGroups; ++group) {
      const std::vector<uint32_t>&latency = *lists[type][0], &interval = *lists[type][1], &stage = *lists[type][2];
      AluTiming& a = alu_timing_[type][group];
      a.latency = latency.empty() ? cfg.alu_latency : latency[group];
      a.interval = interval.empty() ? cfg.alu_interval : interval[group];
      a.result_stage = stage.empty() ? a.latency : stage[group];
    }
  for (size_t type = 0; type < ptx::kAluTypes; ++type) {
    const std::vector<uint32_t>&latency = *lists[type][0], &interval = *lists[type][1];
    const size_t div = size_t(ptx::AluGroup::Div);
    AluTiming& d = div_sfu_timing_[type];
    d.latency = latency.empty() ? cfg.sfu_latency : latency[div];
    d.interval = interval.empty() ? cfg.sfu_interval : interval[div];
    d.result_stage = d.latency;
  }
  // next_busy_ changes only in tick() and every outside input goes through poke(): when due holds.
  // With a front end the clock ticks front_end_ticker_ instead (tick_as<true>).
  clock_handle_ = clock.add_when_due(ibuffer_ ? static_cast<Tickable*>(&front_end_ticker_) : this, next_busy_);
}

// ---------------------------------------------------------------- sockets

tlm::tlm_sync_enum StreamingMultiprocessor::nb_transport_bw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                                                            sc_time&) {
  if (phase == tlm::END_REQ) {
    end_req_seen_ = true;
    end_req_time_ = time_now(*this);
  } else if (phase == tlm::BEGIN_RESP) {
    inbox_.push_back({&gp, time_now(*this)});
  }
  poke();
  return phase == tlm::BEGIN_RESP ? tlm::TLM_COMPLETED : tlm::TLM_ACCEPTED;
}

void StreamingMultiprocessor::cta_b_transport(tlm::tlm_generic_payload& gp, sc_time&) {
  gp.set_response_status(tlm::TLM_OK_RESPONSE);
  if (auto* m = gp.get_extension<CtaLaunchMsg>()) {
    launches_.push_back({m->launch, m->cta, std::max(time_now(*this), m->not_before), kNever});
  } else if (auto* p = gp.get_extension<CtaPauseMsg>()) {
    for (PendingLaunch& l : launches_)  // not resident yet: it starts in the requested state
      if (l.cta == p->cta && l.launch.get() == p->launch) l.paused = p->pause;
    for (uint16_t s = 0; s < ctas_.size(); ++s) {
      Cta& cta = ctas_[s];
      if (!cta.valid || cta.id != p->cta || cta.launch.get() != p->launch || cta.paused == p->pause) continue;
      charge_cycles_so_far();
      cta.paused = p->pause;
      for (uint16_t w : cta.warps) {
        warps_[w].paused = p->pause;
        refresh_issue(w);
        if (!warps_[w].finished) resident_unpaused_warps_ += p->pause ? -1 : 1;
      }
      resident_unpaused_ctas_ += p->pause ? -1 : 1;
    }
  } else if (auto* h = gp.get_extension<IssueHoldMsg>()) {  // the GWDE's global stagger
    apply_hold(*h);
  } else if (auto* g = gp.get_extension<SmPowerMsg>()) {
    charge_cycles_so_far();
    gated_ = g->gated;
    if (gated_) {  // gating loses the caches' contents
      lsu_.invalidate_all();
      icache_.invalidate_all();
    }
  } else {
    gp.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
    return;
  }
  poke();
}

void StreamingMultiprocessor::ctrl_b_transport(tlm::tlm_generic_payload& gp, sc_time&) {
  if (auto* h = gp.get_extension<IssueHoldMsg>()) {
    apply_hold(*h);
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
    poke();
  } else {
    gp.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
  }
}

void StreamingMultiprocessor::apply_hold(const IssueHoldMsg& h) {
  hold_until_ = h.until_cycle;
  hold_ctas_ = h.ctas_too;
}

// ---------------------------------------------------------------- accounting (status readers: sm_status.cc)

void StreamingMultiprocessor::account_until(uint64_t c) {
  if (c <= accounted_) return;
  uint64_t n = c - accounted_;
  c_.cycles += n;
  if (gated_) c_.gated_cycles += n;
  if (resident_ctas_total_ > 0) c_.busy_cycles += n;
  c_.resident_cta_cycles += n * resident_unpaused_ctas_;
  c_.resident_warp_cycles += n * resident_unpaused_warps_;
  accounted_ = c;
}

void StreamingMultiprocessor::attach_droop_predictor(std::unique_ptr<DroopPredController> ctrl,
                                                     const DroopPredIn& csr) {
  pred_ = std::move(ctrl);
  pred_in_ = csr;
  pred_in_.cand_valid = 0;
}

// ---------------------------------------------------------------- tick

// Read after the issue stage, the LSU's cycle and the line requests. A stalled LSU
// waits for a fill or END_REQ, which wake the SM: no cause by itself. Inlined into
// tick(): called, it cost 0.4% of kmeans' instructions.
template <bool kFrontEnd>
[[gnu::always_inline]] inline bool StreamingMultiprocessor::ticks_next_edge(uint64_t c, bool drained_responses) const {
  return issued_any_                                     // pipes, heads and the LSU latch changed
         || drained_responses                            // fills were taken in this cycle
         || lsu_.next_work_cycle(c) == c + 1             // the LSU has work that does not wait for memory
         || (issue_.mem_blocked() && lsu_.can_accept())  // a ready memory head met the full latch, drained since
         || line_request_can_go()                        // a line request waits and the port is free
         || throttled_                                   // the droop predictor refused: ask again
         || !inbox_.empty()                              // a response of this very time, seen from the next edge
         || end_req_seen_                                // an END_REQ not consumed yet (only after its time)
         || (kFrontEnd && front_busy_);  // a warp to fetch, decode or discard (SmConfig::instruction_buffer)
}

template <bool kFrontEnd>
void StreamingMultiprocessor::tick_as(uint64_t c) {
  last_cycle_ = c;  // the cycle counters catch up only at a change they depend on (charge_cycles_so_far)
  issued_mem_at_last_ = 0;
  // The time is read only when a response or an END_REQ needs it.
  bool progressed = false;
  if (!inbox_.empty()) {
    drain_responses(c, time_now(*this));
    progressed = true;
  }
  if (req_blocked_ && end_req_seen_ && end_req_time_ < time_now(*this)) {
    req_blocked_ = false;
    end_req_seen_ = false;
  }
  if (!launches_.empty()) start_ctas(c);
  if (!done_.empty()) apply_done_loads();

  issued_any_ = false;
  issue_.start_cycle();
  // With the LSU full and every scheduler's last fruitless scan standing, the stage
  // would pick nothing (IssueStage::memos_stand); a droop predictor steps every cycle.
  if (!gated_ && c >= hold_until_ && (pred_ || lsu_.can_accept() || !issue_.memos_stand(c))) {
    issue<kFrontEnd>(c);
  } else if (kFrontEnd && stale_ && !gated_ && c >= hold_until_) {
    discard_looked_at(~0u, -1);  // every scheduler looked at all its warps and issued none
  }
  // GPGPU-Sim's front end, after the issue stage.
  if constexpr (kFrontEnd) {
    if (!gated_) front_end();
    else front_busy_ = false;
  }
  lsu_full_at_issue_ = !lsu_.can_accept();
  count_skipped_stalls(c - 1);
  lsu_.cycle(c, done_);
  lsu_counted_ = c;
  if (!done_.empty()) apply_done_loads();
  if (line_request_can_go()) send_line_request();  // tested inline: most ticks have none

  // When may this SM next do anything without outside input? A cause to tick at
  // the next edge settles it (next_busy_cycle_after() gives c + 1 then, whatever
  // else): in most ticked cycles, the hold and the launches are not looked at.
  if (ticks_next_edge<kFrontEnd>(c, progressed)) {
    next_busy_ = c + 1;
    return;
  }
  uint64_t earliest_launch = kNever;
  for (const PendingLaunch& p : launches_)
    earliest_launch = std::min(earliest_launch, p.ready_cycle == kNever ? c + 1 : p.ready_cycle);
  // A line in the LSU's L1 access queue looks up at its due cycle.
  const uint64_t min_ready = std::min(issue_.min_ready(), lsu_.next_work_cycle(c));
  next_busy_ = next_busy_cycle_after(c, false, min_ready, hold_until_, resident_unpaused_warps_ > 0, earliest_launch);
}

// Called only when due or poked (add_when_due); counters catch up lazily over the cycles between.
// This is the SM without a front end (SmConfig::instruction_buffer 0); with one the clock ticks
// front_end_ticker_ instead, whose cycle has the front end's steps compiled in. (Tested at each issue,
// they cost 0.4% of kmeans' instructions without a front end; tested at each tick, 0.2%.)
void StreamingMultiprocessor::tick(uint64_t c) { tick_as<false>(c); }

void StreamingMultiprocessor::FrontEndTicker::tick(uint64_t c) { sm->tick_as<true>(c); }

uint64_t StreamingMultiprocessor::next_busy_cycle(uint64_t now) const {
  return next_busy_ > now ? next_busy_ : now + 1;
}

void StreamingMultiprocessor::drain_responses(uint64_t c, const sc_time& now) {
  size_t kept = 0;
  for (size_t i = 0; i < inbox_.size(); ++i) {
    Response r = inbox_[i];
    if (!(r.arrived < now)) {  // arrived at this very time: seen from the next edge on
      inbox_[kept++] = r;
      continue;
    }
    const uint64_t line = line_.div(r.gp->get_address());
    if (r.gp->is_read()) {
      if (icache_.owns(line)) instruction_fill(line);
      else if (atomic_owner_.empty() || !atomic_done(r.gp, c)) lsu_.fill(line, c, done_);
    } else if (cfg_.store_exit_waits_for_ack) {
      store_acknowledged(r.gp);
    }
    free_payloads_.push_back(r.gp);
  }
  inbox_.resize(kept);
}

void StreamingMultiprocessor::start_ctas(uint64_t c) {
  // Each launch takes cta_launch_latency from the first edge that sees it;
  // launches that arrive together start together.
  const sc_time now = time_now(*this);
  for (PendingLaunch& p : launches_)
    if (p.ready_cycle == kNever && p.arrived < now) p.ready_cycle = c + cfg_.cta_launch_latency;
  if (hold_ctas_ && c < hold_until_) return;  // staggered: the CTA starts when the hold ends
  while (!launches_.empty() && launches_.front().ready_cycle <= c) {
    activate_cta(launches_.front());
    launches_.pop_front();
  }
}

void StreamingMultiprocessor::activate_cta(const PendingLaunch& p) {
  auto slot_it = std::find_if(ctas_.begin(), ctas_.end(), [](const Cta& x) { return !x.valid; });
  if (slot_it == ctas_.end()) SC_REPORT_FATAL("gpupm/sm", "CTA launched onto a full SM");
  uint16_t cs = uint16_t(slot_it - ctas_.begin());
  Cta& cta = *slot_it;
  cta.valid = true;
  cta.paused = p.paused;
  cta.id = p.cta;
  cta.launch = p.launch;
  cta.warps_alive = p.launch->warps_per_cta;
  cta.at_barrier = 0;
  cta.warps.clear();
  if (p.launch->program) cta.program.start(*p.launch->program, p.cta);
  if (cfg_.l1_shared_bytes) fit_l1_to_carveouts();
  for (uint16_t s = 0; s < warps_.size() && cta.warps.size() < p.launch->warps_per_cta; ++s) {
    if (warps_[s].valid) continue;
    WarpSlot& w = warps_[s];
    w.reset_for_cta();
    w.valid = true;
    w.paused = p.paused;
    w.cta_slot = cs;
    if (p.launch->program) {
      w.kind = WarpKind::Program;
      w.program.start(cta.program, uint32_t(cta.warps.size()), id_, cfg_.line_bytes, cfg_.warp_size,
                      {cfg_.narrow_load_segments, cfg_.atomic_transactions, cfg_.store_sectors});
    } else {
      w.profile.stream.start(p.launch.get(), p.cta, uint32_t(cta.warps.size()));
      w.profile.board.reset();
    }
    if (ibuffer_) start_fetching(s);
    else fetch_head(s);
    refresh_issue(s);
    cta.warps.push_back(s);
    issue_.add(s);  // youngest last
  }
  if (cta.warps.size() < p.launch->warps_per_cta) SC_REPORT_FATAL("gpupm/sm", "CTA launched without free warp slots");
  charge_cycles_so_far();
  ++resident_ctas_total_;
  if (p.paused) return;
  ++resident_unpaused_ctas_;
  resident_unpaused_warps_ += uint32_t(cta.warps.size());
}

void StreamingMultiprocessor::instruction_fill(uint64_t line) {
  for (uint16_t slot : icache_.fill(line)) {
    if (ibuffer_) {  // fetched again, ahead of the round robin (GPGPU-Sim: the L1I's ready access)
      filled_.push_back(slot);
      continue;
    }
    WarpSlot& w = warps_[slot];
    w.ifetch = false;
    fetch_head(slot);
    refresh_issue(slot);
  }
}

// ---------------------------------------------------------------- the front end (SmConfig::instruction_buffer)

// GPGPU-Sim's front end as its code has it (gpgpu-sim 4.0, src/gpgpu-sim/shader.cc, shader_core_ctx::cycle:
// issue(), then decode() and fetch() once, -gpgpu_inst_fetch_throughput 1): in each cycle, after the issue
// stage, the warp fetched in the last cycle gets its instructions (decode), then the SM fetches for one
// warp (fetch): a warp whose instruction miss came back, else the first warp after the one fetched last
// whose buffer is empty. A fetch reads the instruction-cache line of the warp's fetch_pc and decodes
// ibuffer_ consecutive instructions from there (fewer at the kernel's end); they issue in order from the
// cycle after the decode. A warp issues the buffered head only if it is the warp's own next instruction
// (exec.pc()): after a taken branch, a divergence or a reconvergence it is not, and the buffer is
// discarded when the warp's scheduler next looks at the warp (the "control hazard" flush of
// scheduler_unit::cycle), the warp then fetching from where it went.
void StreamingMultiprocessor::front_end() {
  if (fetched_ >= 0) {
    decode(uint16_t(fetched_));
    fetched_ = -1;
  }
  fetch();
  front_busy_ = fetched_ >= 0 || to_fetch_ != 0 || stale_ != 0 || !filled_.empty();
}

// A new warp: its buffer empty, its fetch from its first instruction.
void StreamingMultiprocessor::start_fetching(uint16_t slot) {
  WarpSlot& w = warps_[slot];
  const uint64_t bit = uint64_t(1) << slot;
  stale_ &= ~bit;
  to_fetch_ &= ~bit;
  w.has_head = false;
  if (w.is_program() ? w.program.exec.done() : w.profile.stream.done()) return;
  w.fetch_pc = w.is_program() ? w.program.exec.pc() : 0;
  w.ifetch = true;
  to_fetch_ |= bit;
}

void StreamingMultiprocessor::fetch() {
  if (!filled_.empty()) {  // its line is in now: no second access (GPGPU-Sim takes the returned access)
    fetched_ = filled_.front();
    filled_.pop_front();
    return;
  }
  if (!to_fetch_) return;
  const uint32_t start = last_fetched_ + 1u == warps_.size() ? 0 : last_fetched_ + 1u;
  const uint64_t after = to_fetch_ & (~uint64_t(0) << start);
  const uint16_t slot = uint16_t(__builtin_ctzll(after ? after : to_fetch_));
  to_fetch_ &= ~(uint64_t(1) << slot);
  last_fetched_ = slot;
  WarpSlot& w = warps_[slot];
  const KernelLaunch& k = *ctas_[w.cta_slot].launch;
  const uint64_t offset = w.is_program() ? uint64_t(w.fetch_pc) * kInstBytes
                                         : w.profile.stream.index() * kInstBytes % std::max<uint64_t>(k.code_bytes, 1);
  // Past the kernel's code (the fall-through of a final branch) there is no line to read.
  if (k.code_bytes && offset < k.code_bytes && !icache_.fetch(k.code_base + line_.div(offset), slot)) {
    ++c_.icache_misses;  // the warp waits for the line (instruction_fill), ifetch still set
    return;
  }
  fetched_ = slot;
}

void StreamingMultiprocessor::decode(uint16_t slot) {
  WarpSlot& w = warps_[slot];
  uint32_t n = ibuffer_;
  if (w.is_program()) {  // up to the kernel's last instruction; past it, one empty entry (discarded)
    const uint32_t code = uint32_t(ctas_[w.cta_slot].launch->program->kernel->info.size());
    n = w.fetch_pc < code ? std::min(n, code - w.fetch_pc) : 1;
  }
  w.buffered = uint8_t(n);
  w.buffer_pc = w.fetch_pc;
  buffered_head(slot);
  refresh_issue(slot);
}

// The first buffered instruction is the warp's head if it is the warp's own next one; else the warp
// waits for its scheduler to look at it and discard the buffer.
void StreamingMultiprocessor::buffered_head(uint16_t slot) {
  WarpSlot& w = warps_[slot];
  if (w.is_program() && w.buffer_pc != w.program.exec.pc()) {
    w.has_head = false;
    w.ifetch = true;
    stale_ |= uint64_t(1) << slot;
    return;
  }
  w.ifetch = false;
  load_head(w);
}

// After an issue: the next buffered instruction is the head, or the warp waits for a fetch (this cycle's
// fetch may take it already).
void StreamingMultiprocessor::next_buffered(uint16_t slot) {
  WarpSlot& w = warps_[slot];
  w.has_head = false;
  if (w.is_program() ? w.program.exec.done() : w.profile.stream.done()) return;
  w.fetch_pc = ++w.buffer_pc;  // GPGPU-Sim's set_next_pc(pc + isize): the branch target comes with a discard
  if (--w.buffered > 0) return buffered_head(slot);
  w.ifetch = true;
  to_fetch_ |= uint64_t(1) << slot;
}

// Scheduler `sched` (~0u: every one) looked at its warps in its order (the greedy one, then oldest first)
// up to `pick` (-1: all of them): each whose buffered head is off its path is discarded.
void StreamingMultiprocessor::discard_looked_at(uint32_t sched, int pick) {
  if (sched == ~0u) {
    for (uint32_t s = 0; s < cfg_.schedulers; ++s) discard_looked_at(s, -1);
    return;
  }
  const int g = issue_.greedy(sched);
  if (g >= 0) {
    discard_stale(uint16_t(g));
    if (g == pick) return;
  }
  for (uint16_t slot : issue_.warps_of(sched)) {
    if (int(slot) == pick) return;
    discard_stale(slot);
  }
}

// GPGPU-Sim's scheduler found the buffered head off the warp's path ("control hazard"): the buffer is
// flushed and the warp's next fetch reads where the warp went, in this very cycle's fetch.
void StreamingMultiprocessor::discard_stale(uint16_t slot) {
  const uint64_t bit = uint64_t(1) << slot;
  if (!(stale_ & bit)) return;
  stale_ &= ~bit;
  WarpSlot& w = warps_[slot];
  w.buffered = 0;
  w.fetch_pc = w.program.exec.pc();
  to_fetch_ |= bit;
}

// ---------------------------------------------------------------- issue

// Each scheduler issues its pick (issue_stage.h) if the droop predictor admits it.
template <bool kFrontEnd>
void StreamingMultiprocessor::issue(uint64_t c) {
  const bool lsu_full = !lsu_.can_accept();
  throttled_ = false;
  if (pred_) {  // the cycles since the predictor's last edge dispatched nothing
    if (c > pred_next_) pred_->advance(c - pred_next_);
    pred_in_.cand_valid = 0;
  }
  const IssueStage::Inputs in{warps_.data(), lsu_, collector_};
  // The schedulers share the LSU latch: which one asks first decides whose memory
  // instruction goes when it frees (rotating: GPGPU-Sim's fair round robin).
  const uint32_t n = cfg_.schedulers;
  const bool rotate = cfg_.rotate_schedulers && !pred_;  // the predictor admits a prefix in slot order
  const uint32_t first = rotate ? uint32_t(c % n) : 0;   // one division a cycle, none when fixed
  for (uint32_t i = 0; i < n; ++i) {
    const uint32_t s = !rotate ? i : first + i < n ? first + i : first + i - n;
    const int pick = issue_.pick(s, c, lsu_full, issued_any_, in);
    if (kFrontEnd && (stale_ & sched_warps_[s])) discard_looked_at(s, pick);
    if (pick < 0) continue;
    if (pred_ && !dispatch_admitted(s, warps_[pick].head)) break;  // admission is a prefix in slot order
    issue_.issued(s, uint16_t(pick));
    issue_warp<kFrontEnd>(uint16_t(pick), c);
  }
  if (pred_) {
    pred_->step(pred_in_);
    pred_next_ = c + 1;
  }
}

namespace {

// The droop predictor's class of an issued instruction (its power weight).
constexpr DispatchClass dispatch_class_of(InstClass op) {
  switch (op) {
    case InstClass::Alu: return DispatchClass::kAlu;
    case InstClass::Sfu: return DispatchClass::kSfu;
    case InstClass::Load:
    case InstClass::Store:
    case InstClass::Shared: return DispatchClass::kLdst;
    case InstClass::Barrier: return DispatchClass::kOther;
  }
  return DispatchClass::kOther;  // not reached: every class is listed (-Wswitch)
}

}  // namespace

// Scheduler `sched`'s pick presented to the droop predictor: dispatched only if
// admitted. Admission is monotone in the candidates, so asking slot by slot
// gives what the block decides on the whole vector at the cycle's edge.
bool StreamingMultiprocessor::dispatch_admitted(uint32_t sched, const Inst& in) {
  pred_in_.cand_valid |= uint8_t(1u << sched);
  pred_in_.cand_class[sched] = dispatch_class_of(in.op);
  if ((pred_->eval(pred_in_).admit >> sched) & 1u) return true;
  throttled_ = true;
  ++c_.throttled_cycles;
  return false;
}

// One call per issue: the program path is in sm_program.cc, the profile path below.
template <bool kFrontEnd>
[[gnu::always_inline]] inline void StreamingMultiprocessor::issue_warp(uint16_t slot, uint64_t c) {
  if (warps_[slot].is_program()) issue_program<kFrontEnd>(slot, c);
  else issue_profile<kFrontEnd>(slot, c);
}

template <bool kFrontEnd>
void StreamingMultiprocessor::issue_profile(uint16_t slot, uint64_t c) {
  WarpSlot& w = warps_[slot];
  const Inst in = w.head;
  const uint64_t index = w.profile.head_index();
  issued_any_ = true;
  w.issued_at = c;
  w.issued_mem = in.is_mem();
  ++c_.insts;
  switch (in.op) {
    case InstClass::Alu: {
      // A divergent instruction runs both paths of its branch, one after the other.
      const uint32_t busy = cfg_.alu_interval * (in.divergent ? 2 : 1);
      ++c_.alu_insts;
      c_.valu_busy_cycles += busy;
      c_.divergent_insts += in.divergent;
      issue_.occupy_alu(slot, c + busy);
      w.profile.board.set(index, c + cfg_.operand_latency + cfg_.alu_latency + busy - cfg_.alu_interval);
      break;
    }
    case InstClass::Sfu: {
      const uint32_t busy = cfg_.sfu_interval * (in.divergent ? 2 : 1);
      ++c_.sfu_insts;
      c_.valu_busy_cycles += busy;
      c_.divergent_insts += in.divergent;
      issue_.occupy_sfu(c + busy);
      w.profile.board.set(index, c + cfg_.operand_latency + cfg_.sfu_latency + busy - cfg_.sfu_interval);
      break;
    }
    case InstClass::Load:
    case InstClass::Store:
      ++c_.mem_insts;
      ++issued_mem_at_last_;
      send_to_lsu(w, slot, index, in);
      if (in.op == InstClass::Load) {
        w.profile.board.set_pending(index);
        ++w.pending_loads;
      } else {
        w.profile.board.set(index, c + 1);
      }
      break;
    case InstClass::Barrier:
      w.profile.board.set(index, c + 1);
      arrive_at_barrier(w);
      break;
    case InstClass::Shared: break;  // program warps only
  }
  if constexpr (kFrontEnd) next_buffered(slot);
  else fetch_head(slot);
  refresh_issue(slot);
  warp_progress(slot);
}

void StreamingMultiprocessor::arrive_at_barrier(WarpSlot& w) {
  ++c_.barrier_insts;
  w.at_barrier = true;
  Cta& cta = ctas_[w.cta_slot];
  if (++cta.at_barrier == cta.warps_alive) release_barrier(cta);
}

void StreamingMultiprocessor::release_barrier(Cta& cta) {
  cta.at_barrier = 0;
  for (uint16_t s : cta.warps) {
    warps_[s].at_barrier = false;
    refresh_issue(s);
  }
}

void StreamingMultiprocessor::apply_done_loads() {
  for (const Lsu::LoadDone& d : done_) {
    WarpSlot& w = warps_[d.warp];
    if (d.store) {  // its lines left the L1 access queue
      --w.pending_stores;
      warp_progress(d.warp);
      continue;
    }
    if (w.is_program()) {
      program_load_done(w, d.inst_index, d.ready_cycle);
    } else {
      w.profile.board.set(d.inst_index, d.ready_cycle);
    }
    --w.pending_loads;
    refresh_issue(d.warp);
    warp_progress(d.warp);
  }
  done_.clear();
}

// An atomic transaction's response: to its LSU tracker. False: `gp` was not one.
bool StreamingMultiprocessor::atomic_done(const tlm::tlm_generic_payload* gp, uint64_t c) {
  const auto owner = atomic_owner_.find(gp);
  if (owner == atomic_owner_.end()) return false;
  lsu_.atomic_done(owner->second, c, done_);
  atomic_owner_.erase(owner);
  return true;
}

void StreamingMultiprocessor::store_acknowledged(const tlm::tlm_generic_payload* gp) {
  const auto owner = store_owner_.find(gp);
  if (owner == store_owner_.end()) return;  // not a warp's store
  const uint16_t slot = owner->second;
  store_owner_.erase(owner);
  --warps_[slot].unacked_stores;
  warp_progress(slot);
}

// The warp is finished (warp_progress()): it leaves the issue stage and its CTA.
[[gnu::noinline]] void StreamingMultiprocessor::finish_warp(uint16_t slot) {
  WarpSlot& w = warps_[slot];
  w.finished = true;
  issue_.retire(slot);
  Cta& cta = ctas_[w.cta_slot];
  charge_cycles_so_far();
  if (!cta.paused) --resident_unpaused_warps_;
  --cta.warps_alive;
  if (cta.warps_alive == 0) {
    finish_cta(w.cta_slot);
  } else if (cta.at_barrier > 0 && cta.at_barrier == cta.warps_alive) {
    release_barrier(cta);
  }
}

// A unified L1/shared array: the L1 keeps the ways that the largest carve-out
// among the resident CTAs' kernels leaves (all of them on an empty SM).
void StreamingMultiprocessor::fit_l1_to_carveouts() {
  uint32_t ways = cfg_.l1_ways;
  for (const Cta& cta : ctas_)
    if (cta.valid && cta.launch->l1_ways) ways = std::min(ways, cta.launch->l1_ways);
  if (ways != lsu_.l1_ways()) lsu_.set_l1_ways(ways);
}

void StreamingMultiprocessor::finish_cta(uint16_t cs) {
  Cta& cta = ctas_[cs];
  for (uint16_t s : cta.warps) warps_[s].valid = false;
  if (!cta.paused) --resident_unpaused_ctas_;
  --resident_ctas_total_;
  cta.valid = false;
  ++c_.ctas_completed;
  if (cfg_.l1_shared_bytes) fit_l1_to_carveouts();
  if (cfg_.l1_invalidate_idle && resident_ctas_total_ == 0) lsu_.invalidate_all();
  CtaDoneMsg msg;
  msg.sm = id_;
  msg.cta = cta.id;
  msg.launch = cta.launch.get();
  cta.launch.reset();
  send(gwde_out, msg);
}

// Called when line_request_can_go(): the oldest request goes out.
void StreamingMultiprocessor::send_line_request() {
  const bool inst = icache_.has_request();  // instruction misses go first
  const LineRequest r = inst ? LineRequest{icache_.front_request(), false} : lsu_.front_request();
  tlm::tlm_generic_payload* gp;
  if (free_payloads_.empty()) {
    payloads_.push_back(std::make_unique<tlm::tlm_generic_payload>());
    gp = payloads_.back().get();
  } else {
    gp = free_payloads_.back();
    free_payloads_.pop_back();
  }
  gp->set_command(r.write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
  gp->set_address(r.line * cfg_.line_bytes);
  gp->set_data_ptr(dummy_data_.data());
  gp->set_data_length(cfg_.line_bytes);
  gp->set_streaming_width(cfg_.line_bytes);
  const bool no_data = r.write && !no_bytes_.empty();
  gp->set_byte_enable_ptr(no_data ? no_bytes_.data() : nullptr);
  gp->set_byte_enable_length(no_data ? cfg_.line_bytes : 0);
  gp->set_dmi_allowed(false);
  gp->set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  if (inst) icache_.pop_request();
  else lsu_.pop_request();
  if (r.write && cfg_.store_exit_waits_for_ack) store_owner_[gp] = r.warp;
  tlm::tlm_phase phase = tlm::BEGIN_REQ;
  sc_time delay = sc_core::SC_ZERO_TIME;
  if (r.atomic) atomic_owner_[gp] = r.tracker;
  if (r.sectors) {  // the memory reads the extension in the call
    line_sectors_.sectors = r.sectors;
    line_sectors_.atomic = r.atomic;
    gp->set_extension(&line_sectors_);
  }
  tlm::tlm_sync_enum st = mem_out->nb_transport_fw(*gp, phase, delay);
  if (r.sectors) gp->clear_extension(&line_sectors_);
  if (st == tlm::TLM_ACCEPTED) {
    req_blocked_ = true;  // until END_REQ (request exclusion rule)
  } else if (st == tlm::TLM_COMPLETED) {
    SC_REPORT_ERROR("gpupm/sm", ("memory rejected a line request: " + gp->get_response_string()).c_str());
  }
}

}  // namespace gpupm
