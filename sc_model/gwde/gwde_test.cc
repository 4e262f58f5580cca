// GlobalWorkDistributionEngine against fake SMs that log what they receive and
// complete CTAs when the test says so. Each TEST elaborates one design.
#include "gpupm/gwde/global_work_distribution_engine.h"

#include "support/sc_bench.h"

#include <gtest/gtest.h>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace gpupm {
namespace {

using sc_core::SC_NS;
using sc_core::sc_time;
using sc_core::sc_time_stamp;

enum Kind { Launch, Pause, Unpause, Gate, Ungate };
struct Ev {
  double ns;
  uint32_t sm;
  Kind kind;
  uint32_t cta;  // Launch, Pause, Unpause
  bool operator==(const Ev& o) const { return ns == o.ns && sm == o.sm && kind == o.kind && cta == o.cta; }
};
std::ostream& operator<<(std::ostream& os, const Ev& e) {
  static const char* names[] = {"launch", "pause", "unpause", "gate", "ungate"};
  return os << "{" << e.ns << " ns, sm" << e.sm << ", " << names[e.kind] << " " << e.cta << "}";
}

struct GwdeFakeSm : sc_core::sc_module {
  tlm_utils::simple_target_socket<GwdeFakeSm> cta_in{"cta_in"};
  tlm_utils::simple_initiator_socket<GwdeFakeSm> done_out{"done_out"};
  uint32_t index;
  std::vector<Ev>* log;
  std::map<uint32_t, std::shared_ptr<const KernelLaunch>> resident;  // by CTA
  std::vector<std::string> launched;                                 // kernel name of every CTA launched here, in order

  GwdeFakeSm(sc_core::sc_module_name name, uint32_t i, std::vector<Ev>* l) : sc_module(name), index(i), log(l) {
    cta_in.register_b_transport(this, &GwdeFakeSm::b_transport);
  }
  void b_transport(tlm::tlm_generic_payload& gp, sc_time&) {
    double ns = double(sc_time_stamp().value()) / 1e6;  // fs -> ns, exact for whole ns
    if (auto* m = gp.get_extension<CtaLaunchMsg>()) {
      resident[m->cta] = m->launch;
      launched.push_back(m->launch->name);
      log->push_back({ns, index, Launch, m->cta});
    } else if (auto* p = gp.get_extension<CtaPauseMsg>()) {
      log->push_back({ns, index, p->pause ? Pause : Unpause, p->cta});
    } else if (auto* s = gp.get_extension<SmPowerMsg>()) {
      log->push_back({ns, index, s->gated ? Gate : Ungate, 0});
    }
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
  }
  void complete(uint32_t cta) {
    CtaDoneMsg m;
    m.sm = index;
    m.cta = cta;
    m.launch = resident.at(cta).get();
    resident.erase(cta);
    send(done_out, m);
  }
};

std::shared_ptr<KernelLaunch> kernel(const std::string& name, uint32_t index, uint32_t grid, uint32_t warps,
                                     uint32_t max_per_sm, uint32_t app = 0) {
  auto k = std::make_shared<KernelLaunch>();
  k->app = app;
  k->name = name;
  k->kernel_index = index;
  k->grid_ctas = grid;
  k->warps_per_cta = warps;
  k->max_ctas_per_sm = max_per_sm;
  return k;
}

struct GwdeBench : test::ScBench {
  tlm_utils::simple_initiator_socket<GwdeBench> ctrl{"ctrl"};
  std::vector<Ev> log;
  GlobalWorkDistributionEngine gwde;
  std::vector<std::unique_ptr<GwdeFakeSm>> sms;

