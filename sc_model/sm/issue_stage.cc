#include "gpupm/sm/issue_stage.h"

namespace gpupm {

IssueStage::IssueStage(const SmConfig& cfg)
    : oldest_first_(cfg.oldest_first),
      wake_(cfg.max_warps, kNever),
      head_mem_(cfg.max_warps, 0),
      head_class_(cfg.max_warps, 0),
      order_(cfg.schedulers),
      greedy_(cfg.schedulers, -1),
      memo_(cfg.schedulers),
      results_(cfg.alu_one_result_per_cycle ? std::make_unique<ResultSlots>(cfg.schedulers) : nullptr) {
  for (auto& o : order_) o.reserve(cfg.max_warps);
  for (uint32_t s = 0; s < cfg.max_warps; ++s) sched_of_[s] = uint8_t(s % cfg.schedulers);
}

void IssueStage::retire(uint16_t slot) {
  wake_[slot] = kNever;
  note_changed(slot);
  const uint32_t s = sched_of_[slot];
  order_[s].erase(std::find(order_[s].begin(), order_[s].end(), slot));
  if (greedy_[s] == int(slot)) greedy_[s] = -1;
}

}  // namespace gpupm
