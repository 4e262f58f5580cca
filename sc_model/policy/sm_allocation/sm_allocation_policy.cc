#include "policy/sm_allocation/sm_allocation_policy.h"

#include <algorithm>
#include <systemc>

namespace gpupm {

namespace {

double now_us() { return sc_core::sc_time_stamp().to_seconds() * 1e6; }

std::vector<bool> sm_range(uint32_t n, uint32_t lo, uint32_t hi) {
  std::vector<bool> m(n, false);
  for (uint32_t i = lo; i < hi && i < n; ++i) m[i] = true;
  return m;
}

const char* gating_name(LeftoverGating g) { return g == LeftoverGating::kPower ? "power" : "clock"; }

}  // namespace

void apply_split(PolicyContext& ctx, const Split& s, LeftoverGating gating, SmCountActuator& actuator) {
  const uint32_t n = ctx.sm_count();
  // Masks stay disjoint at every step: app 0 lets go of everything first.
  ctx.set_app_sm_mask(0, std::vector<bool>(n, false));
  ctx.set_app_sm_mask(1, sm_range(n, s.k1, s.k1 + s.k2));
  ctx.set_app_sm_mask(0, sm_range(n, 0, s.k1));
  // Leftover SMs have no work; power gating takes them down once drained (at once here).
  if (gating == LeftoverGating::kPower && s.k1 + s.k2 < n) actuator.set_active(ctx, s.k1 + s.k2, SmMode::kDraining);
}

// ------------------------------------------------------------- static splits

void StaticSplitPolicy::on_start(PolicyContext& ctx) {
  apply_split(ctx, split_, gating_, actuator_);
  uint32_t left = ctx.sm_count() - split_.k1 - split_.k2;
  trace_.push_back({{"event", "split"}, {"time_us", now_us()}, {"sms", {split_.k1, split_.k2}}, {"leftover", left},
                    {"gated", gating_ == LeftoverGating::kPower ? left : 0}});
}

Json StaticSplitPolicy::describe() const {
  Json d = {{"name", name_}, {"split", {split_.k1, split_.k2}}, {"gating", gating_name(gating_)}};
  d.update(inputs_);
  return d;
}

// ------------------------------------------------------------------ ILP-SMRA

std::vector<bool> IlpSmraPolicy::range(uint32_t lo, uint32_t hi) const { return sm_range(sms_, lo, hi); }

void IlpSmraPolicy::on_start(PolicyContext& ctx) {
  sms_ = ctx.sm_count();
  step_ = s_.step ? s_.step : std::max<uint32_t>(1, sms_ / 12);
  Split even = even_split(sms_);
  k1_ = even.k1;
  ctx.set_app_sm_mask(0, std::vector<bool>(sms_, false));
  ctx.set_app_sm_mask(1, range(k1_, sms_));
  ctx.set_app_sm_mask(0, range(0, k1_));
  snap_ = KernelCounters::take(ctx);
  window_start_ = ctx.sm_cycle();
  trace_.push_back({{"event", "split"}, {"time_us", now_us()}, {"sms", {k1_, sms_ - k1_}}});
}

void IlpSmraPolicy::on_epoch(PolicyContext& ctx, uint64_t sm_cycle) {
  if (!sms_) return;  // before the first kernel
  if (pending_.from >= 0) {  // hand the drained SMs over, all at once
    for (uint32_t i = transit_lo_; i < transit_hi_; ++i)
      if (ctx.sm(i).resident_ctas()) return;
    if (pending_.from == 0) {
      k1_ -= pending_.count;
      ctx.set_app_sm_mask(1, range(k1_, sms_));
    } else {
      k1_ += pending_.count;
      ctx.set_app_sm_mask(0, range(0, k1_));
    }
    trace_.push_back({{"event", "reassigned"}, {"time_us", now_us()}, {"sms", {k1_, sms_ - k1_}}});
    pending_ = {};
    idle_before_[0] = idle_before_[1] = 0;
    snap_ = KernelCounters::take(ctx);  // the next window sees the new split only
    window_start_ = sm_cycle;
    return;
  }
  if (sm_cycle - window_start_ < s_.window_cycles) return;
  CounterSnapshot now = KernelCounters::take(ctx);
  SmraWindow w;
  for (int a = 0; a < 2; ++a) {
    std::vector<bool> set = a == 0 ? range(0, k1_) : range(k1_, sms_);
    WindowStats st = KernelCounters::between(snap_, now, ctx.mem_channels(), set);
    w.sms[a] = a == 0 ? k1_ : sms_ - k1_;
    w.ipc[a] = st.ipc;
    uint32_t idle = 0;
    for (uint32_t i = 0; i < sms_; ++i)
      if (set[i] && now.insts[i] == snap_.insts[i]) ++idle;
    w.idle[a] = std::min(idle, idle_before_[a]);  // idle in two windows running
    idle_before_[a] = idle;
  }
  snap_ = now;
  window_start_ = sm_cycle;
  SmraMove m = smra_decide(w, step_, s_.imbalance);
  trace_.push_back({{"event", "window"}, {"time_us", now_us()}, {"sms", {w.sms[0], w.sms[1]}},
                    {"ipc", {w.ipc[0], w.ipc[1]}}, {"idle", {w.idle[0], w.idle[1]}}, {"move_from", m.from}});
  if (m.from < 0) return;
  // The donor lets go of the SMs next to the boundary; they drain its CTAs first.
  pending_ = m;
  if (m.from == 0) {
    transit_lo_ = k1_ - m.count;
    transit_hi_ = k1_;
    ctx.set_app_sm_mask(0, range(0, transit_lo_));
  } else {
    transit_lo_ = k1_;
    transit_hi_ = k1_ + m.count;
    ctx.set_app_sm_mask(1, range(transit_hi_, sms_));
  }
}

Json IlpSmraPolicy::describe() const {
  return {{"name", name()}, {"window_cycles", s_.window_cycles}, {"check_cycles", s_.check_cycles},
          {"imbalance", s_.imbalance}, {"step", s_.step}};
}

// ------------------------------------------------------------------- factory

std::vector<std::string> sm_allocation_policy_names() { return {"sm-allocation", "ilp-smra", "aging-power", "perf-aging"}; }

std::unique_ptr<Policy> make_sm_allocation_policy(const std::string& name, JsonReader& p, const ControllerSetup& ctl) {
  const auto names = sm_allocation_policy_names();
  if (std::find(names.begin(), names.end(), name) == names.end()) return nullptr;
  if (ctl.app_names.size() != 2)
    p.fail("name", "\"" + name + "\" shares the SMs between two co-running applications; the workload has " +
                       std::to_string(ctl.app_names.size()) + " (give it \"apps\" with 2 entries)");
  const uint32_t K = ctl.sm_count;
  if (name == "ilp-smra") {
    SmraSettings s;
    s.window_cycles = p.get_uint("window_cycles", 128, uint64_t(1) << 32, s.window_cycles);
    s.check_cycles = p.get_uint("check_cycles", 1, uint64_t(1) << 24, s.check_cycles);
    s.imbalance = p.get_double("imbalance", 0.0, 1.0, s.imbalance);
    s.step = uint32_t(p.get_uint("step", 0, K ? K / 2 : 4096, s.step));
    return std::make_unique<IlpSmraPolicy>(s);
  }
  const std::string file = p.get_string("profiles");
  uint32_t step = 0;
  std::vector<AppProfile> prof = profiles_for_apps(file, ctl.app_names, K, &step);
  const AppProfile &a = prof[0], &b = prof[1];
  Json inputs = {{"profiles", file}, {"opt", {a.opt, b.opt}}, {"class", {a.cls, b.cls}}};
  auto gating = [&] {
    return p.get_enum("gating", {"power", "clock"}, "power") == "power" ? LeftoverGating::kPower
                                                                          : LeftoverGating::kClock;
  };
  if (name == "sm-allocation") {
    LeftoverGating g = gating();
    PartitionInput in = partition_input(a, b, K, step);
    inputs["pow_ef_at_opt"] = {in.pow_ef1, in.pow_ef2};
    inputs["case"] = partition_case(in);
    return std::make_unique<StaticSplitPolicy>(name, partition(in), g, inputs);
  }
  if (name == "aging-power") {
    LeftoverGating g = gating();
    double margin = p.get_double("margin", 0.0, 1.0, 0.08);
    inputs["margin"] = margin;
    return std::make_unique<StaticSplitPolicy>(name, aging_power_split(a, b, K, margin), g, inputs);
  }
  // perf-aging: not power-aware, leftover SMs stay idle (ungated).
  double margin = p.get_double("margin", 0.0, 1.0, 0.10);
  double max_cut = p.get_double("max_cut", margin, 1.0, 0.20);
  inputs["margin"] = margin;
  inputs["max_cut"] = max_cut;
  return std::make_unique<StaticSplitPolicy>(name, perf_aging_split(a, b, K, step, margin, max_cut),
                                             LeftoverGating::kClock, inputs);
}

}  // namespace gpupm
