#include "workload/kernel_profile.h"

#include "common/param_reader.h"
#include "common/rng.h"
#include "protocol/memory_status.h"

#include <algorithm>
#include <cmath>

namespace gpupm {

namespace {

constexpr uint64_t kLineBytes = 128;
constexpr uint64_t kMaxBytes = uint64_t(1) << 36;

// A set's size in whole lines.
std::optional<ParamProblem> whole_lines(uint64_t bytes, const char* key) {
  return problem_unless(bytes % kLineBytes == 0, key, "expected a multiple of 128 (bytes)");
}

// The address-source weights as shares of their sum.
void normalise_weights(MemoryPattern& p) {
  double total = p.stream + p.warp_reuse + p.cta_reuse + p.global_reuse;
  p.stream /= total;
  p.warp_reuse /= total;
  p.cta_reuse /= total;
  p.global_reuse /= total;
}

}  // namespace

void describe(ParamVisitor& v, InstructionMix& m) {
  v.number("alu_per_mem", m.alu_per_mem, 0.0, 1e6, "instructions", "ALU/SFU instructions per memory instruction");
  v.number("sfu_fraction", m.sfu_fraction, 0.0, 1.0, "", "SFU share of the non-memory instructions");
  v.number("store_fraction", m.store_fraction, 0.0, 1.0, "", "store share of the memory instructions");
  v.integer("mem_burst", m.mem_burst, 1, 32, "instructions", "memory instructions issued back to back");
  v.number("alu_run_jitter", m.alu_run_jitter, 0.0, 1.0, "", "ALU runs vary uniformly by +-this fraction of their mean");
  v.integer("dep_min", m.dep_min, 1, 63, "instructions", "shortest dependency distance");
  v.integer("dep_max", m.dep_max, 1, 63, "instructions", "longest dependency distance");
  v.rule("dependency_range", "dep_max >= dep_min",
         [&m] { return problem_unless(m.dep_max >= m.dep_min, "dep_max", "expected dep_max >= dep_min"); });
  v.integer("barrier_interval", m.barrier_interval, 0, 1u << 30, "instructions", "a CTA barrier every N instructions (0: none)");
  v.number("divergence", m.divergence, 0.0, 1.0, "", "share of ALU/SFU instructions under a divergent branch");
}

void describe(ParamVisitor& v, MemoryPattern& p) {
  v.integer("lines_per_access", p.lines_per_access, 1, 32, "lines", "128 B lines one warp instruction touches (coalescing)");
  v.number("stream", p.stream, 0.0, 1e6, "", "weight of unique sequential addresses (no reuse)");
  v.number("warp_reuse", p.warp_reuse, 0.0, 1e6, "", "weight of a private per-warp set");
  v.number("cta_reuse", p.cta_reuse, 0.0, 1e6, "", "weight of a per-CTA set shared by its warps");
  v.number("global_reuse", p.global_reuse, 0.0, 1e6, "", "weight of a set shared by the whole kernel");
  v.rule("some_weight", "the weights are not all 0", [&p] {
    return problem_unless(p.stream + p.warp_reuse + p.cta_reuse + p.global_reuse > 0.0, "stream",
                          "the weights stream, warp_reuse, cta_reuse, global_reuse must not all be 0");
  });
  v.integer("warp_set_bytes", p.warp_set_bytes, kLineBytes, kMaxBytes, "bytes", "per-warp set");
  v.rule("warp_set_lines", "warp_set_bytes a multiple of 128", [&p] { return whole_lines(p.warp_set_bytes, "warp_set_bytes"); });
  v.integer("cta_set_bytes", p.cta_set_bytes, kLineBytes, kMaxBytes, "bytes", "per-CTA set");
  v.rule("cta_set_lines", "cta_set_bytes a multiple of 128", [&p] { return whole_lines(p.cta_set_bytes, "cta_set_bytes"); });
  v.integer("global_set_bytes", p.global_set_bytes, kLineBytes, kMaxBytes, "bytes", "kernel-wide set");
  v.rule("global_set_lines", "global_set_bytes a multiple of 128",
         [&p] { return whole_lines(p.global_set_bytes, "global_set_bytes"); });
}

void describe(ParamVisitor& v, Phase& ph) {
  v.number("fraction", ph.fraction, 1e-9, 1.0, "", "share of each warp's instructions", Presence::kRequired);
  v.section("mix", Presence::kOptional, "instruction mix", [&](ParamVisitor& s) { describe(s, ph.mix); });
  v.section("memory", Presence::kOptional, "memory access pattern", [&](ParamVisitor& s) { describe(s, ph.memory); });
}

void describe_kernel(ParamVisitor& v, KernelLaunch& k, Phase& single) {
  v.text("name", k.name, "kernel name", Presence::kRequired);
  std::string description;  // for people; the model never reads it
  v.text("description", description, "free text for people");
  double kernel_fraction = 0.0;  // documentation: the kernel's share of its application (Table II)
  v.number("kernel_fraction", kernel_fraction, 0.0, 1.0, "", "share of its application (documentation)");
  v.integer("grid_ctas", k.grid_ctas, 1, 1u << 24, "CTAs", "CTAs in the grid", Presence::kRequired);
  v.integer("warps_per_cta", k.warps_per_cta, 1, 64, "warps", "warps per CTA", Presence::kRequired);
  v.integer("max_ctas_per_sm", k.max_ctas_per_sm, 1, 64, "CTAs", "occupancy limit (registers/shared memory)",
            Presence::kRequired);
  v.integer("insts_per_warp", k.insts_per_warp, 1, uint64_t(1) << 32, "instructions", "warp instructions per warp",
            Presence::kRequired);
  v.integer("long_ctas", k.long_ctas, 0, 1u << 24, "CTAs", "the first long_ctas CTAs run long_cta_scale x longer");
  v.rule("long_ctas_in_grid", "long_ctas <= grid_ctas", [&k] {
    return problem_unless(k.long_ctas <= k.grid_ctas, "long_ctas",
                          "expected an integer in [0, " + std::to_string(k.grid_ctas) + "] (at most grid_ctas), got " +
                              std::to_string(k.long_ctas));
  });
  v.number("long_cta_scale", k.long_cta_scale, 1.0, 1e4, "", "how much longer the long CTAs run");
  v.integer("code_bytes", k.code_bytes, 0, uint64_t(1) << 20, "bytes", "instruction footprint (0: not modelled)");
  v.rule("code_lines", "code_bytes a multiple of 128", [&k] { return whole_lines(k.code_bytes, "code_bytes"); });
  v.integer("vgprs", k.vgprs, 0, 256, "registers", "vector registers per work-item (0: not given)");
  v.integer("sgprs", k.sgprs, 0, 102, "registers", "scalar registers per wavefront (0: not given)");
  v.section("mix", Presence::kOptional, "instruction mix (one phase)", [&](ParamVisitor& s) { describe(s, single.mix); });
  v.section("memory", Presence::kOptional, "memory access pattern (one phase)",
            [&](ParamVisitor& s) { describe(s, single.memory); });
  v.list("phases", k.phases, 1, 64, Presence::kOptional, "phases, each with its share of the instructions",
         [](ParamVisitor& s, Phase& ph) { describe(s, ph); });
  v.rule("phases_or_mix", "either phases or mix/memory, not both", [&] {
    return problem_unless(k.phases.empty() || !(v.given("mix") || v.given("memory")), "phases",
                          "give either phases or mix/memory, not both");
  });
  v.rule("phases_sum", "the phase fractions sum to 1", [&k] {
    double sum = 0.0;
    for (const Phase& ph : k.phases) sum += ph.fraction;
    return problem_unless(k.phases.empty() || (sum >= 0.999 && sum <= 1.001), "phases",
                          "the phase fractions must sum to 1");
  });
}

namespace {

void parse_launch(JsonReader& r, KernelLaunch& k) {
  Phase single;
  k.phases.clear();
  JsonParamReader v(r);
  describe_kernel(v, k, single);
  if (k.phases.empty()) k.phases.push_back(single);
  for (Phase& ph : k.phases) normalise_weights(ph.memory);
}

}  // namespace

uint64_t launch_instructions(const KernelLaunch& k) {
  if (k.program) return k.executed_insts;
  // Same length as WarpStream::start().
  auto per_warp = [&](double scale) {
    return std::max<uint64_t>(1, uint64_t(std::llround(double(k.insts_per_warp) * scale)));
  };
  uint64_t long_ctas = std::min<uint64_t>(k.long_ctas, k.grid_ctas);
  return uint64_t(k.warps_per_cta) *
         (long_ctas * per_warp(k.long_cta_scale) + (uint64_t(k.grid_ctas) - long_ctas) * per_warp(1.0));
}

namespace {

// Hands out the launches' address regions (in lines, 1 Mi-line aligned) and
// counts the launches, refusing a workload that would not fit the model.
struct Regions {
  static constexpr uint64_t kLimitLines = kAddressSpaceBytes / kLineBytes;
  uint64_t next = uint64_t(1) << 20;  // in lines; region 0 stays unused
  uint64_t launches = 0;
  // `lines` may be a double estimate: a huge kernel must not wrap around 2^64.
  uint64_t take(double lines, const std::string& file, const std::string& path) {
    const double aligned = std::ceil((lines + 1.0) / double(1 << 20)) * double(1 << 20);
    if (double(next) + aligned > double(kLimitLines))
      throw InputError(file, path,
                       "the workload's memory regions outgrow the model's 2^40-byte address space at this launch "
                       "(each launch streams through its own region); expected fewer launches or smaller kernels");
    uint64_t base = next;
    next += uint64_t(aligned);
    return base;
  }
  // Adds the launches a kernel declares ("launches", "repeat", or one per iteration).
  void count_launches(const Json& kdoc, uint64_t iterations, const std::string& file, const std::string& kpath) {
    const bool has = kdoc.is_object();
    const Json* launch_list = has && kdoc.contains("launches") ? &kdoc.at("launches") : nullptr;
    const Json* repeat = has && kdoc.contains("repeat") ? &kdoc.at("repeat") : nullptr;
    if (launch_list && launch_list->is_array()) launches += launch_list->size();
    else if (repeat && repeat->is_number_unsigned()) launches += repeat->get<uint64_t>();
    else launches += iterations;
    const std::string path = kpath + (launch_list ? ".launches" : repeat ? ".repeat" : "");
    if (launches > kMaxWorkloadLaunches)
      throw InputError(file, path, "more than " + std::to_string(kMaxWorkloadLaunches) +
                                       " kernel launches in the workload (repeat, launches and iterations multiply; "
                                       "the limit)");
  }
};

// Parses the "kernels" array of `owner` (the document or one app at `prefix`),
// numbering kernels from w.kernel_count on.
void parse_kernels(const Json& owner, JsonReader& reader, const std::string& file, const std::string& prefix,
                   uint64_t seed, uint32_t app, Regions& regions, Workload& w, Application& out) {
  size_t nk = reader.array_size("kernels", 1, 4096);
  uint32_t first = w.kernel_count;
  // "iterations": N > 1 runs the kernels list N times (an iterative application):
  // iteration i runs launch i of every kernel, in list order.
  const uint64_t iterations = reader.get_uint("iterations", 1, 100000, 1);
  std::vector<std::vector<std::shared_ptr<const KernelLaunch>>> per_kernel(nk);
  for (size_t kj = 0; kj < nk; ++kj)  // all counted before any is read: a huge workload fails at once
    regions.count_launches(owner.at("kernels").at(kj), iterations, file, prefix + "kernels[" + std::to_string(kj) + "]");
  for (size_t kj = 0; kj < nk; ++kj) {
    size_t ki = first + kj;
    const Json& kdoc = owner.at("kernels").at(kj);
    std::string kpath = prefix + "kernels[" + std::to_string(kj) + "]";
    if (!kdoc.is_object()) throw InputError(file, kpath, "expected an object");
    Json base = kdoc;
    base.erase("launches");
    base.erase("repeat");
    std::vector<Json> patches;
    std::vector<std::string> paths;
    if (kdoc.contains("launches")) {
      if (kdoc.contains("repeat")) throw InputError(file, kpath + ".repeat", "give either launches or repeat, not both");
      const Json& l = kdoc.at("launches");
      if (!l.is_array() || l.empty())
        throw InputError(file, kpath + ".launches", "expected a non-empty array of objects");
      for (size_t li = 0; li < l.size(); ++li) {
        std::string lp = kpath + ".launches[" + std::to_string(li) + "]";
        if (!l[li].is_object()) throw InputError(file, lp, "expected an object");
        patches.push_back(l[li]);
        paths.push_back(lp);
      }
    } else {
      uint64_t n = iterations;  // 1, or one launch per iteration
      if (kdoc.contains("repeat")) {
        const Json& rp = kdoc.at("repeat");
        if (!rp.is_number_unsigned() || rp.get<uint64_t>() < 1 || rp.get<uint64_t>() > 100000)
          throw InputError(file, kpath + ".repeat", "expected an integer in [1, 100000]");
        n = rp.get<uint64_t>();
      }
      patches.assign(n, Json::object());
      paths.assign(n, kpath);
    }
    uint64_t kernel_base = 0, code_base = 0;
    for (size_t li = 0; li < patches.size(); ++li) {
      Json merged = base;
      merged.merge_patch(patches[li]);
      JsonReader lr(merged, file, paths[li]);
      auto k = std::make_shared<KernelLaunch>();
      parse_launch(lr, *k);
      lr.finish();
      k->launch = uint32_t(li);
      k->kernel_index = uint32_t(ki);
      k->app = app;
      k->seed = seed_of(seed, ki, li);
      const std::string where = paths[li] + (patches.size() > 1 ? " (launch " + std::to_string(li) + ")" : "");
      uint64_t max_lines = 0, global_lines = 0, warp_lines = 0, cta_lines = 0;
      for (const Phase& ph : k->phases) {
        max_lines = std::max<uint64_t>(max_lines, ph.memory.lines_per_access);
        global_lines = std::max<uint64_t>(global_lines, ph.memory.global_set_bytes / kLineBytes);
        warp_lines = std::max<uint64_t>(warp_lines, ph.memory.warp_set_bytes / kLineBytes);
        cta_lines = std::max<uint64_t>(cta_lines, ph.memory.cta_set_bytes / kLineBytes);
      }
      if (li == 0) kernel_base = regions.take(double(global_lines + 32), file, where);
      k->kernel_base = kernel_base;
      if (k->code_bytes && !code_base) code_base = regions.take(double(k->code_bytes / kLineBytes), file, where);
      k->code_base = code_base;
      double longest = k->long_ctas ? k->long_cta_scale : 1.0;
      uint64_t warps = uint64_t(k->grid_ctas) * k->warps_per_cta;
      const double stream_lines = std::floor(double(warps) * double(k->insts_per_warp) * longest) * double(max_lines) + 32;
      const double sets_lines = double(warps) * double(warp_lines + 32) + double(k->grid_ctas) * double(cta_lines + 32);
      k->address_base = regions.take(stream_lines + sets_lines, file, where);  // refuses before any overflow
      k->stream_lines = uint64_t(double(warps) * double(k->insts_per_warp) * longest) * max_lines + 32;
      k->warp_sets_base = k->stream_lines;
      k->cta_sets_base = k->warp_sets_base + warps * (warp_lines + 32);
      per_kernel[kj].push_back(std::move(k));
    }
  }
  w.kernel_count = first + uint32_t(nk);
  for (size_t kj = 0; kj < nk && iterations > 1; ++kj)
    if (per_kernel[kj].size() != iterations && per_kernel[kj].size() != 1)
      throw InputError(file, prefix + "kernels[" + std::to_string(kj) + "]",
                       "expected " + std::to_string(iterations) +
                           " launches (repeat or launches) to match \"iterations\", or \"repeat\": 1 (first iteration only)");
  auto add = [&](const std::shared_ptr<const KernelLaunch>& k) {
    out.launches.push_back(k);
    w.launches.push_back(k);
  };
  if (iterations > 1) {
    for (uint64_t it = 0; it < iterations; ++it)
      for (size_t kj = 0; kj < nk; ++kj)
        if (it < per_kernel[kj].size()) add(per_kernel[kj][it]);
  } else {
    for (const auto& launches : per_kernel)
      for (const auto& k : launches) add(k);
  }
}

}  // namespace

Workload parse_workload(const Json& doc, const std::string& file, uint64_t seed) {
  Workload w;
  JsonReader top(doc, file, "");
  w.name = top.get_string("name");
  top.get_string("description", "");
  Regions regions;
  if (top.has("apps")) {
    if (top.has("kernels")) top.fail("apps", "give either kernels (one application) or apps, not both");
    w.apps_form = true;
    size_t na = top.array_size("apps", 1, 2);
    w.apps.resize(na);
    top.for_each("apps", 1, 2, [&](JsonReader& ar, size_t ai) {
      Application& a = w.apps[ai];
      a.name = ar.get_string("name");
      ar.get_string("description", "");
      for (size_t bi = 0; bi < ai; ++bi)
        if (w.apps[bi].name == a.name) ar.fail("name", "expected a name different from apps[" + std::to_string(bi) + "]'s");
      parse_kernels(doc.at("apps").at(ai), ar, file, "apps[" + std::to_string(ai) + "].", seed, uint32_t(ai),
                    regions, w, a);
    });
  } else {
    w.apps.resize(1);
    w.apps[0].name = w.name;
    parse_kernels(doc, top, file, "", seed, 0, regions, w, w.apps[0]);
  }
  w.respawn = top.get_bool("respawn", false);
  if (w.respawn && w.apps.size() != 2)
    top.fail("respawn", "re-spawning needs two co-running applications (\"apps\" with 2 entries)");
  top.finish();
  return w;
}

}  // namespace gpupm