  GwdeBench(sc_core::sc_module_name name, const SmSlots& sm, const GwdeConfig& cfg, const Workload& w)
      : ScBench(name), gwde("gwde", sm, cfg, w) {
    for (uint32_t i = 0; i < sm.count; ++i) {
      sms.push_back(std::make_unique<GwdeFakeSm>(("sm" + std::to_string(i)).c_str(), i, &log));
      gwde.cta_out.bind(sms.back()->cta_in);
      sms.back()->done_out.bind(gwde.done_in);
    }
    ctrl.bind(gwde.ctrl_in);
  }
  template <class Msg>
  void control(Msg& m) {
    send(ctrl, m);
  }
  void limit(uint32_t sm, uint32_t n) {
    CtaLimitMsg m;
    m.sm = sm;
    m.limit = n;
    control(m);
  }
  void enable(uint32_t sm, bool on) {
    SmEnableMsg m;
    m.sm = sm;
    m.enabled = on;
    control(m);
  }
  // Events logged at or after `ns` (in order).
  std::vector<Ev> since(double ns) const {
    std::vector<Ev> v;
    for (const Ev& e : log)
      if (e.ns >= ns) v.push_back(e);
    return v;
  }
};

class GwdeTest : public test::ScTest {
 protected:
  void SetUp() override {
    sm.count = 3;
    sm.max_warps = 48;
    sm.max_ctas = 8;
  }
  void make() {
    w.kernel_count = 0;
    for (const auto& k : w.launches) w.kernel_count = std::max(w.kernel_count, k->kernel_index + 1);
    b = std::make_unique<GwdeBench>("bench", sm, cfg, w);
  }
  SmSlots sm;
  GwdeConfig cfg;
  Workload w;
  std::unique_ptr<GwdeBench> b;
};

TEST_F(GwdeTest, MaxResidentIsTheTightestLimit) {
  EXPECT_EQ(GlobalWorkDistributionEngine::max_resident(sm, *kernel("k", 0, 1, 4, 3)), 3u);    // kernel's own
  EXPECT_EQ(GlobalWorkDistributionEngine::max_resident(sm, *kernel("k", 0, 1, 2, 10)), 8u);   // SM CTA slots
  EXPECT_EQ(GlobalWorkDistributionEngine::max_resident(sm, *kernel("k", 0, 1, 20, 10)), 2u);  // warp slots 48/20
}

TEST_F(GwdeTest, DispatchesBreadthFirstThenReplacesCompletedCtas) {
  w.launches = {kernel("k", 0, 20, 4, 3)};
  make();
  b->body = [&] {
    b->at_ns(10);
    b->sms[1]->complete(4);
    b->at_ns(20);
    b->sms[0]->complete(0);
  };
  sc_core::sc_start(sc_time(100, SC_NS));
  std::vector<Ev> want = {{0, 0, Launch, 0}, {0, 1, Launch, 1},  {0, 2, Launch, 2},  {0, 0, Launch, 3},
                          {0, 1, Launch, 4}, {0, 2, Launch, 5},  {0, 0, Launch, 6},  {0, 1, Launch, 7},
                          {0, 2, Launch, 8}, {10, 1, Launch, 9}, {20, 0, Launch, 10}};
  EXPECT_EQ(b->log, want);
}

// A policy resets (Equalizer, DynCTA) or sets (a static count) every SM's limit when a
// kernel starts; a partial wave must still spread over the SMs, not fill SM 0 first.
TEST_F(GwdeTest, LimitsSetAtKernelStartKeepTheFirstDispatchBreadthFirst) {
  w.launches = {kernel("k", 0, 5, 4, 3)};
  make();
  b->gwde.on_kernel_start = [&](const KernelLaunch&) {
    for (uint32_t i = 0; i < sm.count; ++i) b->limit(i, i == 2 ? 1 : 0);
  };
  sc_core::sc_start(sc_time(10, SC_NS));
  std::vector<Ev> want = {
      {0, 0, Launch, 0}, {0, 1, Launch, 1}, {0, 2, Launch, 2}, {0, 0, Launch, 3}, {0, 1, Launch, 4}};
  EXPECT_EQ(b->log, want);
}

// Core shut-down enables every SM when a kernel starts: each enable used to
// fill its SM to occupancy before the breadth-first dispatch (a 192-CTA grid
// all on SMs 0-9 of 32). Enables and masks wait for the first dispatch too.
TEST_F(GwdeTest, EnablesAndMasksSentAtKernelStartKeepTheFirstDispatchBreadthFirst) {
  w.launches = {kernel("k", 0, 5, 4, 3)};
  make();
  b->gwde.on_kernel_start = [&](const KernelLaunch&) {
    for (uint32_t i = 0; i < sm.count; ++i) b->enable(i, true);
    SmMaskMsg mask;
    mask.kernel_index = 0;
    mask.mask = {true, true, true};
    b->control(mask);
  };
  sc_core::sc_start(sc_time(10, SC_NS));
  std::vector<Ev> want = {
      {0, 0, Launch, 0}, {0, 1, Launch, 1}, {0, 2, Launch, 2}, {0, 0, Launch, 3}, {0, 1, Launch, 4}};
  EXPECT_EQ(b->log, want);
}

TEST_F(GwdeTest, WarpSlotsLimitResidency) {
  sm.count = 2;
  w.launches = {kernel("k", 0, 10, 20, 8)};  // 48 / 20 = 2 per SM
  make();
  sc_core::sc_start(sc_time(10, SC_NS));
  EXPECT_EQ(b->sms[0]->resident.size(), 2u);
  EXPECT_EQ(b->sms[1]->resident.size(), 2u);
  EXPECT_EQ(b->log.size(), 4u);
}

TEST_F(GwdeTest, LimitPausesYoungestAndCompletionUnpausesInsteadOfDispatching) {
  sm.count = 2;
  w.launches = {kernel("k", 0, 30, 4, 3)};  // sm0: 0 2 4, sm1: 1 3 5
  make();
  std::vector<uint32_t> paused;
  b->body = [&] {
    b->at_ns(10);
    b->limit(0, 1);
    paused.push_back(b->gwde.paused_ctas(0));
    b->at_ns(20);
    b->sms[0]->complete(0);
    paused.push_back(b->gwde.paused_ctas(0));
    b->at_ns(30);
    b->limit(0, 0);  // back to the kernel's maximum: unpause first, then dispatch
    paused.push_back(b->gwde.paused_ctas(0));
    b->at_ns(40);
    b->limit(0, 1);
    b->at_ns(50);
    b->limit(0, 3);
    paused.push_back(b->gwde.paused_ctas(0));
  };
  sc_core::sc_start(sc_time(100, SC_NS));
  std::vector<Ev> want = {{10, 0, Pause, 4},   {10, 0, Pause, 2},   {20, 0, Unpause, 2},
                          {30, 0, Unpause, 4}, {30, 0, Launch, 6},  {40, 0, Pause, 6},
                          {40, 0, Pause, 4},   {50, 0, Unpause, 4}, {50, 0, Unpause, 6}};
  EXPECT_EQ(b->since(10), want);
  EXPECT_EQ(paused, (std::vector<uint32_t>{2, 1, 0, 0}));
}

TEST_F(GwdeTest, DisabledSmsDrainThenGateAndWakeAfterTheLatency) {
  cfg.wake_latency_ns = 500;
  w.launches = {kernel("k", 0, 60, 4, 2)};  // sm0: 0 3, sm1: 1 4, sm2: 2 5
  make();
  b->body = [&] {
    b->at_ns(10);
    b->limit(1, 1);  // pauses 4
    b->enable(1, false);
    b->enable(2, false);
    b->at_ns(20);
    b->sms[2]->complete(2);
    b->sms[1]->complete(1);  // the paused CTA must run for the SM to drain
    b->at_ns(30);
    b->sms[2]->complete(5);
    b->at_ns(40);
    b->sms[1]->complete(4);
    b->at_ns(100);
    b->enable(2, true);
    b->at_ns(300);
    b->enable(1, true);  // within sm2's wake-up latency
  };
  sc_core::sc_start(sc_time(1000, SC_NS));
  std::vector<Ev> want = {{10, 1, Pause, 4},   {20, 1, Unpause, 4}, {30, 2, Gate, 0},
                          {40, 1, Gate, 0},    {100, 2, Ungate, 0}, {300, 1, Ungate, 0},
                          {600, 2, Launch, 6}, {600, 2, Launch, 7}, {800, 1, Launch, 8}};  // sm1 keeps its limit of 1
  EXPECT_EQ(b->since(10), want);
}

TEST_F(GwdeTest, WakeNowPowersUpAGatedSmWithoutWork) {
  cfg.wake_latency_ns = 500;
  sm.count = 2;
  w.launches = {kernel("a", 0, 2, 4, 1), kernel("b", 1, 2, 4, 1)};  // one CTA per SM
  make();
  b->body = [&] {
    b->at_ns(10);
    b->enable(1, false);  // drains its CTA, then gates
    b->sms[1]->complete(1);
    b->at_ns(100);
    SmEnableMsg m;  // early wake-up: no CTA left for it, it powers up anyway
    m.sm = 1;
    m.enabled = true;
    m.wake_now = true;
    b->control(m);
    b->at_ns(900);
    b->sms[0]->complete(0);  // kernel b starts; sm1 is already awake
  };
  sc_core::sc_start(sc_time(2000, SC_NS));
  std::vector<Ev> want = {{10, 1, Gate, 0}, {100, 1, Ungate, 0}, {900, 0, Launch, 0}, {900, 1, Launch, 1}};
  EXPECT_EQ(b->since(10), want);
}

TEST_F(GwdeTest, MaskedKernelsInSequenceWithCallbacksInOrder) {
  w.launches = {kernel("a", 0, 4, 4, 2), kernel("b", 1, 6, 4, 2)};
  make();
  std::vector<std::string> calls;
  auto now_ns = [] { return std::to_string(int(sc_time_stamp().to_seconds() * 1e9 + 0.5)); };
  b->gwde.on_kernel_start = [&](const KernelLaunch& k) { calls.push_back("start " + k.name + " " + now_ns()); };
  b->gwde.on_kernel_end = [&](const KernelLaunch& k) { calls.push_back("end " + k.name + " " + now_ns()); };
  b->gwde.on_all_done = [&] { calls.push_back("all done " + now_ns()); };
  b->body = [&] {
    b->at_ns(5);
    SmMaskMsg m;
    m.kernel_index = 1;
    m.mask = {false, true, true};
    b->control(m);
    // Every 10 ns, complete everything resident (each SM in turn, oldest CTA first).
    for (double t = 10; t < 100; t += 10) {
      b->at_ns(t);
      for (auto& sm : b->sms) {
        std::vector<uint32_t> ctas;
        for (const auto& r : sm->resident) ctas.push_back(r.first);
        for (uint32_t c : ctas) sm->complete(c);
      }
    }
  };
  sc_core::sc_start(sc_time(200, SC_NS));
  EXPECT_EQ(calls, (std::vector<std::string>{"start a 0", "end a 10", "start b 10", "end b 30", "all done 30"}));
  // a: sm0 0 3, sm1 1, sm2 2. b on sm1 and sm2 only: 0 2 / 1 3 at 10 ns; at 20 ns
  // sm1 completes first and takes both remaining CTAs.
  std::vector<Ev> want = {{10, 1, Launch, 0}, {10, 2, Launch, 1}, {10, 1, Launch, 2},
                          {10, 2, Launch, 3}, {20, 1, Launch, 4}, {20, 1, Launch, 5}};
  EXPECT_EQ(b->since(10), want);
}

// Two applications: default split of 3 SMs is app 0 on sm0, app 1 on sm1-2.
class GwdeTwoAppsTest : public GwdeTest {
 protected:
  void two_apps(std::vector<std::shared_ptr<KernelLaunch>> a, std::vector<std::shared_ptr<KernelLaunch>> b) {
    w.apps.resize(2);
    w.apps[0].name = "A";
    w.apps[1].name = "B";
    for (auto& k : a) {
      w.apps[0].launches.push_back(k);
      w.launches.push_back(k);
    }
    for (auto& k : b) {
      w.apps[1].launches.push_back(k);
      w.launches.push_back(k);
    }
    w.apps_form = true;
    make();
  }
  void complete_all_every_10ns(double until) {
    for (double t = 10; t < until; t += 10) {
      b->at_ns(t);
      for (auto& sm : b->sms) {
        std::vector<uint32_t> ctas;
        for (const auto& r : sm->resident) ctas.push_back(r.first);
        for (uint32_t c : ctas) sm->complete(c);
      }
    }
  }
  std::vector<std::string> launched(uint32_t sm) const { return b->sms[sm]->launched; }
};

TEST_F(GwdeTwoAppsTest, DefaultMasksSplitTheSmsInHalves) {
  EXPECT_EQ(GlobalWorkDistributionEngine::default_app_mask(2, 0, 15),
            (std::vector<bool>{1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0}));
  EXPECT_EQ(GlobalWorkDistributionEngine::default_app_mask(2, 1, 15),
            (std::vector<bool>{0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1}));
  EXPECT_EQ(GlobalWorkDistributionEngine::default_app_mask(1, 0, 3), (std::vector<bool>{1, 1, 1}));
}

TEST_F(GwdeTwoAppsTest, AppsRunConcurrentlyEachOnItsOwnSmsAndEndTogether) {
  two_apps({kernel("a", 0, 4, 4, 2, 0), kernel("a2", 1, 2, 4, 2, 0)}, {kernel("b", 2, 6, 4, 2, 1)});
  std::vector<std::string> calls;
  auto now_ns = [] { return std::to_string(int(sc_time_stamp().to_seconds() * 1e9 + 0.5)); };
  b->gwde.on_kernel_start = [&](const KernelLaunch& k) {
    calls.push_back("start " + k.name + " app" + std::to_string(k.app) + " " + now_ns());
  };
  b->gwde.on_kernel_end = [&](const KernelLaunch& k) {
    calls.push_back("end " + k.name + " app" + std::to_string(k.app) + " " + now_ns());
  };
  b->gwde.on_all_done = [&] { calls.push_back("all done " + now_ns()); };
  b->body = [&] { complete_all_every_10ns(100); };
  sc_core::sc_start(sc_time(200, SC_NS));
  // Both apps start at 0; a (2 waves on sm0) and b (6 CTAs on 2 SMs) both end at 20;
  // a2 follows a in app 0; the run ends with the later app.
  EXPECT_EQ(calls, (std::vector<std::string>{"start a app0 0", "start b app1 0", "end a app0 20", "end b app1 20",
                                             "start a2 app0 20", "end a2 app0 30", "all done 30"}));
  EXPECT_EQ(launched(0), (std::vector<std::string>{"a", "a", "a", "a", "a2", "a2"}));
  std::vector<std::string> b_on_1 = launched(1), b_on_2 = launched(2);
  EXPECT_EQ(b_on_1.size() + b_on_2.size(), 6u);
  for (const auto& n : b_on_1) EXPECT_EQ(n, "b");
  for (const auto& n : b_on_2) EXPECT_EQ(n, "b");
}

TEST_F(GwdeTwoAppsTest, MaskChangeAtRunTimeDrainsAndOverlapIsRejected) {
  two_apps({kernel("a", 0, 10, 4, 2, 0)}, {kernel("b", 1, 10, 4, 2, 1)});
  tlm::tlm_response_status overlap = tlm::TLM_OK_RESPONSE, bad_size = tlm::TLM_OK_RESPONSE;
  size_t sm1_before = 0;
  b->body = [&] {
    b->at_ns(5);
    SmAppMaskMsg grow;
    grow.app = 0;
    grow.mask = {true, true, false};
    overlap = send(b->ctrl, grow);  // sm1 is still app 1's: ignored
    EXPECT_EQ(b->gwde.app_mask(0), (std::vector<bool>{true, false, false}));
    SmAppMaskMsg wrong;
    wrong.app = 1;
    wrong.mask = {true};
    bad_size = send(b->ctrl, wrong);
    SmAppMaskMsg shrink;
    shrink.app = 1;
    shrink.mask = {false, false, true};
    b->control(shrink);
    b->control(grow);  // now disjoint
    sm1_before = launched(1).size();
    EXPECT_EQ(b->sms[1]->resident.size(), 2u);  // app 1's CTAs stay (drain), nothing new yet
    complete_all_every_10ns(200);
  };
  sc_core::sc_start(sc_time(300, SC_NS));
  EXPECT_EQ(overlap, tlm::TLM_GENERIC_ERROR_RESPONSE);
  EXPECT_EQ(bad_size, tlm::TLM_ADDRESS_ERROR_RESPONSE);
  EXPECT_EQ(b->gwde.app_mask(0), (std::vector<bool>{true, true, false}));
  EXPECT_EQ(b->gwde.app_mask(1), (std::vector<bool>{false, false, true}));
  // Up to 5 ns sm1 held app 1's first wave; afterwards it got only app 0's CTAs.
  std::vector<std::string> sm1 = launched(1);
  ASSERT_EQ(sm1_before, 2u);
  EXPECT_EQ(sm1[0], "b");
  EXPECT_EQ(sm1[1], "b");
  ASSERT_GT(sm1.size(), 2u);
  for (size_t i = 2; i < sm1.size(); ++i) EXPECT_EQ(sm1[i], "a") << i;
  for (const auto& n : launched(0)) EXPECT_EQ(n, "a");
  for (const auto& n : launched(2)) EXPECT_EQ(n, "b");
  size_t a_total = 0, b_total = 0;
  for (uint32_t sm = 0; sm < 3; ++sm)
    for (const auto& n : launched(sm)) (n == "a" ? a_total : b_total)++;
  EXPECT_EQ(a_total, 10u);
  EXPECT_EQ(b_total, 10u);
  for (auto& sm : b->sms) EXPECT_TRUE(sm->resident.empty());
}

// A queue pair (Workload::respawn): app 0 (one CTA on sm0) finishes first and
// starts its kernel again, twice, while app 1 (6 CTAs on sm1-2, two waves)
// still runs; app 1's end ends the run, with app 0's third pass in flight.
TEST_F(GwdeTwoAppsTest, RespawnRerunsTheFasterAppUntilTheSlowerEnds) {
  w.respawn = true;
  two_apps({kernel("a", 0, 1, 4, 2, 0)}, {kernel("b", 1, 6, 4, 2, 1)});
  std::vector<std::string> calls;
  auto now_ns = [] { return std::to_string(int(sc_time_stamp().to_seconds() * 1e9 + 0.5)); };
  b->gwde.on_kernel_start = [&](const KernelLaunch& k) { calls.push_back("start " + k.name + " " + now_ns()); };
  b->gwde.on_kernel_end = [&](const KernelLaunch& k) { calls.push_back("end " + k.name + " " + now_ns()); };
  b->gwde.on_all_done = [&] { calls.push_back("all done " + now_ns()); };
  auto complete_on = [&](uint32_t sm) {
    std::vector<uint32_t> ctas;
    for (const auto& r : b->sms[sm]->resident) ctas.push_back(r.first);
    for (uint32_t c : ctas) b->sms[sm]->complete(c);
  };
  b->body = [&] {
    b->at_ns(10);
    complete_on(0);  // a, pass 1
    b->at_ns(20);
    complete_on(0);  // a, pass 2
    b->at_ns(25);
    complete_on(1);  // b's first wave
    complete_on(2);
    b->at_ns(35);
    complete_on(1);  // b's second wave: b done
    complete_on(2);
  };
  sc_core::sc_start(sc_time(100, SC_NS));
  EXPECT_EQ(calls, (std::vector<std::string>{"start a 0", "start b 0", "end a 10", "start a 10", "end a 20",
                                             "start a 20", "end b 35", "all done 35"}));
  EXPECT_EQ(launched(0), (std::vector<std::string>{"a", "a", "a"}));  // the same CTA, once per pass
  EXPECT_EQ(b->sms[0]->resident.size(), 1u);                          // pass 3 cut off by the end of the run
  EXPECT_EQ(launched(1).size() + launched(2).size(), 6u);
  for (uint32_t sm = 1; sm < 3; ++sm)
    for (const auto& n : launched(sm)) EXPECT_EQ(n, "b");
}

// A program's source hands out each launch and keeps none itself.
struct OneShotSource : LaunchSource {
  std::weak_ptr<const KernelLaunch> handed;
  bool done = false;
  std::shared_ptr<const KernelLaunch> next() override {
    if (done) return nullptr;
    done = true;
    std::shared_ptr<const KernelLaunch> k = kernel("p", 0, 1, 4, 1);
    handed = k;
    return k;
  }
  size_t planned_launches() const override { return 1; }
};

// The run stops while the sequencer waits for the launch to finish (a queue
// pair's faster program at the end of the run): its thread's frame is never
// unwound, so an owning pointer kept there outlived the engine (LeakSanitizer
// found 392 bytes: the launch, its PTX state and its parameters).
TEST_F(GwdeTest, ALaunchDoesNotOutliveTheEngineWhenTheRunStopsMidLaunch) {
  auto source = std::make_shared<OneShotSource>();
  w.apps.resize(1);
  w.apps[0].source = source;
  w.kernel_count = 1;
  b = std::make_unique<GwdeBench>("bench", sm, cfg, w);
  sc_core::sc_start(sc_time(10, SC_NS));  // the CTA never completes
  ASSERT_FALSE(source->handed.expired());
  b.reset();
  EXPECT_TRUE(source->handed.expired());
}

}  // namespace
}  // namespace gpupm
