// "example-kernel-level" (kernel_level_policy.h): the platform's own policy,
// registered from this translation unit of the program. The host chooses the
// level through the policy's registers; policy.level (default: nominal) is
// the level before the host writes one.
#include "kernel_level_policy.h"

#include <gpupm/policy/policy_registry.h>

namespace {

class KernelLevelPolicy : public gpupm::Policy {
 public:
  KernelLevelPolicy(uint32_t level, uint32_t levels) : level_(level), levels_(levels) {}
  std::string name() const override { return "example-kernel-level"; }
  void on_kernel_start(gpupm::PolicyContext& ctx, const gpupm::KernelLaunch&) override {
    ctx.request_level(gpupm::Domain::Sm, level_);
    ++decisions_;
  }
  gpupm::Json describe() const override { return {{"name", name()}, {"level", level_}}; }
  gpupm::Json trace() const override { return {{"decisions", decisions_}}; }

  bool csr_read(uint32_t addr, uint32_t& data) const override {
    if (addr == kernel_level_csr::kLevel) data = level_;
    else if (addr == kernel_level_csr::kDecisions) data = decisions_;
    else return false;
    return true;
  }
  bool csr_write(uint32_t addr, uint32_t data) override {  // a level the domain does not have is refused
    if (addr != kernel_level_csr::kLevel || data >= levels_) return false;
    level_ = data;
    return true;
  }

 private:
  uint32_t level_;
  const uint32_t levels_;
  uint32_t decisions_ = 0;
};

}  // namespace

GPUPM_REGISTER_POLICY("example-kernel-level",
                      "example platform: the SM domain at the level the host wrote to LEVEL, at every kernel start",
                      [](const gpupm::PolicyArgs& a) {
                        const gpupm::DomainDvfs& sm = a.dvfs[gpupm::Domain::Sm];
                        const auto level = uint32_t(a.params.get_uint("level", 0, sm.levels.size() - 1, sm.nominal));
                        return std::make_unique<KernelLevelPolicy>(level, uint32_t(sm.levels.size()));
                      })
