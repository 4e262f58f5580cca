#include "controllers/droop_predictor_impl.h"

#include "controllers/rtl_harness.h"

#include <optional>
#include <stdexcept>

#ifdef GPUPM_HAVE_RTL
#include "Vdroop_predictor.h"
#include "Vdroop_predictor_s1.h"
#include "Vdroop_predictor_s4.h"
#include "controllers/droop_predictor_ports.h"
#endif

namespace gpupm {

namespace {

constexpr uint8_t kKnownSlots[] = {2, 1, 4};

class DroopPredCpp final : public DroopPredController {
 public:
  explicit DroopPredCpp(const DroopPredParams& p) : d_(p) {}
  DroopPredOut eval(const DroopPredIn& in) override { return d_.eval(in); }
  DroopPredOut step(const DroopPredIn& in) override { return d_.step(in); }
  void idle(uint64_t n) override { d_.idle(n); }

 private:
  DroopPredictor d_;
};

#ifdef GPUPM_HAVE_RTL

using rtl::DroopPredRaw;

// One Verilated droop_predictor of any SLOTS.
class DroopPredCore {
 public:
  virtual ~DroopPredCore() = default;
  virtual DroopPredRaw settle(const DroopPredIn& in) = 0;  // drive, evaluate, read (no edge)
  virtual DroopPredRaw tick() = 0;                         // the rising edge with the inputs driven; read
  virtual std::string vcd_path() const = 0;
  virtual void flush() = 0;
};

template <class Top>
class DroopPredCoreOf final : public DroopPredCore {
 public:
  DroopPredCoreOf(uint32_t sm, uint8_t slots)
      : h_("droop_predictor_sm" + std::to_string(sm), std::getenv("GPUPM_RTL_VCD")), slots_(slots) {
    h_.reset();
  }
  DroopPredRaw settle(const DroopPredIn& in) override {
    rtl::drive_droop_predictor(h_.top(), in, slots_);
    h_.settle();
    return rtl::read_droop_predictor(h_.top());
  }
  DroopPredRaw tick() override {
    h_.tick();
    return rtl::read_droop_predictor(h_.top());
  }
  std::string vcd_path() const override { return h_.vcd_path(); }
  void flush() override { h_.flush(); }

 private:
  rtl::Harness<Top> h_;
  uint8_t slots_;
};

std::unique_ptr<DroopPredCore> make_core(const DroopPredParams& p, uint32_t sm) {
  if (p.slots == 2) return std::make_unique<DroopPredCoreOf<Vdroop_predictor>>(sm, p.slots);
  if (p.slots == 1) return std::make_unique<DroopPredCoreOf<Vdroop_predictor_s1>>(sm, p.slots);
  if (p.slots == 4) return std::make_unique<DroopPredCoreOf<Vdroop_predictor_s4>>(sm, p.slots);
  std::string why;
  droop_pred_rtl_available(p, &why);
  throw std::invalid_argument(why);
}

// The RTL: eval() settles the inputs, step() settles them (the combinational
// outputs of the cycle) and clocks (the registers after the edge).
class DroopPredRtl final : public DroopPredController {
 public:
  DroopPredRtl(const DroopPredParams& p, uint32_t sm)
      : core_(make_core(p, sm)), sm_(sm), fault_(rtl::fault_from_env("droop_predictor", rtl::droop_pred_signals())) {}

  DroopPredOut eval(const DroopPredIn& in) override { return rtl::droop_pred_from_raw(eval_raw(in)); }
  DroopPredOut step(const DroopPredIn& in) override { return rtl::droop_pred_from_raw(step_raw(in)); }
  void idle(uint64_t n) override {
    DroopPredIn none = held_;
    none.cand_valid = 0;
    for (uint64_t i = 0; i < n; ++i) step_raw(none);
  }

