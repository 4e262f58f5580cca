// One streaming multiprocessor, cycle-level at warp granularity: resident
// warps with one head instruction each, a scoreboard, `schedulers` GTO issue
// slots, ALU/SFU pipes with latencies and initiation intervals, and the LSU/L1D.
// Ticked by the SM clock domain; talks to other blocks only over its sockets.
#pragma once

#include "gpupm/clock/clock_domain.h"
#include "gpupm/common/divisor.h"
#include "gpupm/protocol/cta_messages.h"
#include "gpupm/ptx/ptx.h"
#include "gpupm/controllers/droop_predictor_controller.h"
#include "gpupm/sm/instruction_cache.h"
#include "gpupm/sm/issue_stage.h"
#include "gpupm/sm/lsu.h"
#include "gpupm/sm/operand_collector.h"
#include "gpupm/sm/scoreboard.h"
#include "gpupm/sm/sm_config.h"
#include "gpupm/sm/tick_condition.h"
#include "gpupm/sm/warp_state.h"
#include "gpupm/protocol/memory_access.h"
#include "gpupm/protocol/sm_status.h"
#include "gpupm/workload/kernel_profile.h"
#include "gpupm/workload/warp_stream.h"

#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include <array>
#include <deque>
#include <memory>
#include <unordered_map>
#include <vector>

namespace gpupm {

class StreamingMultiprocessor : public sc_core::sc_module, public Tickable, public SmStatus {
 public:
  tlm_utils::simple_initiator_socket<StreamingMultiprocessor> mem_out;   // 128 B line requests
  tlm_utils::simple_initiator_socket<StreamingMultiprocessor> gwde_out;  // CTA completions
  tlm_utils::simple_target_socket<StreamingMultiprocessor> cta_in;       // launch, pause, gating
  tlm_utils::simple_target_socket<StreamingMultiprocessor> ctrl_in;      // issue hold

  StreamingMultiprocessor(sc_core::sc_module_name name, uint32_t id, const SmConfig& cfg, ClockDomain& clock);

  void tick(uint64_t cycle) override;
  uint64_t next_busy_cycle(uint64_t now) const override;

  SmCounters counters() const override;
  WarpStateCounts sample_states() const override;
  WarpVectors warp_vectors() const override;
  uint32_t resident_ctas() const override;
  uint32_t active_warps() const override;
  uint32_t unstalled_warps() const override;
  // Adds the current warp states to the running sums (called by the domain at sample cycles).
  void record_sample();

  // The local droop predictor at the dispatch unit (null: none). `csr` holds its
  // weights, thresholds and enable; its class/candidate fields are filled per cycle.
  void attach_droop_predictor(std::unique_ptr<DroopPredController> ctrl, const DroopPredIn& csr);
  // memory.data "platform": a program's stores reach the platform's memory when
  // they execute, so its line writes enable no byte (a target honouring byte
  // enables writes nothing). Before the run.
  void send_line_writes_without_data() { no_bytes_.assign(cfg_.line_bytes, TLM_BYTE_DISABLED); }

  uint32_t id() const { return id_; }
  bool gated() const { return gated_; }

  // Where each unfinished warp of a resident program CTA stands, CTA by CTA
  // (what a run that did not finish reports).
  struct ProgramWarpPlace {
    const KernelLaunch* launch;
    uint32_t cta;  // linear index in the grid
    ptx::Dim3 cta_id;
    uint32_t warp;  // index in its CTA
    uint32_t pc;
    bool at_barrier;
  };
  std::vector<ProgramWarpPlace> program_warp_places() const;

 private:
  struct Cta {
    bool valid = false;
    bool paused = false;
    uint32_t id = 0;
    std::shared_ptr<const KernelLaunch> launch;
    uint32_t warps_alive = 0;
    uint32_t at_barrier = 0;
    std::vector<uint16_t> warps;
    ptx::CtaState program;  // shared memory of a program CTA
  };
  struct PendingLaunch {
    std::shared_ptr<const KernelLaunch> launch;
    uint32_t cta;
    sc_core::sc_time arrived;
    uint64_t ready_cycle;  // kNever until first seen by tick
    bool paused = false;   // a CtaPauseMsg came before it became resident
  };
  struct Response {
    tlm::tlm_generic_payload* gp;
    sc_core::sc_time arrived;
  };

