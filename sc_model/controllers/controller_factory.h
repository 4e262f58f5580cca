// Builds a Controller<T> (controller.h) from the Verilated parameter sets of
// rtl/rtl.cmake: the parameter-set lookup, the refusal of a set that was not
// verilated, and the RTL side of any set. Included once per block, by its
// <block>_controller.cc; `Sets` is the block's entry of the generated rtl_configs.h
// (GPUPM_RTL_CONFIGS in rtl/rtl.cmake, written into the build tree), so a new
// parameter set is one line there.
#pragma once

#include "gpupm/controllers/controller.h"

#include "rtl_configs.h"  // generated: build/generated/rtl_configs.h

#ifdef GPUPM_HAVE_RTL
#include "gpupm/controllers/rtl_harness.h"
#endif

#include <array>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace gpupm {

// The block's parameter values in the order of T::kParamNames.
template <class T>
using ParamValues = std::array<uint32_t, std::size(T::kParamNames)>;

// T's parameters (T::kParamNames) in set `s` of Sets::kSets.
template <class T, class Sets>
ParamValues<T> rtl_param_set_values(std::size_t s) {
  ParamValues<T> v{};
  for (std::size_t i = 0; i < v.size(); ++i) {
    std::size_t c = 0;
    while (c < Sets::kParams && std::string(Sets::kParamNames[c]) != T::kParamNames[i]) ++c;
    if (c == Sets::kParams)
      throw std::logic_error(std::string("rtl/") + T::kBlock + ".sv has no parameter " + T::kParamNames[i]);
    v[i] = Sets::kSets[s].values[c];
  }
  return v;
}

// The index in Sets::kSets of the parameter set with these values, or -1.
template <class T, class Sets>
int find_rtl_param_set(const ParamValues<T>& values) {
  for (std::size_t s = 0; s < std::size(Sets::kSets); ++s)
    if (rtl_param_set_values<T, Sets>(s) == values) return int(s);
  return -1;
}

// "A, B" or "(A, B)" of names or values.
template <class List>
std::string rtl_param_tuple(const List& items) {
  std::string s;
  for (std::size_t i = 0; i < std::size(items); ++i) {
    if constexpr (std::is_integral_v<std::decay_t<decltype(items[0])>>) s += (i ? ", " : "") + std::to_string(items[i]);
    else s += (i ? ", " : "") + std::string(items[i]);
  }
  return std::size(items) > 1 ? "(" + s + ")" : s;
}

// Why no Verilated parameter set matches `values`: "no Verilated <block> for
// N=v, ...", the sets there are (as T::kBuiltAs puts them) and where they are
// listed; or that the build has no Verilator.
template <class T, class Sets>
std::string rtl_unavailable(const ParamValues<T>& values) {
  if (!kRtlBuilt) return "this gpupm was built without Verilator: only controller_impl \"cpp\" is available";
  std::string s = std::string("no Verilated ") + T::kBlock + " for ";
  for (std::size_t i = 0; i < values.size(); ++i)
    s += (i ? ", " : "") + std::string(T::kParamNames[i]) + "=" + std::to_string(values[i]);
  std::string as = T::kBuiltAs;
  if (const auto at = as.find("{names}"); at != std::string::npos) as.replace(at, 7, rtl_param_tuple(T::kParamNames));
  s += as;
  for (std::size_t set = 0; set < std::size(Sets::kSets); ++set)
    s += (set ? ", " : "") + rtl_param_tuple(rtl_param_set_values<T, Sets>(set));
  return s + " (GPUPM_RTL_CONFIGS in rtl/rtl.cmake)";
}

// True when the build has the RTL for `values`; else false and `why` says so.
template <class T, class Sets>
bool rtl_available(const ParamValues<T>& values, std::string* why) {
  if (kRtlBuilt && find_rtl_param_set<T, Sets>(values) >= 0) return true;
  if (why) *why = rtl_unavailable<T, Sets>(values);
  return false;
}

#ifdef GPUPM_HAVE_RTL

// One Verilated top: drive, (settle and read the combinational outputs,) the
// edge, read.
template <class T, class Top>
class RtlCoreOf final : public RtlCore<T> {
 public:
  RtlCoreOf(const std::string& name, const typename T::Params& p) : h_(name, std::getenv("GPUPM_RTL_VCD")), p_(p) {
    h_.reset();
  }
  typename T::Raw settle(const typename T::In& in) override {
    T::drive(h_.top(), in, p_);
    h_.settle();
    return T::read(h_.top(), p_);
  }
  typename T::Raw edge(const typename T::In& in) override {
    typename T::Raw comb{};
    if constexpr (T::kCombOutputs > 0) {
      comb = settle(in);
    } else {
      T::drive(h_.top(), in, p_);
    }
    h_.tick();
    typename T::Raw raw = T::read(h_.top(), p_);
    for (std::size_t i = 0; i < T::kCombOutputs; ++i) raw[i] = comb[i];  // as read in the cycle
    return raw;
  }
  std::string vcd_path() const override { return h_.vcd_path(); }
  void flush() override { h_.flush(); }

 private:
  rtl::Harness<Top> h_;
  typename T::Params p_;
};

#endif  // GPUPM_HAVE_RTL

// The block in implementation `impl`; `sm` names it in reports and VCD files
// (<block>_sm<i>; -1: one per GPU, <block>). Throws std::invalid_argument when
// the RTL is needed but not built for `p`.
template <class T, class Sets>
std::unique_ptr<Controller<T>> make_controller(ControllerImpl impl, const typename T::Params& p, int sm) {
  if (impl == ControllerImpl::kCpp) return std::make_unique<Controller<T>>(impl, p, sm, nullptr);
  std::string why;
  if (!rtl_available<T, Sets>(T::param_values(p), &why)) throw std::invalid_argument(why);
#ifdef GPUPM_HAVE_RTL
  const std::string name = sm < 0 ? T::kBlock : T::kBlock + std::string("_sm") + std::to_string(sm);
  const int set = find_rtl_param_set<T, Sets>(T::param_values(p));
  auto core = Sets::with_top(set, [&](auto top) -> std::unique_ptr<RtlCore<T>> {
    return std::make_unique<RtlCoreOf<T, typename decltype(top)::type>>(name, p);
  });
  return std::make_unique<Controller<T>>(impl, p, sm, std::move(core));
#else
  throw std::invalid_argument(why);
#endif
}

}  // namespace gpupm
