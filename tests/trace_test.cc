// `gpupm run --vcd`: the trace costs no output on the terminal and changes no
// result, is a hierarchical VCD of reals in real units (read back here by a
// small VCD parser), is written atomically, and bad trace options are exit 2
// before anything runs. Also the per-SM power and energy of report.json and
// sm_epochs.csv.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <map>
#include <sstream>

#include "support/test_support.h"

namespace {

namespace fs = std::filesystem;
using gpupm::test::ProcessResult;
using gpupm::test::read_file;
using gpupm::test::run_gpupm_argv;
using gpupm::test::source_path;
using gpupm::test::temp_dir;

std::vector<std::string> compute_run(const std::string& out_dir) {
  return {"run",        "--quiet",
          "--gpu",      source_path("configs/gpu/gtx480.json"),
          "--workload", source_path("configs/workloads/compute.json"),
          "--out",      out_dir};
}

std::vector<std::string> with(std::vector<std::string> args, const std::vector<std::string>& more) {
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

// What the test reads back from a VCD file: each variable's full dotted name,
// type and width, and the values it took (time, value) in order.
struct Vcd {
  std::string timescale;
  struct Var {
    std::string type, name;
    int width = 0;
    std::vector<std::pair<uint64_t, double>> values;
  };
  std::map<std::string, Var> vars;  // by dotted name, e.g. gpu.sm0.power_w
  double min(const std::string& name) const { return extreme(name, true); }
  double max(const std::string& name) const { return extreme(name, false); }
  double extreme(const std::string& name, bool lowest) const {
    const auto& v = vars.at(name).values;
    double x = v.at(0).second;
    for (const auto& p : v) x = lowest ? std::min(x, p.second) : std::max(x, p.second);
    return x;
  }
};

// A minimal VCD reader: $timescale, nested $scope/$upscope, $var, #time and
// real value changes (r<value> <id>); anything else fails the test.
Vcd parse_vcd(const std::string& text) {
  Vcd vcd;
  std::istringstream in(text);
  std::vector<std::string> scope;
  std::map<std::string, std::string> by_id;
  std::string tok;
  uint64_t time = 0;
  bool definitions = true;
  auto skip_to_end = [&](std::string* words) {
    std::string w;
    while (in >> w && w != "$end")
      if (words) *words += (words->empty() ? "" : " ") + w;
  };
  while (in >> tok) {
    if (definitions) {
      if (tok == "$timescale") {
        skip_to_end(&vcd.timescale);
      } else if (tok == "$scope") {
        std::string kind, name;
        in >> kind >> name;
        scope.push_back(name);
        skip_to_end(nullptr);
      } else if (tok == "$upscope") {
        EXPECT_FALSE(scope.empty());
        if (!scope.empty()) scope.pop_back();
        skip_to_end(nullptr);
      } else if (tok == "$var") {
        Vcd::Var v;
        std::string id, name;
        in >> v.type >> v.width >> id >> name;
        skip_to_end(nullptr);
        for (const auto& s : scope) v.name += s + ".";
        v.name += name;
        EXPECT_EQ(by_id.count(id), 0u) << "id used twice: " << id;
        by_id[id] = v.name;
        vcd.vars[v.name] = v;
      } else if (tok == "$enddefinitions") {
        skip_to_end(nullptr);
        EXPECT_TRUE(scope.empty()) << "unclosed scope";
        definitions = false;
      } else if (tok[0] == '$') {
        skip_to_end(nullptr);
      } else {
        ADD_FAILURE() << "unexpected token in the header: " << tok;
        return vcd;
      }
      continue;
    }
    if (tok[0] == '#') {
      uint64_t t = std::stoull(tok.substr(1));
      EXPECT_GE(t, time) << "time going backwards";
      time = t;
    } else if (tok[0] == 'r') {
      std::string id;
      in >> id;
      auto it = by_id.find(id);
      if (it == by_id.end()) {
        ADD_FAILURE() << "value change of an undeclared id " << id;
        return vcd;
      }
      vcd.vars[it->second].values.push_back({time, std::stod(tok.substr(1))});
    } else {
      ADD_FAILURE() << "unexpected value change: " << tok;
      return vcd;
    }
  }
  return vcd;
}

// Drops the line naming the output directory (it differs between two runs).
std::string without_paths(const std::string& stdout_text) {
  return stdout_text.substr(0, stdout_text.find("report: "));
}

TEST(Trace, StdoutHoldsOnlyTheSummaryAndTheTraceChangesNoResult) {
  const std::string dir = temp_dir("trace_same");
  ProcessResult plain = run_gpupm_argv(compute_run(dir + "/plain"));
  ProcessResult traced = run_gpupm_argv(with(compute_run(dir + "/traced"), {"--vcd", dir + "/t.vcd"}));
  ASSERT_EQ(plain.status, 0) << plain.err;
  ASSERT_EQ(traced.status, 0) << traced.err;
  EXPECT_EQ(without_paths(traced.out), without_paths(plain.out));
  EXPECT_NE(traced.out.find("TOTAL"), std::string::npos) << traced.out;
  EXPECT_EQ(traced.err, "");
  EXPECT_EQ(read_file(dir + "/traced/epochs.csv"), read_file(dir + "/plain/epochs.csv"));
  EXPECT_EQ(read_file(dir + "/traced/report.json"), read_file(dir + "/plain/report.json"));
}

TEST(Trace, IsAHierarchicalVcdOfRealsInRealUnits) {
  const std::string dir = temp_dir("trace_vcd");
  ProcessResult r = run_gpupm_argv(with(compute_run(dir + "/out"), {"--vcd", dir + "/t.vcd"}));
  ASSERT_EQ(r.status, 0) << r.err;
  Vcd vcd = parse_vcd(read_file(dir + "/t.vcd"));
  EXPECT_EQ(vcd.timescale, "1 ps");
  for (const char* name : {"gpu.sm0.active_warps", "gpu.sm0.ctas", "gpu.sm0.cta_limit", "gpu.sm0.power_w",
                           "gpu.sm14.power_w", "gpu.freq.sm_level", "gpu.freq.mem_level", "gpu.freq.sm_mhz",
                           "gpu.freq.mem_mhz", "gpu.vr.v_sm", "gpu.vr.v_mem", "gpu.gwde.kernel", "gpu.power.total_w"}) {
    ASSERT_EQ(vcd.vars.count(name), 1u) << name;
    EXPECT_EQ(vcd.vars[name].type, "real") << name;
    EXPECT_FALSE(vcd.vars[name].values.empty()) << name;
  }
  EXPECT_EQ(vcd.vars.count("gpu.pdn.droop"), 0u);  // the ideal network: no droop to trace
  for (const char* v : {"gpu.vr.v_sm", "gpu.vr.v_mem"}) {
    EXPECT_GE(vcd.min(v), 0.8) << v;
    EXPECT_LE(vcd.max(v), 1.2) << v;
  }
  for (const char* f : {"gpu.freq.sm_mhz", "gpu.freq.mem_mhz"}) {
    EXPECT_GE(vcd.min(f), 100.0) << f;
    EXPECT_LE(vcd.max(f), 5000.0) << f;
  }
  EXPECT_GT(vcd.max("gpu.sm0.active_warps"), 8.0);
  EXPECT_LE(vcd.max("gpu.sm0.active_warps"), 48.0);
  EXPECT_GT(vcd.max("gpu.sm0.ctas"), 0.0);
  EXPECT_GT(vcd.max("gpu.sm0.power_w"), 1.0);  // an SM of a ~170 W GPU
  EXPECT_LT(vcd.max("gpu.sm0.power_w"), 50.0);
  EXPECT_EQ(vcd.min("gpu.gwde.kernel"), -1.0);  // before the first launch or after the last
  EXPECT_EQ(vcd.max("gpu.gwde.kernel"), 0.0);
  // Values are written only when they change: the clock stays at its level.
  EXPECT_EQ(vcd.vars["gpu.freq.sm_mhz"].values.size(), 1u);
}

TEST(Trace, PeriodAndPdnDroop) {
  const std::string dir = temp_dir("trace_period");
  ProcessResult r =
      run_gpupm_argv(with(compute_run(dir + "/out"), {"--vcd", dir + "/t.vcd", "--trace-period-cycles", "4096", "--pdn",
                                                      source_path("configs/pdn/package_default.json")}));
  ASSERT_EQ(r.status, 0) << r.err;
  Vcd vcd = parse_vcd(read_file(dir + "/t.vcd"));
  ASSERT_EQ(vcd.vars.count("gpu.pdn.droop"), 1u);
  EXPECT_GT(vcd.max("gpu.pdn.droop"), 0.0);
  EXPECT_LT(vcd.max("gpu.pdn.droop"), 0.5);
  // ~142 us at 700 MHz = ~100k cycles: ~24 samples of 4096 cycles, one time stamp each at most.
  const auto& power = vcd.vars["gpu.sm0.power_w"].values;
  EXPECT_GE(power.size(), 20u);
  EXPECT_LE(power.size(), 30u);
}

TEST(Trace, BadTraceOptionsAreExit2BeforeAnythingRuns) {
  const std::string dir = temp_dir("trace_bad");
  struct Case {
    std::vector<std::string> args;
    std::vector<std::string> fragments;
  };
  const std::vector<Case> cases = {
      {{"--vcd", dir}, {"--vcd", "is a directory", "expected a file path"}},
      {{"--vcd", dir + "/"}, {"--vcd", "is a directory"}},
      {{"--vcd", dir + "/missing/t.vcd"}, {"--vcd", "does not exist", "expected a file path"}},
      {{"--vcd", "/dev/null"}, {"--vcd", "not a regular file"}},
      {{"--vcd", dir + "/t.vcd", "--trace-period-cycles", "100"}, {"--trace-period-cycles", "multiple", "128"}},
      {{"--trace-period-cycles", "256"}, {"--trace-period-cycles", "only with --vcd"}},
  };
  for (const Case& c : cases) {
    const std::string out = dir + "/out";
    ProcessResult r = run_gpupm_argv(with(compute_run(out), c.args));
    EXPECT_EQ(r.status, 2) << c.args[1] << ": " << r.err;
    for (const auto& f : c.fragments)
      EXPECT_NE(r.err.find(f), std::string::npos) << "missing '" << f << "' in " << r.err;
    EXPECT_FALSE(fs::exists(out)) << "the output directory was created";
    EXPECT_EQ(r.out, "");
  }
  EXPECT_FALSE(fs::exists(dir + "/t.vcd"));
}

TEST(Trace, NoTraceFileIsLeftByAFailedRunOrAFailedWrite) {
  const std::string dir = temp_dir("trace_fail");
  // A run that does not finish: nothing written, no trace, no temporary file.
  ProcessResult r =
      run_gpupm_argv(with(compute_run(dir + "/out"), {"--vcd", dir + "/t.vcd", "--set", "gpu.sim.max_sim_ms=0.001"}));
  EXPECT_EQ(r.status, 1) << r.err;
  // A write that fails (a file-size limit stands in for a full disk): the reason is named.
  r = run_gpupm_argv(with(compute_run(dir + "/out2"), {"--vcd", dir + "/t.vcd"}), 16 * 1024);
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_NE(r.err.find("cannot write VCD trace"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("File too large"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir + "/out2/report.json"));
  for (const auto& e : fs::directory_iterator(dir)) EXPECT_TRUE(e.is_directory()) << "left behind: " << e.path();
}

TEST(Trace, PerSmPowerAndEnergyInTheReportAndSmEpochsCsv) {
  const std::string dir = temp_dir("trace_sm");
  ProcessResult r = run_gpupm_argv(with(compute_run(dir), {"--sm-csv"}));
  ASSERT_EQ(r.status, 0) << r.err;
  const nlohmann::json report = nlohmann::json::parse(read_file(dir + "/report.json"));
  const auto& sms = report["total"]["sm"];
  ASSERT_EQ(sms.size(), 15u);
  double sum = 0;
  for (const auto& sm : sms) {
    sum += sm["energy_j"].get<double>();
    EXPECT_GT(sm["average_power_w"].get<double>(), 1.0);
  }
  // The SMs' shares add up to the SM domain's energy.
  EXPECT_NEAR(sum, report["total"]["energy_j"]["by_domain"]["sm"].get<double>(), 1e-9 * sum);
  const std::string csv = read_file(dir + "/sm_epochs.csv");
  const std::string header = csv.substr(0, csv.find('\n'));
  EXPECT_EQ(header.rfind("epoch,end_time_us,sm_cycle,kernel,power_sm0_w,", 0), 0u) << header;
  EXPECT_NE(header.find("power_sm14_w"), std::string::npos);
  EXPECT_NE(header.find("energy_sm14_j"), std::string::npos);
}

}  // namespace
