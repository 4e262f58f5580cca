// PTX programs: the parsed module (kernels, pre-decoded instructions, the CFG's
// reconvergence points) and the per-warp functional executor the SM drives at
// issue. No SystemC here: the SM (sm/) asks a warp for the static view of its
// next instruction (operand registers, timing class) and executes it when the
// timing model issues it. Device memory is functional and shared by all CTAs.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace gpupm::ptx {

// A PTX text that cannot be parsed or uses an unsupported instruction: the
// message names file:line:column, the token and the supported set (exit 2).
struct ParseError : std::runtime_error {
  using std::runtime_error::runtime_error;
};
// A fault while executing (out of bounds, misaligned, runaway loop, a barrier
// some warps never reach): the message names kernel, CTA, warp, lane, PC, the
// PTX line and the address (a run failure, exit 1).
struct ExecError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// What an instruction occupies in the SM's timing model.
enum class TimingClass : uint8_t {
  Alu,      // integer/float arithmetic, logic, compare, select, move, convert, branch, exit, ld.param/ld.const
  Sfu,      // transcendental (ex2/lg2/sin/cos), rcp, sqrt, rsqrt, div.f32/f64
  Load,     // ld.global / ld.local (and generic ld resolving to them)
  Store,    // st.global / st.local
  Atomic,   // atom/red on global memory (performed at the L2)
  Shared,   // ld/st/atom on shared memory (banked)
  Barrier,  // bar.sync / barrier.sync
};

// What an ALU instruction's latency and issue interval depend on (SmConfig::opcode_timing): its
// operation group (GPGPU-Sim's opcode classes add/sub, min/max, mul, mad and div (integer: div.f32/f64
// are SFU instructions), fma apart, the rest "other") and its type.
enum class AluGroup : uint8_t { AddSub, MinMax, Mul, Mad, Div, Fma, Other };
enum class AluType : uint8_t { Int, F32, F64 };
constexpr size_t kAluGroups = 7, kAluTypes = 3;

enum class ScalarType : uint8_t { B8, B16, B32, B64, U8, U16, U32, U64, S8, S16, S32, S64, F32, F64, Pred };
uint32_t type_bytes(ScalarType t);
const char* type_name(ScalarType t);  // "u32" (without the dot)

struct Param {
  std::string name;
  ScalarType type;
  uint32_t size = 0;    // bytes
  uint32_t offset = 0;  // in the kernel's parameter buffer (natural alignment)
};

// The static view of one decoded instruction (what the SM's scoreboard sees).
struct InstInfo {
  TimingClass cls = TimingClass::Alu;
  uint8_t n_src = 0, n_dst = 0;
  std::array<uint16_t, 8> src{};  // dense register ids read (guard predicate and address registers included)
  std::array<uint16_t, 4> dst{};  // dense register ids written
  uint8_t n_bank_src = 0;         // src[0..n_bank_src) are in the register file (not predicates), in operand order
  uint8_t n_bank_dst = 0;         // dst[0..n_bank_dst) likewise
  uint32_t line = 0;              // line in the PTX file (for messages)
  bool gpu_fence = false;         // membar.gl/.sys, fence at .gpu/.sys scope: orders memory beyond the SM
  AluGroup alu_group = AluGroup::Other;  // cls Alu: the timing it takes
  AluType alu_type = AluType::Int;
};

struct Instruction;  // the decoded form; defined in ptx_decoded.h
struct KernelExtra;  // per-kernel decode tables (hidden constant slots, texts); ptx_decoded.h

struct Kernel {
  std::string name;
  std::vector<Param> params;
  uint32_t param_bytes = 0;
  uint32_t num_regs = 0;             // dense register ids 0..num_regs-1 (all classes, predicates included)
  uint32_t regs_per_thread = 0;      // occupancy estimate: most 32-bit words live at once, +1 (ptx_registers.cc)
  uint32_t register_slots = 0;       // rows of a warp's register file the declared registers share (ptx_registers.cc)
  uint32_t shared_static_bytes = 0;  // static .shared variables
  bool uses_dynamic_shared = false;  // an .extern .shared array
  uint32_t local_bytes = 0;          // per-thread .local depot
  std::vector<InstInfo> info;        // per instruction index (PC)
  std::vector<Instruction> code;     // same indices
  std::map<std::string, uint32_t> opcode_families;  // family name ("fma", "ld.global", ...) -> static count
  std::string file;
  std::unique_ptr<KernelExtra> extra;  // implementation tables used by Warp

