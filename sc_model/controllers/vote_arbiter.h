// The frequency manager's vote logic (docs/papers.md#equalizer-frequency-manager)
// as a clocked reference model for the Verilog port: plain C++, one step() per
// rising SM-clock edge, RTL widths, registered (Moore) outputs.
//
// Timing. Cycle t is the clock period before the t-th step() since reset.
//  - votes_valid and votes are sampled in the cycle they are presented (with the
//    Equalizer blocks: the cycle in which their epoch_done is high).
//  - step() returns the registers after the edge, i.e. their value in cycle t+1:
//    new levels, the changed pulses (that one cycle), decided (that one cycle),
//    and winner/counts/action (held until the next votes_valid).
//  - A level change at the edge ending cycle t makes that domain busy in cycles
//    t+1 .. t+T exactly (T = its transition_cycles; 0 = never busy). A
//    votes_valid presented while `busy` (either domain) reads high is ignored
//    (action kIgnoredBusy): the VRM is mid-transition (Equalizer Sec. IV-C).
//
// Decisions (docs/papers.md#equalizer-frequency-manager, our reading of I14, I15):
//  - NONE counts as a vote. Plurality: COMP or MEM wins only with strictly more
//    votes than each of the other two; any tie at the top resolves to NONE.
//    Strict majority: COMP or MEM wins with more than n_sms/2 of all votes.
//    Reserved code 3 counts as NONE. All n_sms SMs vote (an idle SM votes COMP
//    per Alg. 1; a gated SM's vote must be driven NONE by the platform).
//  - Mode mapping, Table I with I1 fixed: PERFORMANCE: COMP -> SM up, MEM -> mem
//    up; ENERGY: COMP -> mem down, MEM -> SM down (memory maintained).
//  - One step per accepted vote. Five-state rule: if the domain the winner does
//    not target is off NORMAL, this epoch steps it back to NORMAL and the target
//    step waits for a later epoch. Levels saturate at LOW/HIGH (kAtLimit).
//  - The memory domain has its own busy counter and latency, default 0 cycles
//    (the paper gives only the SM's 512).
#pragma once

#include <array>
#include <cstdint>

namespace gpupm {

// Per-SM V/F preference, 2-bit code on the wire. 3 is reserved (reads as NONE). RTL codes: rtl/gpupm_pkg.sv.
enum class VfVote : uint8_t { kNone = 0, kComp = 1, kMem = 2 };
enum class VfMode : uint8_t { kPerformance = 0, kEnergy = 1 };
enum class VoteRule : uint8_t { kPlurality = 0, kStrictMajority = 1 };
// 2-bit level code of one domain. NORMAL is the reset value. RTL codes: rtl/gpupm_pkg.sv.
enum class VfLevelCode : uint8_t { kLow = 0, kNormal = 1, kHigh = 2 };
// What the last votes_valid did (3 bits, for coverage). RTL codes: rtl/gpupm_pkg.sv.
enum class ArbiterAction : uint8_t {
  kNone = 0,          // winner NONE: maintain (also the reset value)
  kStepTarget = 1,    // the winner's domain moved one step
  kRestoreOther = 2,  // the other domain stepped back to NORMAL first
  kAtLimit = 3,       // the target is already at LOW/HIGH
  kIgnoredBusy = 4,   // a transition was under way
};

constexpr uint8_t kMaxVoters = 64;
constexpr uint16_t kTransitionMask = 0xfff;  // transition_cycles inputs and busy counters: 12 bits

struct VoteArbiterParams {
  uint8_t n_sms = 15;  // voters, 1..64
};

struct VoteArbiterIn {
  bool votes_valid = false;                 // pulse at epoch end
  std::array<uint8_t, kMaxVoters> votes{};  // VfVote codes [1:0]; entries >= n_sms unused
  VfMode mode = VfMode::kPerformance;       // CSR
  VoteRule rule = VoteRule::kPlurality;     // CSR
  uint16_t sm_transition_cycles = 512;      // CSR [11:0], SM cycles
  uint16_t mem_transition_cycles = 0;       // CSR [11:0], SM cycles
};

struct VoteCounts {  // 7 bits each (0..64)
  uint8_t comp = 0, mem = 0, none = 0;
};

struct VoteArbiterOut {
  VfLevelCode sm_level = VfLevelCode::kNormal;
  VfLevelCode mem_level = VfLevelCode::kNormal;
  bool sm_changed = false, mem_changed = false;  // pulses
  bool sm_busy = false, mem_busy = false, busy = false;
  bool decided = false;                         // pulse: a votes_valid was evaluated
  VfVote winner = VfVote::kNone;                // held from the last votes_valid
  ArbiterAction action = ArbiterAction::kNone;  // held
  VoteCounts counts;                            // held
};
bool operator==(const VoteArbiterOut& a, const VoteArbiterOut& b);

// Combinational pieces, exposed so tests can reach every case directly.
VoteCounts count_votes(const std::array<uint8_t, kMaxVoters>& votes, uint8_t n_sms);
VfVote resolve_votes(const VoteCounts& counts, uint8_t n_sms, VoteRule rule);

class VoteArbiter {
 public:
  explicit VoteArbiter(const VoteArbiterParams& params = {});  // throws on n_sms outside 1..64

  void reset();
  const VoteArbiterOut& step(const VoteArbiterIn& in);
  // n edges without votes_valid (other inputs are irrelevant then): exactly n step()s.
  void advance(uint32_t n);
  const VoteArbiterOut& out() const { return out_; }
  uint16_t sm_busy_count() const { return busy_q_[kSm]; }
  uint16_t mem_busy_count() const { return busy_q_[kMem]; }

 private:
  enum DomainIndex { kSm = 0, kMem = 1 };
  void evaluate(const VoteArbiterIn& in);
  void move(DomainIndex d, int8_t direction, uint16_t transition_cycles);
  void refresh_outputs();

  VoteArbiterParams p_;
  std::array<uint8_t, 2> level_q_{};  // VfLevelCode per domain
  std::array<uint16_t, 2> busy_q_{};  // remaining busy cycles per domain
  VoteArbiterOut out_;
};

const char* action_name(ArbiterAction a);

}  // namespace gpupm
