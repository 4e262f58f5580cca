#include "controllers/vote_arbiter_impl.h"

#include "controllers/rtl_harness.h"

#include <array>
#include <optional>
#include <stdexcept>
#include <vector>

#ifdef GPUPM_HAVE_RTL
#include "Vvote_arbiter.h"
#include "controllers/vote_arbiter_ports.h"
#include "Vvote_arbiter_n4.h"
#include "Vvote_arbiter_n64.h"
#endif

namespace gpupm {

namespace {

constexpr size_t kArbOutputs = 13;
const std::vector<std::string>& arb_signals() {
  static const std::vector<std::string> s = {
      "sm_level_o", "mem_level_o", "sm_changed_o", "mem_changed_o", "sm_busy_o",    "mem_busy_o",  "busy_o",
      "decided_o",  "winner_o",    "action_o",     "count_comp_o",  "count_mem_o", "count_none_o"};
  return s;
}
using ArbRaw = std::array<uint64_t, kArbOutputs>;

ArbRaw to_raw(const VoteArbiterOut& o) {
  return {uint64_t(o.sm_level), uint64_t(o.mem_level), o.sm_changed,   o.mem_changed,  o.sm_busy,
          o.mem_busy,           o.busy,                o.decided,      uint64_t(o.winner), uint64_t(o.action),
          o.counts.comp,        o.counts.mem,          o.counts.none};
}

VoteArbiterOut from_raw(const ArbRaw& r) {
  VoteArbiterOut o;
  o.sm_level = VfLevelCode(r[0]);
  o.mem_level = VfLevelCode(r[1]);
  o.sm_changed = r[2], o.mem_changed = r[3], o.sm_busy = r[4], o.mem_busy = r[5], o.busy = r[6];
  o.decided = r[7];
  o.winner = VfVote(r[8]);
  o.action = ArbiterAction(r[9]);
  o.counts = {uint8_t(r[10]), uint8_t(r[11]), uint8_t(r[12])};
  return o;
}

std::string describe(const VoteArbiterIn& in, uint8_t n_sms) {
  std::string votes;
  for (int i = n_sms - 1; i >= 0; --i) votes += char('0' + (in.votes[i] & 3));
  return "inputs: votes_valid=" + std::to_string(in.votes_valid) + " votes(SM " + std::to_string(n_sms - 1) +
         "..0)=" + votes + " mode=" + std::to_string(int(in.mode)) + " rule=" + std::to_string(int(in.rule)) +
         " sm_T=" + std::to_string(in.sm_transition_cycles & 0xfff) +
         " mem_T=" + std::to_string(in.mem_transition_cycles & 0xfff);
}

class ArbCpp final : public VoteArbiterController {
 public:
  explicit ArbCpp(const VoteArbiterParams& p) : a_(p) {}
  const VoteArbiterOut& step(const VoteArbiterIn& in) override { return a_.step(in); }
  void advance(uint32_t n) override { a_.advance(n); }
  const VoteArbiterOut& out() const override { return a_.out(); }

 private:
  VoteArbiter a_;
};

constexpr uint8_t kKnown[] = {15, 4, 64};

#ifdef GPUPM_HAVE_RTL

class ArbCore {
 public:
  virtual ~ArbCore() = default;
  virtual ArbRaw edge(const VoteArbiterIn& in) = 0;
  virtual std::string vcd_path() const = 0;
  virtual void flush() = 0;
};

template <class Top>
class ArbCoreOf final : public ArbCore {
 public:
  explicit ArbCoreOf(uint8_t n_sms) : h_("vote_arbiter", std::getenv("GPUPM_RTL_VCD")), n_(n_sms) { h_.reset(); }
  ArbRaw edge(const VoteArbiterIn& in) override {
    Top& t = h_.top();
    rtl::drive_vote_arbiter(t, in, n_);
    h_.tick();
    return {t.sm_level_o,  t.mem_level_o, t.sm_changed_o, t.mem_changed_o, t.sm_busy_o,
            t.mem_busy_o,  t.busy_o,      t.decided_o,    t.winner_o,      t.action_o,
            t.count_comp_o, t.count_mem_o, t.count_none_o};
  }
  std::string vcd_path() const override { return h_.vcd_path(); }
  void flush() override { h_.flush(); }

