// Which implementation runs a controller block (sc_model/controllers/: the
// Equalizer's per-SM blocks, the vote arbiter, the droop predictors and the
// stagger unit), chosen by the GPU config's "controller_impl":
//   cpp       the C++ golden models (EqSmBlock, VoteArbiter, ...), stepped lazily
//   rtl       the Verilated RTL (rtl/*.sv, plain C++ mode) behind the same
//             interface, clocked every cycle
//   lockstep  both on identical inputs every cycle, every output compared after
//             every edge; the first mismatch stops the run (LockstepMismatch,
//             reported as an SC_ERROR of type kLockstepReportId; the gpupm
//             program exits 1: a model failure, not bad input)
// See controllers/controller.h and rtl/README.md.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace gpupm {

enum class ControllerImpl : uint8_t { kCpp = 0, kRtl = 1, kLockstep = 2 };

inline const char* controller_impl_name(ControllerImpl i) {
  switch (i) {
    case ControllerImpl::kCpp: return "cpp";
    case ControllerImpl::kRtl: return "rtl";
    case ControllerImpl::kLockstep: return "lockstep";
  }
  return "?";
}

inline std::vector<std::string> controller_impl_names() { return {"cpp", "rtl", "lockstep"}; }

inline ControllerImpl controller_impl_from_name(const std::string& n) {
  if (n == "rtl") return ControllerImpl::kRtl;
  if (n == "lockstep") return ControllerImpl::kLockstep;
  return ControllerImpl::kCpp;
}

// What a policy needs to build its controller blocks (from the GPU config).
struct ControllerSetup {
  ControllerImpl impl = ControllerImpl::kCpp;
  uint32_t sm_count = 0, max_warps = 0;
  std::string origin;                  // the GPU config file, for error messages
  std::vector<std::string> app_names;  // the workload's applications, in order (policies keyed by app)
};

// True when this build links the Verilated models (Verilator was found).
constexpr bool kRtlBuilt =
#ifdef GPUPM_HAVE_RTL
    true;
#else
    false;
#endif

// The sc_report message type of a lockstep mismatch: the platform's report
// handler decides what it does (SystemC's default: the report is thrown out of
// sc_start); the gpupm program prints its message and exits 1.
inline constexpr const char* kLockstepReportId = "gpupm/lockstep";

// The first output that differs between the C++ model and the RTL in lockstep.
// `cycle` counts the block's clock edges since reset: the outputs compared are
// those after the edge ending cycle `cycle` (the contract's "cycle t").
struct LockstepMismatch : std::runtime_error {
  LockstepMismatch(const std::string& block, int sm, uint64_t cycle, const std::string& signal, uint64_t expected,
                   uint64_t actual, const std::string& detail)
      : std::runtime_error(format(block, sm, cycle, signal, expected, actual, detail)),
        block(block),
        sm(sm),
        cycle(cycle),
        signal(signal),
        expected(expected),
        actual(actual) {}
  std::string block;
  int sm;  // -1: one per GPU (the vote arbiter)
  uint64_t cycle;
  std::string signal;
  uint64_t expected, actual;

 private:
  static std::string format(const std::string& block, int sm, uint64_t cycle, const std::string& signal,
                            uint64_t expected, uint64_t actual, const std::string& detail) {
    std::string s = "lockstep mismatch: " + block + (sm >= 0 ? " SM " + std::to_string(sm) : std::string()) +
                    ", cycle " + std::to_string(cycle) + ", signal " + signal + ": expected (C++) " +
                    std::to_string(expected) + ", actual (RTL) " + std::to_string(actual);
    if (!detail.empty()) s += "; " + detail;
    return s;
  }
};

}  // namespace gpupm