  // The PC of the first instruction on PTX line `line` (~0u if none): for tests and messages.
  uint32_t pc_of_line(uint32_t line) const;
  // The instruction's text as written (opcode with modifiers), for listings and messages.
  const std::string& text_of(uint32_t pc) const;
  // Where the instruction comes from, for messages: "saxpy.cu:4" when the PTX
  // carries its source line (.loc/.file), else "FILE.ptx:LINE".
  std::string where(uint32_t pc) const;

  Kernel();
  ~Kernel();
  Kernel(Kernel&&) noexcept;
  Kernel& operator=(Kernel&&) noexcept;
};

struct Module {
  std::string file;
  std::string version, target;
  std::vector<std::unique_ptr<Kernel>> kernels;
  const Kernel* find(const std::string& name) const;  // null if absent
  // Module-scope .global / .const variables get device addresses when a program
  // is loaded (DeviceMemory::allocate); their names and initialisers:
  struct Variable {
    std::string name;
    bool is_const = false;
    uint32_t align = 4;
    std::vector<uint8_t> init;  // size = variable size; zeros when not initialised
  };
  std::vector<Variable> variables;
  // Gives the source file the line directives call `from` (a compiled .cu's
  // stand-in name) the name `to` in every kernel's messages.
  void rename_source(const std::string& from, const std::string& to);
};

// Parses PTX text; `file` names it in messages. Throws ParseError.
std::unique_ptr<Module> parse(const std::string& text, const std::string& file);

// Device global memory: allocations at 256-byte-aligned addresses, bounds-checked.
class DeviceMemory {
 public:
  static constexpr uint64_t kBase = 0x10000000;  // first allocation (256 MiB): far from address 0
  explicit DeviceMemory(uint64_t base = kBase) : next_(base) {}
  // Returns the device address of a new zeroed allocation of `bytes` (>0).
  uint64_t allocate(uint64_t bytes, const std::string& name);
  uint8_t* data(uint64_t addr);  // start of an allocation
  uint64_t size(uint64_t addr) const;
  // Null if [addr, addr+bytes) is not inside one allocation.
  uint8_t* find(uint64_t addr, uint32_t bytes);
  uint64_t symbol(const std::string& name) const;  // module variables after load(); ~0 if absent
  void load(const Module& m);                      // allocates and initialises the module's .global/.const variables
  uint64_t end() const { return next_; }           // one past the last allocation

 private:
  struct Alloc {
    uint64_t addr;
    std::vector<uint8_t> bytes;
    std::string name;
  };
  std::vector<Alloc> allocs_;  // sorted by addr
  std::map<std::string, uint64_t> symbols_;
  uint64_t next_;
  size_t last_ = ~size_t(0);  // the allocation find() hit last
};

// With platform data (docs/embedding.md, "Data through the sockets") a
// program's global memory is the platform's, except the GPU's own window at
// kGpuWindow and above: the module's __device__ and __constant__ variables,
// which the GPU keeps (a DeviceMemory based there).
constexpr uint64_t kGpuWindow = uint64_t(0xFF) << 32;

// The platform's memory as a program's global memory. An instruction asks for
// host bytes standing for each access's addresses (begin_access) and uses them
// before it asks for the next; at its end (end_access) what it wrote reaches
// the platform. One instruction of an SM at a time.
class PlatformMemory {
 public:
  virtual ~PlatformMemory() = default;
  // Host bytes standing for [addr, addr + bytes) as SM `sm` reaches them, to
  // read or (write) to read and write; valid until the SM's next begin_access
  // or end_access. Null: no memory answers there (a fault of the program).
  virtual uint8_t* begin_access(uint32_t sm, uint64_t addr, uint32_t bytes, bool write) = 0;
  // The instruction is done: its writes go to the platform. False if the
  // platform's memory did not take them all (a fault of the program).
  virtual bool end_access(uint32_t sm) = 0;
  // Reads [addr, addr + bytes) now (a launch's parameter block); false if not all could be read.
  virtual bool read(uint64_t addr, uint8_t* out, uint32_t bytes) = 0;
};

struct Dim3 {
  uint32_t x = 1, y = 1, z = 1;
  uint64_t count() const { return uint64_t(x) * y * z; }
};

// What a launch may execute before it is a runaway (gpu.sim.max_warp_insts and
// gpu.sim.warp_insts_per_grid_warp, docs/real_kernels.md): one warp at most
// max_warp_insts; the launch as a whole warp_insts_per_grid_warp per warp of
// its grid, and never less than one warp may. Deterministic, unlike a clock:
// a runaway stops at the same instruction on every host.
struct RunawayBounds {
  uint64_t max_warp_insts = 100000000;
  uint64_t warp_insts_per_grid_warp = 1000000;
  uint64_t launch_budget(uint64_t grid_warps) const;  // saturating
};

