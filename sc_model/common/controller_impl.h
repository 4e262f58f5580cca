// Which implementation runs a controller block (the Equalizer's per-SM blocks
// and the frequency manager's vote arbiter), chosen by the GPU config's
// "controller_impl":
//   cpp       the C++ golden models (EqSmBlock, VoteArbiter), stepped lazily
//   rtl       the Verilated RTL (rtl/*.sv, plain C++ mode) behind the same
//             interface, clocked every cycle
//   lockstep  both on identical inputs every cycle, every output compared after
//             every edge; the first mismatch stops the run (LockstepMismatch,
//             exit 1: a model failure, not bad input)
// See eq_sm_impl.h / vote_arbiter_impl.h and rtl/README.md.
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
  std::string origin;  // the GPU config file, for error messages
  std::vector<std::string> app_names;  // the workload's applications, in order (policies keyed by app)
};

// True when this build links the Verilated models (Verilator was found).
constexpr bool kRtlBuilt =
#ifdef GPUPM_HAVE_RTL
    true;
#else
    false;
#endif

// Why a controller block has no RTL: this build has no Verilator, or no
// Verilated configuration matches (`what`: the block and its parameters,
// `built`: the configurations there are). For the *_rtl_available() functions.
inline std::string rtl_unavailable_why(const std::string& what, const std::string& built) {
  if (!kRtlBuilt) return "this gpupm was built without Verilator: only controller_impl \"cpp\" is available";
  return "no Verilated " + what + "; built: " + built + " (GPUPM_RTL_CONFIGS in rtl/rtl.cmake)";
}

// The first output that differs between the C++ model and the RTL in lockstep.
// `cycle` counts the block's clock edges since reset: the outputs compared are
// those after the edge ending cycle `cycle` (the contract's "cycle t").
struct LockstepMismatch : std::runtime_error {
  LockstepMismatch(const std::string& block, int sm, uint64_t cycle, const std::string& signal, uint64_t expected,
                   uint64_t actual, const std::string& detail)
      : std::runtime_error(format(block, sm, cycle, signal, expected, actual, detail)),
        block(block), sm(sm), cycle(cycle), signal(signal), expected(expected), actual(actual) {}
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
