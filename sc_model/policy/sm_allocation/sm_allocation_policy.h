// SM allocation for two co-running applications (docs/papers.md#sm-allocation;
// Tasoulas & Anagnostopoulos 2019) and its comparison points, as policies on
// a workload with two applications ("apps"):
//   sm-allocation  the paper's method: Algorithm 1 over the offline profiles
//                  (policy.profiles), contiguous allocation for the pair's
//                  lifetime, leftover SMs gated
//   aging-power    Aging & Power aware-like: min-time SM count within an IPC-loss
//                  margin (policy.margin, 0.08), capped at half; the rest gated
//   perf-aging     Performance & Aging aware-like: the fewest SMs within
//                  policy.margin (0.10) of the best IPC, on a conflict both cut
//                  down to policy.max_cut (0.20) of it; leftover SMs stay idle
//   ilp-smra       ILP-SMRA-like: starts from the even split, monitors each
//                  application's IPC every policy.window_cycles and moves
//                  policy.step SMs at a time (smra_decide), an SM handed over
//                  only once it has drained the donor's CTAs; an SM counts as
//                  idle when it executed nothing in two windows running (a
//                  freshly received SM may wait a while for its first CTA)
// The even split itself is the `baseline` policy (the GWDE's default masks).
// Leftover SMs (policy.gating): "power" power-gates them (no leakage; the
// paper credits its "clock-gating" with cutting static power, which in our
// power model only power gating does), "clock" leaves them empty: an SM
// without resident warps already spends only sm_idle_cycle_nj per cycle, our
// model of a clock-gated SM, and leaks.
#pragma once

#include "gpupm/policy/shared/actuate/sm_count_actuator.h"
#include "gpupm/policy/shared/observe/kernel_counters.h"
#include "gpupm/policy/policy.h"
#include "gpupm/policy/policy_params.h"
#include "gpupm/policy/sm_allocation/partition.h"

#include <memory>
#include <string>
#include <vector>

namespace gpupm {

enum class LeftoverGating : uint8_t { kPower, kClock };

// Sets the two applications' masks to a contiguous split (app 0: [0, k1), app 1:
// [k1, k1 + k2)) and treats SMs [k1 + k2, K) per `gating`.
void apply_split(PolicyContext& ctx, const Split& s, LeftoverGating gating, SmCountActuator& actuator);

// A split chosen before the run from the profiles and held for the pair's lifetime.
class StaticSplitPolicy : public Policy {
 public:
  StaticSplitPolicy(std::string name, Split split, LeftoverGating gating, Json inputs)
      : name_(std::move(name)), split_(split), gating_(gating), inputs_(std::move(inputs)) {}
  std::string name() const override { return name_; }
  void on_start(PolicyContext& ctx) override;
  Json describe() const override;
  Json trace() const override { return trace_; }
  bool handles_concurrent_apps() const override { return true; }
  const Split& split() const { return split_; }

 private:
  std::string name_;
  Split split_;
  LeftoverGating gating_;
  Json inputs_;  // what the split was computed from (for the report)
  Json trace_ = Json::array();
  SmCountActuator actuator_;
};

struct SmraSettings {
  uint64_t window_cycles = 8192;  // [unspecified in the seed] SM cycles per monitoring window
  uint64_t check_cycles = 256;    // SM cycles between checks of draining SMs
  double imbalance = 0.25;        // [unspecified] IPC-per-SM gap that triggers a move
  uint32_t step = 0;              // SMs moved at a time; 0: K / 12 (5 on 60 SMs)
};
void describe(ParamVisitor& v, SmraSettings& s, const PolicyTarget& t);

// The static splits' settings: sm-allocation (profiles, gating), aging-power
// (profiles, gating, margin) and perf-aging (profiles, margin, max_cut).
struct SplitSettings {
  std::string profiles;  // the profiles file (gpupm experiment sm-allocation writes it)
  LeftoverGating gating = LeftoverGating::kPower;
  double margin = -1;  // < 0: the policy's default (aging-power 0.08, perf-aging 0.10)
  double max_cut = 0.20;
};
void describe(ParamVisitor& v, SplitSettings& s, const PolicyTarget& t);

class IlpSmraPolicy : public Policy {
 public:
  explicit IlpSmraPolicy(const SmraSettings& s) : s_(s) {}
  std::string name() const override { return "ilp-smra"; }
  uint64_t epoch_cycles() const override { return s_.check_cycles; }
  void on_start(PolicyContext& ctx) override;
  void on_epoch(PolicyContext& ctx, uint64_t sm_cycle) override;
  Json describe() const override;
  Json trace() const override { return trace_; }
  bool handles_concurrent_apps() const override { return true; }

 private:
  std::vector<bool> range(uint32_t lo, uint32_t hi) const;
  SmraSettings s_;
  uint32_t sms_ = 0, step_ = 0, k1_ = 0;  // app 0 holds [0, k1), app 1 [k1, K) (minus SMs in transit)
  SmraMove pending_;                      // SMs draining on their way to the other app
  uint32_t transit_lo_ = 0, transit_hi_ = 0;
  uint64_t window_start_ = 0;
  uint32_t idle_before_[2] = {0, 0};  // idle SMs of the previous window (since the last hand-over)
  CounterSnapshot snap_;
  Json trace_ = Json::array();
};

// The policies above by name (nullptr for another name); bad parameters throw
// InputError naming the policy parameter or the profiles file.
std::unique_ptr<Policy> make_sm_allocation_policy(JsonReader& p, const PolicyTarget& t);
std::vector<std::string> sm_allocation_policy_names();

}  // namespace gpupm
