#include "gpupm/sm/warp_state.h"

#include <utility>

namespace gpupm {

void WarpSlot::reset_for_cta() {
  ptx::Warp exec = std::move(program.exec);
  std::vector<uint64_t> regs = std::move(program.reg_ready);
  std::vector<ProgramWarp::PendingLoad> loads = std::move(program.loads);
  *this = WarpSlot();
  program.exec = std::move(exec);
  program.reg_ready = std::move(regs);
  program.loads = std::move(loads);
  program.loads.clear();
}

void ProgramWarp::start(ptx::CtaState& cta, uint32_t warp, uint32_t smid, uint32_t line_bytes, uint32_t warp_size) {
  const ptx::LaunchState& l = *cta.launch;
  lanes = warp_lanes(l.block.count(), warp, warp_size);
  exec.start(cta, warp, smid, line_bytes);
  reg_ready.assign(l.kernel->num_regs, 0);
}

}  // namespace gpupm
