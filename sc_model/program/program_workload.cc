#include "gpupm/program/program_workload.h"

#include "gpupm/common/param_reader.h"
#include "gpupm/common/rng.h"
#include "gpupm/program/cuda_compiler.h"
#include "gpupm/program/npy.h"
#include "gpupm/program/buffer_types.h"
#include "gpupm/program/program_workload_params.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <functional>
#include <fstream>
#include <limits>
#include <sstream>

namespace gpupm {

namespace fs = std::filesystem;

namespace {

// Where the timing model sees code and local memory: far above the buffers
// (ptx::DeviceMemory starts at 256 MiB) and inside the 2^40-byte space.
constexpr uint64_t kLocalBase = uint64_t(1) << 37;
constexpr uint64_t kCodeBase = uint64_t(1) << 38;
ptx::Dim3 dim3_of(const std::vector<uint32_t>& d) { return {d[0], d.size() > 1 ? d[1] : 1, d.size() > 2 ? d[2] : 1}; }

using LaunchFail = std::function<void(const std::string& key, const std::string& what)>;

// The parameter buffer of a launch: one arg per parameter, in order.
std::vector<uint8_t> encode_args(const std::vector<Json>& args, const LaunchFail& fail, const ptx::Kernel& k,
                                 const std::vector<BufferSpec>& buffers,
                                 std::vector<std::pair<uint32_t, size_t>>& buffer_args) {
  if (args.size() != k.params.size())
    fail("args", "expected an array of " + std::to_string(k.params.size()) + " values (kernel " + k.name + " has " +
                     std::to_string(k.params.size()) + " parameters)");
  std::vector<uint8_t> bytes(k.param_bytes, 0);
  for (size_t i = 0; i < args.size(); ++i) {
    const ptx::Param& p = k.params[i];
    const std::string key = "args[" + std::to_string(i) + "]";
    if (args[i].is_string()) {
      const std::string name = args[i].get<std::string>();
      size_t b = 0;
      while (b < buffers.size() && buffers[b].name != name) ++b;
      if (b == buffers.size()) fail(key, "no buffer named \"" + name + "\"");
      if (p.size != 8)
        fail(key,
             "a buffer's address needs a 64-bit parameter; " + p.name + " has " + std::to_string(p.size) + " bytes");
      buffer_args.push_back({p.offset, b});
      continue;
    }
    if (p.size != ptx::type_bytes(p.type))  // .param .b8 p[16]: a struct or array passed by value
      fail(key, "parameter " + p.name + " is a " + std::to_string(p.size) + "-byte aggregate (" +
                    std::to_string(p.size / ptx::type_bytes(p.type)) + " x ." + ptx::type_name(p.type) +
                    ", a struct or array passed by value), which a launch cannot pass; expected scalar "
                    "parameters (pass the struct's fields one by one, or its data in a buffer)");
    const ptx::ScalarType t = p.type;
    const bool is_float = t == ptx::ScalarType::F32 || t == ptx::ScalarType::F64;
    const bool is_signed =
        t == ptx::ScalarType::S8 || t == ptx::ScalarType::S16 || t == ptx::ScalarType::S32 || t == ptx::ScalarType::S64;
    encode_number(
        args[i], is_float, is_signed, p.size, bytes.data() + p.offset,
        [&](const std::string& what) { fail(key, what + " for parameter " + p.name); }, false);
  }
  return bytes;
}

}  // namespace

ProgramOccupancy program_occupancy(const SmConfig& sm, const LaunchSpec& l) {
  const uint64_t threads = l.block.count();
  const uint64_t warps = (threads + sm.warp_size - 1) / sm.warp_size;
  uint64_t fit = std::min<uint64_t>(sm.max_ctas, sm.max_warps / std::max<uint64_t>(1, warps));
  const uint64_t regs = l.regs_per_thread ? l.regs_per_thread : l.entry->regs_per_thread;
  if (regs > 0) fit = std::min<uint64_t>(fit, sm.registers / (regs * warps * sm.warp_size));
  const uint64_t shared = uint64_t(l.entry->shared_static_bytes) + l.shared_bytes;
  const SharedCarveout carve = choose_carveout(sm, shared, fit);
  if (shared > 0) fit = std::min<uint64_t>(fit, carve.shared_bytes / shared);
  return {uint32_t(fit), carve.l1_ways};
}

LaunchShapeProblem fit_launch(const SmConfig& sm, LaunchSpec& l) {
  if (!l.grid.x || !l.grid.y || !l.grid.z || l.grid.x > 0x7fffffff || l.grid.y > 65535 || l.grid.z > 65535)
    return {"grid", "expected x in [1, 2^31 - 1], y and z in [1, 65535]"};
  // Each extent first: the product of three 32-bit extents would wrap.
  const uint32_t most = sm.max_threads_per_cta;
  if (!l.block.x || !l.block.y || !l.block.z || l.block.x > most || l.block.y > most || l.block.z > most)
    return {"block", "expected each dimension in [1, " + std::to_string(most) + "] (gpu.sm.max_threads_per_cta)"};
  if (l.grid.count() > 0xffffffffull) return {"grid", "expected at most 2^32 - 1 CTAs"};
  if (l.block.count() > sm.max_threads_per_cta || l.block.count() > uint64_t(sm.max_warps) * sm.warp_size)
    return {"block",
            "expected at most " +
                std::to_string(std::min<uint64_t>(sm.max_threads_per_cta, uint64_t(sm.max_warps) * sm.warp_size)) +
                " threads per CTA (gpu.sm.max_threads_per_cta, gpu.sm.max_warps x 32)"};
  if (l.shared_bytes > sm.shared_bytes)
    return {"shared_bytes", "expected an integer in [0, " + std::to_string(sm.shared_bytes) +
                                "] (gpu.sm.shared_bytes), got " + std::to_string(l.shared_bytes)};
  if (l.shared_bytes > 0 && !l.entry->uses_dynamic_shared)
    return {"shared_bytes", "kernel " + l.kernel + " declares no extern __shared__ array"};
  const ProgramOccupancy occupancy = program_occupancy(sm, l);
  l.max_ctas_per_sm = occupancy.ctas;
  l.l1_ways = occupancy.l1_ways;
  if (l.max_ctas_per_sm == 0)
    return {"block",
            "one CTA needs more than an SM has: " + std::to_string(l.entry->shared_static_bytes + l.shared_bytes) +
                " B shared memory of " + std::to_string(sm.shared_bytes) + ", " +
                std::to_string(l.regs_per_thread ? l.regs_per_thread : l.entry->regs_per_thread) +
                " registers per thread x " + std::to_string(l.block.count()) + " threads of " +
                std::to_string(sm.registers)};
  return {};
}

namespace {

// One program with its buffers and launches (the document, or one of its apps
// at JSON path `at`), as read from `origin`.
std::shared_ptr<ProgramHost> load_program(const ProgramParams& p, const std::string& at, const std::string& origin,
                                          const fs::path& dir, const SmConfig& sm, uint32_t first_kernel, uint32_t app,
                                          const ptx::RunawayBounds& bounds) {
  const LaunchFail fail_at = [&](const std::string& key, const std::string& what) {
    throw InputError(origin, at.empty() ? key : at + "." + key, what);
  };
  const fs::path program = dir / p.program;
  if (const std::string problem = regular_file_problem(program.string()); !problem.empty())
    fail_at("program", program.string() + ": " + problem);
  std::string ptx_file;
  if (program.extension() == ".cu") {
    ptx_file = compile_cuda_to_ptx(program.string());
  } else if (program.extension() == ".ptx") {
    ptx_file = program.string();
  } else {
    fail_at("program", "expected a .cu (CUDA C++) or .ptx file, got " + program.string());
  }
  std::unique_ptr<ptx::Module> module;
  try {
    module = ptx::parse(read_input_file(ptx_file), program.extension() == ".ptx" ? program.string() : ptx_file);
  } catch (const ptx::ParseError& e) {
    fail_at("program", e.what());
  }
  module->rename_source(kCompiledSource, program.string());
  const std::vector<BufferSpec>& buffers = p.buffers;
  std::vector<LaunchSpec> launches;
  uint64_t planned = 0;
  for (size_t i = 0; i < p.launches.size(); ++i) {
    const ProgramLaunchParams& d = p.launches[i];
    LaunchSpec l;
    l.path = "launches[" + std::to_string(i) + "]";
    const LaunchFail fail = [&](const std::string& key, const std::string& what) { fail_at(l.path + "." + key, what); };
    l.kernel = d.kernel;
    l.entry = module->find(l.kernel);
    if (!l.entry) {
      std::string names;
      for (const auto& k : module->kernels) names += (names.empty() ? "" : ", ") + k->name;
      fail("kernel", "no .entry named \"" + l.kernel + "\" in " + program.string() + " (it has: " + names +
                         "; declare kernels extern \"C\" for plain names)");
    }
    l.grid = dim3_of(d.grid);
    l.block = dim3_of(d.block);
    l.shared_bytes = d.shared_bytes;
    l.regs_per_thread = d.regs_per_thread;
    if (const LaunchShapeProblem problem = fit_launch(sm, l); !problem.key.empty()) fail(problem.key, problem.what);
    l.params = encode_args(d.args, fail, *l.entry, buffers, l.buffer_args);
    if (!d.while_buffer.empty()) {
      for (size_t b = 0; b < buffers.size(); ++b)
        if (buffers[b].name == d.while_buffer) l.while_buffer = int(b);
      if (l.while_buffer < 0) fail("while_nonzero.buffer", "no buffer named \"" + d.while_buffer + "\"");
      l.while_max = d.while_max;
    } else {
      l.repeat = d.repeat;
    }
    planned += l.while_buffer >= 0 ? l.while_max : l.repeat;
    if (planned > kMaxWorkloadLaunches)
      fail(l.while_buffer >= 0 ? "while_nonzero" : "repeat",
           "a program may launch at most " + std::to_string(kMaxWorkloadLaunches) +
               " kernels in all (repeat and while_nonzero max added up)");
    launches.push_back(std::move(l));
  }
  std::vector<std::string> inputs = {program.string()};
  for (const BufferSpec& b : buffers)
    if (b.init.is_file()) inputs.push_back((fs::path(b.dir) / b.init.file).string());
  auto host = std::make_shared<ProgramHost>(p.name, std::move(module), buffers, std::move(launches), first_kernel, app,
                                            sm.line_bytes, bounds);
  host->input_files = std::move(inputs);
  return host;
}

}  // namespace

bool is_program_workload(const Json& doc) {
  if (!doc.is_object()) return false;
  if (doc.contains("program")) return true;
  const Json* apps = doc.contains("apps") ? &doc.at("apps") : nullptr;
  return apps && apps->is_array() && !apps->empty() && apps->at(0).is_object() && apps->at(0).contains("program");
}

Workload load_program_workload(const Json& doc, const std::string& file, const std::string& origin, const SmConfig& sm,
                               const ptx::RunawayBounds& bounds, const std::string& inputs_dir) {
  JsonReader top(doc, origin, "");
  ProgramWorkloadParams params;
  const fs::path dir = fs::path(file).parent_path();
  params.dir = dir.string();
  params.inputs_dir = inputs_dir;
  read_params(top, params);
  top.finish();
  Workload w;
  w.name = params.main.name;
  w.respawn = params.respawn;
  if (params.apps.empty()) {
    w.apps.resize(1);
    w.apps[0].name = w.name;
    w.apps[0].source = load_program(params.main, "", origin, dir, sm, 0, 0, bounds);
    w.kernel_count = static_cast<const ProgramHost&>(*w.apps[0].source).kernel_count();
    return w;
  }
  // Two programs co-running on disjoint SM sets, each with its own device memory.
  w.apps_form = true;
  w.apps.resize(params.apps.size());
  for (size_t i = 0; i < params.apps.size(); ++i) {
    w.apps[i].name = params.apps[i].name;
    w.apps[i].source = load_program(params.apps[i], "apps[" + std::to_string(i) + "]", origin, dir, sm, w.kernel_count,
                                    uint32_t(i), bounds);
    w.kernel_count += static_cast<const ProgramHost&>(*w.apps[i].source).kernel_count();
  }
  return w;
}

// ---------------------------------------------------------------- host

ProgramHost::ProgramHost(std::string name, std::unique_ptr<ptx::Module> module, std::vector<BufferSpec> buffers,
                         std::vector<LaunchSpec> launches, uint32_t first_kernel_index, uint32_t app,
                         uint32_t line_bytes, const ptx::RunawayBounds& bounds)
    : name_(std::move(name)),
      module_(std::move(module)),
      buffers_(std::move(buffers)),
      launches_(std::move(launches)),
      first_kernel_index_(first_kernel_index),
      app_(app),
      line_bytes_(line_bytes),
      bounds_(bounds),
      end_entry_(launches_.size()) {
  for (size_t i = 0; i < buffers_.size(); ++i) {
    addresses_.push_back(memory_.allocate(buffers_[i].count * buffer_type(buffers_[i].type).bytes, buffers_[i].name));
    init_buffer(i);
  }
  copied_all_buffers();
  memory_.load(*module_);
  // Buffer arguments: the parameter bytes get the buffers' device addresses.
  for (LaunchSpec& l : launches_)
    for (const auto& [offset, buffer] : l.buffer_args) std::memcpy(l.params.data() + offset, &addresses_[buffer], 8);
  // Each kernel's code at its own place, in module order.
  uint64_t line = kCodeBase / line_bytes_;
  for (const auto& k : module_->kernels) {
    code_line_[k.get()] = line;
    line += (k->info.size() * kInstBytes + line_bytes_ - 1) / line_bytes_ + 1;
  }
  for (const LaunchSpec& l : launches_) {
    code_base_.push_back(code_line_[l.entry]);
    const auto known = std::find(kernel_names_.begin(), kernel_names_.end(), l.kernel);
    kernel_of_entry_.push_back(uint32_t(known - kernel_names_.begin()));
    if (known == kernel_names_.end()) kernel_names_.push_back(l.kernel);
  }
  invocations_.assign(kernel_names_.size(), 0);
}

void ProgramHost::init_buffer(size_t i) {
  const BufferSpec& b = buffers_[i];
  const BufferType& t = buffer_type(b.type);
  uint8_t* out = memory_.data(addresses_[i]);
  const BufferInit& in = b.init;
  auto fail = [&](const std::string& what) { throw InputError(b.name, "init", what); };
  if (in.is_file()) {
    const std::string file = (fs::path(b.dir) / in.file).string();
    NpyArray a = read_npy(file);
    if (a.dtype != t.dtype || a.count != b.count)  // checked when read: the file changed since
      throw InputError(file, "",
                       "changed since the workload was checked: now " + std::to_string(a.count) + " elements of " +
                           a.dtype + ", the buffer has " + std::to_string(b.count) + " of " + t.dtype);
    std::memcpy(out, a.bytes.data(), a.bytes.size());
    return;
  }
  if (in.is_fill()) {
    uint8_t v[8];
    encode_number(in.fill, t.is_float, t.is_signed, t.bytes, v, fail);
    for (uint64_t e = 0; e < b.count; ++e) std::memcpy(out + e * t.bytes, v, t.bytes);
    return;
  }
  if (in.is_iota()) {  // the bounds are read from JSON once, not per element
    if (t.is_float) {
      const double start = in.start.get<double>(), step = in.step.get<double>();
      for (uint64_t e = 0; e < b.count; ++e) encode_float(start + double(e) * step, t.bytes, out + e * t.bytes, fail);
    } else {  // integers wrap like the C types they fill (an iota may run past the type's range)
      const int64_t start = in.start.get<int64_t>(), step = in.step.get<int64_t>();
      for (uint64_t e = 0; e < b.count; ++e) {
        const uint64_t raw = uint64_t(start + int64_t(e) * step);
        std::memcpy(out + e * t.bytes, &raw, t.bytes);
      }
    }
    return;
  }
  if (!in.is_random()) return;  // allocations start zeroed
  // random: uniform from one xoshiro256** stream per buffer (docs/real_kernels.md).
  Rng rng(in.seed);
  if (t.is_float && t.bytes == 4) {
    const float lo = in.min.get<float>(), hi = in.max.get<float>();
    for (uint64_t e = 0; e < b.count; ++e) {
      const float f = lo + (hi - lo) * (float(rng.next() >> 40) * 0x1.0p-24f);
      std::memcpy(out + e * 4, &f, 4);
    }
  } else if (t.is_float) {
    const double lo = in.min.get<double>(), hi = in.max.get<double>();
    for (uint64_t e = 0; e < b.count; ++e) {
      const double d = lo + (hi - lo) * (double(rng.next() >> 11) * 0x1.0p-53);
      std::memcpy(out + e * 8, &d, 8);
    }
  } else {
    // Integers in [min, max]: the high 64 bits of u x span (Lemire's method, bias < 2^-64 x span).
    const __int128 lo =
        in.min.is_number_unsigned() ? __int128(in.min.get<uint64_t>()) : __int128(in.min.get<int64_t>());
    const __int128 hi =
        in.max.is_number_unsigned() ? __int128(in.max.get<uint64_t>()) : __int128(in.max.get<int64_t>());
    const unsigned __int128 span = (unsigned __int128)(hi - lo) + 1;
    for (uint64_t e = 0; e < b.count; ++e) {
      const __int128 v = lo + __int128(((unsigned __int128)rng.next() * span) >> 64);
      const uint64_t raw = uint64_t(v);
      std::memcpy(out + e * t.bytes, &raw, t.bytes);
    }
  }
}

bool ProgramHost::flag_set(size_t buffer) const {
  const BufferType& t = buffer_type(buffers_[buffer].type);
  const uint8_t* p = const_cast<ptx::DeviceMemory&>(memory_).data(addresses_[buffer]);
  if (t.is_float) {  // a float flag is a value: -0.0 is zero, NaN is not
    float f;
    double d;
    return t.bytes == 4 ? (std::memcpy(&f, p, 4), f != 0.0f) : (std::memcpy(&d, p, 8), d != 0.0);
  }
  uint64_t v = 0;
  std::memcpy(&v, p, t.bytes);
  return v != 0;
}

size_t ProgramHost::planned_launches() const {
  size_t n = 0;
  for (const LaunchSpec& l : launches_) n += l.while_buffer >= 0 ? 1 : l.repeat;
  return n;
}

void ProgramHost::use_platform_memory(ptx::PlatformMemory* platform, const SmConfig& sm) {
  platform_ = platform;
  sm_ = sm;
  memory_ = ptx::DeviceMemory(ptx::kGpuWindow);  // the module's variables only: the buffers are the platform's
  memory_.load(*module_);
  addresses_.clear();
  launches_.clear();  // the workload's entries do not run: the host's launches take entry 0 in turn
  code_base_.clear();
  kernel_of_entry_.clear();
  end_entry_ = 0;
}

uint32_t ProgramHost::param_bytes(uint32_t kernel) const {
  return module_->find(kernel_names_.at(kernel))->param_bytes;
}

LaunchShapeProblem ProgramHost::kernel_launch_problem(const KernelLaunchRequest& r) const {
  if (r.kernel >= kernel_names_.size())
    return {"kernel", "expected a kernel index below " + std::to_string(kernel_names_.size())};
  LaunchSpec l = kernel_launch_spec(r);
  return fit_launch(sm_, l);
}

LaunchSpec ProgramHost::kernel_launch_spec(const KernelLaunchRequest& r) const {
  LaunchSpec l;
  l.kernel = kernel_names_.at(r.kernel);
  l.entry = module_->find(l.kernel);
  l.grid = {r.grid[0], r.grid[1], r.grid[2]};
  l.block = {r.block[0], r.block[1], r.block[2]};
  l.shared_bytes = r.shared_bytes;
  l.params = r.params;
  l.path = "LAUNCH_KERNEL";
  return l;
}

// A host's launch runs as the one launches entry (the workload's are cleared).
void ProgramHost::begin_kernel_launch(const KernelLaunchRequest& r) {
  LaunchSpec l = kernel_launch_spec(r);
  if (!platform_ || !fit_launch(sm_, l).key.empty() || l.params.size() != l.entry->param_bytes)
    throw std::logic_error(name_ + ": a kernel launch nobody checked (ProgramHost::kernel_launch_problem)");
  code_base_.assign(1, code_line_.at(l.entry));
  kernel_of_entry_.assign(1, r.kernel);
  launches_.assign(1, std::move(l));
  begin_entry(0);
}

void ProgramHost::begin_entry(size_t entry) {
  entry_ = entry;
  end_entry_ = entry + 1;
  done_ = 0;
  awaiting_flag_ = false;
  finished_ = false;  // the host names the entries: no starting over
}

// What the host wrote: every buffer, in their order (KernelLaunch::host_copies).
void ProgramHost::copied_all_buffers() {
  for (uint64_t address : addresses_) copied_.emplace_back(address, memory_.size(address));
}

// Device memory as loaded: buffers zeroed then initialised, the module's variables their initialisers.
void ProgramHost::restart() {
  if (platform_) throw std::logic_error(name_ + ": with platform data only the host's kernel launches run");
  if (!first_pass_) first_pass_ = issued_.size();
  for (size_t i = 0; i < buffers_.size(); ++i) {
    std::memset(memory_.data(addresses_[i]), 0, memory_.size(addresses_[i]));
    init_buffer(i);
  }
  copied_.clear();
  copied_all_buffers();
  for (const ptx::Module::Variable& v : module_->variables)
    std::copy(v.init.begin(), v.init.end(), memory_.data(memory_.symbol(v.name)));
  entry_ = 0;
  end_entry_ = launches_.size();
  done_ = 0;
  awaiting_flag_ = false;
  finished_ = false;
}

std::shared_ptr<const KernelLaunch> ProgramHost::next() {
  if (finished_) restart();
  if (awaiting_flag_) {  // the previous launch was a while_nonzero one: look at its flag
    awaiting_flag_ = false;
    const LaunchSpec& l = launches_[entry_];
    if (!flag_set(size_t(l.while_buffer))) {
      ++entry_;
      done_ = 0;
    } else if (done_ >= l.while_max) {
      throw std::runtime_error(name_ + ": " + l.path + " (kernel " + l.kernel + "): while_nonzero buffer \"" +
                               buffers_[size_t(l.while_buffer)].name + "\" is still non-zero after " +
                               std::to_string(l.while_max) + " launches (its max)");
    }
  }
  while (entry_ < end_entry_ && launches_[entry_].while_buffer < 0 && done_ >= launches_[entry_].repeat) {
    ++entry_;
    done_ = 0;
  }
  if (entry_ == end_entry_) {
    finished_ = entry_ == launches_.size();
    return nullptr;
  }
  const LaunchSpec& l = launches_[entry_];
  if (l.while_buffer >= 0) {
    const size_t b = size_t(l.while_buffer);
    std::memset(memory_.data(addresses_[b]), 0, buffer_type(buffers_[b].type).bytes);
    copied_.emplace_back(addresses_[b], buffer_type(buffers_[b].type).bytes);
    awaiting_flag_ = true;
  }
  auto state = std::make_shared<ptx::LaunchState>();
  state->kernel = l.entry;
  state->grid = l.grid;
  state->block = l.block;
  state->dynamic_shared_bytes = l.shared_bytes;
  state->params = l.params;
  state->memory = &memory_;
  state->platform = platform_;
  state->local_base = kLocalBase;
  state->bounds = bounds_;
  state->grid_warps = l.grid.count() * ((l.block.count() + 31) / 32);
  state->max_warp_insts = bounds_.max_warp_insts;
  state->max_launch_insts = bounds_.launch_budget(state->grid_warps);
  auto k = std::make_shared<KernelLaunch>();
  k->name = l.kernel;
  const uint32_t kernel = kernel_of_entry_[entry_];
  k->launch = invocations_[kernel]++;
  k->kernel_index = first_kernel_index_ + kernel;
  k->app = app_;
  k->grid_ctas = uint32_t(l.grid.count());
  k->warps_per_cta = uint32_t((l.block.count() + 31) / 32);
  k->max_ctas_per_sm = l.max_ctas_per_sm;
  k->l1_ways = l.l1_ways;
  k->insts_per_warp = 0;
  k->code_bytes = l.entry->info.size() * kInstBytes;
  k->code_base = code_base_[entry_];
  k->grid_dim = {l.grid.x, l.grid.y, l.grid.z};
  k->block_dim = {l.block.x, l.block.y, l.block.z};
  k->program = state;
  if (!platform_) k->host_copies = std::move(copied_);  // with platform data the platform owns the buffers
  copied_.clear();
  ++done_;
  issued_.push_back(k);
  return k;
}

const ProgramHost* program_of(const Workload& w) {
  for (const Application& a : w.apps)
    if (auto* host = dynamic_cast<const ProgramHost*>(a.source.get())) return host;
  return nullptr;
}

std::vector<std::string> program_input_files(const Workload& w) {
  std::vector<std::string> files;
  for (const Application& a : w.apps)
    if (auto* host = dynamic_cast<const ProgramHost*>(a.source.get()))
      files.insert(files.end(), host->input_files.begin(), host->input_files.end());
  return files;
}

void dump_program_buffers(const Workload& w, const std::string& dir) {
  for (const Application& a : w.apps)
    if (auto* host = dynamic_cast<const ProgramHost*>(a.source.get()))
      host->dump_buffers(w.apps_form ? (fs::path(dir) / a.name).string() : dir);
}

void ProgramHost::dump_buffers(const std::string& dir) const {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec || !fs::is_directory(dir)) throw std::runtime_error("cannot create " + dir + ": " + ec.message());
  for (size_t i = 0; i < addresses_.size(); ++i) {  // none with platform data
    const BufferType& t = buffer_type(buffers_[i].type);
    NpyArray a;
    a.dtype = t.dtype;
    a.count = buffers_[i].count;
    const uint8_t* p = const_cast<ptx::DeviceMemory&>(memory_).data(addresses_[i]);
    a.bytes.assign(p, p + a.count * t.bytes);
    write_npy((fs::path(dir) / (buffers_[i].name + ".npy")).string(), a);
  }
}

}  // namespace gpupm
