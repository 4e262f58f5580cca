#include "program/program_workload.h"

#include "common/param_reader.h"
#include "common/rng.h"
#include "program/cuda_compiler.h"
#include "program/npy.h"
#include "program/program_launch_params.h"

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
constexpr uint64_t kMaxBufferBytes = uint64_t(1) << 31;  // all buffers together

struct TypeInfo {
  const char* name;
  const char* dtype;
  uint32_t bytes;
  bool is_float, is_signed;
};
constexpr TypeInfo kTypes[] = {{"u8", "|u1", 1, false, false},  {"s32", "<i4", 4, false, true},
                               {"u32", "<u4", 4, false, false}, {"s64", "<i8", 8, false, true},
                               {"u64", "<u8", 8, false, false}, {"f32", "<f4", 4, true, true},
                               {"f64", "<f8", 8, true, true}};

const TypeInfo& type_info(const std::string& name) {
  for (const TypeInfo& t : kTypes)
    if (name == t.name) return t;
  return kTypes[0];
}

std::vector<std::string> type_names() {
  std::vector<std::string> v;
  for (const TypeInfo& t : kTypes) v.push_back(t.name);
  return v;
}

// A JSON number as the bytes of a scalar of `bytes` width (integer or float);
// `what` names the value in the message when it does not fit.
// `typed_sign`: the type's signedness is meant (buffer types); PTX parameter
// types are not (clang declares every int parameter .u32).
void encode_number(const Json& v, bool is_float, bool is_signed, uint32_t bytes, uint8_t* out,
                   const std::function<void(const std::string&)>& fail, bool typed_sign = true) {
  if (!v.is_number()) fail("expected a number");
  if (is_float) {
    const double d = v.get<double>();
    if (bytes == 4) {
      const float f = float(d);
      std::memcpy(out, &f, 4);
    } else {
      std::memcpy(out, &d, 8);
    }
    return;
  }
  if (v.is_number_float()) fail("expected an integer");
  // Two's complement of the width: clang declares int parameters .u32, so a
  // negative argument to an "unsigned" parameter is legal C.
  const unsigned bits = bytes * 8;
  const bool wide = bits == 64;
  const int64_t smin = wide ? std::numeric_limits<int64_t>::min() : -(int64_t(1) << (bits - 1));
  const uint64_t umax = typed_sign && is_signed ? uint64_t(-(smin + 1))
                        : wide                  ? ~uint64_t(0)
                                                : (uint64_t(1) << bits) - 1;
  const std::string range =
      "[" + (typed_sign && !is_signed ? std::string("0") : std::to_string(smin)) + ", " + std::to_string(umax) + "]";
  uint64_t raw;
  if (v.is_number_unsigned()) {
    raw = v.get<uint64_t>();
    if (raw > umax) fail("expected an integer in " + range);
  } else {
    const int64_t s = v.get<int64_t>();
    if (s < smin || (typed_sign && !is_signed && s < 0)) fail("expected an integer in " + range);
    raw = uint64_t(s);
  }
  std::memcpy(out, &raw, bytes);  // little-endian host
}

ptx::Dim3 dim3_of(const std::vector<uint32_t>& d) { return {d[0], d.size() > 1 ? d[1] : 1, d.size() > 2 ? d[2] : 1}; }

