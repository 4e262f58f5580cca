#include "gpupm/policy/harmonia/harmonia_policy.h"

#include <cmath>
#include <systemc>

namespace gpupm {

namespace {

std::string number_text(double x) {
  char b[32];
  std::snprintf(b, sizeof b, "%g", x);
  return b;
}

// The index of tunable t's value x (-1: not one of its values).
int value_index(const HarmoniaSpace& sp, int t, const Json& x) {
  if (!x.is_number()) return -1;
  for (int i = 0; i < sp.size(t); ++i)
    if (std::fabs(sp.value(t, i) - x.get<double>()) < 1e-9) return i;
  return -1;
}

// What is wrong with a [LOW, MED, HIGH] array (three, as declared) of tunable t's values: each
// must be one of them, non-decreasing.
std::optional<ParamProblem> bin_problem(const char* key, const std::vector<Json>& given, const HarmoniaSpace& sp,
                                        int t) {
  std::string allowed;
  for (double v : sp.values[size_t(t)]) allowed += (allowed.empty() ? "" : ", ") + number_text(v);
  for (size_t b = 0; b < given.size(); ++b) {
    const std::string at = std::string(key) + "[" + std::to_string(b) + "]";
    const int found = value_index(sp, t, given[b]);
    if (found < 0) return ParamProblem{at, "expected one of {" + allowed + "}"};
    if (b > 0 && found < value_index(sp, t, given[b - 1]))
      return ParamProblem{at, "expected a value >= the lower bin's (LOW <= MED <= HIGH)"};
  }
  return std::nullopt;
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

namespace {

const char* const kBinKeys[kHTunables] = {"cg_cus", "cg_sm_mhz", "cg_mem_mhz"};

// The CUs the target GPU has (32 when it is not known).
uint32_t cu_total(const PolicyTarget& t) { return t.ctl.sm_count ? t.ctl.sm_count : 32; }

}  // namespace

void describe(ParamVisitor& v, HarmoniaPolicySettings& s, const PolicyTarget& t) {
  HarmoniaSettings& m = s.model;
  const uint32_t n = cu_total(t);
  if (s.cu_step == 0) s.cu_step = std::min<uint32_t>(4, n);
  v.choice("mode", s.mode, {"cg+fg", "cg"}, "coarse and fine grain (Harmonia), or coarse grain only");
  v.text_list("tunables", s.tunables, 1, kHTunables, "^(cus|sm_mhz|mem_mhz)$", "one of {cus, sm_mhz, mem_mhz}",
              "the tunables it controls (absent: all three; the others stay at their top value)");
  v.integer("cu_step", s.cu_step, 1, n, "CUs", "CU counts cu_step, 2 cu_step, ..., all (default: 4 or all CUs)");
  const char* bin_text[kHTunables] = {
      "CU counts for the LOW, MED, HIGH compute bins (default: about 1/2, 3/4 and all of the CUs)",
      "CU clocks (MHz, SM levels of the GPU) for the LOW, MED, HIGH compute bins (default: the top clock in each)",
      "memory clocks (MHz, memory levels of the GPU) for the LOW, MED, HIGH bandwidth bins (default: the middle "
      "level, one below the top, the top)"};
  for (int k = 0; k < kHTunables; ++k)
    v.json_list(kBinKeys[k], s.cg_values[size_t(k)], 3, 3, JsonItems::kValues, bin_text[k]);
  v.rule("bin_values",
         "each bin value is one of its tunable's on this GPU (CU counts of cu_step, clocks of its levels), "
         "LOW <= MED <= HIGH",
         [&s, &t, n]() -> std::optional<ParamProblem> {
           const HarmoniaSpace sp = harmonia_space(t.dvfs, n, s.cu_step);
           for (int k = 0; k < kHTunables; ++k)
             if (auto problem = bin_problem(kBinKeys[k], s.cg_values[size_t(k)], sp, k)) return problem;
           return std::nullopt;
         });
  v.integer("max_dither", m.max_dither, 0, 1000, "steps", "MAX_DITHER: FG steps back and forth before freezing");
  v.number("fg_tolerance", m.fg_tolerance, 0.0, 0.5, "", "relative loss of performance still read as a zero gradient");
  v.flag("fg_skip_high", m.fg_skip_high, "FG does not step down a tunable whose sensitivity bin is HIGH");
  v.flag("keep_good_fg_steps", m.keep_good_fg_steps,
         "keep an FG step down that moves the bins without a loss (false: the literal Algorithm 1 reverts it)");
  v.integer("warmup", m.warmup, 0, 1000, "invocations", "invocations of a kernel watched before its first decision");
  v.number("bin_low", m.bin_low, 0.0, 1.0, "", "sensitivity below which a bin is LOW");
  v.number("bin_high", m.bin_high, 0.0, 1.0, "", "sensitivity from which a bin is HIGH");
  v.rule("bins_ordered", "bin_low <= bin_high", [&m]() -> std::optional<ParamProblem> {
    if (m.bin_high >= m.bin_low) return std::nullopt;
    return ParamProblem{"bin_high", "expected a number >= bin_low (" + number_text(m.bin_low) + ")"};
  });
  v.integer("check_cycles", s.check_cycles, 1, 1u << 24, "SM cycles",
            "cycles between retries of a refused V/F request");
}

HarmoniaPolicySettings read_harmonia_settings(JsonReader& p, const PolicyTarget& t) {
  HarmoniaPolicySettings s = read_policy_settings<HarmoniaPolicySettings>(p, t);
  HarmoniaSettings& m = s.model;
  m.fine_grain = s.mode == "cg+fg";
  if (!s.tunables.empty()) {
    m.controlled = {false, false, false};
    for (int k = 0; k < kHTunables; ++k)
      for (const std::string& name : s.tunables)
        if (name == tunable_name(k)) m.controlled[size_t(k)] = true;
  }
  HarmoniaSpace sp = harmonia_space(t.dvfs, cu_total(t), s.cu_step);
  // Default SetCU_Freq_MemBW table (configs/workloads/harmonia/README.md, "bin table"), fixed
  // empirically on the suite's static sweeps as the paper fixed its own: CU count 1/2, 3/4, all;
  // CU clock the top one in every bin (FG lowers it); memory clock the middle level, one below
  // the top, the top (16, 24, 32 CUs; 1000 MHz; 925, 1225, 1375 MHz on hd7970_like.json).
  const int top_cu = sp.size(kCuCount) - 1, top_f = sp.size(kCuFreq) - 1, top_m = sp.size(kMemFreq) - 1;
  const std::array<int, 3> defaults[kHTunables] = {
      {near_fraction(sp, kCuCount, 0.5), near_fraction(sp, kCuCount, 0.75), top_cu},
      {top_f, top_f, top_f},
      {top_m / 2, std::max(0, top_m - 1), top_m}};
  for (int k = 0; k < kHTunables; ++k) {
    const std::vector<Json>& given = s.cg_values[size_t(k)];  // checked by the rule bin_values
    for (size_t b = 0; b < 3; ++b) m.cg[size_t(k)][b] = given.empty() ? defaults[k][b] : value_index(sp, k, given[b]);
  }
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
  return {{"name", name()},
          {"mode", m.fine_grain ? "cg+fg" : "cg"},
          {"tunables", tun},
          {"cu_step", s_.cu_step},
          {"cg_table", cg},
          {"max_dither", m.max_dither},
          {"fg_tolerance", m.fg_tolerance},
          {"fg_skip_high", m.fg_skip_high},
          {"keep_good_fg_steps", m.keep_good_fg_steps},
          {"warmup", m.warmup},
          {"bin_low", m.bin_low},
          {"bin_high", m.bin_high}};
}

}  // namespace gpupm
