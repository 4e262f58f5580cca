#include "gpupm/policy/equalizer/equalizer_policy.h"

#include <algorithm>
#include <string>

#include <systemc>

namespace gpupm {

namespace {

uint32_t field(uint32_t word, int lsb, int bits) { return (word >> lsb) & ((1u << bits) - 1); }

// The settings' names in JSON, indexed by the enums' values (their CTRL register codes).
const std::vector<std::string> kThresholdNames = {"exact", "truncated"};
const std::vector<std::string> kXaluNames = {"ready_minus_issued", "all_ready"};
const std::vector<std::string> kXmemNames = {"ready_and_lsu_blocked", "ready_minus_issued"};
const std::vector<std::string> kVoteRuleNames = {"plurality", "strict"};

}  // namespace

void describe(ParamVisitor& v, EqualizerSettings& s, const PolicyTarget& t) {
  v.flag("enable", s.enable, "run the controller (false: the GPU stays at its nominal point)");
  v.flag("dvfs", s.dvfs, "apply the SMs' V/F votes (false: CTA control only)");
  v.flag("cta_control", s.cta_control, "apply the SMs' CTA requests (false: DVFS only)");
  v.choice_of("threshold_mode", s.threshold, kThresholdNames,
              "the decision's thresholds on exact epoch sums or on truncated averages");
  v.choice_of("xalu_def", s.xalu, kXaluNames, "which warps count as X_alu");
  v.choice_of("xmem_def", s.xmem, kXmemNames, "which warps count as X_mem");
  v.choice_of("vote_rule", s.rule, kVoteRuleNames, "how the frequency manager resolves the SMs' votes");
  v.integer("sample_period_log2", s.params.sample_period_log2, 1, 12, "log2 cycles",
            "SM cycles between warp-state samples, as a power of two");
  v.integer("epoch_samples_log2", s.params.epoch_samples_log2, 1, 8, "log2 samples",
            "samples per epoch, as a power of two");
  v.rule("epoch_fits_16_bits", "sample_period_log2 + epoch_samples_log2 <= 16 (the epoch counter's width)",
         [&s]() -> std::optional<ParamProblem> {
           if (s.params.sample_period_log2 + s.params.epoch_samples_log2 <= 16) return std::nullopt;
           return ParamProblem{"epoch_samples_log2", "expected sample_period_log2 + epoch_samples_log2 <= 16"};
         });
  v.rule("levels_around_nominal", "the GPU's SM and memory V/F tables have a level below and above nominal",
         [&t]() -> std::optional<ParamProblem> {
           for (Domain d : {Domain::Sm, Domain::Mem}) {
             const DomainDvfs& dd = t.dvfs[d];
             if (dd.nominal == 0 || dd.nominal + 1 >= dd.levels.size())
               return ParamProblem{"name", std::string("Equalizer needs a level below and above nominal in the ") +
                                               domain_name(d) + " V/F table of the GPU config"};
           }
           return std::nullopt;
         });
}

EqualizerSettings read_equalizer_settings(JsonReader& p, const PolicyTarget& t) {
  EqualizerSettings s = read_policy_settings<EqualizerSettings>(p, t);
  s.mode = t.name == "equalizer-energy" ? VfMode::kEnergy : VfMode::kPerformance;
  s.impl = t.ctl.impl;
  s.sm_transition_cycles = uint16_t(t.dvfs[Domain::Sm].transition_cycles & kTransitionMask);
  if (s.impl != ControllerImpl::kCpp) {
    EqSmParams rp = s.params;
    rp.warps = uint8_t(std::min<uint32_t>(64, t.ctl.max_warps));
    std::string why;
    if (!eq_sm_rtl_available(rp, &why) || !vote_arbiter_rtl_available(t.ctl.sm_count, &why))
      throw InputError(t.ctl.origin, "controller_impl",
                       std::string("\"") + controller_impl_name(s.impl) + "\" needs the Verilated blocks: " + why);
  }
  return s;
}

EqualizerPolicy::EqualizerPolicy(std::string name, const EqualizerSettings& s) : name_(std::move(name)), s_(s) {}

void EqualizerPolicy::on_start(PolicyContext& ctx) {
  s_.params.warps = uint8_t(std::min<uint32_t>(64, ctx.max_warps()));
  blocks_.clear();
  for (uint32_t i = 0; i < ctx.sm_count(); ++i) blocks_.push_back(make_eq_sm_controller(s_.impl, s_.params, i));
  arbiter_ = make_vote_arbiter_controller(s_.impl, VoteArbiterParams{uint8_t(ctx.sm_count())});
  arbiter_cycle_ = 0;
}

void EqualizerPolicy::on_kernel_start(PolicyContext& ctx, const KernelLaunch& k) {
  w_cta_ = uint8_t(k.warps_per_cta & kWctaMask);
  max_blocks_ = uint8_t(std::min<uint32_t>(15, ctx.occupancy_limit(k)));
  kernel_start_ = true;
  if (s_.cta_control)
    for (uint32_t i = 0; i < ctx.sm_count(); ++i) ctx.set_cta_limit(i, 0);  // a new kernel starts at its maximum
}

EqSmIn EqualizerPolicy::inputs_for(const SmStatus& sm) const {
  WarpVectors v = sm.warp_vectors();
  EqSmIn in;
  in.warp_valid = v.valid;
  in.warp_paused = v.paused;
  in.head_ready = v.ready;
  in.head_is_mem = v.is_mem;
  in.head_is_alu = v.is_alu;
  in.issued = v.issued;
  in.lsu_can_accept = v.lsu_can_accept;
  in.w_cta = w_cta_;
  in.max_blocks = max_blocks_;
  in.kernel_start = kernel_start_;
  in.enable = s_.enable;
  in.xalu_def = s_.xalu;
  in.xmem_def = s_.xmem;
  in.threshold_mode = s_.threshold;
  return in;
}

// Per call (every sample period, 128 SM cycles): each block is advanced to its sample strobe,
// stepped there with the SM's status (the popcounts are registered), and
// stepped once more (the sample is accumulated; on the epoch strobe, the cycle
// after the epoch's last sample, Algorithm 1 runs). kernel_start goes with the
// second step, so a kernel start on the epoch strobe wins over that epoch's
// numBlocks change. With controller_impl rtl/lockstep the RTL is clocked
// through every cycle in between (controllers/eq_sm_block_controller.h).
void EqualizerPolicy::on_epoch(PolicyContext& ctx, uint64_t cycle) {
  bool epoch_done = false;
  try {
    for (uint32_t i = 0; i < blocks_.size(); ++i) {
      EqSmController& b = *blocks_[i];
      b.advance(b.cycles_to_strobe());  // the cycles since the last call
      EqSmIn in = inputs_for(ctx.sm(i));
      in.kernel_start = false;
      b.step(in);
      in.kernel_start = kernel_start_;
      epoch_done |= b.step(in).epoch_done;
    }
    kernel_start_ = false;
    if (epoch_done) apply_epoch(ctx, cycle);
  } catch (const LockstepMismatch& e) {
    // A model failure: reported, not thrown on (SystemC would wrap it in an
    // uncaught-exception report and lose its type). No outputs: they are only
    // written after a complete run.
    const std::string where =
        "; in the Equalizer policy call at SM cycle " + std::to_string(cycle) + " of the platform";
    SC_REPORT_ERROR(kLockstepReportId, (e.what() + where).c_str());
  }
}

uint32_t EqualizerPolicy::level_index(PolicyContext& ctx, Domain d, VfLevelCode code) const {
  return ctx.dvfs(d).nominal + uint32_t(code) - 1;
}

// The blocks' outputs are visible in cycle `cycle`+2 (sample strobe, epoch
// strobe); the arbiter reads the votes in that cycle and its levels follow at
// the next edge.
void EqualizerPolicy::apply_epoch(PolicyContext& ctx, uint64_t cycle) {
  VoteArbiterIn in;
  in.votes_valid = true;
  in.mode = s_.mode;
  in.rule = s_.rule;
  in.sm_transition_cycles = s_.sm_transition_cycles;
  in.mem_transition_cycles = s_.mem_transition_cycles;
  Json blocks = Json::array(), branches = Json::array();
  for (uint32_t i = 0; i < blocks_.size(); ++i) {
    const EqSmOut& o = blocks_[i]->out();
    in.votes[i] = uint8_t(o.vote);
    if (s_.cta_control && o.blk_req != 0) ctx.set_cta_limit(i, o.num_blocks);
    blocks.push_back(o.num_blocks);
    branches.push_back(branch_name(o.branch));
  }
  const uint64_t vote_cycle = cycle + 2;
  if (vote_cycle > arbiter_cycle_) arbiter_->advance(uint32_t(vote_cycle - arbiter_cycle_));
  const VoteArbiterOut& a = arbiter_->step(in);
  arbiter_cycle_ = vote_cycle + 1;
  if (s_.dvfs) {
    if (a.sm_changed) ctx.request_level(Domain::Sm, level_index(ctx, Domain::Sm, a.sm_level));
    if (a.mem_changed) ctx.request_level(Domain::Mem, level_index(ctx, Domain::Mem, a.mem_level));
  }
  trace_.push_back({{"cycle", cycle},
                    {"num_blocks", blocks},
                    {"branches", branches},
                    {"votes", {{"comp", a.counts.comp}, {"mem", a.counts.mem}, {"none", a.counts.none}}},
                    {"action", action_name(a.action)},
                    {"sm_level", int(a.sm_level)},
                    {"mem_level", int(a.mem_level)}});
}

Json EqualizerPolicy::describe() const {
  return {{"name", name_},
          {"enable", s_.enable},
          {"dvfs", s_.dvfs},
          {"cta_control", s_.cta_control},
          {"threshold_mode", kThresholdNames[size_t(s_.threshold)]},
          {"xalu_def", kXaluNames[size_t(s_.xalu)]},
          {"xmem_def", kXmemNames[size_t(s_.xmem)]},
          {"vote_rule", kVoteRuleNames[size_t(s_.rule)]},
          {"sample_period_log2", s_.params.sample_period_log2},
          {"epoch_samples_log2", s_.params.epoch_samples_log2}};
}

bool EqualizerPolicy::csr_read(uint32_t addr, uint32_t& d) const {
  if (addr == 0x000) {
    d = uint32_t(s_.enable) | uint32_t(s_.mode) << 1 | uint32_t(s_.threshold) << 2 | uint32_t(s_.xalu) << 3 |
        uint32_t(s_.xmem) << 4 | uint32_t(s_.rule) << 5;
  } else if (addr == 0x004) {
    d = s_.params.sample_period_log2 | uint32_t(s_.params.epoch_samples_log2) << 4 | uint32_t(s_.params.warps) << 8;
  } else if (addr == 0x008) {
    d = s_.sm_transition_cycles | uint32_t(s_.mem_transition_cycles) << 16;
  } else if (addr == 0x00C) {
    static const VoteArbiterOut kReset;
    const VoteArbiterOut& a = arbiter_ ? arbiter_->out() : kReset;
    d = uint32_t(a.sm_level) | uint32_t(a.mem_level) << 2 | uint32_t(a.winner) << 4 | uint32_t(a.action) << 8 |
        uint32_t(a.busy) << 12;
  } else if (addr >= 0x100 && (addr - 0x100) / 0x10 < blocks_.size() && (addr & 0xf) <= 0x8) {
    const EqSmOut& o = blocks_[(addr - 0x100) / 0x10]->out();
    switch (addr & 0xf) {
      case 0x0: d = o.sums.active | uint32_t(o.sums.waiting) << 16; break;
      case 0x4: d = o.sums.xalu | uint32_t(o.sums.xmem) << 16; break;
      default:
        d = uint32_t(o.branch) | uint32_t(o.vote) << 4 | (uint32_t(o.blk_req) & 3) << 8 | uint32_t(o.num_blocks) << 16;
    }
  } else {
    return false;
  }
  return true;
}

bool EqualizerPolicy::csr_write(uint32_t addr, uint32_t d) {
  if (addr == 0x000) {
    s_.enable = field(d, 0, 1);
    s_.mode = VfMode(field(d, 1, 1));
    s_.threshold = ThresholdMode(field(d, 2, 1));
    s_.xalu = XaluDef(field(d, 3, 1));
    s_.xmem = XmemDef(field(d, 4, 1));
    s_.rule = VoteRule(field(d, 5, 1));
  } else if (addr == 0x008) {
    s_.sm_transition_cycles = uint16_t(field(d, 0, 12));
    s_.mem_transition_cycles = uint16_t(field(d, 16, 12));
  } else {
    return false;  // read-only or unmapped
  }
  return true;
}

}  // namespace gpupm
