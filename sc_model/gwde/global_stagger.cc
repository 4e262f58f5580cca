#include "gpupm/gwde/global_stagger.h"

namespace gpupm {

GlobalStagger::GlobalStagger(std::unique_ptr<StaggerController> ctrl, const StaggerIn& csr,
                             std::vector<const SmStatus*> sms, HoldFn hold)
    : ctrl_(std::move(ctrl)), in_(csr), sms_(std::move(sms)), hold_(std::move(hold)) {}

// The unit loads the holds one edge after the detecting one (StaggerUnit's
// pipeline): with a report period of 2 or more that edge is stepped at once;
// with 1 it is the next report's.
void GlobalStagger::report(uint64_t cycle) {
  if (cycle > stepped_) ctrl_->advance(uint32_t(cycle - stepped_));
  in_.sm_active = 0;
  for (size_t i = 0; i < sms_.size(); ++i)
    if (sms_[i]->unstalled_warps() > 0) in_.sm_active |= uint64_t(1) << i;
  StaggerOut before = ctrl_->out();
  const bool detected = ctrl_->step(in_).trigger;
  stepped_ = cycle + 1;
  if (load_next_) send_holds(before, cycle);
  load_next_ = false;
  if (!detected) return;
  ++triggers_;
  if (ctrl_->cycles_to_strobe() == 0) {
    load_next_ = true;
    return;
  }
  before = ctrl_->out();
  ctrl_->advance(1);
  stepped_ = cycle + 2;
  send_holds(before, cycle + 1);
}

// After the load edge ending cycle `edge`: a counter reading h holds its SM in
// cycles edge+1 .. edge+h. `before` tells the reloaded counters from those still
// counting down from an earlier trigger (re-sent unchanged).
void GlobalStagger::send_holds(const StaggerOut& before, uint64_t edge) {
  const StaggerOut& out = ctrl_->out();
  for (size_t i = 0; i < sms_.size(); ++i) {
    const uint16_t h = out.hold_count[i];
    if (!((out.hold >> i) & 1u) || h == 0) continue;
    if (h + 1u != before.hold_count[i]) held_ += h;
    hold_(uint32_t(i), edge + 1 + h);
  }
}

}  // namespace gpupm
