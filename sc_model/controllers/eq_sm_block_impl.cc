#include "controllers/eq_sm_block_impl.h"

#include "controllers/rtl_harness.h"

#include <array>
#include <optional>
#include <stdexcept>
#include <vector>

#ifdef GPUPM_HAVE_RTL
#include "controllers/eq_sm_block_ports.h"
#include "Veq_sm_block.h"
#include "Veq_sm_block_w13s0e1.h"
#include "Veq_sm_block_w64s2e3.h"
#endif

namespace gpupm {

namespace {

// The outputs as the RTL's port values, in port order.
constexpr size_t kEqOutputs = 9;
const std::vector<std::string>& eq_signals() {
  static const std::vector<std::string> s = {"epoch_done_o",  "blk_req_o",  "vote_o",     "branch_o",    "sum_active_o",
                                             "sum_waiting_o", "sum_xalu_o", "sum_xmem_o", "num_blocks_o"};
  return s;
}
using EqRaw = std::array<uint64_t, kEqOutputs>;

EqRaw to_raw(const EqSmOut& o) {
  return {o.epoch_done,     uint64_t(uint8_t(o.blk_req) & 3u), uint64_t(o.vote), uint64_t(o.branch),
          o.sums.active,    o.sums.waiting,                    o.sums.xalu,      o.sums.xmem,
          o.num_blocks};
}

EqSmOut from_raw(const EqRaw& r) {
  EqSmOut o;
  o.epoch_done = r[0] != 0;
  o.blk_req = int8_t(r[1] & 2 ? int(r[1] & 3) - 4 : int(r[1] & 3));
  o.vote = VfVote(r[2]);
  o.branch = EqBranch(r[3]);
  o.sums = {uint16_t(r[4]), uint16_t(r[5]), uint16_t(r[6]), uint16_t(r[7])};
  o.num_blocks = uint8_t(r[8]);
  return o;
}


uint16_t mask_of(unsigned bits) { return uint16_t((1u << bits) - 1); }

// EqSmBlock::advance's preconditions, for the implementations that clock every cycle.
void check_advance(uint32_t n, uint32_t to_next_sample, bool at_epoch_strobe) {
  if (n == 0) return;
  if (n > to_next_sample) throw std::invalid_argument("EqSmBlock::advance: skips a sample strobe");
  if (at_epoch_strobe) throw std::invalid_argument("EqSmBlock::advance: skips an epoch strobe");
}

class EqSmCpp final : public EqSmController {
 public:
  explicit EqSmCpp(const EqSmParams& p) : b_(p) {}
  const EqSmOut& step(const EqSmIn& in) override { return b_.step(in); }
  void advance(uint32_t n) override { b_.advance(n); }
  uint32_t cycles_to_next_sample() const override { return b_.cycles_to_next_sample(); }
  const EqSmOut& out() const override { return b_.out(); }

 private:
  EqSmBlock b_;
};

struct Known {
  EqSmParams p;
  const char* prefix;
};
constexpr Known kKnown[] = {{{48, 7, 5}, "Veq_sm_block"},
                            {{64, 2, 3}, "Veq_sm_block_w64s2e3"},
                            {{13, 0, 1}, "Veq_sm_block_w13s0e1"}};

const Known* find_known(const EqSmParams& p) {
  for (const Known& k : kKnown)
    if (k.p.warps == p.warps && k.p.sample_period_log2 == p.sample_period_log2 &&
        k.p.epoch_samples_log2 == p.epoch_samples_log2)
      return &k;
  return nullptr;
}

#ifdef GPUPM_HAVE_RTL

// One Verilated eq_sm_block of any parameter set.
class EqSmCore {
 public:
  virtual ~EqSmCore() = default;
  virtual EqRaw edge(const EqSmIn& in) = 0;  // drive, one rising edge, read the outputs
  virtual std::string vcd_path() const = 0;
  virtual void flush() = 0;
};

template <class Top>
class EqSmCoreOf final : public EqSmCore {
 public:
  EqSmCoreOf(const std::string& name, unsigned warps)
      : h_(name, std::getenv("GPUPM_RTL_VCD")), mask_(warps >= 64 ? ~0ull : (1ull << warps) - 1) {
    h_.reset();
  }
  EqRaw edge(const EqSmIn& in) override {
    Top& t = h_.top();
    rtl::drive_eq_sm_block(t, in, mask_);
    h_.tick();
    return {t.epoch_done_o, t.blk_req_o,     t.vote_o,       t.branch_o,    t.sum_active_o,
            t.sum_waiting_o, t.sum_xalu_o, t.sum_xmem_o, t.num_blocks_o};
  }
  std::string vcd_path() const override { return h_.vcd_path(); }
  void flush() override { h_.flush(); }

