#include "policy/harmonia/harmonia_policy.h"

#include <cmath>
#include <systemc>

namespace gpupm {

namespace {

std::string number_text(double x) {
  char b[32];
  std::snprintf(b, sizeof b, "%g", x);
  return b;
}

// A [LOW, MED, HIGH] array of values of tunable t, each one of its values, non-decreasing.
std::array<int, 3> bin_values(JsonReader& p, const char* key, const HarmoniaSpace& sp, int t,
                              const std::array<int, 3>& dflt) {
  if (!p.has(key)) return dflt;
  const Json& a = p.raw(key);
  std::string allowed;
  for (double v : sp.values[size_t(t)]) allowed += (allowed.empty() ? "" : ", ") + number_text(v);
  if (!a.is_array() || a.size() != 3)
    p.fail(key, "expected [LOW, MED, HIGH]: three values of {" + allowed + "}");
  std::array<int, 3> out{};
  for (size_t b = 0; b < 3; ++b) {
    int found = -1;
    if (a[b].is_number())
      for (int i = 0; i < sp.size(t); ++i)
        if (std::fabs(sp.value(t, i) - a[b].get<double>()) < 1e-9) found = i;
    if (found < 0)
      throw InputError(p.file(), p.path_of(key) + "[" + std::to_string(b) + "]", "expected one of {" + allowed + "}");
    if (b > 0 && found < out[b - 1])
      throw InputError(p.file(), p.path_of(key) + "[" + std::to_string(b) + "]",
                       "expected a value >= the lower bin's (LOW <= MED <= HIGH)");
    out[b] = found;
  }
  return out;
}

// The index whose value is closest to fraction x of the top value.
int near_fraction(const HarmoniaSpace& sp, int t, double x) {
  double want = x * sp.value(t, sp.size(t) - 1);
  int best = 0;
  for (int i = 0; i < sp.size(t); ++i)
    if (std::fabs(sp.value(t, i) - want) < std::fabs(sp.value(t, best) - want)) best = i;
  return best;
}

}  // namespace

HarmoniaSpace harmonia_space(const DvfsConfig& dvfs, uint32_t sm_count, uint32_t cu_step) {
  HarmoniaSpace sp;
  for (uint32_t n = cu_step; n < sm_count; n += cu_step) sp.values[kCuCount].push_back(n);
  sp.values[kCuCount].push_back(sm_count);
  for (const VfLevel& l : dvfs[Domain::Sm].levels) sp.values[kCuFreq].push_back(l.mhz);
  for (const VfLevel& l : dvfs[Domain::Mem].levels) sp.values[kMemFreq].push_back(l.mhz);
  return sp;
}

HarmoniaPolicySettings parse_harmonia_settings(JsonReader& p, const DvfsConfig& dvfs, uint32_t sm_count) {
  HarmoniaPolicySettings s;
  HarmoniaSettings& m = s.model;
  m.fine_grain = p.get_enum("mode", {"cg+fg", "cg"}, "cg+fg") == "cg+fg";
  if (p.has("tunables")) {
    const Json& a = p.raw("tunables");
    if (!a.is_array() || a.empty()) p.fail("tunables", "expected a non-empty array of {cus, sm_mhz, mem_mhz}");
    m.controlled = {false, false, false};
    for (size_t i = 0; i < a.size(); ++i) {
      int t = -1;
      for (int k = 0; k < kHTunables; ++k)
        if (a[i].is_string() && a[i].get<std::string>() == tunable_name(k)) t = k;
      if (t < 0) throw InputError(p.file(), p.path_of("tunables") + "[" + std::to_string(i) + "]",
                                  "expected one of {cus, sm_mhz, mem_mhz}");
      m.controlled[size_t(t)] = true;
    }
  }
  uint32_t n = sm_count ? sm_count : 32;
  s.cu_step = uint32_t(p.get_uint("cu_step", 1, n, std::min<uint32_t>(4, n)));
  HarmoniaSpace sp = harmonia_space(dvfs, n, s.cu_step);
  // Default SetCU_Freq_MemBW table (configs/workloads/harmonia/README.md, "bin table"), fixed
  // empirically on the suite's static sweeps as the paper fixed its own: CU count 1/2, 3/4, all;
  // CU clock the top one in every bin (FG lowers it); memory clock the middle level, one below
  // the top, the top (16, 24, 32 CUs; 1000 MHz; 925, 1225, 1375 MHz on hd7970_like.json).
  const int top_cu = sp.size(kCuCount) - 1, top_f = sp.size(kCuFreq) - 1, top_m = sp.size(kMemFreq) - 1;
  m.cg[kCuCount] = bin_values(p, "cg_cus", sp, kCuCount,
                              {near_fraction(sp, kCuCount, 0.5), near_fraction(sp, kCuCount, 0.75), top_cu});
  m.cg[kCuFreq] = bin_values(p, "cg_sm_mhz", sp, kCuFreq, {top_f, top_f, top_f});
  m.cg[kMemFreq] = bin_values(p, "cg_mem_mhz", sp, kMemFreq, {top_m / 2, std::max(0, top_m - 1), top_m});
  m.max_dither = uint32_t(p.get_uint("max_dither", 0, 1000, m.max_dither));
  m.fg_tolerance = p.get_double("fg_tolerance", 0.0, 0.5, m.fg_tolerance);
  m.fg_skip_high = p.get_bool("fg_skip_high", m.fg_skip_high);
  m.keep_good_fg_steps = p.get_bool("keep_good_fg_steps", m.keep_good_fg_steps);
  m.warmup = uint32_t(p.get_uint("warmup", 0, 1000, m.warmup));
  m.bin_low = p.get_double("bin_low", 0.0, 1.0, m.bin_low);
  m.bin_high = p.get_double("bin_high", m.bin_low, 1.0, m.bin_high);
  s.check_cycles = uint32_t(p.get_uint("check_cycles", 1, 1u << 24, s.check_cycles));
  return s;
}

HarmoniaPolicy::HarmoniaPolicy(const HarmoniaPolicySettings& s, const DvfsConfig& dvfs, uint32_t sm_count)
    : s_(s), space_(harmonia_space(dvfs, sm_count, s.cu_step)) {}

void HarmoniaPolicy::request_levels(PolicyContext& ctx) {
  if (want_sm_ >= 0 && ctx.level(Domain::Sm) != uint32_t(want_sm_) && !ctx.in_transition(Domain::Sm))
    ctx.request_level(Domain::Sm, uint32_t(want_sm_));
  if (want_mem_ >= 0 && ctx.level(Domain::Mem) != uint32_t(want_mem_) && !ctx.in_transition(Domain::Mem))
    ctx.request_level(Domain::Mem, uint32_t(want_mem_));
}

void HarmoniaPolicy::on_kernel_start(PolicyContext& ctx, const KernelLaunch& k) {
  auto it = kernels_.try_emplace(k.kernel_index, s_.model, space_).first;
  const HConfig& c = it->second.config();
  if (act_.size() != ctx.sm_count()) act_.adopt_all_active(ctx);  // every SM is on at the start
  act_.set_active(ctx, uint32_t(space_.value(kCuCount, c.v[kCuCount])), SmMode::kDraining);
  want_sm_ = c.v[kCuFreq];
  want_mem_ = c.v[kMemFreq];
  request_levels(ctx);
  start_ = KernelCounters::take(ctx);
}

void HarmoniaPolicy::on_epoch(PolicyContext& ctx, uint64_t) { request_levels(ctx); }

void HarmoniaPolicy::on_kernel_end(PolicyContext& ctx, const KernelLaunch& k) {
  HarmoniaKernel& hk = kernels_.at(k.kernel_index);
  HConfig ran = hk.config();
  WindowStats w = KernelCounters::between(start_, KernelCounters::take(ctx), ctx.mem_channels());
  Table2Counters t = table2_counters(w, k);
  HarmoniaSensitivity sens = predict_sensitivity(t, s_.model.bin_low, s_.model.bin_high);
  const DomainDvfs& sm = ctx.dvfs(Domain::Sm);
  double perf = device_valu_busy(w, ctx.sm_count(), sm.levels.back().mhz);
  Json d = hk.observe(sens, perf);
  Json e = {{"kernel", k.name},
            {"launch", k.launch},
            {"time_us", sc_core::sc_time_stamp().to_seconds() * 1e6},
            {"kernel_us", w.seconds * 1e6},
            {"ran", space_.describe(ran)},
            {"next", space_.describe(hk.config())},
            {"counters",
             {{"valu_busy", t.valu_busy},
              {"valu_utilization", t.valu_utilization},
              {"mem_unit_busy", t.mem_unit_busy},
              {"mem_unit_stalled", t.mem_unit_stalled},
              {"write_unit_stalled", t.write_unit_stalled},
              {"ic_activity", t.ic_activity},
              {"norm_vgpr", t.norm_vgpr},
              {"norm_sgpr", t.norm_sgpr},
              {"c_to_m", t.c_to_m}}},
            {"s_bw", sens.bw_raw},
            {"s_comp", sens.comp_raw},
            {"bw_bin", bin_name(sens.bw_bin)},
            {"comp_bin", bin_name(sens.comp_bin)}};
  for (auto it = d.begin(); it != d.end(); ++it) e[it.key()] = it.value();
  trace_.push_back(std::move(e));
  want_sm_ = want_mem_ = -1;
}

Json HarmoniaPolicy::describe() const {
  const HarmoniaSettings& m = s_.model;
  Json cg = Json::object(), tun = Json::array();
  for (int t = 0; t < kHTunables; ++t) {
    Json v = Json::array();
    for (int b = 0; b < 3; ++b) v.push_back(space_.value(t, m.cg[size_t(t)][size_t(b)]));
    cg[tunable_name(t)] = v;
    if (m.controlled[size_t(t)]) tun.push_back(tunable_name(t));
  }
  return {{"name", name()},         {"mode", m.fine_grain ? "cg+fg" : "cg"}, {"tunables", tun},
          {"cu_step", s_.cu_step},  {"cg_table", cg},                         {"max_dither", m.max_dither},
          {"fg_tolerance", m.fg_tolerance}, {"fg_skip_high", m.fg_skip_high},
          {"keep_good_fg_steps", m.keep_good_fg_steps}, {"warmup", m.warmup}, {"bin_low", m.bin_low},
          {"bin_high", m.bin_high}};
}

}  // namespace gpupm