std::string read_text(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// Checks one buffer's initialiser (values fit the type, files match).
void check_init(JsonReader& br, const BufferSpec& b) {
  if (!br.has("init")) return;
  JsonReader ir = br.object("init");
  const TypeInfo& t = type_info(b.type);
  uint8_t scratch[8];
  auto number = [&](JsonReader& r, const std::string& key) {
    encode_number(r.raw(key), t.is_float, t.is_signed, t.bytes, scratch,
                  [&](const std::string& what) { r.fail(key, what + " (buffer type " + b.type + ")"); });
  };
  int forms = ir.has("fill") + ir.has("iota") + ir.has("random") + ir.has("file");
  if (forms != 1) br.fail("init", "expected exactly one of fill, iota, random, file");
  if (ir.has("fill")) {
    number(ir, "fill");
  } else if (ir.has("iota")) {
    JsonReader r = ir.object("iota");
    number(r, "start");
    number(r, "step");
    if (!t.is_float && r.raw("step").is_number_float()) r.fail("step", "expected an integer");
    r.finish();
  } else if (ir.has("random")) {
    JsonReader r = ir.object("random");
    number(r, "min");
    number(r, "max");
    if (r.raw("min").get<double>() > r.raw("max").get<double>()) r.fail("max", "expected max >= min");
    r.get_uint("seed", 0, std::numeric_limits<uint64_t>::max());
    r.finish();
  } else {
    const fs::path p = fs::path(b.dir) / ir.get_string("file");
    if (!fs::is_regular_file(p))
      ir.fail("file", (fs::exists(p) ? "not a regular file: " : "no such file: ") + p.string());
    NpyArray a = read_npy(p.string());
    if (a.dtype != t.dtype && !(t.bytes == 1 && a.dtype == "|u1"))
      ir.fail("file", p.string() + " holds dtype " + a.dtype + ", expected " + t.dtype + " for a " + b.type + " buffer");
    if (a.count != b.count)
      ir.fail("file", p.string() + " holds " + std::to_string(a.count) + " elements, the buffer has count " +
                          std::to_string(b.count));
  }
  ir.finish();
}

using LaunchFail = std::function<void(const std::string& key, const std::string& what)>;

// The parameter buffer of a launch: one arg per parameter, in order.
std::vector<uint8_t> encode_args(const std::vector<Json>& args, const LaunchFail& fail, const ptx::Kernel& k,
                                 const std::vector<BufferSpec>& buffers,
                                 std::vector<std::pair<uint32_t, size_t>>& buffer_args) {
  if (args.size() != k.params.size())
    fail("args", "expected an array of " + std::to_string(k.params.size()) + " values (kernel " + k.name +
                        " has " + std::to_string(k.params.size()) + " parameters)");
  std::vector<uint8_t> bytes(k.param_bytes, 0);
  for (size_t i = 0; i < args.size(); ++i) {
    const ptx::Param& p = k.params[i];
    const std::string key = "args[" + std::to_string(i) + "]";
    if (args[i].is_string()) {
      const std::string name = args[i].get<std::string>();
      size_t b = 0;
      while (b < buffers.size() && buffers[b].name != name) ++b;
      if (b == buffers.size()) fail(key, "no buffer named \"" + name + "\"");
      if (p.size != 8) fail(key, "a buffer's address needs a 64-bit parameter; " + p.name + " has " + std::to_string(p.size) + " bytes");
      buffer_args.push_back({p.offset, b});
      continue;
    }
    const ptx::ScalarType t = p.type;
    const bool is_float = t == ptx::ScalarType::F32 || t == ptx::ScalarType::F64;
    const bool is_signed = t == ptx::ScalarType::S8 || t == ptx::ScalarType::S16 || t == ptx::ScalarType::S32 ||
                           t == ptx::ScalarType::S64;
    encode_number(args[i], is_float, is_signed, p.size, bytes.data() + p.offset,
                  [&](const std::string& what) { fail(key, what + " for parameter " + p.name); }, false);
  }
  return bytes;
}

}  // namespace

uint32_t program_occupancy(const SmConfig& sm, const LaunchSpec& l) {
  const uint64_t threads = l.block.count();
  const uint64_t warps = (threads + sm.warp_size - 1) / sm.warp_size;
  uint64_t fit = std::min<uint64_t>(sm.max_ctas, sm.max_warps / std::max<uint64_t>(1, warps));
  const uint64_t shared = uint64_t(l.entry->shared_static_bytes) + l.shared_bytes;
  if (shared > 0) fit = std::min<uint64_t>(fit, sm.shared_bytes / shared);
  const uint64_t regs = l.regs_per_thread ? l.regs_per_thread : l.entry->regs_per_thread;
  if (regs > 0) fit = std::min<uint64_t>(fit, sm.registers / (regs * warps * sm.warp_size));
  return uint32_t(fit);
}

