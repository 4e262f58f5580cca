// One controller block behind one interface, in the three implementations of
// the GPU config's "controller_impl" (common/controller_impl.h):
//
//   cpp       the golden C++ model (<block>.h), stepped as its caller likes:
//             step() is the model's step(), advance(n) its advance(n) (exact
//             over cycles without a strobe).
//   rtl       the Verilated RTL (rtl/<block>.sv, plain C++ mode), clocked every
//             cycle: step() is one edge with the given inputs, advance(n) is n
//             edges with the inputs held since step() (T::held). The RTL is
//             never skipped: its counters must see every edge. advance() keeps
//             the model's preconditions (T::check_advance), so a caller written
//             against the model gives the RTL the same inputs on every edge
//             that reads them.
//   lockstep  both, each edge on identical inputs (the model step()ped every
//             cycle with the held inputs rather than advance()d), every output
//             compared after every edge (and on every eval() of a block with
//             combinational outputs); the first difference throws
//             LockstepMismatch. The model's outputs drive the caller.
//
// T is the block's port map (<block>_ports.h), a traits struct:
//   Model, Params, In, Out    the golden model and its types
//   kBlock                    the RTL top (rtl/<kBlock>.sv): mismatch reports, VCD files, the fault hook
//   Raw, signals()            the outputs as port values (std::array<uint64_t, N>) and their port names
//   to_raw(Out), from_raw(Raw)
//   held(In)                  the inputs advance() clocks the RTL with after step(In)
//   describe(In, Params, cycle)  the inputs, for a mismatch report
//   kParamNames, param_values(Params)  the Verilog parameters the Params set (the parameter-set lookup)
//   kBuiltAs                  how the refusal of a parameter set lists the built ones ("{names}": the names)
//   drive(Top&, In, Params), read(const Top&, Params)  the Verilated top's ports
// and where the block differs from ControllerPortsBase (below): kCombOutputs,
// advance_model(), check_advance(), cycles_to_strobe().
//
// make_controller() (controller_factory.h) builds one from the Verilated
// parameter sets of rtl/rtl.cmake; each block's <block>_controller.cc does it once.
#pragma once

#include "gpupm/common/controller_impl.h"
#include "gpupm/controllers/lockstep_check.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>

namespace gpupm {

// The defaults of a port map: no combinational outputs, the model's advance(),
// no precondition on advance() beyond the model's own.
struct ControllerPortsBase {
  static constexpr std::size_t kCombOutputs = 0;  // leading outputs read before the edge (eval())
  template <class Model>
  static void advance_model(Model& m, uint64_t n) {
    m.advance(uint32_t(n));
  }
  template <class Controller>
  static void check_advance(const Controller&, uint64_t) {}
};

// One Verilated top of any parameter set (controller_factory.h).
template <class T>
class RtlCore {
 public:
  virtual ~RtlCore() = default;
  virtual typename T::Raw settle(const typename T::In& in) = 0;  // drive, evaluate without an edge, read
  virtual typename T::Raw edge(const typename T::In& in) = 0;    // drive, one rising edge, read
  virtual std::string vcd_path() const = 0;
  virtual void flush() = 0;
};

template <class T>
class Controller {
 public:
  using Model = typename T::Model;
  using Params = typename T::Params;
  using In = typename T::In;
  using Out = typename T::Out;
  using Raw = typename T::Raw;
  // The model's step() result: a reference to its outputs, or a copy.
  using StepResult = decltype(std::declval<Model&>().step(std::declval<const In&>()));

  // `rtl` null: cpp. `sm` names the block in reports (-1: one per GPU).
  Controller(ControllerImpl impl, const Params& p, int sm, std::unique_ptr<RtlCore<T>> rtl)
      : p_(p), sm_(sm), rtl_(std::move(rtl)) {
    if (impl != ControllerImpl::kRtl) model_.emplace(p);
    if (rtl_) fault_ = rtl::fault_from_env(T::kBlock, T::signals());
  }

  // One rising edge with these inputs.
  StepResult step(const In& in) {
    if (!rtl_) return model_->step(in);
    held_ = T::held(in);
    edge(in);
    return out_;
  }

  // n edges with the inputs held since step().
  void advance(uint64_t n) {
    if (!rtl_) return T::advance_model(*model_, n);
    T::check_advance(*this, n);
    for (uint64_t i = 0; i < n; ++i) edge(held_);
  }

  // The combinational outputs this cycle, no edge (blocks with kCombOutputs).
  Out eval(const In& in) {
    if (!rtl_) return model_->eval(in);
    Raw got = rtl_->settle(in);
    rtl::apply_fault(fault_, sm_, cycle_, T::signals(), got);
    if (!model_) return T::from_raw(got);
    const Out want = model_->eval(in);
    check(want, got, cycle_, in, "combinational (eval); ");
    return want;
  }

  // The outputs after the last edge.
  const Out& out() const { return rtl_ && !model_ ? out_ : model_->out(); }

  // Edges until the next input strobe (blocks that have one): the model's, or
  // the RTL's from its edge count and outputs.
  uint32_t cycles_to_strobe() const {
    return model_ ? T::cycles_to_strobe(*model_) : T::cycles_to_strobe(p_, cycle_, out_);
  }

  // The RTL's edges since reset (rtl, lockstep).
  uint64_t rtl_cycle() const { return cycle_; }
  const Params& params() const { return p_; }

 private:
  void edge(const In& in) {
    const uint64_t t = cycle_++;
    Raw got = rtl_->edge(in);
    rtl::apply_fault(fault_, sm_, t, T::signals(), got);
    if (!model_) {
      out_ = T::from_raw(got);
      return;
    }
    out_ = model_->step(in);
    check(out_, got, t, in, T::kCombOutputs ? "after the edge; " : "");
  }

  void check(const Out& want, const Raw& got, uint64_t cycle, const In& in, const char* when) {
    rtl::compare_outputs(
        T::kBlock, sm_, cycle, T::signals(), T::to_raw(want), got, [&] { return when + T::describe(in, p_, cycle); },
        [&] { rtl_->flush(); }, rtl_->vcd_path());
  }

  Params p_;
  int sm_;
  std::optional<Model> model_;       // cpp, lockstep
  std::unique_ptr<RtlCore<T>> rtl_;  // rtl, lockstep
  std::optional<rtl::FaultSpec> fault_;
  In held_{};
  uint64_t cycle_ = 0;
  Out out_{};
};

}  // namespace gpupm
