#include "gpupm/sm/warp_state.h"

#include <utility>

namespace gpupm {

void WarpSlot::reset_for_cta() {
  ptx::Warp exec = std::move(program.exec);
  RegisterScoreboard regs = std::move(program.regs);
  *this = WarpSlot();
  program.exec = std::move(exec);
  program.regs = std::move(regs);
  program.regs.reset();
}

void ProgramWarp::start(ptx::CtaState& cta, uint32_t warp, uint32_t smid, uint32_t line_bytes, uint32_t warp_size,
                        ptx::CoalescingRules rules) {
  const ptx::LaunchState& l = *cta.launch;
  lanes = warp_lanes(l.block.count(), warp, warp_size);
  exec.start(cta, warp, smid, line_bytes, rules);
  regs.start(l.kernel->num_regs);
}

}  // namespace gpupm
