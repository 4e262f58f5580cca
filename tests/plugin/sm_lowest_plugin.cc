// A policy plugin as code outside the project writes one
// (docs/embedding.md#policy-plugins): "plugin-sm-lowest" holds the SM domain
// at its lowest V/F level from the start and counts the kernels it saw;
// policy.note (--set policy.note=...) is echoed in the report's policy.
#include "gpupm/policy/policy_registry.h"

namespace {

class SmLowestPolicy : public gpupm::Policy {
 public:
  explicit SmLowestPolicy(std::string note) : note_(std::move(note)) {}
  std::string name() const override { return "plugin-sm-lowest"; }
  void on_start(gpupm::PolicyContext& ctx) override { ctx.request_level(gpupm::Domain::Sm, 0, true); }
  void on_kernel_start(gpupm::PolicyContext&, const gpupm::KernelLaunch&) override { ++kernels_; }
  gpupm::Json describe() const override { return {{"name", name()}, {"note", note_}}; }
  gpupm::Json trace() const override { return {{"kernels_started", kernels_}}; }

 private:
  std::string note_;
  uint64_t kernels_ = 0;
};

}  // namespace

GPUPM_REGISTER_POLICY("plugin-sm-lowest", "test plugin: the SM domain at its lowest V/F level",
                      [](const gpupm::PolicyArgs& a) {
                        return std::make_unique<SmLowestPolicy>(a.params.get_string("note", ""));
                      })
