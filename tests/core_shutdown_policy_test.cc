// The core shut-down controller pieces against a fluid kernel model: a fake
// PolicyContext whose GPU runs a kernel of G CTAs at a throughput that depends
// only on how many SMs issue (the actuator's pause/drain/gate calls decide
// that), so each test states the kernel's IPC curve and checks what the
// controller does with it. The real platform runs the same policies in
// tests/core_shutdown_experiment_test.cc and the experiment.
#include "gpupm/policy/shared/actuate/sm_count_actuator.h"
#include "gpupm/policy/core_shutdown/core_shutdown_policy.h"
#include "gpupm/policy/shared/observe/kernel_counters.h"
#include "gpupm/policy/shared/oracle/static_point_policy.h"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <memory>

namespace gpupm {
namespace {

constexpr uint64_t kForever = std::numeric_limits<uint64_t>::max();

struct ShutdownFakeSm : SmStatus {
  SmCounters c;
  uint32_t resident = 0;
  SmCounters counters() const override { return c; }
  WarpStateCounts sample_states() const override { return {}; }
  WarpVectors warp_vectors() const override { return {}; }
  uint32_t resident_ctas() const override { return resident; }
  uint32_t active_warps() const override { return resident * 4; }
  uint32_t unstalled_warps() const override { return resident * 4; }
};

// A GPU running one kernel at a time. Per cycle the SMs that are enabled (or
// hold CTAs) and not held issue throughput(n)/n instructions each, n = their
// count; a CTA completes every `cta_insts` instructions of its SM; a disabled SM
// with no CTA is gated (wakes after wake_cycles, or at once with wake_sm).
class FluidGpu : public PolicyContext {
 public:
  uint32_t n_sms = 32, ctas_per_sm = 4;
  double cta_insts = 4000;
  std::function<double(uint32_t)> throughput;  // GPU instructions per cycle with n issuing SMs
  std::function<double(uint32_t)> mbu;         // DRAM utilisation with n issuing SMs
  uint64_t wake_cycles = 700;
  std::vector<std::string> log;  // actuation calls
  uint32_t wake_calls = 0, hold_forever_calls = 0, gate_enables = 0, pause_enables = 0;
  uint64_t max_paused_while_settled = 0;

  FluidGpu() {
    sms_.resize(n_sms);
    st_.resize(n_sms);
    dvfs_.levels = {{"s0", 175, 0.55}, {"s6", 700, 1.0}};
    dvfs_.nominal = 1;
  }
  // observation
  uint32_t sm_count() const override { return n_sms; }
  const SmStatus& sm(uint32_t i) const override { return sms_.at(i); }
  const MemActivity& memory() const override { return mem_; }
  uint64_t sm_cycle() const override { return cycle_; }
  uint64_t mem_cycle() const override { return cycle_ * 1000; }  // bus busy counts in 1/1000 cycle
  uint32_t mem_channels() const override { return 1; }
  uint32_t level(Domain) const override { return 1; }
  const DomainDvfs& dvfs(Domain) const override { return dvfs_; }
  bool in_transition(Domain) const override { return false; }
  uint32_t occupancy_limit(const KernelLaunch&) const override { return ctas_per_sm; }
  uint32_t max_warps() const override { return 48; }
  // actuation
  bool request_level(Domain, uint32_t, bool) override { return true; }
  void set_cta_limit(uint32_t, uint32_t) override {}
  void set_sm_enabled(uint32_t sm, bool enabled, bool gate_when_idle) override {
    st_[sm].enabled = enabled;
    st_[sm].gate_when_idle = gate_when_idle;
    if (!enabled) (gate_when_idle ? gate_enables : pause_enables)++;
    if (enabled && st_[sm].gated && !st_[sm].waking) start_wake(sm, wake_cycles);
  }
  void wake_sm(uint32_t sm) override {
    ++wake_calls;
    st_[sm].enabled = true;
    if (st_[sm].gated && !st_[sm].waking) start_wake(sm, wake_cycles);
  }
  void set_sm_mask(uint32_t, const std::vector<bool>&) override {}
  void hold_issue(uint32_t sm, uint64_t until) override {
    st_[sm].hold = until;
    if (until == kForever) ++hold_forever_calls;
  }

  bool gated(uint32_t sm) const { return st_[sm].gated; }
  bool held(uint32_t sm) const { return st_[sm].hold > cycle_; }
  uint32_t issuing() const {
    uint32_t n = 0;
    for (uint32_t i = 0; i < n_sms; ++i) n += issues(i);
    return n;
  }

