// Gpu::unfinished_state: what a run that did not finish was doing when it
// stopped, so the message names the kernel, the CTA, its warps and their PCs
// (a barrier some warps never reach, a loop that never ends).
#include "gpupm/platform/gpu.h"

#include <algorithm>
#include <map>

namespace gpupm {

namespace {

using Place = StreamingMultiprocessor::ProgramWarpPlace;

// "warps 0-3" / "warp 5" / "warps 1, 4, 6" for sorted warp indices.
std::string warp_list(const std::vector<uint32_t>& w) {
  const bool run = w.back() - w.front() + 1 == w.size();
  std::string text = w.size() == 1 ? "warp " : "warps ";
  if (w.size() > 1 && run) return text + std::to_string(w.front()) + "-" + std::to_string(w.back());
  for (size_t i = 0; i < w.size(); ++i) text += (i ? ", " : "") + std::to_string(w[i]);
  return text;
}

// The CTA's warps grouped by where they stand.
std::string cta_state(const std::vector<Place>& warps) {
  const ptx::Kernel& k = *warps.front().launch->program->kernel;
  std::map<std::pair<bool, uint32_t>, std::vector<uint32_t>> groups;  // (at barrier, PC) -> warps
  for (const Place& p : warps) {
    // A warp at a barrier has executed its bar.sync: the PC before its next one.
    const uint32_t pc = p.at_barrier && p.pc > 0 && k.info[p.pc - 1].cls == ptx::TimingClass::Barrier ? p.pc - 1 : p.pc;
    groups[{!p.at_barrier, pc}].push_back(p.warp);
  }
  const Place& first = warps.front();
  std::string text = "CTA " + std::to_string(first.cta) + " (" + std::to_string(first.cta_id.x) + "," +
                     std::to_string(first.cta_id.y) + "," + std::to_string(first.cta_id.z) + "): ";
  bool later = false;
  for (const auto& [key, list] : groups) {
    const auto [running, pc] = key;
    text += (later ? "; " : "") + warp_list(list) + (running ? " at " : " wait at the barrier ") + "PC " +
            std::to_string(pc) + " (" + k.where(pc) + ", " + k.text_of(pc) + ")";
    later = true;
  }
  return text;
}

// The first program CTA with a warp waiting at a barrier, else (unless
// `barrier_only`) the first one resident; its warps, empty if none.
std::vector<Place> stuck_cta(const std::vector<std::unique_ptr<StreamingMultiprocessor>>& sms, bool barrier_only) {
  std::vector<Place> first;
  for (const auto& sm : sms) {
    std::map<std::pair<const KernelLaunch*, uint32_t>, std::vector<Place>> by_cta;
    for (const Place& p : sm->program_warp_places()) by_cta[{p.launch, p.cta}].push_back(p);
    for (const auto& [cta, warps] : by_cta) {
      if (std::any_of(warps.begin(), warps.end(), [](const Place& p) { return p.at_barrier; })) return warps;
      if (first.empty() && !barrier_only) first = warps;
    }
  }
  return first;
}

std::string describe(const std::vector<Place>& cta) {
  return cta.empty() ? "" : "kernel " + cta.front().launch->name + " " + cta_state(cta);
}

}  // namespace

std::string Gpu::unfinished_state() const {
  if (open_kernels_.empty()) return "";
  std::string text;
  for (const KernelRecord& r : open_kernels_)
    text += (text.empty() ? "still running: kernel " : ", kernel ") + r.launch->name + " (launch " +
            std::to_string(r.launch->launch) + ")";
  const std::string cta = describe(stuck_cta(sms_, false));
  return cta.empty() ? text : text + "; " + cta;
}

std::string Gpu::barrier_state() const { return describe(stuck_cta(sms_, true)); }

}  // namespace gpupm
