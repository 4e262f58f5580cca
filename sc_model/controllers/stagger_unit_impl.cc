#include "controllers/stagger_unit_impl.h"

#include "controllers/rtl_harness.h"

#include <optional>
#include <stdexcept>

#ifdef GPUPM_HAVE_RTL
#include "Vstagger_unit.h"
#include "Vstagger_unit_n32r16.h"
#include "Vstagger_unit_n4r1w1.h"
#include "controllers/stagger_unit_ports.h"
#endif

namespace gpupm {

namespace {

struct Known {
  StaggerParams p;
  const char* prefix;
};
constexpr Known kKnown[] = {
    {{15, 10, 3}, "Vstagger_unit"}, {{32, 16, 3}, "Vstagger_unit_n32r16"}, {{4, 1, 1}, "Vstagger_unit_n4r1w1"}};

const Known* find_known(const StaggerParams& p) {
  for (const Known& k : kKnown)
    if (k.p.n_sms == p.n_sms && k.p.report_period == p.report_period && k.p.window_slots == p.window_slots) return &k;
  return nullptr;
}

class StaggerCpp final : public StaggerController {
 public:
  explicit StaggerCpp(const StaggerParams& p) : u_(p) {}
  const StaggerOut& step(const StaggerIn& in) override { return u_.step(in); }
  void advance(uint32_t n) override { u_.advance(n); }
  uint32_t cycles_to_strobe() const override { return u_.cycles_to_strobe(); }
  const StaggerOut& out() const override { return u_.out(); }

 private:
  StaggerUnit u_;
};

// StaggerUnit::advance's precondition, for the implementations that clock every cycle.
void check_advance(uint32_t n, uint32_t to_strobe) {
  if (n > to_strobe)
    throw std::logic_error("StaggerUnit::advance(" + std::to_string(n) + "): skips a report strobe (" +
                           std::to_string(to_strobe) + " cycles away)");
}

#ifdef GPUPM_HAVE_RTL

using rtl::StaggerRaw;

class StaggerCore {
 public:
  virtual ~StaggerCore() = default;
  virtual StaggerRaw edge(const StaggerIn& in) = 0;  // drive, one rising edge, read the outputs
  virtual std::string vcd_path() const = 0;
  virtual void flush() = 0;
};

template <class Top>
class StaggerCoreOf final : public StaggerCore {
 public:
  explicit StaggerCoreOf(uint8_t n_sms) : h_("stagger_unit", std::getenv("GPUPM_RTL_VCD")), n_(n_sms) { h_.reset(); }
  StaggerRaw edge(const StaggerIn& in) override {
    rtl::drive_stagger_unit(h_.top(), in, n_);
    h_.tick();
    return rtl::read_stagger_unit(h_.top(), n_);
  }
  std::string vcd_path() const override { return h_.vcd_path(); }
  void flush() override { h_.flush(); }

 private:
  rtl::Harness<Top> h_;
  uint8_t n_;
};

std::unique_ptr<StaggerCore> make_core(const StaggerParams& p) {
  const Known* k = find_known(p);
  const std::string prefix = k ? k->prefix : "";
  if (prefix == "Vstagger_unit") return std::make_unique<StaggerCoreOf<Vstagger_unit>>(p.n_sms);
  if (prefix == "Vstagger_unit_n32r16") return std::make_unique<StaggerCoreOf<Vstagger_unit_n32r16>>(p.n_sms);
  if (prefix == "Vstagger_unit_n4r1w1") return std::make_unique<StaggerCoreOf<Vstagger_unit_n4r1w1>>(p.n_sms);
  std::string why;
  stagger_rtl_available(p, &why);
  throw std::invalid_argument(why);
}

class StaggerRtl final : public StaggerController {
 public:
  explicit StaggerRtl(const StaggerParams& p)
      : core_(make_core(p)), period_(p.report_period),
        fault_(rtl::fault_from_env("stagger_unit", rtl::stagger_signals())) {}
  const StaggerOut& step(const StaggerIn& in) override {
    held_ = in;
    edge(in);
    return out_;
  }
  void advance(uint32_t n) override {
    check_advance(n, cycles_to_strobe());
    for (uint32_t i = 0; i < n; ++i) edge(held_);
  }
  uint32_t cycles_to_strobe() const override { return uint32_t(period_ - 1 - out_.report_count); }
  const StaggerOut& out() const override { return out_; }