  // Runs one kernel of `grid` CTAs to completion; the policy is called like the platform does.
  uint64_t run_kernel(Policy& p, uint32_t grid, uint32_t index = 0, uint64_t max_cycles = 50'000'000) {
    auto k = std::make_shared<KernelLaunch>();
    k->name = "k";
    k->launch = index;
    k->grid_ctas = grid;
    k->max_ctas_per_sm = ctas_per_sm;
    launches_.push_back(k);
    grid_left_ = grid;
    done_ = 0;
    p.on_kernel_start(*this, *k);
    dispatch();
    uint64_t start = cycle_;
    uint64_t every = p.epoch_cycles();
    while (done_ < grid && cycle_ - start < max_cycles) {
      step();
      if (every && cycle_ % every == 0) p.on_epoch(*this, cycle_);
    }
    p.on_kernel_end(*this, *k);
    return cycle_ - start;
  }

 private:
  struct St {
    bool enabled = true, gate_when_idle = true, gated = false, waking = false;
    uint64_t hold = 0, awake_at = 0;
    double progress = 0;  // instructions into the SM's current CTAs
  };
  bool issues(uint32_t i) const {
    return !st_[i].gated && st_[i].hold <= cycle_ && sms_[i].resident > 0 && cycle_ >= st_[i].awake_at;
  }
  void start_wake(uint32_t sm, uint64_t latency) {
    st_[sm].waking = true;
    st_[sm].awake_at = cycle_ + latency;
  }
  void dispatch() {
    for (uint32_t i = 0; i < n_sms; ++i) {
      St& s = st_[i];
      if (s.waking && cycle_ >= s.awake_at) s.gated = s.waking = false;
      if (!s.enabled && sms_[i].resident == 0 && s.gate_when_idle && !s.gated) s.gated = true;
      while (s.enabled && !s.gated && cycle_ >= s.awake_at && grid_left_ > 0 && sms_[i].resident < ctas_per_sm) {
        ++sms_[i].resident;
        --grid_left_;
      }
    }
  }
  void step() {
    ++cycle_;
    ++mem_.l2_cycles;
    uint32_t n = issuing();
    double t = n ? throughput(n) : 0.0;
    mem_.dram_bus_busy += uint64_t(std::lround((n ? mbu(n) : 0.0) * 1000));
    for (uint32_t i = 0; i < n_sms; ++i) {
      ShutdownFakeSm& f = sms_[i];
      f.c.cycles = cycle_;
      f.c.resident_cta_cycles += f.resident;
      if (!issues(i)) continue;
      double per = t / n;
      st_[i].progress += per;
      acc_[i] += per;
      uint64_t whole = uint64_t(acc_[i]);
      f.c.insts += whole;
      acc_[i] -= double(whole);
      while (st_[i].progress >= cta_insts && f.resident > 0) {  // a CTA retires every cta_insts of its SM
        st_[i].progress -= cta_insts;
        --f.resident;
        ++f.c.ctas_completed;
        ++done_;
      }
    }
    dispatch();
  }
  uint64_t cycle_ = 0;
  std::vector<ShutdownFakeSm> sms_;
  std::vector<St> st_;
  std::vector<double> acc_ = std::vector<double>(64, 0.0);
  MemActivity mem_;
  DomainDvfs dvfs_;
  std::vector<std::shared_ptr<KernelLaunch>> launches_;
  uint32_t grid_left_ = 0, done_ = 0;
};

KnobSearchSettings fast() {
  KnobSearchSettings s;
  s.check_cycles = 16;
  s.wake_ns = 1000;
  return s;
}

// ------------------------------------------------------------------ pieces

TEST(CoreShutdownKneeSearch, BisectsInLog2Steps) {
  KneeSearch k;
  k.start(1, 32);
  EXPECT_EQ(k.max_steps(), 5u);
  std::vector<uint32_t> tried;
  while (!k.done()) {  // performance is the same down to 13 SMs
    tried.push_back(k.candidate());
    k.report(k.candidate() >= 13);
  }
  EXPECT_EQ(k.result(), 13u);
  EXPECT_EQ(k.steps(), 5u);
  EXPECT_EQ(tried, (std::vector<uint32_t>{16, 8, 12, 14, 13}));
  k.start(0, 6);  // the 7 V/F states
  EXPECT_EQ(k.max_steps(), 3u);
  while (!k.done()) k.report(false);
  EXPECT_EQ(k.result(), 6u);  // nothing passed: the top
}

TEST(CoreShutdownCounters, WindowGivesIpcMbuAndAverageCtaTime) {
  FluidGpu g;
  g.throughput = [](uint32_t n) { return 2.0 * n; };
  g.mbu = [](uint32_t) { return 0.25; };
  CounterSnapshot a = KernelCounters::take(g);
  CoreShutdownPolicy idle(fast());
  // Run a kernel without any action (compute-like: MBU 0.25).
  g.run_kernel(idle, 32 * 4 * 3);
  CounterSnapshot b = KernelCounters::take(g);
  WindowStats w = KernelCounters::between(a, b, 1);
  EXPECT_NEAR(w.mbu, 0.25, 0.02);
  EXPECT_NEAR(w.ipc, 64.0, 1.0);  // 32 SMs x 2
  EXPECT_EQ(w.ctas_completed, 384u);
  // Each CTA holds its slot for 4 x 4000 / 2 = 8000 cycles (4 share the SM's 2 IPC),
  // less in the kernel's tail where fewer CTAs share an SM.
  EXPECT_GT(w.avg_cta_cycles, 6500.0);
  EXPECT_LE(w.avg_cta_cycles, 8000.0);
  std::vector<bool> half(32, false);
  for (int i = 0; i < 16; ++i) half[size_t(i)] = true;
  WindowStats h = KernelCounters::between(a, b, 1, half);
  EXPECT_NEAR(h.ipc, 32.0, 0.5);
  EXPECT_EQ(h.ctas_completed, 192u);
}

TEST(CoreShutdownActuator, PausesDrainsAndWakes) {
  FluidGpu g;
  SmCountActuator a;
  a.reset(g);
  EXPECT_EQ(a.active(), 32u);
  a.set_active(g, 20, SmMode::kPaused);
  EXPECT_EQ(a.count(SmMode::kPaused), 12u);
  EXPECT_EQ(g.hold_forever_calls, 12u);  // paused: issue held, not gated
  EXPECT_EQ(g.pause_enables, 12u);
  EXPECT_EQ(g.gate_enables, 0u);
  EXPECT_TRUE(g.held(25));
  a.set_active(g, 24, SmMode::kPaused);  // a larger count resumes SMs 20..23
  EXPECT_FALSE(g.held(21));
  EXPECT_TRUE(g.held(24));
  a.set_active(g, 16, SmMode::kDraining);  // converged: the rest drain, then gate
  EXPECT_EQ(a.count(SmMode::kDraining), 16u);
  EXPECT_EQ(g.gate_enables, 16u);
  EXPECT_FALSE(g.held(24));  // draining SMs run their CTAs to completion
  a.wake_all(g);
  EXPECT_EQ(g.wake_calls, 16u);
  EXPECT_EQ(a.active(), 32u);
}

// ------------------------------------------------------------------ policy

// Bandwidth-bound: throughput saturates at 12 SMs; MBU 0.85 at saturation.
double bw_knee(uint32_t n) { return 1.5 * std::min(n, 12u); }
double bw_mbu(uint32_t n) { return 0.85 * std::min(n, 12u) / 12.0; }

TEST(CoreShutdownPolicy, BandwidthBoundKernelConvergesNearItsKneeThenGates) {
  FluidGpu g;
  g.throughput = bw_knee;
  g.mbu = bw_mbu;
  CoreShutdownPolicy p(fast());
  g.run_kernel(p, 32 * 4 * 30);
  const Json& t = p.trace();
  uint32_t steps = 0, settled = 0;
  for (const Json& e : t) {
    if (e["event"] == "step") ++steps;
    if (e["event"] == "settle") settled = e["setting"].get<uint32_t>();
  }
  EXPECT_EQ(steps, 5u);                      // log2(32)
  EXPECT_GE(settled, 12u);                   // never below the knee (alpha 5%: 11 SMs lose 8%)
  EXPECT_LE(settled, 13u);                   // within one step of it
  EXPECT_GT(g.hold_forever_calls, 0u);       // paused while searching
  EXPECT_GE(g.gate_enables, 32u - settled);  // then drained and gated
  EXPECT_GT(g.wake_calls, 0u);               // early wake-up before the end
}

TEST(CoreShutdownPolicy, ComputeKernelIsLeftAlone) {
  FluidGpu g;
  g.throughput = [](uint32_t n) { return 2.0 * n; };
  g.mbu = [](uint32_t n) { return 0.3 * n / 32.0; };
  CoreShutdownPolicy p(fast());
  uint64_t cycles = g.run_kernel(p, 32 * 4 * 10);
  EXPECT_EQ(g.hold_forever_calls, 0u);
  EXPECT_EQ(g.gate_enables, 0u);
  EXPECT_NEAR(double(cycles), 10 * 8000.0, 800.0);
  for (const Json& e : p.trace()) EXPECT_NE(e["event"], "search");
}

TEST(CoreShutdownPolicy, ThrashingKernelGoesBelowItsPeak) {
  // IPC peaks at 16 SMs and is 20% lower at 32 (L2 contention).
  FluidGpu g;
  g.throughput = [](uint32_t n) { return n <= 16 ? 1.0 * n : 16.0 - 0.2 * (n - 16); };
  g.mbu = [](uint32_t n) { return std::min(0.7, 0.05 * n); };
  KnobSearchSettings s = fast();
  s.reference_best = false;
  CoreShutdownPolicy p(s);
  g.run_kernel(p, 32 * 4 * 30);
  auto settled = [](const Json& trace) {
    uint32_t n = 0;
    for (const Json& e : trace)
      if (e["event"] == "settle") n = e["setting"].get<uint32_t>();
    return n;
  };
  // reference "top": the smallest count within 5% of the 32-SM IPC (12.8): n >= 12.16 -> 13.
  EXPECT_EQ(settled(p.trace()), 13u);
  // reference "best": within 5% of the best seen (16 at 16 SMs, measured first): n >= 15.2 -> 16.
  FluidGpu g2;
  g2.throughput = g.throughput;
  g2.mbu = g.mbu;
  CoreShutdownPolicy q(fast());
  g2.run_kernel(q, 32 * 4 * 30);
  EXPECT_EQ(settled(q.trace()), 16u);
}

TEST(CoreShutdownPolicy, MarkedChangeTriggersANewSearch) {
  FluidGpu g;
  bool phase2 = false;
  g.throughput = [&](uint32_t n) { return phase2 ? 2.0 * n : bw_knee(n); };
  g.mbu = [&](uint32_t n) { return phase2 ? 0.2 : bw_mbu(n); };
  CoreShutdownPolicy p(fast());
  // Switch to compute-like behaviour once the search has settled.
  struct Switch : Policy {
    CoreShutdownPolicy& inner;
    bool& flag;
    Switch(CoreShutdownPolicy& i, bool& f) : inner(i), flag(f) {}
    std::string name() const override { return "switch"; }
    uint64_t epoch_cycles() const override { return inner.epoch_cycles(); }
    void on_kernel_start(PolicyContext& c, const KernelLaunch& k) override { inner.on_kernel_start(c, k); }
    void on_kernel_end(PolicyContext& c, const KernelLaunch& k) override { inner.on_kernel_end(c, k); }
    void on_epoch(PolicyContext& c, uint64_t cy) override {
      if (inner.state() == KnobSearchPolicy::State::kSettled && cy > 200000) flag = true;
      inner.on_epoch(c, cy);
    }
  } sw(p, phase2);
  g.run_kernel(sw, 32 * 4 * 60);
  int drifts = 0, samples = 0;
  for (const Json& e : p.trace()) {
    drifts += e["event"] == "drift";
    samples += e["event"] == "sample";
  }
  EXPECT_GE(drifts, 1);
  EXPECT_GE(samples, 2);
  EXPECT_EQ(p.setting(), 32u);  // compute-like now: all SMs back
}

TEST(CoreShutdownPolicy, EarlyWakeUpOverlapsTheTail) {
  FluidGpu g;
  g.throughput = bw_knee;
  g.mbu = bw_mbu;
  g.wake_cycles = 20000;  // long enough to matter
  KnobSearchSettings s = fast();
  s.wake_ns = 20000.0 / 0.7;  // 20000 cycles at 700 MHz
  CoreShutdownPolicy p(s);
  g.run_kernel(p, 32 * 4 * 30);
  double wake_at = -1, end_at = -1;
  for (const Json& e : p.trace()) {
    if (e["event"] == "wake") wake_at = e["cycle"].get<double>();
    if (e["event"] == "end") end_at = e["cycle"].get<double>();
  }
  ASSERT_GT(wake_at, 0);
  EXPECT_LT(wake_at, end_at);
  EXPECT_GT(wake_at, end_at - 4 * 20000);  // not much earlier than needed
  // The next kernel finds every SM awake.
  for (uint32_t i = 0; i < g.n_sms; ++i) EXPECT_FALSE(g.gated(i)) << i;
}

TEST(CoreShutdownPolicy, ParsesItsParameters) {
  Json doc = {{"alpha", 0.1}, {"mbu_threshold", 0.4}, {"research", false}};
  JsonReader r(doc, "run.json", "policy");
  const std::string name = "core-shutdown";
  const DvfsConfig dvfs;
  const ControllerSetup ctl;
  const PolicyTarget target{name, dvfs, ctl};
  KnobSearchSettings s = read_policy_settings<KnobSearchSettings>(r, target);
  EXPECT_DOUBLE_EQ(s.alpha, 0.1);
  EXPECT_DOUBLE_EQ(s.mbu_threshold, 0.4);
  EXPECT_FALSE(s.research);
  Json bad = {{"alpha", 2.0}};
  JsonReader rb(bad, "run.json", "policy");
  EXPECT_THROW(read_policy_settings<KnobSearchSettings>(rb, target), InputError);
}

}  // namespace
}  // namespace gpupm
