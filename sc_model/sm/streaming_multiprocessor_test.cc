// StreamingMultiprocessor in simulation. One testbench (SmBench) holds an SM on its
// own ClockDomain, a fake memory target (fixed latency, optional delayed END_REQ),
// a fake GWDE (launches, pauses, records CtaDoneMsg) and a ctrl initiator. Each
// TEST elaborates once, so run one TEST per process (ctest does).
//
// Timing rules the expected values below rest on (streaming_multiprocessor.cc):
//  - an input (launch, pause, response, END_REQ) arriving at time t is seen from
//    the first SM edge strictly after t; a launch becomes resident
//    cta_launch_latency cycles after that edge, and may issue in that cycle;
//  - ALU result ready operand_latency + alu_latency after issue;
//  - a miss is sent to memory in the cycle its load issues; data filled in cycle f
//    is ready at f + 1;
//  - a warp is finished once its last instruction has issued and its loads are
//    back; the CTA completes (CtaDoneMsg) in that cycle.
#include "gpupm/sm/streaming_multiprocessor.h"

#include "support/sc_bench.h"

#include <gtest/gtest.h>
#include <tlm_utils/peq_with_get.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <vector>

namespace gpupm {
namespace {

using sc_core::sc_time;
using sc_core::sc_time_stamp;
using sc_core::SC_ZERO_TIME;

// ------------------------------------------------------------------ workloads

InstructionMix alu_chain(uint32_t dep) {  // ALU only; every instruction reads the one dep earlier
  InstructionMix m;
  m.alu_per_mem = 1e9;
  m.dep_min = m.dep_max = dep;
  return m;
}

InstructionMix loads_only(uint32_t dep) {
  InstructionMix m;
  m.alu_per_mem = 0.0;
  m.dep_min = m.dep_max = dep;
  return m;
}

InstructionMix mixed() {  // every instruction kind, memory-level parallelism, barriers
  InstructionMix m;
  m.alu_per_mem = 3.0;
  m.sfu_fraction = 0.2;
  m.store_fraction = 0.2;
  m.mem_burst = 2;
  m.dep_min = 1;
  m.dep_max = 6;
  m.barrier_interval = 40;
  return m;
}

MemoryPattern mixed_memory() {
  MemoryPattern p;
  p.lines_per_access = 2;
  p.stream = 0.4;
  p.warp_reuse = 0.3;
  p.cta_reuse = 0.2;
  p.global_reuse = 0.1;
  return p;
}

constexpr uint64_t kAddressBase = uint64_t(1) << 24;  // in lines

// One launch laid out like parse_workload does (stream region, then sets).
std::shared_ptr<KernelLaunch> kernel(uint32_t grid, uint32_t warps, uint64_t insts, InstructionMix mix,
                                     MemoryPattern mem = MemoryPattern()) {
  auto k = std::make_shared<KernelLaunch>();
  k->name = "test";
  k->grid_ctas = grid;
  k->warps_per_cta = warps;
  k->max_ctas_per_sm = 8;
  k->insts_per_warp = insts;
  k->phases.assign(1, Phase{1.0, mix, mem});
  k->seed = 12345;
  k->kernel_base = uint64_t(1) << 20;
  k->stream_lines = uint64_t(grid) * warps * insts * mem.lines_per_access + 32;
  k->warp_sets_base = k->stream_lines;
  k->cta_sets_base = k->warp_sets_base + uint64_t(grid) * warps * (mem.warp_set_bytes / 128 + 32);
  k->address_base = kAddressBase;
  return k;
}

// ------------------------------------------------------------------ fake memory

// Answers BEGIN_REQ with TLM_UPDATED/END_REQ, or, with accept_delay > 0, with
// TLM_ACCEPTED and END_REQ accept_delay later; BEGIN_RESP follows `latency`
// (+ extra_latency(line)) after END_REQ. Checks the request exclusion rule.
class FakeMemory : public sc_core::sc_module {
 public:
  struct Request {
    sc_time at;
    uint64_t line;
    bool write;
  };
  tlm_utils::simple_target_socket<FakeMemory> in;
  sc_time latency, accept_delay;
  std::function<sc_time(uint64_t line)> extra_latency;
  std::function<void(const Request&)> on_request;
  std::vector<Request> requests;

  explicit FakeMemory(sc_core::sc_module_name name) : sc_module(name), in("in"), end_req_("end_req"), resp_("resp") {
    in.register_nb_transport_fw(this, &FakeMemory::nb_transport_fw);
    SC_HAS_PROCESS(FakeMemory);
    SC_METHOD(send_end_req);
    sensitive << end_req_.get_event();
    dont_initialize();
    SC_METHOD(send_resp);
    sensitive << resp_.get_event();
    dont_initialize();
  }

 private:
  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase, sc_time&) {
    EXPECT_EQ(phase, tlm::BEGIN_REQ);
    EXPECT_FALSE(awaiting_end_req_) << "BEGIN_REQ before END_REQ at " << sc_time_stamp();
    EXPECT_EQ(gp.get_data_length(), 128u);
    Request r{sc_time_stamp(), gp.get_address() / 128, gp.is_write()};
    requests.push_back(r);
    if (on_request) on_request(r);
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
    resp_.notify(gp, accept_delay + latency + (extra_latency ? extra_latency(r.line) : SC_ZERO_TIME));
    if (accept_delay == SC_ZERO_TIME) {
      phase = tlm::END_REQ;
      return tlm::TLM_UPDATED;
    }
    awaiting_end_req_ = true;
    end_req_.notify(gp, accept_delay);
    return tlm::TLM_ACCEPTED;
  }
  void send(tlm_utils::peq_with_get<tlm::tlm_generic_payload>& q, tlm::tlm_phase phase) {
    while (tlm::tlm_generic_payload* gp = q.get_next_transaction()) {
      tlm::tlm_phase p = phase;
      sc_time delay = SC_ZERO_TIME;
      tlm::tlm_sync_enum st = in->nb_transport_bw(*gp, p, delay);
      EXPECT_EQ(st, phase == tlm::BEGIN_RESP ? tlm::TLM_COMPLETED : tlm::TLM_ACCEPTED);
    }
  }
  void send_end_req() {
    awaiting_end_req_ = false;
    send(end_req_, tlm::END_REQ);
  }
  void send_resp() { send(resp_, tlm::BEGIN_RESP); }

  tlm_utils::peq_with_get<tlm::tlm_generic_payload> end_req_, resp_;
  bool awaiting_end_req_ = false;
};

// ------------------------------------------------------------------ fake GWDE

// Sends launches/pauses at scripted times and records completions. In run()
// mode it keeps `resident` CTAs on the SM and, like the real GWDE, launches the
// next one from inside the completion call.
class SmFakeGwde : public sc_core::sc_module {
 public:
  struct Done {
    uint32_t sm, cta;
    sc_time at;
  };
  tlm_utils::simple_target_socket<SmFakeGwde> done_in;
  tlm_utils::simple_initiator_socket<SmFakeGwde> cta_out;
  std::vector<Done> done;

  explicit SmFakeGwde(sc_core::sc_module_name name) : sc_module(name), done_in("done_in"), cta_out("cta_out") {
    done_in.register_b_transport(this, &SmFakeGwde::done_b_transport);
    SC_HAS_PROCESS(SmFakeGwde);
    SC_THREAD(script);
  }

  void use(std::shared_ptr<const KernelLaunch> k) { kernel_ = std::move(k); }
  // Runs f at time t (register before sc_start; same-time actions keep their order).
  void at(sc_time t, std::function<void()> f) { actions_.push_back({t, std::move(f)}); }
  void run(std::shared_ptr<const KernelLaunch> k, uint32_t resident) {
    use(std::move(k));
    resident_ = resident;
    at(SC_ZERO_TIME, [this] {
      while (in_flight_ < resident_ && next_ < kernel_->grid_ctas) launch(next_++);
    });
  }
  void launch(uint32_t cta) {
    CtaLaunchMsg m;
    m.launch = kernel_;
    m.cta = cta;
    ++in_flight_;
    send(cta_out, m);
  }
  void pause(uint32_t cta, bool paused) {
    CtaPauseMsg m;
    m.launch = kernel_.get();
    m.cta = cta;
    m.pause = paused;
    send(cta_out, m);
  }

