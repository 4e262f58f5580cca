// The per-warp functional executor: register file, SIMT reconvergence stack,
// memory accesses with their timing view (lines, bank conflicts) and faults.
//
// Reconvergence: a divergent branch replaces the top of the stack by a
// reconvergence entry {ipdom PC, mask of both sides} (unless the ipdom is the
// top's own reconvergence PC or "never", then the top is simply replaced) and
// pushes the taken side, then the not-taken (fall-through) side: the
// fall-through side runs first. An entry is popped when its PC reaches its
// reconvergence PC or when it has no lanes left.
#include <algorithm>
#include <cstdio>
#include <utility>

#include "gpupm/common/divisor.h"
#include "gpupm/ptx/ptx_lanes.h"

namespace gpupm::ptx {

// Outside the anonymous namespace: Warp::Impl holds them, and a unity build
// (GPUPM_UNITY_BUILD) would otherwise warn (-Wsubobject-linkage).
struct StackEntry {
  uint32_t pc, reconv, mask;
};

namespace {

std::string hex(uint64_t v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

// Where a lane's access lands.
struct Resolved {
  Space space;
  uint64_t offset;  // in the space (device address for global/const)
  uint8_t* ptr;
};

}  // namespace

struct Warp::Impl {
  CtaState* cta = nullptr;
  const LaunchState* launch = nullptr;
  const Kernel* kernel = nullptr;
  uint32_t warp = 0, smid = 0;
  Divisor line{128};  // by the L1 line size
  CoalescingRules rules;
  std::array<uint64_t, 32> segments;          // with narrow_load_segments: the segment of each listed access
  std::array<uint64_t, 32> atomic_addresses;  // with split_atomic_conflicts: the active lanes' addresses
  // A slot's lanes are rows[slot]: the warp's own rows (its registers', then its special registers'),
  // or for an immediate or a symbol address the launch's row (LaunchState::hidden_rows), read by every warp.
  std::vector<uint64_t> regs;
  std::vector<uint64_t*> rows;
  std::vector<uint32_t> preds;
  std::vector<uint8_t> local;  // lane l's depot at l * local_bytes
  std::vector<StackEntry> stack;
  uint64_t executed = 0;
  uint64_t total_threads = 0;
  uint64_t first_thread = 0;  // grid-linear id of lane 0
  std::array<uint32_t, 128> shared_words{};
  std::array<uint64_t, 256> seen{};  // bank_conflict_degree(): stamp << 32 | word
  uint32_t stamp = 0;

  RegFile file() { return RegFile{rows.data(), preds.data()}; }
  uint64_t* row(uint16_t slot) const { return rows[slot]; }

  void start(CtaState& c, uint32_t w, uint32_t sm, uint32_t lb, CoalescingRules coalescing);
  void fill_hidden();
  void fill_launch_rows() const;
  uint64_t special_value(Special s, uint32_t lane) const;
  void special_lanes(Special s, uint64_t* lanes) const;
  StepResult step(uint64_t clock);

  [[noreturn]] void fault(uint32_t pc, uint32_t lane, const std::string& what) const;
  [[noreturn]] void runaway(uint32_t pc, uint32_t active) const;  // past max_warp_insts or the launch's budget
  void branch(const Instruction& in, uint32_t pc, uint32_t taken);
  void retire(uint32_t pc, uint32_t lanes);
  void pop_finished();

