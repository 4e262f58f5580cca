// parse_workload (validation, launches, repeat, phases) and WarpStream (the
// deterministic per-warp instruction and address streams). No simulation.
#include "gpupm/common/json_reader.h"
#include "gpupm/workload/kernel_profile.h"
#include "gpupm/workload/warp_stream.h"

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <vector>

namespace gpupm {
namespace {

std::string error_of(const std::string& text) {
  try {
    parse_workload(Json::parse(text), "w.json", 1);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

::testing::AssertionResult starts_with(const std::string& s, const std::string& prefix) {
  if (s.rfind(prefix, 0) == 0) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "\"" << s << "\" does not start with \"" << prefix << "\"";
}

// One kernel with the given JSON members added to a valid minimal kernel.
std::string one_kernel(const std::string& extra) {
  return R"({"name": "w", "kernels": [{"name": "k", "grid_ctas": 4, "warps_per_cta": 2, "max_ctas_per_sm": 2,
             "insts_per_warp": 100)" +
         (extra.empty() ? "" : ", " + extra) + "}]}";
}

std::vector<Inst> all_of(const KernelLaunch& k, uint32_t cta, uint32_t warp) {
  WarpStream s;
  s.start(&k, cta, warp);
  std::vector<Inst> v;
  while (!s.done()) v.push_back(s.next());
  return v;
}

std::shared_ptr<const KernelLaunch> launch_of(const std::string& extra, uint64_t seed = 7) {
  return parse_workload(Json::parse(one_kernel(extra)), "w.json", seed).launches.at(0);
}

TEST(Workload, LaunchesMergePatchTheKernel) {
  Workload w = parse_workload(Json::parse(R"({"name": "w", "kernels": [
      {"name": "a", "grid_ctas": 10, "warps_per_cta": 4, "max_ctas_per_sm": 3, "insts_per_warp": 500,
       "mix": {"alu_per_mem": 6, "store_fraction": 0.25},
       "launches": [{}, {"grid_ctas": 20, "mix": {"alu_per_mem": 2}}]},
      {"name": "b", "grid_ctas": 1, "warps_per_cta": 1, "max_ctas_per_sm": 1, "insts_per_warp": 9, "repeat": 3}]})"),
                              "w.json", 5);
  ASSERT_EQ(w.launches.size(), 5u);
  EXPECT_EQ(w.kernel_count, 2u);
  const KernelLaunch& a0 = *w.launches[0];
  const KernelLaunch& a1 = *w.launches[1];
  EXPECT_EQ(a0.grid_ctas, 10u);
  EXPECT_EQ(a1.grid_ctas, 20u);
  EXPECT_EQ(a1.warps_per_cta, 4u);  // inherited
  EXPECT_EQ(a0.phases.at(0).mix.alu_per_mem, 6.0);
  EXPECT_EQ(a1.phases.at(0).mix.alu_per_mem, 2.0);      // patched
  EXPECT_EQ(a1.phases.at(0).mix.store_fraction, 0.25);  // merged, not replaced
  EXPECT_EQ(a0.launch, 0u);
  EXPECT_EQ(a1.launch, 1u);
  EXPECT_EQ(a0.kernel_base, a1.kernel_base);  // the kernel's shared region
  EXPECT_NE(a0.address_base, a1.address_base);
  EXPECT_NE(a0.seed, a1.seed);
  for (uint32_t i = 0; i < 3; ++i) {
    const KernelLaunch& b = *w.launches[2 + i];
    EXPECT_EQ(b.name, "b");
    EXPECT_EQ(b.kernel_index, 1u);
    EXPECT_EQ(b.launch, i);
    EXPECT_EQ(b.insts_per_warp, 9u);
  }
  EXPECT_NE(w.launches[2]->kernel_base, a0.kernel_base);
  // The same seed gives the same launch seeds; another seed does not.
  auto seed_with = [](uint64_t s) {
    return parse_workload(Json::parse(one_kernel("")), "w.json", s).launches[0]->seed;
  };
  EXPECT_EQ(seed_with(5), seed_with(5));
  EXPECT_NE(seed_with(5), seed_with(6));
}

TEST(Workload, RejectsBadInputWithThePath) {
  EXPECT_EQ(error_of(one_kernel("")), "");
  EXPECT_TRUE(starts_with(error_of(one_kernel(R"("mix": {"alu_per_mme": 3})")),
                          "w.json: kernels[0].mix.alu_per_mme: unknown key"));
  EXPECT_TRUE(starts_with(error_of(one_kernel(R"("grid": 3)")), "w.json: kernels[0].grid: unknown key"));
  EXPECT_EQ(error_of(R"({"name": "w", "kernels": [{"name": "k", "grid_ctas": 4, "warps_per_cta": 0,
                         "max_ctas_per_sm": 2, "insts_per_warp": 100}]})"),
            "w.json: kernels[0].warps_per_cta: expected an integer in [1, 64], got 0");
  EXPECT_EQ(error_of(R"({"name": "w", "kernels": [{"name": "k", "grid_ctas": "4", "warps_per_cta": 1,
                         "max_ctas_per_sm": 2, "insts_per_warp": 100}]})"),
            "w.json: kernels[0].grid_ctas: expected an integer in [1, 16777216], got a string");
  EXPECT_EQ(error_of(one_kernel(R"("launches": [{}, {"mix": {"store_fraction": 2}}])")),
            "w.json: kernels[0].launches[1].mix.store_fraction: expected a number in [0, 1], got 2");
  EXPECT_EQ(error_of(one_kernel(R"("repeat": 0)")),
            "w.json: kernels[0].repeat: expected an integer in [1, 100000], got 0");
  EXPECT_EQ(error_of(one_kernel(R"("repeat": 2, "launches": [{}])")),
            "w.json: kernels[0].repeat: give either launches or repeat, not both");
  EXPECT_EQ(error_of(one_kernel(R"("mix": {"dep_min": 5, "dep_max": 2})")),
            "w.json: kernels[0].mix.dep_max: expected dep_max >= dep_min");
  EXPECT_EQ(error_of(one_kernel(R"("memory": {"warp_set_bytes": 200})")),
            "w.json: kernels[0].memory.warp_set_bytes: expected a multiple of 128 (bytes)");
}

