#include "gpupm/workload/kernel_profile.h"

#include "gpupm/common/param_reader.h"
#include "gpupm/workload/workload_params.h"
#include "gpupm/common/rng.h"
#include "gpupm/protocol/memory_status.h"

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
  v.number("alu_run_jitter", m.alu_run_jitter, 0.0, 1.0, "",
           "ALU runs vary uniformly by +-this fraction of their mean");
  v.integer("dep_min", m.dep_min, 1, 63, "instructions", "shortest dependency distance");
  v.integer("dep_max", m.dep_max, 1, 63, "instructions", "longest dependency distance");
  v.rule("dependency_range", "dep_max >= dep_min",
         [&m] { return problem_unless(m.dep_max >= m.dep_min, "dep_max", "expected dep_max >= dep_min"); });
  v.integer("barrier_interval", m.barrier_interval, 0, 1u << 30, "instructions",
            "a CTA barrier every N instructions (0: none)");
  v.number("divergence", m.divergence, 0.0, 1.0, "", "share of ALU/SFU instructions under a divergent branch");
}

void describe(ParamVisitor& v, MemoryPattern& p) {
  v.integer("lines_per_access", p.lines_per_access, 1, 32, "lines",
            "128 B lines one warp instruction touches (coalescing)");
  v.number("stream", p.stream, 0.0, 1e6, "", "weight of unique sequential addresses (no reuse)");
  v.number("warp_reuse", p.warp_reuse, 0.0, 1e6, "", "weight of a private per-warp set");
  v.number("cta_reuse", p.cta_reuse, 0.0, 1e6, "", "weight of a per-CTA set shared by its warps");
  v.number("global_reuse", p.global_reuse, 0.0, 1e6, "", "weight of a set shared by the whole kernel");
  v.rule("some_weight", "the weights are not all 0", [&p] {
    return problem_unless(p.stream + p.warp_reuse + p.cta_reuse + p.global_reuse > 0.0, "stream",
                          "the weights stream, warp_reuse, cta_reuse, global_reuse must not all be 0");
  });
  v.integer("warp_set_bytes", p.warp_set_bytes, kLineBytes, kMaxBytes, "bytes", "per-warp set");
  v.rule("warp_set_lines", "warp_set_bytes a multiple of 128",
         [&p] { return whole_lines(p.warp_set_bytes, "warp_set_bytes"); });
  v.integer("cta_set_bytes", p.cta_set_bytes, kLineBytes, kMaxBytes, "bytes", "per-CTA set");
  v.rule("cta_set_lines", "cta_set_bytes a multiple of 128",
         [&p] { return whole_lines(p.cta_set_bytes, "cta_set_bytes"); });
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
  v.text("description", k.description, "free text for people");
  v.number("kernel_fraction", k.kernel_fraction, 0.0, 1.0, "", "share of its application (documentation)");
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
  v.section("mix", Presence::kOptional, "instruction mix (one phase)",
            [&](ParamVisitor& s) { describe(s, single.mix); });
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

// The JSON path of application ai's object ("" in the kernels form).
std::string app_prefix(const Workload& w, size_t ai) { return w.apps_form ? "apps[" + std::to_string(ai) + "]." : ""; }

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
  // Adds the launches a kernel entry makes ("launches", "repeat", or one per iteration).
  void count_launches(const KernelEntryParams& e, uint64_t iterations, const std::string& file,
                      const std::string& kpath) {
    launches += !e.patches.empty() ? e.patches.size() : e.repeat ? e.repeat : iterations;
    const std::string path = kpath + (!e.patches.empty() ? ".launches" : e.repeat ? ".repeat" : "");
    if (launches > kMaxWorkloadLaunches)
      throw InputError(file, path,
                       "more than " + std::to_string(kMaxWorkloadLaunches) +
                           " kernel launches in the workload (repeat, launches and iterations multiply; "
                           "the limit)");
  }
};

// One launch from its fields: the profile's phases (or its one phase), weights as shares.
std::shared_ptr<KernelLaunch> launch_of(const KernelFields& f) {
  auto k = std::make_shared<KernelLaunch>(f.kernel);
  if (k->phases.empty()) k->phases.push_back(f.single);
  for (Phase& ph : k->phases) normalise_weights(ph.memory);
  return k;
}

// The launches of application `a` (the document or one app at `prefix`),
// numbering kernels from w.kernel_count on.
void add_app_launches(const AppParams& a, const std::string& file, const std::string& prefix, uint64_t seed,
                      uint32_t app, Regions& regions, Workload& w, Application& out) {
  const size_t nk = a.kernels.size();
  const uint32_t first = w.kernel_count;
  // "iterations": N > 1 runs the kernels list N times (an iterative application):
  // iteration i runs launch i of every kernel, in list order.
  const uint64_t iterations = a.iterations;
  std::vector<std::vector<std::shared_ptr<const KernelLaunch>>> per_kernel(nk);
  for (size_t kj = 0; kj < nk; ++kj) {
    const size_t ki = first + kj;
    const KernelEntryParams& e = a.kernels[kj];
    const std::string kpath = prefix + "kernels[" + std::to_string(kj) + "]";
    const size_t n = !e.patches.empty() ? e.patches.size() : e.repeat ? e.repeat : iterations;
    uint64_t kernel_base = 0, code_base = 0;
    for (size_t li = 0; li < n; ++li) {
      auto k = launch_of(e.launches[e.patches.empty() ? 0 : li]);
      k->launch = uint32_t(li);
      k->kernel_index = uint32_t(ki);
      k->app = app;
      k->seed = seed_of(seed, ki, li);
      const std::string path = e.patches.empty() ? kpath : kpath + ".launches[" + std::to_string(li) + "]";
      const std::string where = path + (n > 1 ? " (launch " + std::to_string(li) + ")" : "");
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
      const double stream_lines =
          std::floor(double(warps) * double(k->insts_per_warp) * longest) * double(max_lines) + 32;
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
      throw InputError(
          file, prefix + "kernels[" + std::to_string(kj) + "]",
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
  ProfileWorkloadParams p;
  JsonReader top(doc, file, "");
  read_params(top, p);
  top.finish();
  Workload w;
  w.name = p.main.name;
  w.respawn = p.respawn;
  w.apps_form = !p.apps.empty();
  std::vector<AppParams> apps = w.apps_form ? p.apps : std::vector<AppParams>{p.main};
  Regions regions;
  for (size_t ai = 0; ai < apps.size(); ++ai)  // all counted before any is built: a huge workload fails at once
    for (size_t kj = 0; kj < apps[ai].kernels.size(); ++kj)
      regions.count_launches(apps[ai].kernels[kj], apps[ai].iterations, file,
                             app_prefix(w, ai) + "kernels[" + std::to_string(kj) + "]");
  w.apps.resize(apps.size());
  for (size_t ai = 0; ai < apps.size(); ++ai) {
    w.apps[ai].name = apps[ai].name;
    add_app_launches(apps[ai], file, app_prefix(w, ai), seed, uint32_t(ai), regions, w, w.apps[ai]);
  }
  return w;
}

}  // namespace gpupm
