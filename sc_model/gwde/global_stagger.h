// The GWDE's side of global staggering: every report period it collects each
// SM's active-warp report (SmStatus::unstalled_warps, reduced to "at least one"),
// clocks the stagger unit (StaggerUnit, or its RTL: controller_impl), and when
// the unit predicts a global droop sends each held SM an IssueHoldMsg over the
// TB-scheduler -> SM path (cta_out) that delays its dispatch and CTA starts.
#pragma once

#include "gpupm/controllers/stagger_unit_controller.h"
#include "gpupm/protocol/sm_status.h"

#include <functional>
#include <memory>
#include <vector>

namespace gpupm {

class GlobalStagger {
 public:
  using HoldFn = std::function<void(uint32_t sm, uint64_t until_cycle)>;
  GlobalStagger(std::unique_ptr<StaggerController> ctrl, const StaggerIn& csr, std::vector<const SmStatus*> sms,
                HoldFn hold);
  // The report strobe in SM cycle `cycle` ((cycle + 1) a multiple of the report period).
  void report(uint64_t cycle);
  uint64_t triggers() const { return triggers_; }
  uint64_t held_sm_cycles() const { return held_; }  // sum of the holds given

 private:
  void send_holds(const StaggerOut& before, uint64_t edge);

  std::unique_ptr<StaggerController> ctrl_;
  StaggerIn in_;
  std::vector<const SmStatus*> sms_;
  HoldFn hold_;
  uint64_t stepped_ = 0;  // the unit has seen every edge before this cycle
  uint64_t triggers_ = 0, held_ = 0;
  bool load_next_ = false;  // a detection whose holds load at the next edge
};

}  // namespace gpupm
