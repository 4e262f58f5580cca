#include "gpupm/policy/sm_allocation/sm_allocation_policy.h"

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
  trace_.push_back({{"event", "split"},
                    {"time_us", now_us()},
                    {"sms", {split_.k1, split_.k2}},
                    {"leftover", left},
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
  if (!sms_) return;         // before the first kernel
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
  trace_.push_back({{"event", "window"},
                    {"time_us", now_us()},
                    {"sms", {w.sms[0], w.sms[1]}},
                    {"ipc", {w.ipc[0], w.ipc[1]}},
                    {"idle", {w.idle[0], w.idle[1]}},
                    {"move_from", m.from}});
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
  return {{"name", name()},
          {"window_cycles", s_.window_cycles},
          {"check_cycles", s_.check_cycles},
          {"imbalance", s_.imbalance},
          {"step", s_.step}};
}

// ------------------------------------------------------------------- factory

std::vector<std::string> sm_allocation_policy_names() {
  return {"sm-allocation", "ilp-smra", "aging-power", "perf-aging"};
}

void describe(ParamVisitor& v, SmraSettings& s, const PolicyTarget& t) {
  const uint32_t K = t.ctl.sm_count;
  v.integer("window_cycles", s.window_cycles, 128, uint64_t(1) << 32, "SM cycles", "cycles per monitoring window");
  v.integer("check_cycles", s.check_cycles, 1, uint64_t(1) << 24, "SM cycles", "cycles between checks of draining SMs");
  v.number("imbalance", s.imbalance, 0.0, 1.0, "", "IPC-per-SM gap between the apps that triggers a move");
  v.integer("step", s.step, 0, K ? K / 2 : 4096, "SMs", "SMs moved at a time (0: a twelfth of the SMs)");
}

void describe(ParamVisitor& v, SplitSettings& s, const PolicyTarget& t) {
  const bool perf_aging = t.name == "perf-aging";
  if (s.margin < 0) s.margin = perf_aging ? 0.10 : 0.08;
  v.text("profiles", s.profiles, "the apps' SM-count profiles (written by gpupm experiment sm-allocation)",
         Presence::kRequired);
  if (!perf_aging)  // perf-aging is not power-aware: its leftover SMs stay idle, ungated
    v.choice_of("gating", s.gating, {"power", "clock"}, "how the SMs neither app gets are gated");
  if (t.name == "sm-allocation") return;
  v.number("margin", s.margin, 0.0, 1.0, "", "IPC loss allowed against the best SM count (relative)");
  if (!perf_aging) return;
  v.number("max_cut", s.max_cut, 0.0, 1.0, "", "largest share of an app's SMs taken away");
  v.rule("cut_above_margin", "max_cut >= margin", [&s]() -> std::optional<ParamProblem> {
    if (s.max_cut >= s.margin) return std::nullopt;
    return ParamProblem{"max_cut", "expected a number >= margin (" + Json(s.margin).dump() + ")"};
  });
}

std::unique_ptr<Policy> make_sm_allocation_policy(JsonReader& p, const PolicyTarget& t) {
  const std::string& name = t.name;
  const auto names = sm_allocation_policy_names();
  if (std::find(names.begin(), names.end(), name) == names.end()) return nullptr;
  const std::vector<std::string>& apps = t.ctl.app_names;
  if (apps.size() != 2)
    p.fail("name", "\"" + name + "\" shares the SMs between two co-running applications; the workload has " +
                       std::to_string(apps.size()) + " (give it \"apps\" with 2 entries)");
  const uint32_t K = t.ctl.sm_count;
  if (name == "ilp-smra") return std::make_unique<IlpSmraPolicy>(read_policy_settings<SmraSettings>(p, t));
  const SplitSettings s = read_policy_settings<SplitSettings>(p, t);
  uint32_t step = 0;
  std::vector<AppProfile> prof = profiles_for_apps(s.profiles, apps, K, &step);
  const AppProfile &a = prof[0], &b = prof[1];
  Json inputs = {{"profiles", s.profiles}, {"opt", {a.opt, b.opt}}, {"class", {a.cls, b.cls}}};
  if (name == "sm-allocation") {
    PartitionInput in = partition_input(a, b, K, step);
    inputs["pow_ef_at_opt"] = {in.pow_ef1, in.pow_ef2};
    inputs["case"] = partition_case(in);
    return std::make_unique<StaticSplitPolicy>(name, partition(in), s.gating, inputs);
  }
  inputs["margin"] = s.margin;
  if (name == "aging-power")
    return std::make_unique<StaticSplitPolicy>(name, aging_power_split(a, b, K, s.margin), s.gating, inputs);
  inputs["max_cut"] = s.max_cut;
  return std::make_unique<StaticSplitPolicy>(name, perf_aging_split(a, b, K, step, s.margin, s.max_cut),
                                             LeftoverGating::kClock, inputs);
}

}  // namespace gpupm