  const DroopPredRaw& eval_raw(const DroopPredIn& in) {
    raw_ = core_->settle(in);
    rtl::apply_fault(fault_, int(sm_), cycle_, rtl::droop_pred_signals(), raw_);
    return raw_;
  }
  // The cycle's combinational outputs with the registers after its edge.
  const DroopPredRaw& step_raw(const DroopPredIn& in) {
    held_ = in;
    DroopPredRaw comb = core_->settle(in);
    raw_ = core_->tick();
    for (std::size_t i = 0; i < 3; ++i) raw_[i] = comb[i];  // admit, predict, throttled
    rtl::apply_fault(fault_, int(sm_), cycle_, rtl::droop_pred_signals(), raw_);
    ++cycle_;
    return raw_;
  }
  uint64_t cycle() const { return cycle_; }
  std::string vcd_path() const { return core_->vcd_path(); }
  void flush() { core_->flush(); }

 private:
  std::unique_ptr<DroopPredCore> core_;
  uint32_t sm_;
  std::optional<rtl::FaultSpec> fault_;
  DroopPredIn held_;
  uint64_t cycle_ = 0;
  DroopPredRaw raw_{};
};

class DroopPredLockstep final : public DroopPredController {
 public:
  DroopPredLockstep(const DroopPredParams& p, uint32_t sm) : cpp_(p), rtl_(p, sm), sm_(sm), slots_(p.slots) {}

  DroopPredOut eval(const DroopPredIn& in) override {
    const DroopPredOut want = cpp_.eval(in);
    compare(in, want, rtl_.eval_raw(in));
    return want;
  }
  DroopPredOut step(const DroopPredIn& in) override {
    held_ = in;
    const uint64_t t = rtl_.cycle();
    const DroopPredOut want = cpp_.step(in);
    compare(in, want, rtl_.step_raw(in), t);
    return want;
  }
  void idle(uint64_t n) override {
    DroopPredIn none = held_;
    none.cand_valid = 0;
    for (uint64_t i = 0; i < n; ++i) step(none);
    held_ = none;
  }

 private:
  void compare(const DroopPredIn& in, const DroopPredOut& want, const DroopPredRaw& got,
               std::optional<uint64_t> t = std::nullopt) {
    rtl::compare_outputs(
        "droop_predictor", int(sm_), t ? *t : rtl_.cycle(), rtl::droop_pred_signals(), rtl::droop_pred_raw(want),
        got, [&] { return std::string(t ? "after the edge; " : "combinational (eval); ") + rtl::describe(in, slots_); },
        [&] { rtl_.flush(); }, rtl_.vcd_path());
  }

  DroopPredictor cpp_;
  DroopPredRtl rtl_;
  uint32_t sm_;
  uint8_t slots_;
  DroopPredIn held_;
};

#endif  // GPUPM_HAVE_RTL

}  // namespace

bool droop_pred_rtl_available(const DroopPredParams& p, std::string* why) {
  bool known = false;
  std::string list;
  for (uint8_t k : kKnownSlots) {
    known |= k == p.slots;
    list += (list.empty() ? "" : ", ") + std::to_string(k);
  }
  if (kRtlBuilt && known) return true;
  if (why) *why = rtl_unavailable_why("droop_predictor for SLOTS=" + std::to_string(p.slots), "SLOTS " + list);
  return false;
}

std::unique_ptr<DroopPredController> make_droop_pred_controller(ControllerImpl impl, const DroopPredParams& p,
                                                                uint32_t sm) {
  if (impl == ControllerImpl::kCpp) return std::make_unique<DroopPredCpp>(p);
  std::string why;
  if (!droop_pred_rtl_available(p, &why)) throw std::invalid_argument(why);
#ifdef GPUPM_HAVE_RTL
  if (impl == ControllerImpl::kRtl) return std::make_unique<DroopPredRtl>(p, sm);
  return std::make_unique<DroopPredLockstep>(p, sm);
#else
  (void)sm;
  throw std::invalid_argument(why);
#endif
}

}  // namespace gpupm