  Resolved resolve(const Instruction& in, uint32_t pc, uint32_t lane, uint64_t addr, uint32_t bytes);
  // Global memory: the platform's (platform data, below kGpuWindow) or the program's DeviceMemory.
  bool on_platform(uint64_t addr) const { return launch->platform && addr < kGpuWindow; }
  uint8_t* global_bytes(uint64_t addr, uint32_t bytes, bool write) {
    if (on_platform(addr)) return launch->platform->begin_access(smid, addr, bytes, write);
    return launch->memory ? launch->memory->find(addr, bytes) : nullptr;
  }
  void memory(const Instruction& in, uint32_t pc, uint32_t active, StepResult& res);
  void platform_memory(const Instruction& in, uint32_t pc, uint32_t active, StepResult& res);
  void access_lane(const Instruction& in, uint32_t lane, uint8_t* p, uint32_t elem, int shift);
  void note_timing(const Resolved& at, uint32_t lane, uint32_t bytes, uint32_t segment_bytes, StepResult& res,
                   uint32_t& n_words);
  void add_line(uint64_t line, StepResult& res);
  void add_local_lines(uint64_t offset, uint32_t bytes, uint32_t lane, StepResult& res);
  uint32_t load_segment_bytes(const Instruction& in, uint32_t bytes) const;
  void atomic_transactions(uint32_t n_lanes, StepResult& res);
  void mark_sectors(uint64_t address, uint32_t bytes, StepResult& res);
  void add_segment(uint64_t address, uint32_t segment_bytes, StepResult& res);
  // The 4-byte shared-memory words of [offset, offset + bytes) into shared_words (banks' view).
  void note_shared_words(uint64_t offset, uint32_t bytes, uint32_t& n_words) {
    for (uint64_t word = offset / 4; word <= (offset + bytes - 1) / 4 && n_words < shared_words.size(); ++word)
      shared_words[n_words++] = uint32_t(word);
  }
  void coalesce(const uint64_t* base, int64_t offset, uint32_t active, uint32_t bytes, uint64_t lo, uint64_t hi,
                StepResult& res);
  void move_fast(const Instruction& in, uint32_t active, const uint64_t* base, uint8_t* p0, uint64_t lo, uint32_t elem,
                 size_t lane_bytes = 0);
  bool global_fast(const Instruction& in, uint32_t active, StepResult& res);
  bool shared_fast(const Instruction& in, uint32_t active, StepResult& res);
  bool local_fast(const Instruction& in, uint32_t active, StepResult& res);
  bool uniform_load(const Instruction& in, uint32_t pc, uint32_t active, StepResult& res);
  uint32_t bank_conflict_degree(uint32_t n);
  void shuffle(const Instruction& in, uint32_t active);
  void vote(const Instruction& in, uint32_t active);
};

void Warp::Impl::start(CtaState& c, uint32_t w, uint32_t sm, uint32_t lb, CoalescingRules coalescing) {
  cta = &c;
  rules = coalescing;
  launch = c.launch;
  kernel = launch->kernel;
  warp = w;
  smid = sm;
  line = Divisor(lb ? lb : 128);
  const auto& hidden = kernel->extra->hidden;
  size_t own = kernel->register_slots;
  for (const SlotInit& init : hidden) own += init.kind == SlotInit::Kind::Special;
  regs.assign(own * 32, 0);
  rows.resize(kernel->register_slots + hidden.size());
  preds.assign(rows.size(), 0);
  local.assign(size_t(kernel->local_bytes) * 32, 0);
  executed = 0;
  total_threads = launch->grid.count() * launch->block.count();
  first_thread = uint64_t(c.cta) * launch->block.count() + uint64_t(w) * 32;
  fill_hidden();
  uint64_t block = launch->block.count();
  uint32_t mask = 0;
  for (uint32_t l = 0; l < 32; ++l)
    if (uint64_t(w) * 32 + l < block) mask |= 1u << l;
  stack.clear();
  stack.reserve(64);
  if (mask) stack.push_back(StackEntry{0, kNever, mask});
}

// A special register's value in lane `lane`; %tid's is special_lanes()' own.
uint64_t Warp::Impl::special_value(Special s, uint32_t lane) const {
  const Dim3& b = launch->block;
  switch (s) {
    case Special::TidX:
    case Special::TidY:
    case Special::TidZ: break;  // counted on across the warp by special_lanes()
    case Special::NtidX: return b.x;
    case Special::NtidY: return b.y;
    case Special::NtidZ: return b.z;
    case Special::CtaidX: return cta->cta_id.x;
    case Special::CtaidY: return cta->cta_id.y;
    case Special::CtaidZ: return cta->cta_id.z;
    case Special::NctaidX: return launch->grid.x;
    case Special::NctaidY: return launch->grid.y;
    case Special::NctaidZ: return launch->grid.z;
    case Special::LaneId: return lane;
    case Special::WarpId: return warp;
    case Special::NWarpId: return (b.count() + 31) / 32;
    case Special::SmId: return smid;
    case Special::NSmId: return smid + 1;  // the executor does not know the SM count: a lower bound
    case Special::GridId: return 0;
    case Special::LanemaskEq: return 1u << lane;
    case Special::LanemaskLt: return (1u << lane) - 1;
    case Special::LanemaskLe: return uint32_t((2ull << lane) - 1);
    case Special::LanemaskGt: return ~uint32_t((2ull << lane) - 1);
    case Special::LanemaskGe: return ~((1u << lane) - 1);
  }
  return 0;
}

// A special register's value in each of the warp's 32 lanes. The thread index is counted on from
// lane 0's, not divided out per lane: each warp start fills every special register its kernel reads,
// and lane by lane that was 4.6% of equalizer/backprop's instructions.
void Warp::Impl::special_lanes(Special s, uint64_t* lanes) const {
  switch (s) {
    case Special::TidX:
    case Special::TidY:
    case Special::TidZ: {
      const Dim3& b = launch->block;
      const uint64_t t0 = uint64_t(warp) * 32;
      uint64_t x = t0 % b.x, y = t0 / b.x % b.y, z = t0 / (uint64_t(b.x) * b.y);
      for (uint32_t l = 0; l < 32; ++l) {
        lanes[l] = s == Special::TidX ? x : s == Special::TidY ? y : z;
        if (++x == b.x) {
          x = 0;
          if (++y == b.y) y = 0, ++z;
        }
      }
      return;
    }
    case Special::LaneId:
    case Special::LanemaskEq:
    case Special::LanemaskLt:
    case Special::LanemaskLe:
    case Special::LanemaskGt:
    case Special::LanemaskGe:
      for (uint32_t l = 0; l < 32; ++l) lanes[l] = special_value(s, l);
      return;
    default: std::fill_n(lanes, 32, special_value(s, 0));  // the same in every lane
  }
}

// The rows of the hidden slots every warp of the launch reads alike (immediates,
// symbol addresses, the dynamic shared base), in hidden-slot order: made by the
// launch's first warp, one copy for all (a copy per warp crowded the host's caches).
void Warp::Impl::fill_launch_rows() const {
  if (!launch->hidden_rows.empty()) return;
  std::vector<uint64_t> shared;  // kept only whole: a missing symbol address throws
  for (const SlotInit& init : kernel->extra->hidden) {
    uint64_t value = init.value;
    switch (init.kind) {
      case SlotInit::Kind::Special: continue;
      case SlotInit::Kind::Constant: break;
      case SlotInit::Kind::Symbol:
        value = launch->memory ? launch->memory->symbol(init.symbol) : ~0ull;
        if (value == ~0ull)
          throw ExecError("kernel " + kernel->name + ": module variable " + init.symbol +
                          " has no device address (DeviceMemory::load not called)");
        break;
      case SlotInit::Kind::DynamicShared: value = shared_dynamic_base(*kernel); break;
    }
    shared.insert(shared.end(), 32, value);
  }
  launch->hidden_rows = std::move(shared);
}

// Every slot's row, and the hidden slots' values: a special register's lanes in
// the warp's own row (they differ by warp, CTA or SM), the rest the launch's.
void Warp::Impl::fill_hidden() {
  const uint32_t first = kernel->register_slots;
  for (uint32_t s = 0; s < first; ++s) rows[s] = &regs[size_t(s) * 32];
  fill_launch_rows();
  const auto& hidden = kernel->extra->hidden;
  size_t own = first, common = 0;
  for (size_t i = 0; i < hidden.size(); ++i) {
    const SlotInit& init = hidden[i];
    uint64_t* lanes;
    if (init.kind == SlotInit::Kind::Special) {
      lanes = &regs[own++ * 32];
      special_lanes(init.special, lanes);
      preds[first + i] = init.value ? ~0u : 0u;
    } else {
      lanes = &launch->hidden_rows[common++ * 32];
      preds[first + i] = lanes[0] ? ~0u : 0u;
    }
    rows[first + i] = lanes;
  }
}

void Warp::Impl::fault(uint32_t pc, uint32_t lane, const std::string& what) const {
  const Dim3& id = cta->cta_id;
  throw ExecError("kernel " + kernel->name + ": CTA " + std::to_string(cta->cta) + " (" + std::to_string(id.x) + "," +
                  std::to_string(id.y) + "," + std::to_string(id.z) + ") warp " + std::to_string(warp) + " lane " +
                  std::to_string(lane) + ": PC " + std::to_string(pc) + " (" + kernel->where(pc) +
                  "): " + kernel->text_of(pc) + " " + what);
}

void Warp::Impl::runaway(uint32_t pc, uint32_t active) const {
  const uint32_t lane = uint32_t(__builtin_ctz(active));
  if (executed > launch->max_warp_insts)
    fault(pc, lane,
          "exceeded max_warp_insts=" + std::to_string(launch->max_warp_insts) +
              " (runaway loop? gpu.sim.max_warp_insts allows more)");
  fault(pc, lane,
        "exceeded the launch's budget of " + std::to_string(launch->max_launch_insts) +
            " warp instructions (gpu.sim.warp_insts_per_grid_warp " +
            std::to_string(launch->bounds.warp_insts_per_grid_warp) + " x " + std::to_string(launch->grid_warps) +
            " warps of its grid, at least gpu.sim.max_warp_insts): a runaway loop? "
            "--set gpu.sim.warp_insts_per_grid_warp=N allows more");
}

void Warp::Impl::pop_finished() {
  while (!stack.empty() && (stack.back().mask == 0 || stack.back().pc == stack.back().reconv)) stack.pop_back();
}

void Warp::Impl::branch(const Instruction& in, uint32_t pc, uint32_t taken) {
  StackEntry& top = stack.back();
  const uint32_t all = top.mask;
  if (taken == all) {
    top.pc = in.target;
  } else if (taken == 0) {
    top.pc = pc + 1;
  } else {
    const uint32_t outer = top.reconv;
    uint32_t reconv = in.reconv;
    if (reconv == kNever || reconv == outer) {
      reconv = outer;
      stack.pop_back();
    } else {
      top.pc = reconv;
    }
    stack.push_back(StackEntry{in.target, reconv, taken});
    stack.push_back(StackEntry{pc + 1, reconv, all & ~taken});
  }
  pop_finished();
}

void Warp::Impl::retire(uint32_t pc, uint32_t lanes) {
  for (StackEntry& e : stack) e.mask &= ~lanes;
  stack.back().pc = pc + 1;
  pop_finished();
}

// Inlined into its one caller, Warp::step(): one call per instruction.
[[gnu::always_inline]] inline StepResult Warp::Impl::step(uint64_t clock) {
  StepResult res;
  if (stack.empty()) {
    res.exited = true;
    return res;
  }
  const uint32_t pc = stack.back().pc;
  if (pc >= kernel->code.size())
    fault(pc - 1, uint32_t(__builtin_ctz(stack.back().mask)), "fell off the end of the kernel");
  const Instruction& in = kernel->code[pc];
  uint32_t active = stack.back().mask;
  if (++executed > launch->max_warp_insts || ++launch->executed > launch->max_launch_insts) runaway(pc, active);
  if (in.has_guard) active &= in.guard_negated ? ~preds[in.guard] : preds[in.guard];
  res.cls = kernel->info[pc].cls;
  res.active = active;
  switch (in.op) {
    case Op::Bra: branch(in, pc, active); break;
    case Op::Exit: retire(pc, active); break;
    default:
      if (active) {
        switch (in.op) {
          case Op::Ld:
          case Op::St:
          case Op::Atom:
            if (launch->platform) platform_memory(in, pc, active, res);
            else memory(in, pc, active, res);
            break;
          case Op::Shfl: shuffle(in, active); break;
          case Op::Vote: vote(in, active); break;
          case Op::Bar:
          case Op::Nop: break;
          case Op::MovClock: {
            uint64_t v = in.is_clock64 ? clock : uint32_t(clock);
            uint64_t* d = row(in.dst[0]);
            for (int l = 0; l < 32; ++l) d[l] = ((active >> l) & 1) ? v : d[l];
            break;
          }
          case Op::Activemask: {
            uint64_t* d = row(in.dst[0]);
            for (int l = 0; l < 32; ++l) d[l] = ((active >> l) & 1) ? active : d[l];
            break;
          }
          case Op::Cvta:
          case Op::CvtaTo: {
            bool to_generic = in.op == Op::Cvta;
            uint64_t window = in.space == Space::Shared ? kSharedWindow : in.space == Space::Local ? kLocalWindow : 0;
            const uint64_t* a = row(in.src[0]);
            lanes<uint64_t, uint64_t>(
                row(in.dst[0]), active, [=](uint64_t x) { return to_generic ? x + window : x - window; }, a);
            break;
          }
          case Op::Pack:
          case Op::Unpack: {
            const uint32_t n = in.op == Op::Pack ? in.n_src : in.n_dst;
            const uint32_t bits = type_bytes(in.type) * 8 / n;
            const uint64_t mask = bits >= 64 ? ~0ull : (1ull << bits) - 1;
            for (int l = 0; l < 32; ++l) {
              if (!((active >> l) & 1)) continue;
              if (in.op == Op::Pack) {
                uint64_t v = 0;
                for (uint32_t e = 0; e < n; ++e) v |= (row(in.src[e])[l] & mask) << (e * bits);
                row(in.dst[0])[l] = v;
              } else {
                uint64_t v = row(in.src[0])[l];
                for (uint32_t e = 0; e < n; ++e) row(in.dst[e])[l] = (v >> (e * bits)) & mask;
              }
            }
            break;
          }
          default: in.alu(in, file(), active);
        }
      }
      stack.back().pc = pc + 1;
      pop_finished();
  }
  if (res.cls == TimingClass::Shared && res.shared_cycles == 0) res.shared_cycles = 1;  // no lane active
  res.exited = stack.empty();
  return res;
}

Resolved Warp::Impl::resolve(const Instruction& in, uint32_t pc, uint32_t lane, uint64_t addr, uint32_t bytes) {
  Space space = in.space;
  uint64_t off = addr;
  if (space == Space::Generic) {
    if (addr - kSharedWindow < kWindowBytes) space = Space::Shared, off = addr - kSharedWindow;
    else if (addr - kLocalWindow < kWindowBytes) space = Space::Local, off = addr - kLocalWindow;
    else space = Space::Global;
  }
  if (bytes > 1 && addr % bytes != 0)
    fault(pc, lane, "address " + hex(addr) + ": misaligned for a " + std::to_string(bytes) + "-byte access");
  uint8_t* p = nullptr;
  switch (space) {
    case Space::Global:
    case Space::Const:
      p = global_bytes(off, bytes, in.op != Op::Ld);
      if (!p)
        fault(pc, lane,
              "address " + hex(addr) +
                  (on_platform(off) ? ": the platform's memory does not answer there" : ": outside every buffer"));
      break;
    case Space::Shared:
      if (off + bytes > cta->shared.size() || off + bytes < off)
        fault(pc, lane,
              "address " + hex(addr) + ": beyond the CTA's " + std::to_string(cta->shared.size()) +
                  " bytes of shared memory");
      p = cta->shared.data() + off;
      break;
    case Space::Local:
      if (off + bytes > kernel->local_bytes || off + bytes < off)
        fault(pc, lane,
              "address " + hex(addr) + ": beyond the thread's " + std::to_string(kernel->local_bytes) +
                  " bytes of local memory");
      p = local.data() + size_t(lane) * kernel->local_bytes + off;
      break;
    case Space::Param:
      if (off + bytes > launch->params.size() || off + bytes < off)
        fault(pc, lane,
              "address " + hex(addr) + ": beyond the " + std::to_string(launch->params.size()) +
                  " bytes of kernel parameters");
      p = const_cast<uint8_t*>(launch->params.data()) + off;
      break;
    case Space::Generic: break;
  }
  return Resolved{space, off, p};
}

void Warp::Impl::add_line(uint64_t line, StepResult& res) {
  if (res.n_lines && res.lines[res.n_lines - 1] == line) return;  // coalesced lanes: the line just added
  for (uint32_t i = 0; i < res.n_lines; ++i)
    if (res.lines[i] == line) return;
  if (res.n_lines < res.lines.size()) res.lines[res.n_lines++] = line;  // saturates at 32 distinct lines
}

// GPGPU-Sim's Fermi coalescer (-gpgpu_coalesce_arch 20): a global load of 1-byte lanes is one L1 access per
// distinct 32 B segment, of 2-byte lanes per 64 B segment; 0: one per line (wider lanes, or the rule off).
uint32_t Warp::Impl::load_segment_bytes(const Instruction& in, uint32_t bytes) const {
  if (!rules.narrow_load_segments || in.op != Op::Ld || bytes > 2) return 0;
  return bytes == 1 ? 32 : 64;
}

// The segment of `address` as an access of its line, unless listed already (segments[i] is lines[i]'s).
void Warp::Impl::add_segment(uint64_t address, uint32_t segment_bytes, StepResult& res) {
  const uint64_t segment = address / segment_bytes;
  for (uint32_t i = 0; i < res.n_lines; ++i)
    if (segments[i] == segment) return;
  if (res.n_lines == res.lines.size()) return;  // saturated, as add_line()
  segments[res.n_lines] = segment;
  res.lines[res.n_lines++] = line.div(address);
}

// The timing lines of lane `lane`'s local access [offset, offset + bytes): a word's timing addresses
// put the grid's threads side by side, so a warp's accesses at one offset coalesce.
[[gnu::always_inline]] inline void Warp::Impl::add_local_lines(uint64_t offset, uint32_t bytes, uint32_t lane,
                                                               StepResult& res) {
  const uint64_t lane_address = launch->local_base + (first_thread + lane) * 4, word_stride = total_threads * 4;
  for (uint64_t word = offset / 4; word <= (offset + bytes - 1) / 4; ++word)
    add_line(line.div(lane_address + word * word_stride), res);
}

// Records one lane's access for the timing model: global lines (or segments), local timing
// addresses (interleaved per thread so a warp's same-offset accesses coalesce),
// shared words for the bank-conflict degree.
void Warp::Impl::note_timing(const Resolved& at, uint32_t lane, uint32_t bytes, uint32_t segment_bytes, StepResult& res,
                             uint32_t& n_words) {
  switch (at.space) {
    case Space::Global:
      if (segment_bytes) {
        add_segment(at.offset, segment_bytes, res);
        add_segment(at.offset + bytes - 1, segment_bytes, res);
        break;
      }
      for (uint64_t l = line.div(at.offset); l <= line.div(at.offset + bytes - 1); ++l) add_line(l, res);
      break;
    case Space::Local: add_local_lines(at.offset, bytes, lane, res); break;
    case Space::Shared: note_shared_words(at.offset, bytes, n_words); break;
    default: break;
  }
}

namespace {
// How many bits a loaded element of `in` is sign-extended by (0: none).
int sign_shift(const Instruction& in, uint32_t elem) { return is_signed(in.type) && elem < 8 ? 64 - int(elem) * 8 : 0; }
}  // namespace

// Loads/stores one lane's elements (little-endian, sign/zero extension by type;
// `shift` from sign_shift(), computed once per instruction).
void Warp::Impl::access_lane(const Instruction& in, uint32_t lane, uint8_t* p, uint32_t elem, int shift) {
  for (uint32_t e = 0; e < in.vec; ++e, p += elem) {
    // Constant-size copies per width: the compiler inlines them (a variable size calls memcpy).
    if (in.op == Op::St) {
      const uint64_t v = row(in.src[e])[lane];
      switch (elem) {
        case 1: std::memcpy(p, &v, 1); break;
        case 2: std::memcpy(p, &v, 2); break;
        case 4: std::memcpy(p, &v, 4); break;
        default: std::memcpy(p, &v, 8); break;
      }
      continue;
    }
    uint64_t v = 0;
    switch (elem) {
      case 1: std::memcpy(&v, p, 1); break;
      case 2: std::memcpy(&v, p, 2); break;
      case 4: std::memcpy(&v, p, 4); break;
      default: std::memcpy(&v, p, 8); break;
    }
    if (shift) v = uint64_t(int64_t(v << shift) >> shift);
    row(in.dst[e])[lane] = v;
  }
}

template <class T>
static T atomic_apply(Mode mode, T old, T b, T c) {
  switch (mode) {
    case Mode::AtomAdd: return T(old + b);
    case Mode::AtomMin: return b < old ? b : old;
    case Mode::AtomMax: return b > old ? b : old;
    case Mode::AtomExch: return b;
    case Mode::AtomCas: return old == b ? c : old;
    default: break;
  }
  if constexpr (std::is_integral_v<T>) {
    switch (mode) {
      case Mode::AtomAnd: return T(old & b);
      case Mode::AtomOr: return T(old | b);
      case Mode::AtomXor: return T(old ^ b);
      case Mode::AtomInc: return old >= b ? T(0) : T(old + 1);
      case Mode::AtomDec: return (old == 0 || old > b) ? b : T(old - 1);
      default: break;
    }
  }
  return old;
}

namespace {
// The lowest and highest address of the active lanes' accesses, if every one
// is aligned to `bytes` and they span at most 2 GiB (the fast paths' precondition).
bool lane_span(const uint64_t* base, int64_t offset, uint32_t active, uint32_t bytes, uint64_t& lo, uint64_t& hi) {
  uint64_t misaligned = 0;
  uint64_t low = ~uint64_t(0), high = 0;
  for_each_lane(active, [&](uint32_t lane) {
    const uint64_t a = base[lane] + uint64_t(offset);
    low = std::min(low, a);
    high = std::max(high, a);
    misaligned |= a & (bytes - 1);
  });
  lo = low, hi = high;
  return !misaligned && hi - lo <= (uint64_t(1) << 31);
}

// access_lane() for every active lane of a load or store: lane l's bytes at address a
// are at p0 + l * lane_bytes + (a - lo) (lane_bytes: 0 in global and shared memory, a
// lane's depot in local memory). The element size, vector width, direction and sign
// extension are fixed at compile time and the registers' rows read once: the lane loop
// keeps no switch and reloads nothing (a store to a register could alias `in`).
template <uint32_t kElem, uint32_t kVec, bool kStore, bool kSigned>
void move_lanes(uint64_t* const* rows, const Instruction& in, uint32_t active, const uint64_t* base, uint8_t* p0,
                uint64_t lo, size_t lane_bytes) {
  std::array<uint64_t*, kVec> row;
  for (uint32_t e = 0; e < kVec; ++e) row[e] = rows[kStore ? in.src[e] : in.dst[e]];
  const uint64_t delta = uint64_t(in.offset) - lo;
  constexpr int kShift = kSigned && kElem < 8 ? 64 - int(kElem) * 8 : 0;
  auto move = [&](uint64_t* reg, uint8_t* p) {
    if constexpr (kStore) {
      std::memcpy(p, reg, kElem);  // the register's low bytes (little-endian)
    } else {
      uint64_t v = 0;
      std::memcpy(&v, p, kElem);
      if constexpr (kShift != 0) v = uint64_t(int64_t(v << kShift) >> kShift);
      *reg = v;
    }
  };
  for_each_lane(active, [&](uint32_t lane) {  // the elements spelled out: a loop over them stays a loop at -O2
    uint8_t* p = p0 + lane * lane_bytes + (base[lane] + delta);
    move(row[0] + lane, p);
    if constexpr (kVec > 1) move(row[1] + lane, p + kElem);
    if constexpr (kVec > 2) {
      move(row[2] + lane, p + 2 * kElem);
      move(row[3] + lane, p + 3 * kElem);
    }
  });
}

template <uint32_t kElem, bool kStore, bool kSigned>
void move_lanes(uint64_t* const* rows, const Instruction& in, uint32_t active, const uint64_t* base, uint8_t* p0,
                uint64_t lo, size_t lane_bytes) {
  switch (in.vec) {  // the decoder allows 1, 2 and 4
    case 1: return move_lanes<kElem, 1, kStore, kSigned>(rows, in, active, base, p0, lo, lane_bytes);
    case 2: return move_lanes<kElem, 2, kStore, kSigned>(rows, in, active, base, p0, lo, lane_bytes);
    default: return move_lanes<kElem, 4, kStore, kSigned>(rows, in, active, base, p0, lo, lane_bytes);
  }
}

template <bool kStore, bool kSigned>
void move_lanes(uint64_t* const* rows, const Instruction& in, uint32_t active, const uint64_t* base, uint8_t* p0,
                uint64_t lo, uint32_t elem, size_t lane_bytes) {
  switch (elem) {  // access_lane()'s widths: 8 for any other
    case 1: return move_lanes<1, kStore, kSigned>(rows, in, active, base, p0, lo, lane_bytes);
    case 2: return move_lanes<2, kStore, kSigned>(rows, in, active, base, p0, lo, lane_bytes);
    case 4: return move_lanes<4, kStore, kSigned>(rows, in, active, base, p0, lo, lane_bytes);
    default: return move_lanes<8, kStore, kSigned>(rows, in, active, base, p0, lo, lane_bytes);
  }
}
}  // namespace

// The fast paths' loads and stores (not atomics): each active lane at p0 + lane * lane_bytes + (address - lo).
void Warp::Impl::move_fast(const Instruction& in, uint32_t active, const uint64_t* base, uint8_t* p0, uint64_t lo,
                           uint32_t elem, size_t lane_bytes) {
  if (in.op == Op::St) move_lanes<true, false>(rows.data(), in, active, base, p0, lo, elem, lane_bytes);
  else if (sign_shift(in, elem)) move_lanes<false, true>(rows.data(), in, active, base, p0, lo, elem, lane_bytes);
  else move_lanes<false, false>(rows.data(), in, active, base, p0, lo, elem, lane_bytes);
}

// The distinct lines of the active lanes' aligned accesses, as add_line() of
// each lane's first and last line in lane order would list them. A warp's
// accesses within 64 lines (strided lanes touch up to 32) are deduplicated with
// a bit per line of the span, not a search of the list; within two lines the span
// and the first lane name them without a walk over the lanes.
void Warp::Impl::coalesce(const uint64_t* base, int64_t offset, uint32_t active, uint32_t bytes, uint64_t lo,
                          uint64_t hi, StepResult& res) {
  const uint64_t first_line = line.div(lo), last_line = line.div(hi + bytes - 1);
  const bool narrow = last_line - first_line < 64 && res.n_lines == 0;
  uint64_t seen = 0;                          // narrow: bit l - first_line for line l listed
  if (narrow && line.value() % bytes == 0) {  // aligned accesses that divide a line: one line each
    // Within two lines (e.g. a line-aligned unit-stride warp of up to 8-byte words) the
    // lowest and highest addresses are lanes' own, so both lines are touched, the first
    // lane's first. (`active` is never 0 here: step() skips memory() then.)
    if (last_line - first_line <= 1 && active != 0) {
      res.lines[0] = line.div(base[__builtin_ctz(active)] + uint64_t(offset));
      res.n_lines = 1;
      if (last_line != first_line) res.lines[res.n_lines++] = res.lines[0] == first_line ? last_line : first_line;
      return;
    }
    for_each_lane(active, [&](uint32_t lane) {
      const uint64_t l = line.div(base[lane] + uint64_t(offset));
      const uint64_t bit = uint64_t(1) << (l - first_line);
      if (seen & bit) return;
      seen |= bit;
      res.lines[res.n_lines++] = l;  // at most 32 lanes: never saturates
    });
    return;
  }
  for (uint32_t left = active; left != 0; left &= left - 1) {
    const uint64_t a = base[__builtin_ctz(left)] + uint64_t(offset);
    const uint64_t first = line.div(a), last = line.div(a + bytes - 1);
    for (const uint64_t l : {first, last}) {
      if (!narrow) {
        add_line(l, res);
      } else if (!((seen >> (l - first_line)) & 1)) {
        if (res.n_lines == res.lines.size()) return;  // saturated: add_line() adds nothing more
        seen |= uint64_t(1) << (l - first_line);
        res.lines[res.n_lines++] = l;
      }
      if (last == first) break;
    }
  }
}

// The widest span of a warp's access the fast path asks the platform's memory
// for at once (without DMI each is copied through debug transport).
constexpr uint64_t kPlatformSpan = 4096;

// The common case of a global load or store: every active lane aligned and
// inside one allocation. False leaves everything untouched for the lane-by-lane
// path, which also words the fault.
bool Warp::Impl::global_fast(const Instruction& in, uint32_t active, StepResult& res) {
  if (in.space != Space::Global || in.op == Op::Atom || !in.has_base) return false;
  const uint32_t elem = type_bytes(in.type), bytes = elem * in.vec;
  const uint64_t* base = row(in.base);
  uint64_t lo, hi;
  if (!lane_span(base, in.offset, active, bytes, lo, hi)) return false;
  const uint32_t span = uint32_t(hi - lo + bytes);
  uint8_t* p0 = nullptr;
  if (!launch->platform) p0 = launch->memory ? launch->memory->find(lo, span) : nullptr;
  // Platform data: scattered lanes, or a span reaching the GPU's own window, go one access per lane.
  else if (!on_platform(lo) || (hi - lo <= kPlatformSpan && hi + bytes <= kGpuWindow))
    p0 = global_bytes(lo, span, in.op == Op::St);
  if (!p0) return false;
  // The accesses before the loads may overwrite the base.
  if (const uint32_t segment_bytes = load_segment_bytes(in, bytes)) {
    for_each_lane(active, [&](uint32_t lane) { add_segment(base[lane] + uint64_t(in.offset), segment_bytes, res); });
  } else {
    coalesce(base, in.offset, active, bytes, lo, hi, res);
  }
  if (in.op == Op::St && rules.store_sectors) {
    res.sectors.fill(0);
    for_each_lane(active, [&](uint32_t lane) { mark_sectors(base[lane] + uint64_t(in.offset), bytes, res); });
  }
  move_fast(in, active, base, p0, lo, elem);
  return true;
}

// Likewise for ld.shared / st.shared inside the CTA's shared memory.
bool Warp::Impl::shared_fast(const Instruction& in, uint32_t active, StepResult& res) {
  if (in.space != Space::Shared || in.op == Op::Atom || !in.has_base) return false;
  const uint32_t elem = type_bytes(in.type), bytes = elem * in.vec;
  const uint64_t* base = row(in.base);
  uint64_t lo, hi;
  if (!lane_span(base, in.offset, active, bytes, lo, hi) || hi >= cta->shared.size() || hi + bytes > cta->shared.size())
    return false;
  // Every word among 32 consecutive ones (unit stride, a broadcast): one per bank at most, nothing to count.
  const bool one_per_bank = (hi + bytes - 1) / 4 - lo / 4 < 32;
  uint32_t n_words = 0;  // noted before the move: a load may overwrite its base
  if (!one_per_bank)
    for_each_lane(active, [&](uint32_t lane) { note_shared_words(base[lane] + uint64_t(in.offset), bytes, n_words); });
  move_fast(in, active, base, cta->shared.data(), 0, elem);
  res.shared_cycles = one_per_bank ? 1 : bank_conflict_degree(n_words);
  return true;
}

// Likewise for ld.local / st.local inside each lane's own depot: for an array the compiler keeps in
// local memory, lane by lane these accesses were 14% of equalizer/sgemm's instructions.
bool Warp::Impl::local_fast(const Instruction& in, uint32_t active, StepResult& res) {
  if (in.space != Space::Local || in.op == Op::Atom || !in.has_base) return false;
  const uint32_t elem = type_bytes(in.type), bytes = elem * in.vec;
  const uint64_t depot = kernel->local_bytes;
  const uint64_t* base = row(in.base);
  uint64_t lo, hi;
  if (!lane_span(base, in.offset, active, bytes, lo, hi) || depot < bytes || hi > depot - bytes) return false;
  for_each_lane(active, [&](uint32_t lane) {  // noted before the move: a load may overwrite its base
    add_local_lines(base[lane] + uint64_t(in.offset), bytes, lane, res);
  });
  move_fast(in, active, base, local.data(), 0, elem, depot);
  return true;
}

// A load without a base register (a kernel parameter, or a static shared variable at a fixed
// offset; a global variable's address is a base register): every lane reads the same bytes, so
// the first active lane is resolved, timed and loaded as the lane loop would (its checks and
// fault; the other lanes would add the same words, a broadcast) and its value copied to the
// others. Lane by lane, the parameter loads were 14% of a paper-scale pair run re-spawning
// hotspot's short CTAs.
bool Warp::Impl::uniform_load(const Instruction& in, uint32_t pc, uint32_t active, StepResult& res) {
  if (in.op != Op::Ld || in.has_base || !active || (in.space != Space::Param && in.space != Space::Shared))
    return false;
  const uint32_t elem = type_bytes(in.type), bytes = elem * in.vec, first = uint32_t(__builtin_ctz(active));
  const Resolved at = resolve(in, pc, first, uint64_t(in.offset), bytes);
  uint32_t n_words = 0;
  note_timing(at, first, bytes, load_segment_bytes(in, bytes), res, n_words);
  if (n_words) res.shared_cycles = bank_conflict_degree(n_words);
  access_lane(in, first, at.ptr, elem, sign_shift(in, elem));
  for (uint32_t e = 0; e < in.vec; ++e) {
    uint64_t* lanes = row(in.dst[e]);
    const uint64_t value = lanes[first];
    for_each_lane(active, [&](uint32_t lane) { lanes[lane] = value; });
  }
  return true;
}

// The most distinct words any of the 32 banks serves among shared_words[0, n):
// a set of the words seen in this access (stamped, so never cleared) and a count per bank.
uint32_t Warp::Impl::bank_conflict_degree(uint32_t n) {
  if (++stamp == 0) {  // wrapped: old entries could look current
    seen.fill(0);
    stamp = 1;
  }
  std::array<uint32_t, 32> per_bank{};
  uint32_t worst = 1;
  for (uint32_t i = 0; i < n; ++i) {
    const uint32_t w = shared_words[i];
    const uint64_t key = uint64_t(stamp) << 32 | w;
    size_t h = (w * 2654435761u) >> 24;  // 256 slots
    while (seen[h] >> 32 == stamp && seen[h] != key) h = (h + 1) & 255;
    if (seen[h] == key) continue;  // a word already counted (a broadcast)
    seen[h] = key;
    worst = std::max(worst, ++per_bank[w % 32]);
  }
  return worst;
}

// memory() with platform data: the instruction's stores reach the platform at
// its end, a fault's too (as far as its lanes got: what DMI wrote in place stays).
void Warp::Impl::platform_memory(const Instruction& in, uint32_t pc, uint32_t active, StepResult& res) {
  try {
    memory(in, pc, active, res);
  } catch (...) {
    launch->platform->end_access(smid);
    throw;
  }
  if (!launch->platform->end_access(smid))
    fault(pc, uint32_t(__builtin_ctz(active)), "the platform's memory did not take the instruction's stores back");
}

void Warp::Impl::memory(const Instruction& in, uint32_t pc, uint32_t active, StepResult& res) {
  if (global_fast(in, active, res) || shared_fast(in, active, res) || local_fast(in, active, res) ||
      uniform_load(in, pc, active, res))
    return;
  const uint32_t elem = type_bytes(in.type), bytes = elem * in.vec;
  const int shift = sign_shift(in, elem);
  const uint64_t* base = in.has_base ? row(in.base) : nullptr;
  const uint32_t segment_bytes = load_segment_bytes(in, bytes);
  const bool split_atomics = rules.split_atomic_conflicts && in.op == Op::Atom;
  const bool store_sectors = rules.store_sectors && in.op == Op::St;
  if (store_sectors) res.sectors.fill(0);
  uint32_t n_words = 0, n_atomic = 0;
  bool any_off_chip = false;  // a generic access: a lane in global or local memory
  for (uint32_t lane = 0; lane < 32; ++lane) {
    if (!((active >> lane) & 1)) continue;
    const uint64_t addr = (base ? base[lane] : 0) + uint64_t(in.offset);
    const Resolved at = resolve(in, pc, lane, addr, bytes);
    any_off_chip |= at.space != Space::Shared;
    if (split_atomics && at.space == Space::Global) {
      atomic_addresses[n_atomic++] = at.offset;
    } else {
      note_timing(at, lane, bytes, segment_bytes, res, n_words);
      if (store_sectors && at.space == Space::Global) mark_sectors(at.offset, bytes, res);
    }
    if (in.op != Op::Atom) {
      access_lane(in, lane, at.ptr, elem, shift);
      continue;
    }
    by_type(in.type, [&](auto zero) {  // lanes apply in ascending order
      using T = decltype(zero);
      if constexpr (sizeof(T) >= 4) {
        T old, b = get<T>(row(in.src[0])[lane]);
        T c = in.n_src > 1 ? get<T>(row(in.src[1])[lane]) : T(0);
        std::memcpy(&old, at.ptr, sizeof(T));
        T next = atomic_apply(in.mode, old, b, c);
        std::memcpy(at.ptr, &next, sizeof(T));
        if (in.n_dst) row(in.dst[0])[lane] = put<T>(old);
      }
    });
  }
  if (n_words) res.shared_cycles = bank_conflict_degree(n_words);  // bank conflicts
  if (n_atomic) atomic_transactions(n_atomic, res);
  // Generic: each lane in its own space. Any global or local lane makes it a memory instruction for the
  // LSU (its shared lanes, if any, in shared_cycles); only shared lanes, a shared access.
  if (in.space == Space::Generic && active) {
    res.cls = !any_off_chip     ? TimingClass::Shared
              : in.op == Op::Ld ? TimingClass::Load
              : in.op == Op::St ? TimingClass::Store
                                : TimingClass::Atomic;
  }
}

// The 32 B sectors of [address, address + bytes) into the sector masks of their listed lines.
void Warp::Impl::mark_sectors(uint64_t address, uint32_t bytes, StepResult& res) {
  for (uint64_t s = address / 32; s <= (address + bytes - 1) / 32; ++s) {
    const uint64_t l = line.div(s * 32);
    for (uint32_t i = 0; i < res.n_lines; ++i) {
      if (res.lines[i] != l) continue;
      res.sectors[i] |= uint8_t(1u << (line.mod(s * 32) / 32 % 8));
      break;
    }
  }
}

// The transactions of a global atomic's lanes (atomic_addresses[0, n), lane order) as GPGPU-Sim's
// coalescer makes them (memory_coalescing_arch_atomic): the k-th lane on an address joins its line's k-th
// transaction, which is listed as its line with the 32 B sectors its lanes touch. Atomics are aligned, so
// none spans two sectors.
void Warp::Impl::atomic_transactions(uint32_t n, StepResult& res) {
  std::array<uint32_t, 32> depth;  // per lane: earlier lanes on its address
  for (uint32_t i = 0; i < n; ++i) {
    depth[i] = 0;
    for (uint32_t j = 0; j < i; ++j) depth[i] += atomic_addresses[j] == atomic_addresses[i];
  }
  res.n_lines = 0;
  for (uint32_t i = 0; i < n; ++i) {
    const uint64_t l = line.div(atomic_addresses[i]);
    const uint8_t sector = uint8_t(1u << (line.mod(atomic_addresses[i]) / 32 % 8));
    uint32_t k = 0;
    while (k < res.n_lines && !(res.lines[k] == l && segments[k] == depth[i])) ++k;
    if (k == res.n_lines) {  // at most one per lane: never saturates
      res.lines[k] = l;
      res.sectors[k] = 0;
      segments[k] = depth[i];  // the transaction's index within its line
      ++res.n_lines;
    }
    res.sectors[k] |= sector;
  }
}

// PTX shfl: lane j = source by mode, clamped by c (segment mask c[12:8],
// clamp c[4:0]); out-of-range, inactive or non-member sources read their own value.
void Warp::Impl::shuffle(const Instruction& in, uint32_t active) {
  const uint64_t *a = row(in.src[0]), *b = row(in.src[1]);
  const uint64_t *c = row(in.src[2]), *member = row(in.src[3]);
  std::array<uint64_t, 32> out;
  uint32_t valid = 0;
  for (int lane = 0; lane < 32; ++lane) {
    if (!((active >> lane) & 1)) continue;
    const int bval = int(uint32_t(b[lane])), cval = int(c[lane] & 0x1f), seg = int((c[lane] >> 8) & 0x1f);
    const int max_lane = (lane & seg) | (cval & ~seg), min_lane = lane & seg;
    int j = lane;
    bool ok = false;
    switch (in.mode) {
      case Mode::Up: j = lane - bval, ok = j >= max_lane; break;
      case Mode::Down: j = lane + bval, ok = j <= max_lane; break;
      case Mode::Bfly: j = lane ^ bval, ok = j <= max_lane; break;
      default: j = min_lane | (bval & ~seg), ok = j <= max_lane; break;
    }
    const uint32_t members = uint32_t(member[lane]) & active;
    if (!ok || j < 0 || j > 31 || !((members >> j) & 1) || !((members >> lane) & 1)) j = lane;
    out[size_t(lane)] = a[j];
    valid |= uint32_t(ok) << lane;
  }
  uint64_t* d = row(in.dst[0]);
  for (int l = 0; l < 32; ++l)
    if ((active >> l) & 1) d[l] = out[size_t(l)];
  if (in.has_dst2) write_pred(preds[in.dst2], valid, active);
}

void Warp::Impl::vote(const Instruction& in, uint32_t active) {
  const uint32_t members = active & uint32_t(row(in.src[1])[uint32_t(__builtin_ctz(active))]);
  const uint32_t p = (in.src_negated ? ~preds[in.src[0]] : preds[in.src[0]]) & members;
  if (in.mode == Mode::Ballot) {
    uint64_t* d = row(in.dst[0]);
    for (int l = 0; l < 32; ++l)
      if ((active >> l) & 1) d[l] = p;
    return;
  }
  bool result = in.mode == Mode::All ? p == members : in.mode == Mode::Any ? p != 0 : (p == 0 || p == members);
  write_pred(preds[in.dst[0]], result ? ~0u : 0u, active);
}

Warp::Warp() : impl_(std::make_unique<Impl>()) {}
Warp::~Warp() = default;
Warp::Warp(Warp&&) noexcept = default;
Warp& Warp::operator=(Warp&&) noexcept = default;

// Inline: every step() ends with it.
[[gnu::always_inline]] inline void Warp::update_cursor() {
  const Impl& w = *impl_;
  cursor_.done = w.stack.empty();
  cursor_.pc = cursor_.done ? 0 : w.stack.back().pc;
  cursor_.info = cursor_.pc < w.kernel->info.size() ? &w.kernel->info[cursor_.pc] : nullptr;
}
void Warp::start(CtaState& cta, uint32_t warp, uint32_t smid, uint32_t line_bytes, CoalescingRules rules) {
  impl_->start(cta, warp, smid, line_bytes, rules);
  update_cursor();
}
void Warp::fell_off_end() const {
  impl_->fault(cursor_.pc - 1, uint32_t(__builtin_ctz(impl_->stack.back().mask)), "fell off the end of the kernel");
}
StepResult Warp::step(uint64_t clock) {
  const StepResult r = impl_->step(clock);
  update_cursor();
  return r;
}
uint64_t Warp::executed() const { return impl_->executed; }

}  // namespace gpupm::ptx