  // sockets
  tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase, sc_core::sc_time& delay);
  void cta_b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);
  void ctrl_b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);
  void apply_hold(const IssueHoldMsg& h);

  // pipeline steps
  void account_until(uint64_t c);
  // The cycle counters depend on gating and residency; each change of those first charges
  // the cycles through the last ticked one to the state they ran in (counters() charges
  // the rest when read). Charged at every tick, they cost 1.2% of kmeans' instructions.
  void charge_cycles_so_far() { account_until(last_cycle_); }
  // Cycles this SM slept through while its LSU was stalled waiting for memory were
  // stall cycles too, and busy ones while lines waited out the L1 access latency
  // (Lsu::cycle counts the ticked ones).
  void count_skipped_stalls(uint64_t upto) {
    if (upto <= lsu_counted_) return;
    lsu_.add_skipped_cycles(upto - lsu_counted_);
    lsu_counted_ = upto;
  }
  void drain_responses(uint64_t c, const sc_core::sc_time& now);
  void start_ctas(uint64_t c);
  void activate_cta(const PendingLaunch& p);
  // kFrontEnd: SmConfig::instruction_buffer > 0 (tick(): false; FrontEndTicker::tick(): true).
  template <bool kFrontEnd>
  void tick_as(uint64_t c);
  template <bool kFrontEnd>
  void issue(uint64_t c);
  template <bool kFrontEnd>
  inline void issue_warp(uint16_t slot, uint64_t c);  // defined in streaming_multiprocessor.cc
  template <bool kFrontEnd>
  void issue_profile(uint16_t slot, uint64_t c);
  template <bool kFrontEnd>
  void issue_program(uint16_t slot, uint64_t c);
  void arrive_at_barrier(WarpSlot& w);
  void program_load_done(WarpSlot& w, uint64_t tag, uint64_t ready_cycle);
  inline uint32_t collect_operands(uint16_t slot, uint64_t c);                             // defined in sm_program.cc
  inline void write_back(uint16_t slot, uint64_t ready, uint8_t n, const uint16_t* regs);  // defined in sm_program.cc
  void apply_done_loads();
  void store_acknowledged(const tlm::tlm_generic_payload* gp);
  bool atomic_done(const tlm::tlm_generic_payload* gp, uint64_t c);
  void send_line_request();
  void fetch_head(uint16_t slot);
  void load_head(WarpSlot& w);
  void instruction_fill(uint64_t line);
  // SmConfig::instruction_buffer > 0: GPGPU-Sim's front end (shader_core_ctx::cycle: issue, then decode,
  // then fetch). The warp fetched in the last cycle gets its instructions, then one warp is fetched.
  void front_end();
  void decode(uint16_t slot);
  void fetch();
  void start_fetching(uint16_t slot);
  void next_buffered(uint16_t slot);
  void buffered_head(uint16_t slot);
  void discard_looked_at(uint32_t sched, int pick);
  void discard_stale(uint16_t slot);
  bool dispatch_admitted(uint32_t sched, const Inst& in);
  // Warp `slot` changed: the issue stage reads it again.
  void refresh_issue(uint16_t slot) { issue_.refresh(slot, warps_[slot]); }
  // A warp is finished once its last instruction has issued, its loads are back and
  // its stores have left the L1 access queue (or, when asked, been acknowledged).
  // Inline up to the answer: every issue asks.
  void warp_progress(uint16_t slot) {
    const WarpSlot& w = warps_[slot];
    if (w.finished || w.has_head || w.ifetch || w.pending_loads > 0 || w.pending_stores > 0 || w.unacked_stores > 0)
      return;
    finish_warp(slot);
  }
  void finish_warp(uint16_t slot);
  // To the LSU, counting a store it tracks (Lsu::tracks_stores) as pending, and its
  // lines (one write request each) as unacknowledged when the warp's exit waits for them.
  void send_to_lsu(WarpSlot& w, uint16_t slot, uint64_t index, const Inst& in) {
    lsu_.accept(slot, index, in);
    if (in.op != InstClass::Store) return;
    if (lsu_.tracks_stores()) ++w.pending_stores;
    if (cfg_.store_exit_waits_for_ack) w.unacked_stores += in.lines;
  }
  void release_barrier(Cta& cta);
  void finish_cta(uint16_t cta_slot);
  void fit_l1_to_carveouts();
  template <bool kFrontEnd>
  bool ticks_next_edge(uint64_t c, bool drained_responses) const;  // see tick_condition.h
  // Outside input arrived: tick at the next edge (the domain calls tick() only then
  // or from next_busy_ on: add_when_due).
  void poke() { clock_.wake(clock_handle_); }
  // A line request waits (an instruction miss or the LSU's) and the port is not held by an END_REQ.
  bool line_request_can_go() const { return !req_blocked_ && (lsu_.has_request() || icache_.has_request()); }

  const uint32_t id_;
  const SmConfig& cfg_;
  ClockDomain& clock_;
  Lsu lsu_;
  InstructionCache icache_;
  OperandCollector collector_;  // register banks and collector units (program warps only)
  // A program's ALU instruction by type and operation group (SmConfig::opcode_timing).
  struct AluTiming {
    uint32_t latency, interval;
    uint32_t result_stage;  // for alu_one_result_per_cycle
  };
  std::array<std::array<AluTiming, ptx::kAluGroups>, ptx::kAluTypes> alu_timing_;
  // A float division runs on the SFU pipe timed by opcode_timing's div entry of its type where the config
  // lists it (GPGPU-Sim's DIV_OP: the SFU unit, the DIV latency and initiation), else as any SFU instruction.
  std::array<AluTiming, ptx::kAluTypes> div_sfu_timing_;
  AluTiming sfu_timing(const ptx::InstInfo& info) const;
  std::unique_ptr<DroopPredController> pred_;
  DroopPredIn pred_in_;     // this cycle's candidates (and the CSR fields)
  uint64_t pred_next_ = 0;  // the predictor has seen every cycle before this one
  bool throttled_ = false;  // the predictor refused a candidate this cycle
  std::vector<WarpSlot> warps_;
  IssueStage issue_;  // the schedulers' choice and the pipes
  std::vector<Cta> ctas_;
  std::deque<PendingLaunch> launches_;
  std::vector<Response> inbox_;
  std::vector<Lsu::LoadDone> done_;
  // memory port
  std::vector<std::unique_ptr<tlm::tlm_generic_payload>> payloads_;
  std::vector<tlm::tlm_generic_payload*> free_payloads_;
  // SmConfig::store_exit_waits_for_ack: the warp of each store line awaiting its acknowledgement.
  std::unordered_map<const tlm::tlm_generic_payload*, uint16_t> store_owner_;
  // SmConfig::atomic_transactions: the LSU tracker of each atomic transaction in flight; the extension that
  // gives a request's sectors on the way out.
  std::unordered_map<const tlm::tlm_generic_payload*, uint32_t> atomic_owner_;
  LineSectors line_sectors_;
  std::vector<unsigned char> dummy_data_;
  std::vector<unsigned char> no_bytes_;  // memory.data "platform": a line write's byte enables, all disabled
  Divisor line_;                         // by line_bytes
  bool req_blocked_ = false;             // waiting for END_REQ
  bool end_req_seen_ = false;
  sc_core::sc_time end_req_time_;
  // state
  bool gated_ = false;
  uint64_t hold_until_ = 0;
  bool hold_ctas_ = false;    // the hold delays CTA activation too (stagger)
  uint64_t last_cycle_ = 0;   // last cycle ticked
  uint64_t accounted_ = 0;    // cycles accounted in counters
  uint64_t lsu_counted_ = 0;  // cycles whose LSU stall state is counted
  uint64_t next_busy_ = 0;
  uint32_t resident_unpaused_ctas_ = 0;
  uint32_t resident_ctas_total_ = 0;  // paused ones included
  uint32_t issued_mem_at_last_ = 0;   // memory instructions issued in last_cycle_
  bool lsu_full_at_issue_ = false;    // the LD/ST latch was full after last_cycle_'s issue stage
  size_t clock_handle_ = 0;
  bool issued_any_ = false;
  uint32_t resident_unpaused_warps_ = 0;
  SmCounters c_;
  // The front end (SmConfig::instruction_buffer; a bit per warp slot: kSmMaxWarps is 64), after the
  // rest, whose layout the issue path's speed was measured with.
  const uint32_t ibuffer_;                                // entries; 0: none
  int fetched_ = -1;                                      // the warp fetched last cycle, decoded in this one
  uint16_t last_fetched_ = 0;                             // GPGPU-Sim's m_last_warp_fetched
  uint64_t to_fetch_ = 0;                                 // warps whose buffer is empty, waiting to be fetched
  uint64_t stale_ = 0;                                    // warps whose buffered head is off their path
  std::deque<uint16_t> filled_;                           // warps whose instruction miss came back, fetched first
  std::array<uint64_t, kSmMaxSchedulers> sched_warps_{};  // per scheduler: its warp slots
  bool front_busy_ = false;                               // the front end has work at the next edge
  // What the clock ticks instead of the SM when it has a front end (the SM's own tick() leaves it out).
  struct FrontEndTicker : Tickable {
    StreamingMultiprocessor* sm;
    explicit FrontEndTicker(StreamingMultiprocessor* s) : sm(s) {}
    void tick(uint64_t c) override;
    uint64_t next_busy_cycle(uint64_t now) const override { return sm->next_busy_cycle(now); }
  };
  FrontEndTicker front_end_ticker_{this};
};