TEST(Workload, PhasesAreValidated) {
  EXPECT_EQ(error_of(one_kernel(R"("phases": [{"fraction": 0.25}, {"fraction": 0.75}])")), "");
  EXPECT_EQ(error_of(one_kernel(R"("phases": [{"fraction": 0.5}, {"fraction": 0.4}])")),
            "w.json: kernels[0].phases: the phase fractions must sum to 1");
  EXPECT_EQ(error_of(one_kernel(R"("phases": [{"fraction": 0.5}, {"fraction": 0.6}])")),
            "w.json: kernels[0].phases: the phase fractions must sum to 1");
  EXPECT_EQ(error_of(one_kernel(R"("phases": [{"fraction": 1.0}], "mix": {})")),
            "w.json: kernels[0].phases: give either phases or mix/memory, not both");
  EXPECT_EQ(error_of(one_kernel(R"("phases": [])")),
            "w.json: kernels[0].phases: expected an array of 1 to 64 elements, got 0");
  EXPECT_EQ(error_of(one_kernel(R"("phases": [{"mix": {}}])")),
            "w.json: kernels[0].phases[0].fraction: missing (required)");
  EXPECT_TRUE(starts_with(error_of(one_kernel(R"("phases": [{"fraction": 1, "mix": {"sfu": 1}}])")),
                          "w.json: kernels[0].phases[0].mix.sfu: unknown key"));
}

TEST(WarpStream, SameSeedSameStreamOtherWarpsDiffer) {
  auto k = launch_of(R"("memory": {"stream": 0.5, "global_reuse": 0.5})");
  auto k2 = launch_of(R"("memory": {"stream": 0.5, "global_reuse": 0.5})");  // parsed again, same seed
  auto same = [](const std::vector<Inst>& a, const std::vector<Inst>& b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i)
      if (a[i].op != b[i].op || a[i].dep != b[i].dep || a[i].lines != b[i].lines || a[i].line != b[i].line)
        return false;
    return true;
  };
  EXPECT_TRUE(same(all_of(*k, 1, 1), all_of(*k2, 1, 1)));
  EXPECT_FALSE(same(all_of(*k, 1, 1), all_of(*k, 1, 0)));
  EXPECT_FALSE(same(all_of(*k, 1, 1), all_of(*k, 2, 1)));
  EXPECT_FALSE(
      same(all_of(*k, 1, 1), all_of(*launch_of(R"("memory": {"stream": 0.5, "global_reuse": 0.5})", 8), 1, 1)));
}

TEST(WarpStream, LengthIsInstsPerWarpScaledForLongCtas) {
  auto k = launch_of(R"("insts_per_warp": 1000, "long_ctas": 1, "long_cta_scale": 2.5)");
  EXPECT_EQ(all_of(*k, 0, 0).size(), 2500u);  // CTA 0 is long
  EXPECT_EQ(all_of(*k, 0, 1).size(), 2500u);
  EXPECT_EQ(all_of(*k, 1, 0).size(), 1000u);
  EXPECT_EQ(all_of(*k, 3, 1).size(), 1000u);
}

