#include "gpupm/controllers/vote_arbiter.h"

#include <stdexcept>

namespace gpupm {

namespace {

constexpr uint8_t kLow = uint8_t(VfLevelCode::kLow);
constexpr uint8_t kNormal = uint8_t(VfLevelCode::kNormal);
constexpr uint8_t kHigh = uint8_t(VfLevelCode::kHigh);

}  // namespace

bool operator==(const VoteArbiterOut& a, const VoteArbiterOut& b) {
  return a.sm_level == b.sm_level && a.mem_level == b.mem_level && a.sm_changed == b.sm_changed &&
         a.mem_changed == b.mem_changed && a.sm_busy == b.sm_busy && a.mem_busy == b.mem_busy && a.busy == b.busy &&
         a.decided == b.decided && a.winner == b.winner && a.action == b.action && a.counts.comp == b.counts.comp &&
         a.counts.mem == b.counts.mem && a.counts.none == b.counts.none;
}

VoteCounts count_votes(const std::array<uint8_t, kMaxVoters>& votes, uint8_t n_sms) {
  VoteCounts c;
  for (uint8_t i = 0; i < n_sms && i < kMaxVoters; ++i) {
    const auto v = VfVote(votes[i] & 3);
    if (v == VfVote::kComp) ++c.comp;
    else if (v == VfVote::kMem) ++c.mem;
    else ++c.none;  // NONE and the reserved code
  }
  return c;
}

VfVote resolve_votes(const VoteCounts& c, uint8_t n_sms, VoteRule rule) {
  if (rule == VoteRule::kStrictMajority) {
    if (2u * c.comp > n_sms) return VfVote::kComp;
    if (2u * c.mem > n_sms) return VfVote::kMem;
    return VfVote::kNone;
  }
  if (c.comp > c.mem && c.comp > c.none) return VfVote::kComp;
  if (c.mem > c.comp && c.mem > c.none) return VfVote::kMem;
  return VfVote::kNone;  // NONE leads, or a tie at the top
}

VoteArbiter::VoteArbiter(const VoteArbiterParams& params) : p_(params) {
  if (p_.n_sms < 1 || p_.n_sms > kMaxVoters) throw std::invalid_argument("VoteArbiter: n_sms must be 1..64");
  reset();
}

void VoteArbiter::reset() {
  level_q_ = {kNormal, kNormal};
  busy_q_ = {0, 0};
  out_ = VoteArbiterOut{};
}

const VoteArbiterOut& VoteArbiter::step(const VoteArbiterIn& in) {
  const bool busy = out_.busy;  // as seen during this cycle
  out_.sm_changed = out_.mem_changed = out_.decided = false;
  for (auto& b : busy_q_)
    if (b) --b;
  if (in.votes_valid) {
    out_.counts = count_votes(in.votes, p_.n_sms);
    out_.winner = resolve_votes(out_.counts, p_.n_sms, in.rule);
    out_.decided = true;
    if (busy) out_.action = ArbiterAction::kIgnoredBusy;
    else evaluate(in);
  }
  refresh_outputs();
  return out_;
}

void VoteArbiter::advance(uint32_t n) {
  if (n == 0) return;
  out_.sm_changed = out_.mem_changed = out_.decided = false;
  for (auto& b : busy_q_) b = n >= b ? 0 : uint16_t(b - n);
  refresh_outputs();
}

// The winner names a target domain and direction through the mode (Table I, I1 fixed).
void VoteArbiter::evaluate(const VoteArbiterIn& in) {
  if (out_.winner == VfVote::kNone) {
    out_.action = ArbiterAction::kNone;
    return;
  }
  const bool comp = out_.winner == VfVote::kComp;
  const bool perf = in.mode == VfMode::kPerformance;
  const DomainIndex target = comp == perf ? kSm : kMem;
  const DomainIndex other = target == kSm ? kMem : kSm;
  const uint16_t latency[2] = {uint16_t(in.sm_transition_cycles & kTransitionMask),
                               uint16_t(in.mem_transition_cycles & kTransitionMask)};
  if (level_q_[other] != kNormal) {  // five-state rule: at most one domain off NORMAL
    move(other, level_q_[other] > kNormal ? -1 : +1, latency[other]);
    out_.action = ArbiterAction::kRestoreOther;
    return;
  }
  const int8_t direction = perf ? +1 : -1;
  const int next = level_q_[target] + direction;
  if (next < kLow || next > kHigh) {
    out_.action = ArbiterAction::kAtLimit;
    return;
  }
  move(target, direction, latency[target]);
  out_.action = ArbiterAction::kStepTarget;
}

void VoteArbiter::move(DomainIndex d, int8_t direction, uint16_t transition_cycles) {
  level_q_[d] = uint8_t(level_q_[d] + direction);
  busy_q_[d] = transition_cycles;
  (d == kSm ? out_.sm_changed : out_.mem_changed) = true;
}

void VoteArbiter::refresh_outputs() {
  out_.sm_level = VfLevelCode(level_q_[kSm]);
  out_.mem_level = VfLevelCode(level_q_[kMem]);
  out_.sm_busy = busy_q_[kSm] != 0;
  out_.mem_busy = busy_q_[kMem] != 0;
  out_.busy = out_.sm_busy || out_.mem_busy;
}

const char* action_name(ArbiterAction a) {
  switch (a) {
    case ArbiterAction::kNone: return "none";
    case ArbiterAction::kStepTarget: return "step_target";
    case ArbiterAction::kRestoreOther: return "restore_other";
    case ArbiterAction::kAtLimit: return "at_limit";
    case ArbiterAction::kIgnoredBusy: return "ignored_busy";
  }
  return "?";
}

}  // namespace gpupm