  const StaggerRaw& edge(const StaggerIn& in) {
    raw_ = core_->edge(in);
    rtl::apply_fault(fault_, -1, cycle_, rtl::stagger_signals(), raw_);
    ++cycle_;
    out_ = rtl::stagger_from_raw(raw_);
    return raw_;
  }
  uint64_t cycle() const { return cycle_; }
  std::string vcd_path() const { return core_->vcd_path(); }
  void flush() { core_->flush(); }

 private:
  std::unique_ptr<StaggerCore> core_;
  uint8_t period_;
  std::optional<rtl::FaultSpec> fault_;
  StaggerIn held_;
  uint64_t cycle_ = 0;
  StaggerRaw raw_{};
  StaggerOut out_;
};

class StaggerLockstep final : public StaggerController {
 public:
  explicit StaggerLockstep(const StaggerParams& p) : cpp_(p), rtl_(p), n_(p.n_sms) {}
  const StaggerOut& step(const StaggerIn& in) override {
    held_ = in;
    edge(in);
    return cpp_.out();
  }
  void advance(uint32_t n) override {
    check_advance(n, cpp_.cycles_to_strobe());
    for (uint32_t i = 0; i < n; ++i) edge(held_);
  }
  uint32_t cycles_to_strobe() const override { return cpp_.cycles_to_strobe(); }
  const StaggerOut& out() const override { return cpp_.out(); }

 private:
  void edge(const StaggerIn& in) {
    const uint64_t t = rtl_.cycle();
    const StaggerRaw want = rtl::stagger_raw(cpp_.step(in));
    const StaggerRaw& got = rtl_.edge(in);
    rtl::compare_outputs(
        "stagger_unit", -1, t, rtl::stagger_signals(), want, got, [&] { return rtl::describe(in, n_); },
        [&] { rtl_.flush(); }, rtl_.vcd_path());
  }

  StaggerUnit cpp_;
  StaggerRtl rtl_;
  uint8_t n_;
  StaggerIn held_;
};

#endif  // GPUPM_HAVE_RTL

}  // namespace

bool stagger_rtl_available(const StaggerParams& p, std::string* why) {
  if (kRtlBuilt && find_known(p)) return true;
  if (why) {
    std::string list;
    for (const Known& k : kKnown)
      list += (list.empty() ? "(" : ", (") + std::to_string(k.p.n_sms) + ", " + std::to_string(k.p.report_period) +
              ", " + std::to_string(k.p.window_slots) + ")";
    *why = rtl_unavailable_why("stagger_unit for N_SMS=" + std::to_string(p.n_sms) + ", REPORT_PERIOD=" +
                                   std::to_string(p.report_period) + ", WINDOW_SLOTS=" + std::to_string(p.window_slots),
                               "(N_SMS, REPORT_PERIOD, WINDOW_SLOTS) " + list);
  }
  return false;
}

std::unique_ptr<StaggerController> make_stagger_controller(ControllerImpl impl, const StaggerParams& p) {
  if (impl == ControllerImpl::kCpp) return std::make_unique<StaggerCpp>(p);
  std::string why;
  if (!stagger_rtl_available(p, &why)) throw std::invalid_argument(why);
#ifdef GPUPM_HAVE_RTL
  if (impl == ControllerImpl::kRtl) return std::make_unique<StaggerRtl>(p);
  return std::make_unique<StaggerLockstep>(p);
#else
  throw std::invalid_argument(why);
#endif
}

}  // namespace gpupm