// One kernel launch's constant state, shared by its CTAs.
struct LaunchState {
  const Kernel* kernel = nullptr;
  Dim3 grid, block;
  uint32_t dynamic_shared_bytes = 0;
  std::vector<uint8_t> params;  // param_bytes, filled by the caller
  DeviceMemory* memory = nullptr;
  PlatformMemory* platform = nullptr;  // set: global addresses below kGpuWindow are the platform's
  uint64_t local_base = 0;             // timing address of this launch's local memory (interleaved per lane)
  uint64_t max_warp_insts = RunawayBounds().max_warp_insts;  // per warp: more is a runaway (ExecError)
  uint64_t max_launch_insts = ~uint64_t(0);                  // all warps together: bounds.launch_budget(grid_warps)
  RunawayBounds bounds;                                      // what max_launch_insts came from (for the message)
  uint64_t grid_warps = 0;
  mutable uint64_t executed = 0;  // warp instructions of all warps so far
  // The 32-lane rows of the kernel's hidden slots that every warp reads alike (immediates, symbol
  // addresses), made by the launch's first warp (Warp::start) and read by all.
  mutable std::vector<uint64_t> hidden_rows;
};

// One CTA's shared memory (static + dynamic) and its identity.
struct CtaState {
  const LaunchState* launch = nullptr;
  uint32_t cta = 0;  // linear index in the grid
  Dim3 cta_id;
  std::vector<uint8_t> shared;
  void start(const LaunchState& l, uint32_t linear_cta);
};

// GPGPU-Sim's Fermi coalescer where it differs from one access per distinct line.
struct CoalescingRules {
  // A global load of 1-byte (2-byte) lanes is an L1 access per distinct 32 B (64 B) segment.
  bool narrow_load_segments = false;
  // A global atomic is one transaction per set of lanes on distinct bytes of a line (the k-th lane on an
  // address goes to the line's k-th): lanes on one address serialise as separate requests.
  bool split_atomic_conflicts = false;
  // A global store's line carries the 32 B sectors its lanes write (GPGPU-Sim sends a store's bytes, sized to
  // the segment, and its L2 looks up only those sectors).
  bool store_sectors = false;
};

// What executing one instruction did, for the timing model.
struct StepResult {
  TimingClass cls = TimingClass::Alu;
  uint32_t active = 0;  // lanes that executed (guard applied)
  // Load/Store/Atomic: its L1 accesses, in first-lane order: the distinct `line_bytes` lines touched, or
  // with narrow_load_segments a narrow load's line once per distinct segment it touches there.
  uint32_t n_lines = 0;
  std::array<uint64_t, 32> lines;  // line numbers (address / line_bytes): the first n_lines are set
  // Atomic with split_atomic_conflicts: lines[i] is one transaction (its own L2 request) and touches these
  // 32 B sectors of its line (bit per sector); Store with store_sectors: the sectors written in lines[i].
  std::array<uint8_t, 32> sectors;
  // Shared: bank-conflict degree (1 = conflict free or broadcast); a generic Load/Store/Atomic whose lanes
  // are partly in shared memory: that of those lanes (0: none there).
  uint32_t shared_cycles = 0;
  bool exited = false;  // the warp has no lanes left
};

// One warp: registers (32 lanes), the SIMT reconvergence stack, local memory.
class Warp {
 public:
  Warp();
  ~Warp();
  Warp(Warp&&) noexcept;
  Warp& operator=(Warp&&) noexcept;
  // warp: index within the CTA; smid reported by %smid; line_bytes: coalescing granularity;
  // rules: how accesses coalesce beyond distinct lines (CoalescingRules).
  void start(CtaState& cta, uint32_t warp, uint32_t smid, uint32_t line_bytes, CoalescingRules rules = {});
  bool done() const { return cursor_.done; }
  uint32_t pc() const { return cursor_.pc; }  // next instruction's index (valid when !done())
  const InstInfo& next() const {              // its static view
    if (!cursor_.info) fell_off_end();
    return *cursor_.info;
  }
  // Executes the next instruction; `clock` is the value %clock/%clock64 read.
  // Throws ExecError on a fault.
  StepResult step(uint64_t clock);
  uint64_t executed() const;  // warp instructions executed so far

 private:
  struct Impl;
  // The SM asks for the next instruction several times per step: kept here,
  // inline, and updated by start() and step().
  struct Cursor {
    uint32_t pc = 0;
    const InstInfo* info = nullptr;  // null: past the kernel's end
    bool done = true;
  };
  inline void update_cursor();             // defined in ptx_exec.cc
  [[noreturn]] void fell_off_end() const;  // what step() would report, before the SM asks for timing
  std::unique_ptr<Impl> impl_;
  Cursor cursor_;
};

}  // namespace gpupm::ptx