TEST(WarpStream, MixMatchesTheProfile) {
  auto k = launch_of(R"("insts_per_warp": 100000, "mix": {"alu_per_mem": 6, "store_fraction": 0.25, "mem_burst": 2,
                        "dep_min": 2, "dep_max": 5, "barrier_interval": 37})");
  std::map<InstClass, uint64_t> n;
  auto v = all_of(*k, 2, 1);
  for (size_t i = 0; i < v.size(); ++i) {
    ++n[v[i].op];
    EXPECT_EQ(v[i].op == InstClass::Barrier, (i + 1) % 37 == 0) << i;
    if (v[i].op != InstClass::Barrier && i >= 5) {
      EXPECT_GE(v[i].dep, 2) << i;
      EXPECT_LE(v[i].dep, 5) << i;
    }
    if (v[i].is_mem()) {
      EXPECT_EQ(v[i].lines, 1);
    }
  }
  double alu = double(n[InstClass::Alu] + n[InstClass::Sfu]), mem = double(n[InstClass::Load] + n[InstClass::Store]);
  EXPECT_EQ(n[InstClass::Barrier], 100000u / 37);
  EXPECT_NEAR(alu / mem, 6.0, 6.0 * 0.05);
  EXPECT_NEAR(double(n[InstClass::Store]) / mem, 0.25, 0.02);
}

// Every line a warp instruction touches, over all warps of the first `ctas` CTAs.
std::vector<uint64_t> lines_touched(const KernelLaunch& k, uint32_t ctas, std::vector<uint32_t>* lines = nullptr) {
  std::vector<uint64_t> out;
  for (uint32_t c = 0; c < ctas; ++c)
    for (uint32_t w = 0; w < k.warps_per_cta; ++w)
      for (const Inst& in : all_of(k, c, w)) {
        if (!in.is_mem()) continue;
        if (lines) lines->push_back(in.lines);
        for (uint32_t l = 0; l < in.lines; ++l) out.push_back(in.line + l);
      }
  return out;
}

TEST(WarpStream, StreamAddressesAreNeverReused) {
  auto k = launch_of(R"("insts_per_warp": 2000, "mix": {"alu_per_mem": 1},
                        "memory": {"stream": 1, "lines_per_access": 4})");
  std::vector<uint32_t> lines;
  auto v = lines_touched(*k, 4, &lines);
  EXPECT_EQ(std::set<uint64_t>(v.begin(), v.end()).size(), v.size());
  EXPECT_EQ(std::set<uint32_t>(lines.begin(), lines.end()), std::set<uint32_t>{4});
  EXPECT_GT(v.size(), 4u * 2 * 2000 / 2 * 4 * 9 / 10);  // about half the instructions access 4 lines each
}

TEST(WarpStream, StreamAddressesAreNeverReusedAcrossPhasesOfOtherCoalescing) {
  auto k = launch_of(R"("insts_per_warp": 2000, "phases": [
      {"fraction": 0.5, "mix": {"alu_per_mem": 1}, "memory": {"stream": 1, "lines_per_access": 1}},
      {"fraction": 0.5, "mix": {"alu_per_mem": 1}, "memory": {"stream": 1, "lines_per_access": 4}}])");
  auto v = lines_touched(*k, 4);
  EXPECT_EQ(std::set<uint64_t>(v.begin(), v.end()).size(), v.size());
  for (uint64_t l : v) {  // inside the launch's stream region
    EXPECT_GE(l, k->address_base);
    EXPECT_LT(l, k->address_base + k->stream_lines);
  }
}

TEST(WarpStream, WarpReuseStaysInsideTheWarpsSet) {
  const uint64_t set_lines = 2048 / 128;
  auto k = launch_of(R"("insts_per_warp": 4000, "mix": {"alu_per_mem": 1},
                        "memory": {"stream": 0, "warp_reuse": 1, "warp_set_bytes": 2048, "lines_per_access": 2})");
  std::set<uint64_t> seen_by_others;
  for (uint32_t c = 0; c < 2; ++c)
    for (uint32_t w = 0; w < 2; ++w) {
      std::set<uint64_t> mine;
      for (const Inst& in : all_of(*k, c, w)) {
        if (!in.is_mem()) continue;
        EXPECT_EQ(in.lines, 2);
        EXPECT_EQ((in.line - k->address_base) % 2, 0u);  // aligned slots of 2 consecutive lines
        mine.insert(in.line);
        mine.insert(in.line + 1);
      }
      EXPECT_EQ(mine.size(), set_lines);  // the whole set, and no more
      EXPECT_LE(*mine.rbegin() - *mine.begin() + 1, set_lines);
      for (uint64_t l : mine) EXPECT_EQ(seen_by_others.count(l), 0u);  // private to the warp
      seen_by_others.insert(mine.begin(), mine.end());
    }
}

}  // namespace
}  // namespace gpupm