 private:
  rtl::Harness<Top> h_;
  uint8_t n_;
};

std::unique_ptr<ArbCore> make_core(uint8_t n) {
  if (n == 15) return std::make_unique<ArbCoreOf<Vvote_arbiter>>(n);
  if (n == 4) return std::make_unique<ArbCoreOf<Vvote_arbiter_n4>>(n);
  if (n == 64) return std::make_unique<ArbCoreOf<Vvote_arbiter_n64>>(n);
  std::string why;
  vote_arbiter_rtl_available(n, &why);
  throw std::invalid_argument(why);
}

class ArbRtl final : public VoteArbiterController {
 public:
  explicit ArbRtl(const VoteArbiterParams& p)
      : core_(make_core(p.n_sms)), fault_(rtl::fault_from_env("vote_arbiter", arb_signals())) {}
  const VoteArbiterOut& step(const VoteArbiterIn& in) override {
    held_ = in;
    held_.votes_valid = false;
    edge(in);
    return out_;
  }
  void advance(uint32_t n) override {
    for (uint32_t i = 0; i < n; ++i) edge(held_);
  }
  const VoteArbiterOut& out() const override { return out_; }

  const ArbRaw& edge(const VoteArbiterIn& in) {
    raw_ = core_->edge(in);
    rtl::apply_fault(fault_, -1, cycle_, arb_signals(), raw_);
    ++cycle_;
    out_ = from_raw(raw_);
    return raw_;
  }
  uint64_t cycle() const { return cycle_; }
  const VoteArbiterIn& held() const { return held_; }
  std::string vcd_path() const { return core_->vcd_path(); }
  void flush() { core_->flush(); }

 private:
  std::unique_ptr<ArbCore> core_;
  std::optional<rtl::FaultSpec> fault_;
  VoteArbiterIn held_;
  uint64_t cycle_ = 0;
  ArbRaw raw_{};
  VoteArbiterOut out_;
};

class ArbLockstep final : public VoteArbiterController {
 public:
  explicit ArbLockstep(const VoteArbiterParams& p) : cpp_(p), rtl_(p), n_(p.n_sms) {}
  const VoteArbiterOut& step(const VoteArbiterIn& in) override {
    held_ = in;
    held_.votes_valid = false;
    edge(in);
    return cpp_.out();
  }
  void advance(uint32_t n) override {
    for (uint32_t i = 0; i < n; ++i) edge(held_);
  }
  const VoteArbiterOut& out() const override { return cpp_.out(); }

 private:
  void edge(const VoteArbiterIn& in) {
    const uint64_t t = rtl_.cycle();
    const ArbRaw want = to_raw(cpp_.step(in));
    const ArbRaw& got = rtl_.edge(in);
    rtl::compare_outputs(
        "vote_arbiter", -1, t, arb_signals(), want, got, [&] { return describe(in, n_); }, [&] { rtl_.flush(); },
        rtl_.vcd_path());
  }

  VoteArbiter cpp_;
  ArbRtl rtl_;
  uint8_t n_;
  VoteArbiterIn held_;
};

#endif  // GPUPM_HAVE_RTL

}  // namespace

bool vote_arbiter_rtl_available(uint32_t n_sms, std::string* why) {
  if (!kRtlBuilt) {
    if (why) *why = "this gpupm was built without Verilator: only controller_impl \"cpp\" is available";
    return false;
  }
  for (uint8_t k : kKnown)
    if (k == n_sms) return true;
  if (why) {
    std::string list;
    for (uint8_t k : kKnown) list += (list.empty() ? "" : ", ") + std::to_string(k);
    *why = "no Verilated vote_arbiter for N_SMS=" + std::to_string(n_sms) + " (the GPU's SM count); built: " + list +
           " (GPUPM_RTL_CONFIGS in rtl/rtl.cmake)";
  }
  return false;
}

std::unique_ptr<VoteArbiterController> make_vote_arbiter_controller(ControllerImpl impl, const VoteArbiterParams& p) {
  if (impl == ControllerImpl::kCpp) return std::make_unique<ArbCpp>(p);
  std::string why;
  if (!vote_arbiter_rtl_available(p.n_sms, &why)) throw std::invalid_argument(why);
#ifdef GPUPM_HAVE_RTL
  if (impl == ControllerImpl::kRtl) return std::make_unique<ArbRtl>(p);
  return std::make_unique<ArbLockstep>(p);
#else
  throw std::invalid_argument(why);
#endif
}

}  // namespace gpupm
