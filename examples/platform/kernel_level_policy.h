// The platform's own policy, "example-kernel-level" (kernel_level_policy.cc):
// at every kernel start it requests the SM V/F level its LEVEL register holds.
// Its registers, as the host sees them at POLICY_CSR + offset (docs/embedding.md#host-interface).
#pragma once

#include <cstdint>

namespace kernel_level_csr {
constexpr uint32_t kLevel = 0x0;      // rw: the SM V/F level (index) applied at each kernel start
constexpr uint32_t kDecisions = 0x4;  // ro: level requests made so far
}  // namespace kernel_level_csr