namespace gpupm {
namespace {

std::string two_apps(const std::string& app0_extra, const std::string& app1_extra = "") {
  const std::string k =
      R"({"name": "k", "grid_ctas": 4, "warps_per_cta": 2, "max_ctas_per_sm": 2, "insts_per_warp": 100})";
  return R"({"name": "w", "apps": [{"name": "a", "kernels": [)" + k + ", " + k + "]" + app0_extra +
         R"(}, {"name": "b", "kernels": [)" + k + "]" + app1_extra + "}]}";
}

TEST(Workload, AppsFormGivesConcurrentApplications) {
  Workload w = parse_workload(Json::parse(two_apps("")), "w.json", 3);
  EXPECT_TRUE(w.apps_form);
  ASSERT_EQ(w.apps.size(), 2u);
  EXPECT_EQ(w.apps[0].name, "a");
  EXPECT_EQ(w.apps[1].name, "b");
  ASSERT_EQ(w.apps[0].launches.size(), 2u);
  ASSERT_EQ(w.apps[1].launches.size(), 1u);
  EXPECT_EQ(w.kernel_count, 3u);  // kernel indices run on across apps (SmMaskMsg stays per kernel)
  EXPECT_EQ(w.apps[0].launches[1]->kernel_index, 1u);
  EXPECT_EQ(w.apps[1].launches[0]->kernel_index, 2u);
  EXPECT_EQ(w.apps[0].launches[0]->app, 0u);
  EXPECT_EQ(w.apps[1].launches[0]->app, 1u);
  ASSERT_EQ(w.launches.size(), 3u);
  EXPECT_EQ(w.launches[2], w.apps[1].launches[0]);
  // Disjoint address regions across apps.
  EXPECT_NE(w.apps[0].launches[0]->address_base, w.apps[1].launches[0]->address_base);
  EXPECT_NE(w.apps[0].launches[0]->kernel_base, w.apps[1].launches[0]->kernel_base);

  // The kernels form: one application named after the workload, no app field in reports.
  Workload one = parse_workload(Json::parse(one_kernel("")), "w.json", 3);
  EXPECT_FALSE(one.apps_form);
  ASSERT_EQ(one.apps.size(), 1u);
  EXPECT_EQ(one.apps[0].name, "w");
  EXPECT_EQ(one.apps[0].launches, one.launches);
}

TEST(Workload, AppsAreValidatedWithThePath) {
  EXPECT_EQ(error_of(two_apps("")), "");
  EXPECT_TRUE(starts_with(error_of(two_apps(R"(, "sms": 3)")), "w.json: apps[0].sms: unknown key"));
  EXPECT_TRUE(starts_with(error_of(two_apps("", R"(, "kernels2": [])")), "w.json: apps[1].kernels2: unknown key"));
  EXPECT_EQ(error_of(R"({"name": "w", "apps": []})"), "w.json: apps: expected an array of 1 to 2 elements, got 0");
  std::string three = two_apps("");
  three.insert(three.size() - 2, R"(, {"name": "c", "kernels": [{"name": "k", "grid_ctas": 1, "warps_per_cta": 1,
       "max_ctas_per_sm": 1, "insts_per_warp": 1}]})");
  EXPECT_TRUE(starts_with(error_of(three), "w.json: apps: expected an array of 1 to 2 elements"));
  EXPECT_EQ(error_of(R"({"name": "w", "apps": [{"name": "a", "kernels": [{"name": "k", "grid_ctas": 4,
                         "warps_per_cta": 0, "max_ctas_per_sm": 2, "insts_per_warp": 100}]}]})"),
            "w.json: apps[0].kernels[0].warps_per_cta: expected an integer in [1, 64], got 0");
  EXPECT_TRUE(starts_with(error_of(R"({"name": "w", "apps": [{"kernels": []}]})"), "w.json: apps[0].name"));
  EXPECT_TRUE(starts_with(error_of(R"({"name": "w", "kernels": [], "apps": []})"),
                          "w.json: apps: give either kernels (one application) or apps, not both"));
  std::string same = two_apps("");
  same.replace(same.find(R"("name": "b")"), 11, R"("name": "a")");
  EXPECT_TRUE(starts_with(error_of(same), "w.json: apps[1].name: expected a name different"));
}

TEST(Workload, LaunchInstructionsCountEveryWarpWithLongCtasScaled) {
  auto k = launch_of(R"("long_ctas": 1, "long_cta_scale": 2.5)");  // 4 CTAs x 2 warps x 100
  uint64_t sum = 0;
  for (uint32_t cta = 0; cta < k->grid_ctas; ++cta)
    for (uint32_t warp = 0; warp < k->warps_per_cta; ++warp) sum += all_of(*k, cta, warp).size();
  EXPECT_EQ(launch_instructions(*k), sum);
  EXPECT_EQ(sum, 2u * 250 + 3u * 2 * 100);
}

}  // namespace
}  // namespace gpupm