 private:
  rtl::Harness<Top> h_;
  uint64_t mask_;
};

std::unique_ptr<EqSmCore> make_core(const EqSmParams& p, uint32_t sm) {
  const Known* k = find_known(p);
  const std::string name = "eq_sm_block_sm" + std::to_string(sm);
  const std::string prefix = k ? k->prefix : "";
  if (prefix == "Veq_sm_block") return std::make_unique<EqSmCoreOf<Veq_sm_block>>(name, p.warps);
  if (prefix == "Veq_sm_block_w64s2e3") return std::make_unique<EqSmCoreOf<Veq_sm_block_w64s2e3>>(name, p.warps);
  if (prefix == "Veq_sm_block_w13s0e1") return std::make_unique<EqSmCoreOf<Veq_sm_block_w13s0e1>>(name, p.warps);
  std::string why;
  eq_sm_rtl_available(p, &why);
  throw std::invalid_argument(why);
}

// The RTL, clocked every cycle. Counts its own edges since reset (`cycle_`),
// which is also its cycle counter modulo the epoch (both start at reset).
class EqSmRtl final : public EqSmController {
 public:
  EqSmRtl(const EqSmParams& p, uint32_t sm)
      : core_(make_core(p, sm)), sm_(sm), sample_mask_(mask_of(p.sample_period_log2)),
        cycle_mask_(mask_of(p.sample_period_log2 + p.epoch_samples_log2)),
        fault_(rtl::fault_from_env("eq_sm_block", eq_signals())) {}

  const EqSmOut& step(const EqSmIn& in) override {
    held_ = in;
    held_.kernel_start = false;
    edge(in);
    return out_;
  }
  void advance(uint32_t n) override {
    check_advance(n, cycles_to_next_sample(), at_epoch_strobe());
    for (uint32_t i = 0; i < n; ++i) edge(held_);
  }
  uint32_t cycles_to_next_sample() const override {
    return sample_mask_ - uint32_t((cycle_ + 1) & sample_mask_);
  }
  const EqSmOut& out() const override { return out_; }

  // One edge; returns the port values after it (with the fault hook applied).
  const EqRaw& edge(const EqSmIn& in) {
    raw_ = core_->edge(in);
    rtl::apply_fault(fault_, int(sm_), cycle_, eq_signals(), raw_);
    ++cycle_;
    out_ = from_raw(raw_);
    return raw_;
  }
  uint64_t cycle() const { return cycle_; }
  bool at_epoch_strobe() const { return (cycle_ & cycle_mask_) == cycle_mask_; }
  std::string vcd_path() const { return core_->vcd_path(); }
  void flush() { core_->flush(); }

 private:
  std::unique_ptr<EqSmCore> core_;
  uint32_t sm_;
  uint16_t sample_mask_, cycle_mask_;
  std::optional<rtl::FaultSpec> fault_;
  EqSmIn held_;
  uint64_t cycle_ = 0;
  EqRaw raw_{};
  EqSmOut out_;
};

class EqSmLockstep final : public EqSmController {
 public:
  EqSmLockstep(const EqSmParams& p, uint32_t sm) : cpp_(p), rtl_(p, sm), sm_(sm) {}

  const EqSmOut& step(const EqSmIn& in) override {
    held_ = in;
    held_.kernel_start = false;
    edge(in);
    return cpp_.out();
  }
  void advance(uint32_t n) override {
    check_advance(n, cpp_.cycles_to_next_sample(), rtl_.at_epoch_strobe());
    for (uint32_t i = 0; i < n; ++i) edge(held_);
  }
  uint32_t cycles_to_next_sample() const override { return cpp_.cycles_to_next_sample(); }
  const EqSmOut& out() const override { return cpp_.out(); }

 private:
  void edge(const EqSmIn& in) {
    const uint64_t t = rtl_.cycle();
    const uint16_t counter = cpp_.cycle();
    const EqRaw want = to_raw(cpp_.step(in));
    const EqRaw& got = rtl_.edge(in);
    rtl::compare_outputs(
        "eq_sm_block", int(sm_), t, eq_signals(), want, got,
        [&] { return "block cycle counter " + std::to_string(counter) + ", " + describe(in); },
        [&] { rtl_.flush(); }, rtl_.vcd_path());
  }

  EqSmBlock cpp_;
  EqSmRtl rtl_;
  uint32_t sm_;
  EqSmIn held_;
};

#endif  // GPUPM_HAVE_RTL

}  // namespace

bool eq_sm_rtl_available(const EqSmParams& p, std::string* why) {
  if (!kRtlBuilt) {
    if (why) *why = "this gpupm was built without Verilator: only controller_impl \"cpp\" is available";
    return false;
  }
  if (find_known(p)) return true;
  if (why) {
    std::string list;
    for (const Known& k : kKnown)
      list += (list.empty() ? "" : ", ") + std::string("(") + std::to_string(k.p.warps) + ", " +
              std::to_string(k.p.sample_period_log2) + ", " + std::to_string(k.p.epoch_samples_log2) + ")";
    *why = "no Verilated eq_sm_block for WARPS=" + std::to_string(p.warps) +
           ", SAMPLE_LOG2=" + std::to_string(p.sample_period_log2) +
           ", EPOCH_LOG2=" + std::to_string(p.epoch_samples_log2) + "; built (WARPS, SAMPLE_LOG2, EPOCH_LOG2): " +
           list + " (GPUPM_RTL_CONFIGS in rtl/rtl.cmake)";
  }
  return false;
}

std::unique_ptr<EqSmController> make_eq_sm_controller(ControllerImpl impl, const EqSmParams& p, uint32_t sm) {
  if (impl == ControllerImpl::kCpp) return std::make_unique<EqSmCpp>(p);
  std::string why;
  if (!eq_sm_rtl_available(p, &why)) throw std::invalid_argument(why);
#ifdef GPUPM_HAVE_RTL
  if (impl == ControllerImpl::kRtl) return std::make_unique<EqSmRtl>(p, sm);
  return std::make_unique<EqSmLockstep>(p, sm);
#else
  (void)sm;
  throw std::invalid_argument(why);
#endif
}

}  // namespace gpupm