 private:
  struct Action {
    sc_time t;
    std::function<void()> f;
  };
  void script() {
    std::stable_sort(actions_.begin(), actions_.end(), [](const Action& a, const Action& b) { return a.t < b.t; });
    for (const Action& a : actions_) {
      if (a.t > sc_time_stamp()) wait(a.t - sc_time_stamp());
      a.f();
    }
  }
  void done_b_transport(tlm::tlm_generic_payload& gp, sc_time&) {
    auto* m = gp.get_extension<CtaDoneMsg>();
    ASSERT_NE(m, nullptr);
    EXPECT_EQ(m->launch, kernel_.get());
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
    done.push_back({m->sm, m->cta, sc_time_stamp()});
    --in_flight_;
    if (resident_ && next_ < kernel_->grid_ctas) launch(next_++);
  }

  std::shared_ptr<const KernelLaunch> kernel_;
  std::vector<Action> actions_;
  uint32_t resident_ = 0, in_flight_ = 0, next_ = 0;
};

// ------------------------------------------------------------------ testbench

class SmBench : public sc_core::sc_module {
 public:
  const sc_time period;
  ClockDomain clock;
  StreamingMultiprocessor sm;
  FakeMemory mem;
  SmFakeGwde gwde;
  tlm_utils::simple_initiator_socket<SmBench> ctrl;        // -> sm.ctrl_in
  tlm_utils::simple_initiator_socket<SmBench> clock_ctrl;  // -> clock.period_in (unused)

  SmBench(sc_core::sc_module_name name, const SmConfig& cfg, sc_time p)
      : sc_module(name),
        period(p),
        clock("clock", p),
        sm("sm", 0, cfg, clock),
        mem("mem"),
        gwde("gwde"),
        ctrl("ctrl"),
        clock_ctrl("clock_ctrl") {
    sm.mem_out.bind(mem.in);
    sm.gwde_out.bind(gwde.done_in);
    gwde.cta_out.bind(sm.cta_in);
    ctrl.bind(sm.ctrl_in);
    clock_ctrl.bind(clock.period_in);
  }
  sc_time cycles(double n) const { return period * n; }  // n.5: between two edges
  uint64_t cycle_at(sc_time t) const { return uint64_t(std::llround(t / period)); }
  uint64_t done_cycle(uint32_t cta) const {
    for (const auto& d : gwde.done)
      if (d.cta == cta) return cycle_at(d.at);
    ADD_FAILURE() << "CTA " << cta << " did not complete";
    return 0;
  }
  // f(cycle) after every SM edge (this stops the clock from skipping idle cycles).
  void every_cycle(std::function<void(uint64_t)> f) { clock.on_every(1, std::move(f)); }
};

class SmTest : public test::ScTest {
 protected:
  SmTest() { period_ = sc_time(714, sc_core::SC_PS); }  // 1.4 GHz
  SmBench& bench(const char* name = "tb") { return bench(name, cfg); }
  SmBench& bench(const char* name, const SmConfig& c) {
    benches_.push_back(std::make_unique<SmBench>(name, c, period_));
    return *benches_.back();
  }
  void run_cycles(uint64_t n) { sc_core::sc_start(period_ * double(n)); }
  void expect_counters_match_grid_and_skipping_changes_nothing();

