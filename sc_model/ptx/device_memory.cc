// DeviceMemory, Module/Kernel helpers and CtaState (shared memory sizing).
#include <algorithm>

#include "gpupm/ptx/ptx_decoded.h"

namespace gpupm::ptx {

uint32_t type_bytes(ScalarType t) {
  switch (t) {
    case ScalarType::B8:
    case ScalarType::U8:
    case ScalarType::S8:
    case ScalarType::Pred: return 1;
    case ScalarType::B16:
    case ScalarType::U16:
    case ScalarType::S16: return 2;
    case ScalarType::B32:
    case ScalarType::U32:
    case ScalarType::S32:
    case ScalarType::F32: return 4;
    default: return 8;
  }
}

const char* type_name(ScalarType t) {
  static const char* const kNames[] = {"b8", "b16", "b32", "b64", "u8",  "u16", "u32", "u64",
                                       "s8", "s16", "s32", "s64", "f32", "f64", "pred"};
  return kNames[size_t(t)];
}

uint64_t RunawayBounds::launch_budget(uint64_t grid_warps) const {
  uint64_t budget = 0;
  if (__builtin_mul_overflow(warp_insts_per_grid_warp, grid_warps, &budget)) budget = ~uint64_t(0);
  return std::max(budget, max_warp_insts);
}

Kernel::Kernel() = default;
Kernel::~Kernel() = default;
Kernel::Kernel(Kernel&&) noexcept = default;
Kernel& Kernel::operator=(Kernel&&) noexcept = default;

uint32_t Kernel::pc_of_line(uint32_t line) const {
  for (uint32_t pc = 0; pc < info.size(); ++pc)
    if (info[pc].line == line) return pc;
  return ~0u;
}

const std::string& Kernel::text_of(uint32_t pc) const { return extra->texts.at(pc); }

std::string Kernel::where(uint32_t pc) const {
  if (pc < extra->locs.size()) {
    const auto [file_index, line] = extra->locs[pc];
    auto it = extra->source_files.find(file_index);
    if (line > 0 && it != extra->source_files.end()) return it->second + ":" + std::to_string(line);
  }
  return file + ":" + std::to_string(pc < info.size() ? info[pc].line : 0);
}

void Module::rename_source(const std::string& from, const std::string& to) {
  for (auto& k : kernels)
    for (auto& [index, name] : k->extra->source_files)
      if (name == from) name = to;
}

const Kernel* Module::find(const std::string& name) const {
  for (const auto& k : kernels)
    if (k->name == name) return k.get();
  return nullptr;
}

uint64_t DeviceMemory::allocate(uint64_t bytes, const std::string& name) {
  if (bytes == 0) throw std::invalid_argument("DeviceMemory::allocate: zero bytes for " + name);
  Alloc a{next_, std::vector<uint8_t>(bytes, 0), name};
  next_ = (next_ + bytes + 255) / 256 * 256;
  allocs_.push_back(std::move(a));
  return allocs_.back().addr;
}

uint8_t* DeviceMemory::find(uint64_t addr, uint32_t bytes) {
  // A warp's lanes mostly hit the allocation the previous access hit.
  if (last_ < allocs_.size()) {
    Alloc& a = allocs_[last_];
    const uint64_t off = addr - a.addr;
    if (addr >= a.addr && off + bytes <= a.bytes.size() && off + bytes >= off) return a.bytes.data() + off;
  }
  // Allocations are sorted by address: the candidate is the last one starting at or below addr.
  auto it = std::upper_bound(allocs_.begin(), allocs_.end(), addr,
                             [](uint64_t a, const Alloc& alloc) { return a < alloc.addr; });
  if (it == allocs_.begin()) return nullptr;
  --it;
  uint64_t off = addr - it->addr;
  if (off + bytes > it->bytes.size() || off + bytes < off) return nullptr;
  last_ = size_t(it - allocs_.begin());
  return it->bytes.data() + off;
}

uint8_t* DeviceMemory::data(uint64_t addr) { return find(addr, 1); }

uint64_t DeviceMemory::size(uint64_t addr) const {
  for (const Alloc& a : allocs_)
    if (a.addr == addr) return a.bytes.size();
  return 0;
}

uint64_t DeviceMemory::symbol(const std::string& name) const {
  auto it = symbols_.find(name);
  return it == symbols_.end() ? ~0ull : it->second;
}

void DeviceMemory::load(const Module& m) {
  for (const Module::Variable& v : m.variables) {
    uint64_t addr = allocate(v.init.size(), v.name);
    std::copy(v.init.begin(), v.init.end(), data(addr));
    symbols_[v.name] = addr;
  }
}

// The .extern .shared array starts after the static variables, 16-byte aligned.
static uint32_t dynamic_shared_offset(const Kernel& k) { return (k.shared_static_bytes + 15) / 16 * 16; }

void CtaState::start(const LaunchState& l, uint32_t linear_cta) {
  launch = &l;
  cta = linear_cta;
  cta_id.x = linear_cta % l.grid.x;
  cta_id.y = linear_cta / l.grid.x % l.grid.y;
  cta_id.z = linear_cta / (l.grid.x * l.grid.y);
  const Kernel& k = *l.kernel;
  uint32_t bytes = k.shared_static_bytes;
  if (k.uses_dynamic_shared || l.dynamic_shared_bytes) bytes = dynamic_shared_offset(k) + l.dynamic_shared_bytes;
  shared.assign(bytes, 0);
}

uint32_t shared_dynamic_base(const Kernel& k) { return dynamic_shared_offset(k); }

}  // namespace gpupm::ptx