// ---------------------------------------------------------------- inline: the issue path

// The warp's next instruction becomes its head.
[[gnu::always_inline]] inline void StreamingMultiprocessor::load_head(WarpSlot& w) {
  w.has_head = true;
  if (!w.is_program()) {
    w.head = w.profile.stream.next();
    return;
  }
  w.program.head_info = &w.program.exec.next();
  w.head = program_head(w.program);
  w.program.head_ready_at = registers_ready(w.program);
}

// The warp's next instruction into its buffer slot, through the instruction
// cache when the kernel has a code footprint (a miss leaves the slot empty
// until instruction_fill()). Inline: every issue fetches.
[[gnu::always_inline]] inline void StreamingMultiprocessor::fetch_head(uint16_t slot) {
  WarpSlot& w = warps_[slot];
  w.has_head = false;
  if (w.is_program() ? w.program.exec.done() : w.profile.stream.done()) return;
  const KernelLaunch& k = *ctas_[w.cta_slot].launch;
  if (k.code_bytes) {
    const uint64_t offset =
        w.is_program() ? w.program.exec.pc() * kInstBytes : w.profile.stream.index() * kInstBytes % k.code_bytes;
    const uint64_t line = k.code_base + line_.div(offset);
    if (!icache_.fetch(line, slot)) {
      w.ifetch = true;
      ++c_.icache_misses;
      return;
    }
  }
  load_head(w);
}

}  // namespace gpupm