  SmConfig cfg;  // GTX480 defaults; change before bench()
  sc_time period_;
  std::vector<std::unique_ptr<SmBench>> benches_;
};

// Instructions a one-warp dependent ALU chain starting at s has issued by cycle c.
uint64_t chain_issued(uint64_t s, uint64_t c, uint64_t step, uint64_t n) {
  return c < s ? 0 : std::min(n, (c - s) / step + 1);
}

void add(WarpStateCounts& sum, const WarpStateCounts& w) {
  sum.active += w.active;
  sum.waiting += w.waiting;
  sum.issued += w.issued;
  sum.excess_alu += w.excess_alu;
  sum.excess_mem += w.excess_mem;
  sum.others += w.others;
}

// ------------------------------------------------------------------ tests

// (a) One warp, ALU chain with dep 1, launched at time 0:
//   the launch is seen at edge 1 (arrived on edge 0, seen strictly after), the CTA
//   is resident at s = 1 + cta_launch_latency and issues instruction 0 there;
//   instruction k issues at s + k*(operand_latency + alu_latency); the CTA
//   completes when the last one issues: T = s + (N-1)*(operand_latency + alu_latency)
//   = 21 + 49*9 = 462 for the GTX480 values.
TEST_F(SmTest, AluChainFinishesAtClosedFormCycle) {
  SmBench& tb = bench();
  const uint64_t n = 50, s = 1 + cfg.cta_launch_latency, step = cfg.operand_latency + cfg.alu_latency;
  tb.gwde.run(kernel(1, 1, n, alu_chain(1)), 1);
  run_cycles(1000);
  ASSERT_EQ(tb.gwde.done.size(), 1u);
  EXPECT_EQ(tb.done_cycle(0), s + (n - 1) * step);
  EXPECT_EQ(tb.done_cycle(0), 462u);
  SmCounters k = tb.sm.counters();
  EXPECT_EQ(k.insts, n);
  EXPECT_EQ(k.alu_insts, n);
  EXPECT_EQ(k.ctas_completed, 1u);
  EXPECT_EQ(k.cycles, 1000u);
  EXPECT_EQ(k.busy_cycles, (n - 1) * step);  // resident from cycle s up to (not incl.) T
  EXPECT_EQ(k.resident_warp_cycles, (n - 1) * step);
  // Idle cycles are skipped: edges 0 and 1, each issue edge and at most the one
  // after it (today an issue always asks for the next edge), none of the waits.
  EXPECT_GE(tb.clock.ticks_run(), 2 + n);
  EXPECT_LE(tb.clock.ticks_run(), 2 + 2 * n);
}

// (b) Two warps of one CTA sit on schedulers 0 and 1. With dep 9 (= the ALU
// latency incl. operands) each warp issues every cycle: both finish at s + N - 1
// having issued 2N instructions in N cycles (IPC 2). The samples show both warps
// issued in cycles s .. s+N-2; in s+N-1 the CTA has completed, and a sample holds
// only warps still resident at the end of the cycle.
TEST_F(SmTest, TwoWarpsOnTwoSchedulersIssueInParallel) {
  SmBench& tb = bench();
  const uint64_t n = 100, s = 1 + cfg.cta_launch_latency;
  ASSERT_EQ(cfg.schedulers, 2u);
  tb.gwde.run(kernel(1, 2, n, alu_chain(cfg.operand_latency + cfg.alu_latency)), 1);
  uint64_t dual_issue = 0, first = 0, last = 0, insts_at_end = 0;
  tb.every_cycle([&](uint64_t c) {
    WarpStateCounts w = tb.sm.sample_states();
    if (w.issued == 2) {
      if (!dual_issue++) first = c;
      last = c;
    }
    if (c == s + n - 1) {
      insts_at_end = tb.sm.counters().insts;
      EXPECT_EQ(w.active, 0u);
    }
  });
  run_cycles(400);
  EXPECT_EQ(tb.done_cycle(0), s + n - 1);
  EXPECT_EQ(insts_at_end, 2 * n);
  EXPECT_EQ(tb.sm.counters().insts, 2 * n);
  EXPECT_EQ(dual_issue, n - 1);
  EXPECT_EQ(first, s);
  EXPECT_EQ(last, s + n - 2);
}

// (c) Load-use chain (every instruction a load reading the previous one), every
// load a miss, memory answering L cycles after BEGIN_REQ. Load k issues and sends
// its request at cycle t; BEGIN_RESP arrives on edge t + L, is seen at t + L + 1
// (fill), data ready at t + L + 2, where load k+1 issues: cost per load L + 2.
// The CTA completes at the last fill: s + (N-1)(L+2) + L + 1.
TEST_F(SmTest, LoadUseChainCostsMemoryLatencyPlusTwo) {
  SmBench& tb = bench();
  const uint64_t n = 20, latency = 100, s = 1 + cfg.cta_launch_latency;
  tb.mem.latency = tb.cycles(latency);
  tb.gwde.run(kernel(1, 1, n, loads_only(1)), 1);
  run_cycles(3000);
  ASSERT_EQ(tb.mem.requests.size(), n);
  for (uint64_t k = 0; k < n; ++k) {
    EXPECT_EQ(tb.cycle_at(tb.mem.requests[k].at), s + k * (latency + 2)) << "load " << k;
    EXPECT_FALSE(tb.mem.requests[k].write);
  }
  EXPECT_EQ(tb.done_cycle(0), s + (n - 1) * (latency + 2) + latency + 1);
  SmCounters k = tb.sm.counters();
  EXPECT_EQ(k.lsu.loads, n);
  EXPECT_EQ(k.lsu.l1_misses, n);
  EXPECT_EQ(k.lsu.l1_hits, 0u);
}

// (d) Every sampled cycle each resident, unpaused warp is in exactly one state,
// over a kernel with every instruction kind; record_sample() sums match.
TEST_F(SmTest, WarpStatesPartitionActiveWarps) {
  SmBench& tb = bench();
  const uint32_t warps = 4, resident = 3;
  tb.mem.latency = tb.cycles(80);
  tb.gwde.run(kernel(6, warps, 300, mixed(), mixed_memory()), resident);
  uint64_t samples = 0, bad = 0;
  WarpStateCounts sum;
  tb.every_cycle([&](uint64_t) {
    WarpStateCounts w = tb.sm.sample_states();
    tb.sm.record_sample();
    ++samples;
    bool ok = w.active == w.waiting + w.issued + w.excess_alu + w.excess_mem + w.others && w.paused == 0 &&
              w.active == tb.sm.resident_ctas() * warps && w.active <= cfg.max_warps &&
              w.active >= tb.sm.active_warps() && w.issued <= cfg.schedulers &&
              w.issued == w.issued_alu + w.issued_mem && w.excess_mem_lsu_blocked <= w.excess_mem;
    // The hardware counters' view (per-warp bits) agrees with the states.
    WarpVectors v = tb.sm.warp_vectors();
    auto pop = [](uint64_t x) { return uint32_t(__builtin_popcountll(x)); };
    uint64_t act = v.valid & ~v.paused, rdy = act & v.ready & ~v.issued;
    ok = ok && pop(act & ~v.ready) == w.waiting && pop(act & v.issued) == w.issued &&
         pop(rdy & v.is_alu) == w.excess_alu && pop(rdy & v.is_mem) == w.excess_mem &&
         pop(act) == w.active - w.others && (w.excess_mem == 0 || v.lsu_can_accept == (w.excess_mem_lsu_blocked == 0));
    if (!ok && bad++ < 5)
      ADD_FAILURE() << "active " << w.active << " waiting " << w.waiting << " issued " << w.issued << " excess_alu "
                    << w.excess_alu << " excess_mem " << w.excess_mem << " others " << w.others << " resident CTAs "
                    << tb.sm.resident_ctas();
    add(sum, w);
  });
  run_cycles(40000);
  ASSERT_EQ(tb.gwde.done.size(), 6u);
  EXPECT_EQ(bad, 0u);
  SmCounters k = tb.sm.counters();
  EXPECT_EQ(k.samples, samples);
  EXPECT_EQ(k.samples, 40000u);
  EXPECT_EQ(k.sum_active, sum.active);
  EXPECT_EQ(k.sum_active, k.sum_waiting + k.sum_issued + k.sum_excess_alu + k.sum_excess_mem + k.sum_others);
  EXPECT_EQ(k.sum_issued, sum.issued);
  EXPECT_EQ(k.sum_waiting, sum.waiting);
  EXPECT_EQ(k.sum_others, sum.others);
  // The mix really exercises every state.
  for (uint64_t v : {sum.waiting, sum.excess_alu, sum.excess_mem, sum.others}) EXPECT_GT(v, 0u);
}

// (e) Two one-warp CTAs with ALU chains (dep 1). CTA 0 starts at s0 = 21; CTA 1
// arrives at 30.5 and starts at s1 = 31 + 20 = 51. CTA 0 is paused at 111.5,
// just after its instruction 10 issued (cycle 111), and unpaused at 300.5:
// instruction 11 (ready since 120) issues at 301 and the CTA completes at
// 301 + (N-12)*9. CTA 1 is untouched: s1 + (N-1)*9.
TEST_F(SmTest, PausedCtaLeavesActiveAndIssueUntilUnpaused) {
  SmBench& tb = bench();
  const uint64_t n = 60, step = cfg.operand_latency + cfg.alu_latency, s0 = 21, s1 = 51;
  tb.gwde.use(kernel(2, 1, n, alu_chain(1)));
  tb.gwde.at(SC_ZERO_TIME, [&] { tb.gwde.launch(0); });
  tb.gwde.at(tb.cycles(30.5), [&] { tb.gwde.launch(1); });
  tb.gwde.at(tb.cycles(111.5), [&] { tb.gwde.pause(0, true); });
  tb.gwde.at(tb.cycles(300.5), [&] { tb.gwde.pause(0, false); });
  uint64_t checked = 0;
  tb.every_cycle([&](uint64_t c) {
    if (c < 112 || c > 300) return;
    ++checked;
    WarpStateCounts w = tb.sm.sample_states();
    EXPECT_EQ(w.paused, 1u) << c;
    EXPECT_EQ(w.active, 1u) << c;
    EXPECT_EQ(w.issued, c >= s1 && (c - s1) % step == 0 ? 1u : 0u) << c;
    EXPECT_EQ(tb.sm.active_warps(), 1u) << c;
    EXPECT_EQ(tb.sm.resident_ctas(), 1u) << c;
    EXPECT_EQ(tb.sm.counters().insts, 11 + chain_issued(s1, c, step, n)) << c;
  });
  run_cycles(1000);
  EXPECT_EQ(checked, 189u);
  EXPECT_EQ(tb.done_cycle(1), s1 + (n - 1) * step);
  EXPECT_EQ(chain_issued(s0, 111, step, n), 11u);  // instructions 0..10 before the pause
  EXPECT_EQ(tb.done_cycle(0), 301 + (n - 12) * step);
  EXPECT_EQ(tb.done_cycle(0), 733u);
  EXPECT_EQ(tb.sm.counters().insts, 2 * n);
}

// A pause that reaches the SM while the CTA is still being launched must hold
// the CTA from its start: paused at 5.5 (resident at 21), unpaused at 200.5, the
// first instruction issues at 201.
TEST_F(SmTest, PauseDuringLaunchLatencyHoldsTheCta) {
  SmBench& tb = bench();
  const uint64_t n = 30, step = cfg.operand_latency + cfg.alu_latency;
  tb.gwde.use(kernel(1, 1, n, alu_chain(1)));
  tb.gwde.at(SC_ZERO_TIME, [&] { tb.gwde.launch(0); });
  tb.gwde.at(tb.cycles(5.5), [&] { tb.gwde.pause(0, true); });
  tb.gwde.at(tb.cycles(200.5), [&] { tb.gwde.pause(0, false); });
  tb.every_cycle([&](uint64_t c) {
    if (c < 21 || c > 200) return;
    WarpStateCounts w = tb.sm.sample_states();
    EXPECT_EQ(w.paused, 1u) << c;
    EXPECT_EQ(w.active, 0u) << c;
    EXPECT_EQ(tb.sm.active_warps(), 0u) << c;
    EXPECT_EQ(tb.sm.resident_ctas(), 0u) << c;
  });
  run_cycles(1000);
  EXPECT_EQ(tb.done_cycle(0), 201 + (n - 1) * step);
  EXPECT_EQ(tb.sm.counters().insts, n);
}

// (f) Four warps, loads only (dep 1), a barrier every B = 6 instructions: loads
// 5e..5e+4 of a warp lie between barriers e-1 and e. Per-line memory latencies
// differ, so the warps drift apart; the barrier must stop every warp from sending
// a load of epoch e before all warps have sent all their loads of epoch e-1.
TEST_F(SmTest, BarrierHoldsWarpsUntilAllArrive) {
  SmBench& tb = bench();
  const uint32_t warps = 4, b = 6, per_epoch = b - 1;
  const uint64_t n = 40, barriers = n / b;  // 6 barriers, 34 loads per warp
  InstructionMix mix = loads_only(1);
  mix.barrier_interval = b;
  tb.gwde.run(kernel(1, warps, n, mix), 1);
  tb.mem.latency = tb.cycles(40);
  tb.mem.extra_latency = [&](uint64_t line) { return tb.cycles(double((line * 2654435761u) % 7 * 15)); };
  std::vector<uint64_t> sent(warps, 0);
  uint64_t violations = 0;
  tb.mem.on_request = [&](const FakeMemory::Request& r) {
    uint64_t rel = r.line - kAddressBase, w = rel % warps, k = rel / warps;  // stream: ((cta*n + k)*warps + w)
    for (uint32_t v = 0; v < warps; ++v)
      if (sent[v] < k / per_epoch * per_epoch) ++violations;
    ++sent[w];
  };
  uint64_t held = 0;  // cycles in which some warps wait at a barrier while others still work
  tb.every_cycle([&](uint64_t) {
    WarpStateCounts w = tb.sm.sample_states();
    if (w.others > 0 && w.others < w.active) ++held;
  });
  run_cycles(20000);
  ASSERT_EQ(tb.gwde.done.size(), 1u);
  EXPECT_EQ(violations, 0u);
  for (uint32_t v = 0; v < warps; ++v) EXPECT_EQ(sent[v], n - barriers) << v;
  SmCounters k = tb.sm.counters();
  EXPECT_EQ(k.barrier_insts, warps * barriers);
  EXPECT_EQ(k.mem_insts, warps * (n - barriers));
  EXPECT_EQ(k.insts, warps * n);
  EXPECT_GT(held, 0u);
}

// (g) Memory back-pressure: END_REQ comes D = 4 cycles after BEGIN_REQ, so the
// SM sends one request per D + 1 = 5 cycles (seen from the edge after END_REQ).
// One warp, 24 independent loads (misses), miss_queue 8: loads 0..9 pass (the
// queue takes one per cycle and drains at s and s+5), then the slot stalls:
// once at s+10, then 4 of every 5 cycles until load 23 enters the queue at
// s+11+5*13: stall cycles = 1 + 4*(24-11) = 53. The warp, ready every cycle, is
// held 45 cycles (s+12, then 4 of every 5 cycles for loads 13..23), every one of
// them by a full LD/ST latch.
TEST_F(SmTest, MemoryBackPressureStallsLsuAndIssue) {
  SmBench& tb = bench();
  const uint64_t n = 24, d = 4, s = 1 + cfg.cta_launch_latency;
  ASSERT_EQ(cfg.miss_queue, 8u);
  tb.mem.accept_delay = tb.cycles(d);
  tb.mem.latency = tb.cycles(50);
  tb.gwde.run(kernel(1, 1, n, loads_only(63)), 1);
  uint64_t excess_mem = 0, lsu_blocked = 0;
  tb.every_cycle([&](uint64_t) {
    WarpStateCounts w = tb.sm.sample_states();
    excess_mem += w.excess_mem;
    lsu_blocked += w.excess_mem_lsu_blocked;
  });
  run_cycles(1000);
  ASSERT_EQ(tb.mem.requests.size(), n);
  for (uint64_t m = 0; m < n; ++m) EXPECT_EQ(tb.cycle_at(tb.mem.requests[m].at), s + m * (d + 1)) << m;
  SmCounters k = tb.sm.counters();
  EXPECT_EQ(k.lsu.stall_cycles, 53u);
  EXPECT_EQ(excess_mem, 45u);
  EXPECT_EQ(lsu_blocked, 45u);
  EXPECT_EQ(tb.done_cycle(0), s + (n - 1) * (d + 1) + d + 50 + 1);  // last fill
}

// sm.scheduler_priority: two one-warp CTAs, warp slots 0 and 1 on schedulers 0
// and 1, independent loads only, memory accepting one request every d + 1 = 5
// cycles, so the LSU latch frees every 5 cycles and both warps wait on it. Fixed
// order: scheduler 0 asks first and its warp takes every free latch until its
// loads are gone, so CTA 0 completes ~n latches (5n cycles) before CTA 1.
// Rotating: the first scheduler changes each cycle and 5 is odd, so the latches
// alternate between the warps and the CTAs complete within a latch or two.
std::pair<uint64_t, uint64_t> two_loaders_done(SmBench& tb, uint64_t n) {
  tb.mem.accept_delay = tb.cycles(4);
  tb.mem.latency = tb.cycles(50);
  tb.gwde.run(kernel(2, 1, n, loads_only(63)), 2);
  sc_core::sc_start(tb.period * 2000.0);
  return {tb.done_cycle(0), tb.done_cycle(1)};
}

TEST_F(SmTest, FixedSchedulerOrderGivesTheLsuToSchedulerZeroFirst) {
  ASSERT_EQ(cfg.schedulers, 2u);
  const uint64_t n = 24;
  const auto [first, second] = two_loaders_done(bench(), n);
  EXPECT_GE(second, first + 5 * (n - 2));
}

TEST_F(SmTest, RotatingSchedulerOrderSharesTheLsuBetweenSchedulers) {
  cfg.rotate_schedulers = true;
  const uint64_t n = 24;
  const auto [first, second] = two_loaders_done(bench(), n);
  EXPECT_LE(std::max(first, second) - std::min(first, second), 10u);
}

// (h) Totals over a grid larger than the SM holds: every instruction of every
// warp issues once, every CTA completes once. A second, identical bench whose
// clock skips idle cycles (the first is ticked every cycle by its sampler) must
// produce the same completions and counters.
void SmTest::expect_counters_match_grid_and_skipping_changes_nothing() {
  const uint32_t grid = 10, warps = 3;
  const uint64_t insts = 200;
  auto k = kernel(grid, warps, insts, mixed(), mixed_memory());
  SmBench& a = bench("a");
  SmBench& b = bench("b");
  for (SmBench* tb : {&a, &b}) {
    tb->mem.latency = tb->cycles(120);
    tb->gwde.run(k, 4);
  }
  // a's SM ticks at every edge: woken after each (it is the only block added with
  // add_when_due, so its handle is 0); b's sleeps whenever it may.
  a.every_cycle([&](uint64_t) {
    a.sm.record_sample();
    a.clock.wake(0);
  });
  run_cycles(40000);
  SmCounters ca = a.sm.counters(), cb = b.sm.counters();
  EXPECT_EQ(ca.insts, grid * warps * insts);
  EXPECT_EQ(ca.alu_insts + ca.sfu_insts + ca.mem_insts + ca.barrier_insts, ca.insts);
  EXPECT_EQ(ca.lsu.loads + ca.lsu.stores, ca.mem_insts);
  EXPECT_EQ(ca.barrier_insts, grid * warps * (insts / mixed().barrier_interval));
  EXPECT_EQ(ca.ctas_completed, grid);
  ASSERT_EQ(a.gwde.done.size(), grid);
  std::vector<uint32_t> ctas;
  for (const auto& d : a.gwde.done) ctas.push_back(d.cta);
  std::sort(ctas.begin(), ctas.end());
  for (uint32_t i = 0; i < grid; ++i) EXPECT_EQ(ctas[i], i);

  EXPECT_LT(b.clock.ticks_run(), a.clock.ticks_run());  // b did skip
  ASSERT_EQ(b.gwde.done.size(), grid);
  for (uint32_t i = 0; i < grid; ++i) {
    EXPECT_EQ(b.gwde.done[i].cta, a.gwde.done[i].cta);
    EXPECT_EQ(b.gwde.done[i].at, a.gwde.done[i].at);
  }
  EXPECT_EQ(cb.insts, ca.insts);
  EXPECT_EQ(cb.busy_cycles, ca.busy_cycles);
  EXPECT_EQ(cb.resident_warp_cycles, ca.resident_warp_cycles);
  EXPECT_EQ(cb.lsu.l1_hits, ca.lsu.l1_hits);
  EXPECT_EQ(cb.lsu.stall_cycles, ca.lsu.stall_cycles);
  EXPECT_EQ(cb.lsu.store_stall_cycles, ca.lsu.store_stall_cycles);
  EXPECT_EQ(cb.lsu.busy_cycles, ca.lsu.busy_cycles);
  EXPECT_GT(ca.lsu.stall_cycles, 0u);  // the kernel exercises the stalls
  EXPECT_EQ(b.mem.requests.size(), a.mem.requests.size());
}

TEST_F(SmTest, CountersMatchGridAndSkippingChangesNothing) {
  expect_counters_match_grid_and_skipping_changes_nothing();
}

// The same with lines waiting out an L1 access queue (the SM sleeps until a head is due).
TEST_F(SmTest, CountersMatchGridAndSkippingChangesNothingWithTheL1AccessQueue) {
  cfg.l1_access_latency = 35;
  cfg.l1_hit_latency = 3;
  expect_counters_match_grid_and_skipping_changes_nothing();
}

// One CTA of `warps` warps, each storing 10 lines, run to its end: every request a write.
void run_stores(SmBench& tb, uint32_t warps) {
  InstructionMix stores = loads_only(1);
  stores.store_fraction = 1.0;
  tb.gwde.run(kernel(1, warps, 10, stores), 1);
  sc_core::sc_start(tb.cycles(2000));
  ASSERT_EQ(tb.mem.requests.size(), 10u * warps);
  for (const auto& r : tb.mem.requests) EXPECT_TRUE(r.write);
}

// With an L1 access queue a warp, and so its CTA, is done only once its stores have
// left the queue: the CTA completes in the cycle its last store line is looked up
// and written through.
TEST_F(SmTest, CtaWaitsForItsStoresToLeaveTheL1AccessQueue) {
  cfg.l1_access_latency = 35;
  cfg.l1_hit_latency = 3;
  SmBench& tb = bench();
  run_stores(tb, 1);
  EXPECT_EQ(tb.done_cycle(0), tb.cycle_at(tb.mem.requests.back().at));
  EXPECT_GE(tb.done_cycle(0), 1 + cfg.cta_launch_latency + 9 + 35);
}

// store_completion "acknowledged": a warp exits only once memory has acknowledged
// every line it stored, so the CTA completes in the cycle the last acknowledgement
// is seen (a response at t is seen from the first edge after t), a round trip after
// its last write went out.
TEST_F(SmTest, CtaWaitsForTheAcknowledgementOfItsLastStore) {
  cfg.store_exit_waits_for_ack = true;
  SmBench& tb = bench();
  const uint64_t latency = 100;
  tb.mem.latency = tb.cycles(latency);
  run_stores(tb, 2);
  EXPECT_EQ(tb.done_cycle(0), tb.cycle_at(tb.mem.requests.back().at) + latency + 1);
}

// (c) with an L1 access queue of L: a load that issues at t looks up at t + L and
// its miss goes out then, so each load of the chain costs L + latency + 2.
TEST_F(SmTest, LoadUseChainWaitsOutTheL1AccessQueue) {
  cfg.l1_access_latency = 35;
  cfg.l1_hit_latency = 3;
  SmBench& tb = bench();
  const uint64_t n = 20, latency = 100, queue = 35, s = 1 + cfg.cta_launch_latency;
  tb.mem.latency = tb.cycles(latency);
  tb.gwde.run(kernel(1, 1, n, loads_only(1)), 1);
  run_cycles(6000);
  ASSERT_EQ(tb.mem.requests.size(), n);
  for (uint64_t k = 0; k < n; ++k)
    EXPECT_EQ(tb.cycle_at(tb.mem.requests[k].at), s + queue + k * (queue + latency + 2)) << "load " << k;
  EXPECT_EQ(tb.done_cycle(0), s + (n - 1) * (queue + latency + 2) + queue + latency + 1);
  EXPECT_EQ(tb.sm.counters().lsu.l1_misses, n);
}

// ctrl_in: an IssueHoldMsg keeps the resident CTA from issuing until the cycle given.
TEST_F(SmTest, IssueHoldDelaysFirstIssue) {
  SmBench& tb = bench();
  const uint64_t n = 20, step = cfg.operand_latency + cfg.alu_latency, hold = 100;
  tb.gwde.run(kernel(1, 1, n, alu_chain(1)), 1);
  tb.gwde.at(SC_ZERO_TIME, [&] {
    IssueHoldMsg m;
    m.until_cycle = hold;
    send(tb.ctrl, m);
  });
  run_cycles(1000);
  EXPECT_EQ(tb.done_cycle(0), hold + (n - 1) * step);
}

// Launches that reach the SM together become resident together, each
// cta_launch_latency after the first edge that sees it: both at 21.
TEST_F(SmTest, QueuedLaunchesBecomeResidentInTurn) {
  SmBench& tb = bench();
  const uint64_t n = 10, step = cfg.operand_latency + cfg.alu_latency;
  tb.gwde.run(kernel(2, 1, n, alu_chain(1)), 2);
  run_cycles(1000);
  EXPECT_EQ(tb.done_cycle(0), 21 + (n - 1) * step);
  EXPECT_EQ(tb.done_cycle(1), 21 + (n - 1) * step);
}

// ------------------------------------------------------------------ instruction cache

// A kernel with a code footprint fetches through the I-cache: one warp's ALU chain
// over 2 lines of code (16 instructions a line) misses twice (lines 0 and 1), each
// miss one memory round trip, then loops in the cache. Each miss leaves the warp
// without an instruction until the line is back: the CTA finishes exactly two
// round trips later than without a footprint, minus the issue slots that the
// dependence chain would have waited anyway (none: a miss comes right after an issue).
TEST_F(SmTest, InstructionMissesCostOneRoundTripEach) {
  SmBench& tb = bench();
  const uint64_t n = 40, s = 1 + cfg.cta_launch_latency, step = cfg.operand_latency + cfg.alu_latency;
  auto k = kernel(1, 1, n, alu_chain(1));
  k->code_bytes = 256;
  k->code_base = uint64_t(1) << 30;
  tb.mem.latency = tb.cycles(100);
  tb.gwde.run(k, 1);
  run_cycles(3000);
  SmCounters c = tb.sm.counters();
  EXPECT_EQ(c.icache_misses, 2u);
  ASSERT_EQ(tb.mem.requests.size(), 2u);
  EXPECT_EQ(tb.mem.requests[0].line, k->code_base);
  EXPECT_EQ(tb.mem.requests[1].line, k->code_base + 1);
  EXPECT_FALSE(tb.mem.requests[0].write);
  // Miss of line 0 sent in cycle s, back 100 cycles later, seen at the next edge
  // (s + 101), instruction 0 issues there. Instruction 16's fetch misses when 15
  // issues (its line is fetched at issue of the previous one): sent that cycle,
  // usable 101 cycles later, and the chain's own wait (step) overlaps it.
  const uint64_t first = s + 101;
  const uint64_t i15 = first + 15 * step;
  const uint64_t i16 = std::max(i15 + 101, i15 + step);
  EXPECT_EQ(tb.done_cycle(0), i16 + (n - 1 - 16) * step);
}

// Code twice the size of the cache, looped over by one warp: true LRU over a
// sequential loop evicts every line before it is used again, so every line of
// every pass misses.
TEST_F(SmTest, CodeLargerThanTheInstructionCacheMissesEveryLine) {
  SmBench& tb = bench();
  const uint64_t n = 16 * 32 * 2;  // two passes over 32 lines
  auto k = kernel(1, 1, n, alu_chain(1));
  k->code_bytes = 2 * cfg.icache_bytes;
  k->code_base = uint64_t(1) << 30;
  tb.mem.latency = tb.cycles(20);
  tb.gwde.run(k, 1);
  run_cycles(20000);
  ASSERT_EQ(tb.gwde.done.size(), 1u);
  EXPECT_EQ(tb.sm.counters().icache_misses, 64u);
  EXPECT_EQ(tb.sm.counters().insts, n);
}

// A hold that names CTAs too (the GWDE's global stagger) delays a CTA that arrives
// during the hold: it becomes resident when the hold ends, not cta_launch_latency
// after arrival, and the SM is not busy (no clock-tree power) before that.
TEST_F(SmTest, StaggerHoldDelaysCtaStart) {
  SmBench& tb = bench();
  const uint64_t n = 20, step = cfg.operand_latency + cfg.alu_latency, hold = 200;
  tb.gwde.at(SC_ZERO_TIME, [&] {
    IssueHoldMsg m;
    m.until_cycle = hold;
    m.ctas_too = true;
    send(tb.gwde.cta_out, m);  // the TB-scheduler -> SM path
  });
  tb.gwde.run(kernel(1, 1, n, alu_chain(1)), 1);
  run_cycles(1000);
  EXPECT_EQ(tb.done_cycle(0), hold + (n - 1) * step);
  EXPECT_EQ(tb.sm.counters().busy_cycles, (n - 1) * step);
}

// ------------------------------------------------------------------ program warps

// A kernel of hand-written PTX launched as a program (KernelLaunch::program):
// one CTA of `threads` threads, parameters as given, its own device memory.
struct ProgramKernel {
  std::unique_ptr<ptx::Module> module;
  ptx::DeviceMemory memory;
  std::shared_ptr<KernelLaunch> launch;
};

std::unique_ptr<ProgramKernel> program_kernel(const std::string& body, const std::string& params, uint32_t threads,
                                              const std::vector<uint64_t>& args = {}) {
  auto pk = std::make_unique<ProgramKernel>();
  pk->module = ptx::parse(
      ".version 6.4\n.target sm_70\n.address_size 64\n.shared .align 4 .b8 buf[4096];\n"
      ".visible .entry k(" +
          params +
          ")\n{\n.reg .pred %p<4>;\n.reg .b32 %r<8>;\n"
          ".reg .b64 %rd<8>;\n" +
          body + "}\n",
      "k.ptx");
  auto state = std::make_shared<ptx::LaunchState>();
  state->kernel = pk->module->find("k");
  state->block.x = threads;
  state->memory = &pk->memory;
  state->local_base = uint64_t(1) << 37;
  for (uint64_t a : args) {
    const uint8_t* b = reinterpret_cast<const uint8_t*>(&a);
    state->params.insert(state->params.end(), b, b + 8);
  }
  auto k = std::make_shared<KernelLaunch>();
  k->name = "k";
  k->grid_ctas = 1;
  k->warps_per_cta = (threads + 31) / 32;
  k->max_ctas_per_sm = 8;
  k->program = state;
  pk->launch = k;
  return pk;
}

// One CTA of `threads` threads running `body` on `tb`; the kernel must outlive the run.
std::unique_ptr<ProgramKernel> launch_program(SmBench& tb, const std::string& body, uint32_t threads) {
  auto pk = program_kernel(body, "", threads);
  tb.gwde.run(pk->launch, 1);
  return pk;
}

// (p1) A dependent chain of real registers: mov, three adds each reading the
// last result, ret. Each add waits operand_latency + alu_latency (9) for its
// source; ret reads nothing and issues the cycle after the last add, which
// completes the CTA: s + 3 * 9 + 1 = 21 + 28 = 49.
TEST_F(SmTest, ProgramRegisterChainFinishesAtClosedFormCycle) {
  SmBench& tb = bench();
  auto pk = program_kernel("mov.u32 %r1, 1;\nadd.s32 %r1, %r1, 1;\nadd.s32 %r1, %r1, 1;\nadd.s32 %r1, %r1, 1;\nret;\n",
                           "", 32);
  tb.gwde.run(pk->launch, 1);
  run_cycles(200);
  ASSERT_EQ(tb.gwde.done.size(), 1u);
  const uint64_t s = 1 + cfg.cta_launch_latency, step = cfg.operand_latency + cfg.alu_latency;
  EXPECT_EQ(tb.done_cycle(0), s + 3 * step + 1);
  EXPECT_EQ(tb.done_cycle(0), 49u);
  EXPECT_EQ(tb.sm.counters().insts, 5u);
  EXPECT_EQ(pk->launch->executed_insts, 5u);
}

// (p1b) The same kind of chain with SmConfig::opcode_timing (GPGPU-Sim's integer latencies 4, 13, 4, 5, 145
// for add, min, mul, mad, div, 1 for fma and the rest; mul's unit busy 2 cycles): mov (other, 1), add (4), min (13),
// mul (4), each waiting operand_latency + its source's latency: mov at s, add s+5, min s+13, mul s+30; ret,
// the next on that scheduler's ALU pipe, waits out mul's interval: s+32. Without the table, alu_latency
// for all: s+28.
TEST_F(SmTest, ProgramOpcodeTimingGivesEachGroupItsLatencyAndInterval) {
  SmConfig timed = cfg;
  timed.opcode_timing.int_latency = {4, 13, 4, 5, 145, 1, 1};
  timed.opcode_timing.int_interval = {1, 2, 2, 1, 8, 1, 1};
  const char* body = "mov.u32 %r1, 1;\nadd.s32 %r1, %r1, 1;\nmin.s32 %r1, %r1, 5;\nmul.lo.s32 %r1, %r1, 3;\nret;\n";
  SmBench& uniform_tb = bench("uniform");
  auto uniform_pk = launch_program(uniform_tb, body, 32);
  SmBench& timed_tb = bench("timed", timed);
  auto timed_pk = launch_program(timed_tb, body, 32);
  run_cycles(200);
  const uint64_t s = 1 + cfg.cta_launch_latency;
  ASSERT_TRUE(cfg.opcode_timing.int_latency.empty());
  EXPECT_EQ(uniform_tb.done_cycle(0), s + 3 * (cfg.operand_latency + cfg.alu_latency) + 1);
  EXPECT_EQ(timed_tb.done_cycle(0), s + 32);
}

// (p1d) A float division runs on the SFU pipe timed by opcode_timing's div entry of its type where the
// config lists it (GPGPU-Sim's DIV_OP), else as any SFU instruction. Two dependent divisions: the second
// waits the first's latency, so the chain ends (div latency - sfu_latency) later with the f32 lists; two
// independent ones: the second waits the pipe's interval. With only the integer lists given, or an f64
// division beside f32 lists, sfu_latency and sfu_interval.
TEST_F(SmTest, ProgramFloatDivisionTakesOpcodeTimingsDivEntryOnTheSfuPipe) {
  const char* chain =
      "mov.b32 %r1, 0f3F800000;\ndiv.rn.f32 %r1, %r1, 0f40000000;\ndiv.rn.f32 %r1, %r1, 0f40000000;\nret;\n";
  const char* pair =
      "mov.b32 %r1, 0f3F800000;\ndiv.rn.f32 %r2, %r1, 0f40000000;\ndiv.rn.f32 %r3, %r1, 0f40000000;\nret;\n";
  const char* chain64 =
      "mov.b64 %rd1, 0d3FF0000000000000;\ndiv.rn.f64 %rd1, %rd1, 0d4000000000000000;\n"
      "div.rn.f64 %rd1, %rd1, 0d4000000000000000;\nret;\n";
  SmConfig timed = cfg, int_only = cfg;
  timed.opcode_timing.f32_latency = {4, 13, 4, 5, 40, 1, 1};
  timed.opcode_timing.f32_interval = {1, 2, 1, 1, cfg.sfu_interval + 5, 1, 1};
  int_only.opcode_timing.int_latency.assign(ptx::kAluGroups, cfg.alu_latency);  // the mov as without the lists
  std::vector<std::unique_ptr<ProgramKernel>> kernels;
  SmBench& uniform_chain = bench("uniform_chain");
  kernels.push_back(launch_program(uniform_chain, chain, 32));
  SmBench& timed_chain = bench("timed_chain", timed);
  kernels.push_back(launch_program(timed_chain, chain, 32));
  SmBench& int_chain = bench("int_chain", int_only);
  kernels.push_back(launch_program(int_chain, chain, 32));
  SmBench& uniform_pair = bench("uniform_pair");
  kernels.push_back(launch_program(uniform_pair, pair, 32));
  SmBench& timed_pair = bench("timed_pair", timed);
  kernels.push_back(launch_program(timed_pair, pair, 32));
  SmBench& uniform_chain64 = bench("uniform_chain64");
  kernels.push_back(launch_program(uniform_chain64, chain64, 32));
  SmBench& timed_chain64 = bench("timed_chain64", timed);
  kernels.push_back(launch_program(timed_chain64, chain64, 32));
  run_cycles(400);
  for (SmBench* tb :
       {&uniform_chain, &timed_chain, &int_chain, &uniform_pair, &timed_pair, &uniform_chain64, &timed_chain64})
    ASSERT_EQ(tb->gwde.done.size(), 1u);
  ASSERT_NE(cfg.sfu_latency, 40u);
  EXPECT_EQ(timed_chain.done_cycle(0), uniform_chain.done_cycle(0) + 40 - cfg.sfu_latency);
  EXPECT_EQ(int_chain.done_cycle(0), uniform_chain.done_cycle(0));
  EXPECT_EQ(timed_pair.done_cycle(0), uniform_pair.done_cycle(0) + 5);
  EXPECT_EQ(timed_chain64.done_cycle(0), uniform_chain64.done_cycle(0));
}

// (p1c) SmConfig::alu_one_result_per_cycle, one scheduler (one ALU pipe, so one result a cycle): mov, then
// mul (latency 4) and an independent add issued the next cycle. With add's latency 3 both results would come in the
// same cycle, so the add waits a cycle at the pipe's input, and its result with it: the add reading it, and ret, issue
// a cycle later. With add's latency 2 the results come in different cycles and nothing waits, unless the add's result
// stage (the cycle its pipe returns it, GPGPU-Sim's unit latency) is set to 3. Without the rule, never.
TEST_F(SmTest, ProgramAluPipeReturnsOneResultACycle) {
  // The last add reads the first add's result: the wait must delay the result, not only the pipe.
  const char* body = "mov.u32 %r2, 7;\nmul.lo.s32 %r1, %r2, 3;\nadd.s32 %r3, %r2, 1;\nadd.s32 %r4, %r3, 1;\nret;\n";
  std::vector<SmBench*> benches;  // add latency 3 then 2, each without and with the rule
  std::vector<std::unique_ptr<ProgramKernel>> kernels;
  for (uint32_t add_latency : {3u, 2u}) {
    for (bool one_result : {false, true}) {
      SmConfig c = cfg;
      c.schedulers = 1;
      c.opcode_timing.int_latency = {add_latency, 13, 4, 5, 145, 1, 1};
      c.alu_one_result_per_cycle = one_result;
      const std::string name = "add" + std::to_string(add_latency) + (one_result ? "_one" : "_any");
      benches.push_back(&bench(name.c_str(), c));
      kernels.push_back(launch_program(*benches.back(), body, 32));
    }
  }
  SmConfig staged = cfg;
  staged.schedulers = 1;
  staged.opcode_timing.int_latency = {2, 13, 4, 5, 145, 1, 1};
  staged.opcode_timing.int_result_stage = {3, 13, 4, 5, 145, 1, 1};
  staged.alu_one_result_per_cycle = true;
  benches.push_back(&bench("add2_stage3", staged));
  kernels.push_back(launch_program(*benches.back(), body, 32));
  run_cycles(200);
  for (SmBench* tb : benches) ASSERT_EQ(tb->gwde.done.size(), 1u);
  EXPECT_EQ(benches[1]->done_cycle(0), benches[0]->done_cycle(0) + 1);  // latency 3: the add waits a cycle
  EXPECT_EQ(benches[3]->done_cycle(0), benches[2]->done_cycle(0));      // latency 2: no collision
  EXPECT_EQ(benches[4]->done_cycle(0), benches[2]->done_cycle(0) + 1);  // result stage 3: the add waits
}

// (p2) Coalescing from the lanes' real addresses: 32 lanes load and store a
// word each, 128 B apart: 32 lines read and 32 written, in lane order, at the
// buffer's device address; the values in device memory come back incremented.
TEST_F(SmTest, ProgramAccessesCoalesceByTheLanesAddresses) {
  SmBench& tb = bench();
  const char* body =
      "ld.param.u64 %rd1, [p0];\nld.param.u32 %r1, [p1];\nmov.u32 %r2, %tid.x;\n"
      "mul.wide.u32 %rd2, %r2, %r1;\nadd.s64 %rd3, %rd1, %rd2;\nld.global.u32 %r3, [%rd3];\n"
      "add.s32 %r4, %r3, 1;\nst.global.u32 [%rd3], %r4;\nret;\n";
  auto pk = program_kernel(body, ".param .u64 p0, .param .u32 p1", 32);
  const uint64_t buffer = pk->memory.allocate(32 * 128, "data");
  auto& params = const_cast<std::vector<uint8_t>&>(pk->launch->program->params);
  params.resize(12);
  std::memcpy(params.data(), &buffer, 8);  // p0; p1 (stride) follows
  const uint32_t stride = 128;
  std::memcpy(params.data() + 8, &stride, 4);
  tb.mem.latency = sc_time(100, sc_core::SC_NS);
  tb.gwde.run(pk->launch, 1);
  run_cycles(2000);
  ASSERT_EQ(tb.gwde.done.size(), 1u);
  std::vector<uint64_t> reads, writes;
  for (const auto& r : tb.mem.requests) (r.write ? writes : reads).push_back(r.line);
  ASSERT_EQ(reads.size(), 32u);
  ASSERT_EQ(writes.size(), 32u);
  for (uint64_t lane = 0; lane < 32; ++lane) {
    EXPECT_EQ(reads[lane], buffer / 128 + lane);
    EXPECT_EQ(writes[lane], buffer / 128 + lane);
    uint32_t v;
    std::memcpy(&v, pk->memory.data(buffer) + lane * 128, 4);
    EXPECT_EQ(v, 1u);
  }
}

// (p3) Shared-memory bank conflicts replay the access: each lane stores and
// loads one word, `shift` apart. Conflict-free (4 B apart) the shared pipe is
// busy shared_interval (2) per access; 128 B apart all 32 words sit in bank 0
// and it is busy 32 x 2. With C the conflict degree:
//   mov s, shl s+9, mov.u64 s+10, cvt s+18, add s+27, st.shared s+36 (pipe free
//   at s+36+2C), ld.shared s+36+2C (ready +4+24+2C-2), add s+62+4C, ret s+63+4C.
TEST_F(SmTest, ProgramSharedBankConflictsSerialise) {
  auto run = [&](int shift) {
    SmBench& tb = bench(shift == 2 ? "free" : "conflict");
    const std::string body = "mov.u32 %r1, %tid.x;\nshl.b32 %r2, %r1, " + std::to_string(shift) +
                             ";\nmov.u64 %rd1, buf;\ncvt.u64.u32 %rd2, %r2;\nadd.s64 %rd3, %rd1, %rd2;\n"
                             "st.shared.u32 [%rd3], %r1;\nld.shared.u32 %r5, [%rd3];\nadd.s32 %r6, %r5, 1;\nret;\n";
    return std::make_pair(&tb, launch_program(tb, body, 32));
  };
  auto [free_tb, free_pk] = run(2);
  auto [conflict_tb, conflict_pk] = run(7);
  run_cycles(400);
  const uint64_t s = 1 + cfg.cta_launch_latency;
  EXPECT_EQ(free_tb->done_cycle(0), s + 63 + 4 * 1);
  EXPECT_EQ(conflict_tb->done_cycle(0), s + 63 + 4 * 32);
}

// (p4) Register-bank conflicts in the operand collector (sm/operand_collector.h).
// %s<n> are ids 20 + n; the warp sits in slot 0, so %s<n> is in bank (20 + n) mod 16.
// Six movs (no register sources) issue at s .. s+5, their results ready at +9
// each; A = add %s10, %s0, %s1 issues at s+14 (%s1 ready) and its unit reads
// %s0 (bank 4) at s+16 and %s1 (bank 5) at s+17. B issues at s+15 and reads its
// two sources from s+17 on. Conflict-free (%s3, bank 7; %s2, bank 6) it reads
// them at s+17, s+18 and its result is ready at s+15+9; with %s17 and %s33 (both
// bank 5, which A reads at s+17) the first read waits to s+18, the second
// follows at s+19, and the result is one cycle later. C reads B's result and
// ret follows it: done at s+25 conflict-free, s+26 with the conflict.
TEST_F(SmTest, ProgramRegisterBankConflictDelaysTheResult) {
  auto run = [&](const char* b_sources) {
    SmBench& tb = bench(std::string(b_sources) == "%s3, %s2" ? "free" : "conflict");
    const std::string body = std::string(".reg .b32 %s<40>;\n") +
                             "mov.u32 %s17, 1;\nmov.u32 %s33, 1;\nmov.u32 %s2, 2;\nmov.u32 %s3, 3;\n"
                             "mov.u32 %s0, 4;\nmov.u32 %s1, 5;\nadd.u32 %s10, %s0, %s1;\nadd.u32 %s11, " +
                             b_sources + ";\nadd.u32 %s12, %s11, 1;\nret;\n";
    return std::make_pair(&tb, launch_program(tb, body, 32));
  };
  auto [free_tb, free_pk] = run("%s3, %s2");
  auto [conflict_tb, conflict_pk] = run("%s17, %s33");
  run_cycles(200);
  const uint64_t s = 1 + cfg.cta_launch_latency;
  ASSERT_EQ(cfg.register_banks, 16u);
  EXPECT_EQ(free_tb->done_cycle(0), s + 25);
  EXPECT_EQ(conflict_tb->done_cycle(0), s + 26);
}

// (p5) Collector units bound the issue rate: a warp of independent 3-source
// FMAs holds an ALU unit 4 cycles (taken at c+1, three reads, free at c+5), so
// 6 units take 6 FMAs per 4 cycles: two warps' 48 FMAs issue in 32 cycles, ret
// after them. With 12 units both schedulers issue every cycle: 24 FMAs each at
// s .. s+23, ret at s+24. The registers are chosen so that no read or write
// back meets a busy bank (f<n> is id 20 + n; warp 1's banks are warp 0's + 1).
TEST_F(SmTest, ProgramCollectorUnitsBoundTheIssueRate) {
  SmConfig twelve_units = cfg;
  twelve_units.collector_units_alu = 12;
  std::string body = ".reg .f32 %f<136>;\n";
  for (int i = 0; i < 24; ++i)
    body += "fma.rn.f32 %f" + std::to_string(105 + i) + ", %f" + std::to_string(i) + ", %f" + std::to_string(24 + i) +
            ", %f" + std::to_string(48 + i) + ";\n";
  body += "ret;\n";
  SmBench& six_tb = bench("six");
  auto six_pk = launch_program(six_tb, body, 64);
  SmBench& twelve_tb = bench("twelve", twelve_units);
  auto twelve_pk = launch_program(twelve_tb, body, 64);
  run_cycles(400);
  const uint64_t s = 1 + cfg.cta_launch_latency;
  ASSERT_EQ(cfg.collector_units_alu, 6u);
  EXPECT_EQ(twelve_tb.done_cycle(0), s + 24);
  // 8 rounds of 3 issue cycles, one cycle apart; ret waits for a unit freed at s+33.
  EXPECT_EQ(six_tb.done_cycle(0), s + 32);
}

// (p6) sm.instruction_buffer: GPGPU-Sim's front end. A warp of 8 independent movs and ret, resident at s:
// fetched at s, decoded at s+1, it issues the pair at s+2 and s+3, is fetched again as the second issues,
// and so on: instruction k issues at s + 2 + k + k/2, ret (k = 8) at s+14, where without a front end
// it issues at s+8. Two such warps share the one fetch a cycle: warp 1 is fetched first (the round robin
// starts after slot 0, GPGPU-Sim's m_last_warp_fetched 0), warp 0 a cycle later, and stays a cycle
// behind: the CTA completes at s+15.
std::string independent_movs(int n) {
  std::string body;
  for (int i = 0; i < n; ++i) body += "mov.u32 %r" + std::to_string(i % 8) + ", " + std::to_string(i) + ";\n";
  return body + "ret;\n";
}

TEST_F(SmTest, ProgramFrontEndIssuesAWarpsInstructionsTwoInThree) {
  SmConfig front_end = cfg;
  front_end.instruction_buffer = 2;
  SmBench& none_tb = bench("none");
  auto none_pk = launch_program(none_tb, independent_movs(8), 32);
  SmBench& one_tb = bench("one_warp", front_end);
  auto one_pk = launch_program(one_tb, independent_movs(8), 32);
  SmBench& two_tb = bench("two_warps", front_end);
  auto two_pk = launch_program(two_tb, independent_movs(8), 64);
  run_cycles(200);
  const uint64_t s = 1 + cfg.cta_launch_latency;
  ASSERT_EQ(cfg.instruction_buffer, 0u);
  EXPECT_EQ(none_tb.done_cycle(0), s + 8);
  EXPECT_EQ(one_tb.done_cycle(0), s + 14);
  EXPECT_EQ(two_tb.done_cycle(0), s + 15);
  EXPECT_EQ(two_tb.sm.counters().insts, 18u);
}

// (p7) A taken branch and the front end. First in its pair (bra at 2, the pair 2-3 fetched at s+3): it
// issues at s+5, the buffered instruction 3 is off the warp's path and is discarded when the scheduler
// looks at the warp again (s+6), which is fetched then from the target: 4 and 5 at s+8, s+9, ret at s+11.
// Second in its pair (bra at 1, issued at s+3): the fetch reads on after the branch (GPGPU-Sim's next pc
// is the fall-through until a discard), the pair 2-3 fetched at s+3 is discarded at s+5 and the target
// fetched then: 3 and ret at s+7, s+8.
TEST_F(SmTest, ProgramFrontEndDiscardsWhatATakenBranchSkips) {
  cfg.instruction_buffer = 2;
  auto run = [&](const char* name, const std::string& body) {
    SmBench& tb = bench(name);
    return std::make_pair(&tb, launch_program(tb, body, 32));
  };
  auto [first_tb, first_pk] = run("first",
                                  "mov.u32 %r1, 1;\nmov.u32 %r2, 2;\nbra L1;\nmov.u32 %r3, 3;\nL1:\nmov.u32 %r4, 4;\n"
                                  "mov.u32 %r5, 5;\nret;\n");
  auto [second_tb, second_pk] =
      run("second", "mov.u32 %r1, 1;\nbra L1;\nmov.u32 %r3, 3;\nL1:\nmov.u32 %r4, 4;\nret;\n");
  run_cycles(200);
  const uint64_t s = 1 + cfg.cta_launch_latency;
  EXPECT_EQ(first_tb->done_cycle(0), s + 11);
  EXPECT_EQ(second_tb->done_cycle(0), s + 8);
  EXPECT_EQ(first_tb->sm.counters().insts, 6u);
  EXPECT_EQ(second_tb->sm.counters().insts, 4u);
}

}  // namespace
}  // namespace gpupm