namespace {

// One program with its buffers and launches (the document, or one of its apps).
std::shared_ptr<ProgramHost> parse_program(JsonReader& top, const std::string& name, const fs::path& dir,
                                           const SmConfig& sm, uint32_t first_kernel, uint32_t app) {
  const fs::path program = dir / top.get_string("program");
  if (!fs::is_regular_file(program))
    top.fail("program", (fs::exists(program) ? "not a regular file: " : "no such file: ") + program.string());
  std::string ptx_file;
  if (program.extension() == ".cu") {
    ptx_file = compile_cuda_to_ptx(program.string());
  } else if (program.extension() == ".ptx") {
    ptx_file = program.string();
  } else {
    top.fail("program", "expected a .cu (CUDA C++) or .ptx file, got " + program.string());
  }
  std::unique_ptr<ptx::Module> module;
  try {
    module = ptx::parse(read_text(ptx_file), program.extension() == ".ptx" ? program.string() : ptx_file);
  } catch (const ptx::ParseError& e) {
    throw InputError(top.file(), top.path_of("program"), e.what());
  }

  std::vector<BufferSpec> buffers;
  uint64_t total_bytes = 0;
  if (top.has("buffers")) {
    const Json& bj = top.raw("buffers");
    if (!bj.is_object()) top.fail("buffers", "expected an object of named buffers");
    JsonReader all = top.object("buffers");
    for (auto it = bj.begin(); it != bj.end(); ++it) {
      JsonReader br = all.object(it.key());
      BufferSpec b;
      b.name = it.key();
      b.dir = dir.string();
      read_params(br, b);
      total_bytes += b.count * type_info(b.type).bytes;
      if (total_bytes > kMaxBufferBytes)
        br.fail("count", "all buffers together may hold at most " + std::to_string(kMaxBufferBytes >> 20) + " MiB");
      check_init(br, b);
      if (br.has("init")) b.init = br.raw("init");
      br.finish();
      buffers.push_back(std::move(b));
    }
    all.finish();
  }

  ProgramLaunches declared;
  read_params(top, declared);
  std::vector<LaunchSpec> launches;
  uint64_t planned = 0;
  for (size_t i = 0; i < declared.launches.size(); ++i) {
    const ProgramLaunchParams& d = declared.launches[i];
    LaunchSpec l;
    l.path = "launches[" + std::to_string(i) + "]";
    const LaunchFail fail = [&](const std::string& key, const std::string& what) {
      throw InputError(top.file(), top.path_of(l.path + "." + key), what);
    };
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
    if (l.grid.count() > 0xffffffffull) fail("grid", "expected at most 2^32 - 1 CTAs");
    if (l.block.count() > sm.max_threads_per_cta || l.block.count() > uint64_t(sm.max_warps) * sm.warp_size)
      fail("block", "expected at most " + std::to_string(std::min<uint64_t>(sm.max_threads_per_cta, uint64_t(sm.max_warps) * sm.warp_size)) +
                        " threads per CTA (gpu.sm.max_threads_per_cta, gpu.sm.max_warps x 32)");
    l.shared_bytes = d.shared_bytes;
    if (l.shared_bytes > sm.shared_bytes)
      fail("shared_bytes", "expected an integer in [0, " + std::to_string(sm.shared_bytes) + "] (gpu.sm.shared_bytes), got " +
                               std::to_string(l.shared_bytes));
    if (l.shared_bytes > 0 && !l.entry->uses_dynamic_shared)
      fail("shared_bytes", "kernel " + l.kernel + " declares no extern __shared__ array");
    l.regs_per_thread = d.regs_per_thread;
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
           "a program may launch at most " + std::to_string(kMaxWorkloadLaunches) + " kernels in all (repeat and while_nonzero max added up)");
    l.max_ctas_per_sm = program_occupancy(sm, l);
    if (l.max_ctas_per_sm == 0)
      fail("block", "one CTA needs more than an SM has: " + std::to_string(l.entry->shared_static_bytes + l.shared_bytes) +
                        " B shared memory of " + std::to_string(sm.shared_bytes) + ", " +
                        std::to_string(l.regs_per_thread ? l.regs_per_thread : l.entry->regs_per_thread) +
                        " registers per thread x " + std::to_string(l.block.count()) + " threads of " +
                        std::to_string(sm.registers));
    launches.push_back(std::move(l));
  }
  std::vector<std::string> inputs = {program.string()};
  for (const BufferSpec& b : buffers)
    if (b.init.is_object() && b.init.contains("file")) inputs.push_back((dir / b.init["file"].get<std::string>()).string());
  auto host = std::make_shared<ProgramHost>(name, std::move(module), std::move(buffers), std::move(launches),
                                            first_kernel, app, sm.line_bytes);
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

const std::vector<std::string>& buffer_type_names() {
  static const std::vector<std::string> names = type_names();
  return names;
}

void describe(ParamVisitor& v, BufferSpec& b) {
  v.choice("type", b.type, buffer_type_names(), "element type", Presence::kRequired);
  v.integer("count", b.count, 1, uint64_t(1) << 31, "elements", "elements in the buffer", Presence::kRequired);
}

Workload load_program_workload(const Json& doc, const std::string& file, const std::string& origin,
                               const SmConfig& sm) {
  JsonReader top(doc, origin, "");
  Workload w;
  w.name = top.get_string("name");
  top.get_string("description", "");
  const fs::path dir = fs::path(file).parent_path();
  if (!top.has("apps")) {
    w.apps.resize(1);
    w.apps[0].name = w.name;
    w.apps[0].source = parse_program(top, w.name, dir, sm, 0, 0);
  } else {
    // Two programs co-running on disjoint SM sets, each with its own device memory.
    if (top.has("program")) top.fail("apps", "give either program (one application) or apps, not both");
    w.apps_form = true;
    w.apps.resize(top.array_size("apps", 1, 2));
    top.for_each("apps", 1, 2, [&](JsonReader& ar, size_t ai) {
      Application& a = w.apps[ai];
      a.name = ar.get_string("name");
      ar.get_string("description", "");
      if (!ar.has("program"))
        ar.fail("program", "expected every app to be a program when the first one is (no mixing with kernel profiles)");
      if (ai > 0 && w.apps[0].name == a.name) ar.fail("name", "expected a name different from apps[0]'s");
      a.source = parse_program(ar, a.name, dir, sm, w.kernel_count, uint32_t(ai));
      w.kernel_count += static_cast<const ProgramHost&>(*a.source).kernel_count();
    });
    w.respawn = top.get_bool("respawn", false);
    if (w.respawn && w.apps.size() != 2)
      top.fail("respawn", "re-spawning needs two co-running applications (\"apps\" with 2 entries)");
  }
  if (!w.apps_form) w.kernel_count = static_cast<const ProgramHost&>(*w.apps[0].source).kernel_count();
  top.finish();
  return w;
}

// ---------------------------------------------------------------- host

ProgramHost::ProgramHost(std::string name, std::unique_ptr<ptx::Module> module, std::vector<BufferSpec> buffers,
                         std::vector<LaunchSpec> launches, uint32_t first_kernel_index, uint32_t app,
                         uint32_t line_bytes)
    : name_(std::move(name)),
      module_(std::move(module)),
      buffers_(std::move(buffers)),
      launches_(std::move(launches)),
      first_kernel_index_(first_kernel_index),
      app_(app),
      line_bytes_(line_bytes) {
  for (size_t i = 0; i < buffers_.size(); ++i) {
    addresses_.push_back(memory_.allocate(buffers_[i].count * type_info(buffers_[i].type).bytes, buffers_[i].name));
    init_buffer(i);
  }
  memory_.load(*module_);
  // Buffer arguments: the parameter bytes get the buffers' device addresses.
  for (LaunchSpec& l : launches_)
    for (const auto& [offset, buffer] : l.buffer_args) std::memcpy(l.params.data() + offset, &addresses_[buffer], 8);
  // Each kernel's code at its own place, in module order.
  uint64_t line = kCodeBase / line_bytes_;
  std::map<const ptx::Kernel*, uint64_t> base;
  for (const auto& k : module_->kernels) {
    base[k.get()] = line;
    line += (k->info.size() * kInstBytes + line_bytes_ - 1) / line_bytes_ + 1;
  }
  for (const LaunchSpec& l : launches_) {
    code_base_.push_back(base[l.entry]);
    const auto known = std::find(kernel_names_.begin(), kernel_names_.end(), l.kernel);
    kernel_of_entry_.push_back(uint32_t(known - kernel_names_.begin()));
    if (known == kernel_names_.end()) kernel_names_.push_back(l.kernel);
  }
  invocations_.assign(kernel_names_.size(), 0);
}

void ProgramHost::init_buffer(size_t i) {
  const BufferSpec& b = buffers_[i];
  const TypeInfo& t = type_info(b.type);
  uint8_t* out = memory_.data(addresses_[i]);
  if (b.init.is_null()) return;  // allocations start zeroed
  auto fail = [&](const std::string& what) { throw InputError(b.name, "init", what); };
  if (b.init.contains("file")) {
    NpyArray a = read_npy((fs::path(b.dir) / b.init["file"].get<std::string>()).string());
    std::memcpy(out, a.bytes.data(), a.bytes.size());
    return;
  }
  if (b.init.contains("fill")) {
    uint8_t v[8];
    encode_number(b.init["fill"], t.is_float, t.is_signed, t.bytes, v, fail);
    for (uint64_t e = 0; e < b.count; ++e) std::memcpy(out + e * t.bytes, v, t.bytes);
    return;
  }
  if (b.init.contains("iota")) {
    const Json& io = b.init["iota"];
    for (uint64_t e = 0; e < b.count; ++e) {
      Json v;
      if (t.is_float) v = io["start"].get<double>() + double(e) * io["step"].get<double>();
      else v = io["start"].get<int64_t>() + int64_t(e) * io["step"].get<int64_t>();
      // Integers wrap like the C types they fill (an iota may run past the type's range).
      if (!t.is_float) {
        const uint64_t raw = uint64_t(v.get<int64_t>());
        std::memcpy(out + e * t.bytes, &raw, t.bytes);
      } else {
        encode_number(v, true, true, t.bytes, out + e * t.bytes, fail);
      }
    }
    return;
  }
  // random: uniform from one xoshiro256** stream per buffer (README, "Real kernels").
  const Json& rj = b.init["random"];
  Rng rng(rj["seed"].get<uint64_t>());
  for (uint64_t e = 0; e < b.count; ++e) {
    const uint64_t u = rng.next();
    uint8_t* dst = out + e * t.bytes;
    if (t.is_float && t.bytes == 4) {
      const float lo = rj["min"].get<float>(), hi = rj["max"].get<float>();
      const float f = lo + (hi - lo) * (float(u >> 40) * 0x1.0p-24f);
      std::memcpy(dst, &f, 4);
    } else if (t.is_float) {
      const double lo = rj["min"].get<double>(), hi = rj["max"].get<double>();
      const double d = lo + (hi - lo) * (double(u >> 11) * 0x1.0p-53);
      std::memcpy(dst, &d, 8);
    } else {
      // Integers in [min, max]: the high 64 bits of u x span (Lemire's method, bias < 2^-64 x span).
      const __int128 lo = rj["min"].is_number_unsigned() ? __int128(rj["min"].get<uint64_t>()) : __int128(rj["min"].get<int64_t>());
      const __int128 hi = rj["max"].is_number_unsigned() ? __int128(rj["max"].get<uint64_t>()) : __int128(rj["max"].get<int64_t>());
      const unsigned __int128 span = (unsigned __int128)(hi - lo) + 1;
      const __int128 v = lo + __int128(((unsigned __int128)u * span) >> 64);
      const uint64_t raw = uint64_t(v);
      std::memcpy(dst, &raw, t.bytes);
    }
  }
}

uint64_t ProgramHost::read_flag(size_t buffer) const {
  uint64_t v = 0;
  const uint32_t bytes = type_info(buffers_[buffer].type).bytes;
  std::memcpy(&v, const_cast<ptx::DeviceMemory&>(memory_).data(addresses_[buffer]), bytes);
  return v;
}

size_t ProgramHost::planned_launches() const {
  size_t n = 0;
  for (const LaunchSpec& l : launches_) n += l.while_buffer >= 0 ? 1 : l.repeat;
  return n;
}

// Device memory as loaded: buffers zeroed then initialised, the module's variables their initialisers.
void ProgramHost::restart() {
  if (!first_pass_) first_pass_ = issued_.size();
  for (size_t i = 0; i < buffers_.size(); ++i) {
    std::memset(memory_.data(addresses_[i]), 0, memory_.size(addresses_[i]));
    init_buffer(i);
  }
  for (const ptx::Module::Variable& v : module_->variables)
    std::copy(v.init.begin(), v.init.end(), memory_.data(memory_.symbol(v.name)));
  entry_ = 0;
  done_ = 0;
  awaiting_flag_ = false;
  finished_ = false;
}

std::shared_ptr<const KernelLaunch> ProgramHost::next() {
  if (finished_) restart();
  if (awaiting_flag_) {  // the previous launch was a while_nonzero one: look at its flag
    awaiting_flag_ = false;
    const LaunchSpec& l = launches_[entry_];
    if (read_flag(size_t(l.while_buffer)) == 0) {
      ++entry_;
      done_ = 0;
    } else if (done_ >= l.while_max) {
      throw std::runtime_error(name_ + ": " + l.path + " (kernel " + l.kernel + "): while_nonzero buffer \"" +
                               buffers_[size_t(l.while_buffer)].name + "\" is still non-zero after " +
                               std::to_string(l.while_max) + " launches (its max)");
    }
  }
  while (entry_ < launches_.size() && launches_[entry_].while_buffer < 0 && done_ >= launches_[entry_].repeat) {
    ++entry_;
    done_ = 0;
  }
  if (entry_ == launches_.size()) {
    finished_ = true;
    return nullptr;
  }
  const LaunchSpec& l = launches_[entry_];
  if (l.while_buffer >= 0) {
    const size_t b = size_t(l.while_buffer);
    std::memset(memory_.data(addresses_[b]), 0, type_info(buffers_[b].type).bytes);
    awaiting_flag_ = true;
  }
  auto state = std::make_shared<ptx::LaunchState>();
  state->kernel = l.entry;
  state->grid = l.grid;
  state->block = l.block;
  state->dynamic_shared_bytes = l.shared_bytes;
  state->params = l.params;
  state->memory = &memory_;
  state->local_base = kLocalBase;
  auto k = std::make_shared<KernelLaunch>();
  k->name = l.kernel;
  const uint32_t kernel = kernel_of_entry_[entry_];
  k->launch = invocations_[kernel]++;
  k->kernel_index = first_kernel_index_ + kernel;
  k->app = app_;
  k->grid_ctas = uint32_t(l.grid.count());
  k->warps_per_cta = uint32_t((l.block.count() + 31) / 32);
  k->max_ctas_per_sm = l.max_ctas_per_sm;
  k->insts_per_warp = 0;
  k->code_bytes = l.entry->info.size() * kInstBytes;
  k->code_base = code_base_[entry_];
  k->grid_dim = {l.grid.x, l.grid.y, l.grid.z};
  k->block_dim = {l.block.x, l.block.y, l.block.z};
  k->program = state;
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
  for (size_t i = 0; i < buffers_.size(); ++i) {
    const TypeInfo& t = type_info(buffers_[i].type);
    NpyArray a;
    a.dtype = t.dtype;
    a.count = buffers_[i].count;
    const uint8_t* p = const_cast<ptx::DeviceMemory&>(memory_).data(addresses_[i]);
    a.bytes.assign(p, p + a.count * t.bytes);
    write_npy((fs::path(dir) / (buffers_[i].name + ".npy")).string(), a);
  }
}

}  // namespace gpupm
