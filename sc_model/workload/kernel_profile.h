// A kernel described statistically. The generator (warp_stream.h) turns it into
// per-warp instruction and address streams; nothing here names a category or a
// speed-up: how a kernel behaves emerges from these streams in the model.
#pragma once

#include "gpupm/common/json_fwd.h"
#include "gpupm/common/param.h"

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace gpupm {

namespace ptx {
struct LaunchState;
}

struct InstructionMix {
  double alu_per_mem = 8.0;           // ALU/SFU instructions per memory instruction
  double sfu_fraction = 0.0;          // of the non-memory instructions
  double store_fraction = 0.0;        // of the memory instructions
  uint32_t mem_burst = 1;             // memory instructions issued back to back (memory-level parallelism)
  double alu_run_jitter = 0.5;        // ALU runs vary uniformly by +-this fraction of their mean
  uint32_t dep_min = 1, dep_max = 4;  // an instruction reads the result of the one dep instructions earlier
  uint32_t barrier_interval = 0;      // a CTA barrier every N instructions (0: none)
  // SIMD divergence: the fraction of ALU/SFU instructions issued under a divergent
  // branch, which run both paths one after the other with half the lanes each.
  double divergence = 0.0;
};

struct MemoryPattern {
  uint32_t lines_per_access = 1;  // coalescing: 128 B lines touched by one warp instruction
  // Weights of the address sources (normalised):
  double stream = 1.0;        // unique, sequential per CTA (no reuse)
  double warp_reuse = 0.0;    // random line of a private per-warp set
  double cta_reuse = 0.0;     // random line of a per-CTA set shared by its warps
  double global_reuse = 0.0;  // random line of a set shared by the whole kernel
  uint64_t warp_set_bytes = 1024;
  uint64_t cta_set_bytes = 8192;
  uint64_t global_set_bytes = 65536;
};

struct Phase {
  double fraction = 1.0;  // share of each warp's instructions
  InstructionMix mix;
  MemoryPattern memory;
};

constexpr uint64_t kInstBytes = 8;  // one SASS instruction (Fermi: 64 bits)

// One launch (invocation) of a kernel, fully resolved.
// Ranges [address, address + bytes) a program's host wrote to the GPU's memory, in order.
using HostCopies = std::vector<std::pair<uint64_t, uint64_t>>;

struct KernelLaunch {
  std::string name;  // kernel name
  // For people (listed by `gpupm params --workload`); the model never reads them.
  std::string description;
  double kernel_fraction = 0.0;  // the kernel's share of its application (paper tables)
  uint32_t launch = 0;           // invocation index within the kernel
  uint32_t kernel_index = 0;     // unique across the workload (over all applications)
  uint32_t app = 0;              // application (index in Workload::apps) this launch belongs to
  uint32_t grid_ctas = 1;
  uint32_t warps_per_cta = 1;
  uint32_t max_ctas_per_sm = 1;  // resource limit (registers/shared memory)
  uint32_t l1_ways = 0;          // a unified L1/shared array: the L1 ways its carve-out leaves (0: all)
  uint64_t insts_per_warp = 1000;
  uint32_t long_ctas = 0;  // the first long_ctas CTAs run long_cta_scale x longer
  double long_cta_scale = 1.0;
  std::vector<Phase> phases;
  // Instruction footprint: the kernel's code, looped over by every warp
  // (instruction i at byte (i * kInstBytes) mod code_bytes). 0: not modelled,
  // every fetch hits (the instruction cache never misses).
  uint64_t code_bytes = 0;
  uint64_t code_base = 0;  // the code's region, in lines (shared by the kernel's launches)
  // Registers the compiled kernel uses (occupancy inputs, GCN terms): vector
  // registers per work-item (of 256) and scalar registers per wavefront (of 102);
  // 0: not given. The occupancy itself is max_ctas_per_sm.
  uint32_t vgprs = 0, sgprs = 0;
  uint64_t seed = 1;
  uint64_t address_base = 0;  // unique region per launch, in lines
  uint64_t stream_lines = 0;  // offsets inside the launch region, in lines
  uint64_t warp_sets_base = 0;
  uint64_t cta_sets_base = 0;
  uint64_t kernel_base = 0;  // region shared by all launches of the kernel, in lines
  // A real program's launch (program workloads, program/): the SMs execute its
  // PTX instead of generating a stream from the profile fields above.
  std::shared_ptr<const ptx::LaunchState> program;
  // Program launches: what the host wrote before this launch and after the previous one (every buffer
  // before a pass's first launch, a while_nonzero flag before each of its launches).
  HostCopies host_copies;
  std::array<uint32_t, 3> grid_dim{}, block_dim{};  // program launches: as launched
  mutable uint64_t executed_insts = 0;              // program launches: warp instructions, counted at issue
};

// A host program that decides each launch when the previous one has finished
// (program workloads: `repeat`, `while_nonzero`).
class LaunchSource {
 public:
  virtual ~LaunchSource() = default;
  // The next launch, or null when the program is done.
  virtual std::shared_ptr<const KernelLaunch> next() = 0;
  virtual size_t planned_launches() const = 0;  // for progress displays (while_nonzero counts once)
};

// One application: a sequence of kernel launches run one after another.
struct Application {
  std::string name;
  std::vector<std::shared_ptr<const KernelLaunch>> launches;  // in program order
  std::shared_ptr<LaunchSource> source;                       // a program: launches come from here instead
};

// At most this many kernel launches in one workload (repeat, launches and
// iterations multiply): more would take minutes just to read.
constexpr uint64_t kMaxWorkloadLaunches = 1000000;

struct Workload {
  std::string name;
  std::vector<std::shared_ptr<const KernelLaunch>> launches;  // all launches: app 0's, then app 1's
  uint32_t kernel_count = 0;
  // The applications. The "kernels" form gives one application named after the
  // workload; the "apps" form gives 1 or 2, which the GWDE runs concurrently on
  // disjoint SM sets. Empty (hand-built workloads): one application, `launches`.
  std::vector<Application> apps;
  bool apps_form = false;  // written with "apps": the report then names each kernel's app
  // Two applications as a queue pair ("respawn": true): an app that finishes its
  // kernels while the other still runs starts them again; the run ends when both
  // have finished their kernels once (the slower app's end).
  bool respawn = false;
};

// The profile fields (common/param.h). A kernel entry's "mix" and "memory"
// describe `single`, its one phase when it gives no "phases".
void describe(ParamVisitor& v, InstructionMix& m);
void describe(ParamVisitor& v, MemoryPattern& p);
void describe(ParamVisitor& v, Phase& ph);
void describe_kernel(ParamVisitor& v, KernelLaunch& k, Phase& single);

// Warp instructions a launch executes (every warp of every CTA, long CTAs scaled
// as the warp stream does; a program launch: those executed so far).
uint64_t launch_instructions(const KernelLaunch& k);

// Parses and validates a workload document. "iterations": N (top level, or per
// application) runs the kernels list N times, iteration i running launch i of
// each kernel (a kernel then has N launches: repeat N, N "launches" patches, or
// neither; or "repeat": 1, a one-off kernel of the first iteration, e.g. initialisation). Limits that depend on the GPU
// (warps per CTA against SM capacity) are checked by validate_against().
Workload parse_workload(const Json& doc, const std::string& file, uint64_t seed);

}  // namespace gpupm
