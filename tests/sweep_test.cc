// Design-space sweeps: spec expansion and validation, run ids, results.csv, the
// local executor's resume and failure bookkeeping (with a stand-in program so
// each case takes milliseconds), and `gpupm sweep` end to end on small runs.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "support/test_support.h"
#include "gpupm/sweep/run_executor.h"
#include "gpupm/sweep/sweep_results.h"
#include "gpupm/sweep/sweep_spec.h"

using namespace gpupm;
using gpupm::test::read_file;
using gpupm::test::run_gpupm;
using gpupm::test::source_path;
using gpupm::test::temp_dir;
using gpupm::test::write_file;
namespace fs = std::filesystem;

namespace {

std::string wl(const std::string& n) { return source_path("configs/workloads/" + n + ".json"); }

// A spec file in a fresh folder; `body` is the JSON after the base.
std::string spec_file(const std::string& tag, const std::string& body, const std::string& base_extra = "") {
  std::string dir = temp_dir(tag);
  return write_file(dir + "/spec.json", R"({"name": ")" + tag + R"(", "base": {"gpu": ")" +
                                            gpupm::test::gtx480_config() + R"(", "workload": ")" + wl("compute") +
                                            "\"" + base_extra + "}, " + body + "}");
}

// Expects parsing to fail with every fragment in the message.
void expect_spec_error(const std::string& file, const std::vector<std::string>& fragments) {
  try {
    load_sweep_spec(file);
    ADD_FAILURE() << "no error for " << read_file(file);
  } catch (const InputError& e) {
    std::string msg = e.what();
    for (const auto& f : fragments) EXPECT_NE(msg.find(f), std::string::npos) << "missing '" << f << "' in: " << msg;
  }
}

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> v;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) v.push_back(l);
  return v;
}

// Splits one CSV line (RFC 4180 quoting, no embedded newlines).
std::vector<std::string> csv_cells(const std::string& line) {
  std::vector<std::string> cells(1);
  bool q = false;
  for (size_t i = 0; i < line.size(); ++i) {
    char c = line[i];
    if (q) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') cells.back() += '"', ++i;
      else if (c == '"') q = false;
      else cells.back() += c;
    } else if (c == '"') {
      q = true;
    } else if (c == ',') {
      cells.emplace_back();
    } else {
      cells.back() += c;
    }
  }
  return cells;
}

// results.csv as rows of column -> value.
std::vector<std::map<std::string, std::string>> csv_rows(const std::string& text) {
  auto lines = split_lines(text);
  std::vector<std::map<std::string, std::string>> rows;
  if (lines.empty()) return rows;
  auto header = csv_cells(lines[0]);
  for (size_t i = 1; i < lines.size(); ++i) {
    auto cells = csv_cells(lines[i]);
    EXPECT_EQ(cells.size(), header.size()) << lines[i];
    std::map<std::string, std::string> row;
    for (size_t c = 0; c < header.size() && c < cells.size(); ++c) row[header[c]] = cells[c];
    rows.push_back(row);
  }
  return rows;
}

}  // namespace

// ------------------------------------------------------------------ spec

TEST(SweepSpec, ProductExpandsFirstAxisOutermost) {
  std::string f = spec_file("product", R"("axes": [
      {"name": "policy", "policies": ["baseline", "sm-high"]},
      {"name": "seed", "set": "seed", "values": [1, 2, 3]}])");
  SweepSpec s = load_sweep_spec(f);
  ASSERT_EQ(s.axes.size(), 2u);
  ASSERT_EQ(s.points.size(), 6u);
  std::vector<std::string> got;
  for (const auto& p : s.points) got.push_back(p.labels[0] + "/" + p.labels[1]);
  EXPECT_EQ(
      got, (std::vector<std::string>{"baseline/1", "baseline/2", "baseline/3", "sm-high/1", "sm-high/2", "sm-high/3"}));
  // The run's arguments: absolute inputs, the axis's policy and override.
  const auto& a = s.points[4].run.args;
  auto has = [&](const std::vector<std::string>& seq) {
    return std::search(a.begin(), a.end(), seq.begin(), seq.end()) != a.end();
  };
  EXPECT_TRUE(has({"--gpu", gpupm::test::gtx480_config()}));
  EXPECT_TRUE(has({"--workload", wl("compute")}));
  EXPECT_TRUE(has({"--policy", "sm-high"}));
  EXPECT_TRUE(has({"--set", "seed=2"}));
  std::set<std::string> ids;
  for (const auto& p : s.points) {
    EXPECT_TRUE(std::regex_match(p.id, std::regex("[0-9a-f]{16}"))) << p.id;
    EXPECT_EQ(p.run.id, p.id);
    EXPECT_EQ(p.run.fingerprint, p.id);
    ids.insert(p.id);
  }
  EXPECT_EQ(ids.size(), 6u);
  EXPECT_EQ(s.unique_runs().size(), 6u);
}

TEST(SweepSpec, ListModePicksNamedValuesAndLeavesOthersAtBase) {
  std::string f = spec_file("list", R"("combine": "list",
      "axes": [{"name": "policy", "policies": ["baseline", "sm-high", "mem-high"]},
               {"name": "l2", "set": "gpu.memory.l2_latency", "values": [100, 200]},
               {"name": "mem", "points": [{"label": "slow", "set": ["gpu.memory.l2_latency=300", "seed=4"]}]}],
      "runs": [{"policy": "sm-high", "l2": 200}, {"l2": 100}, {"mem": "slow", "policy": "mem-high"}])");
  SweepSpec s = load_sweep_spec(f);
  ASSERT_EQ(s.points.size(), 3u);
  EXPECT_EQ(s.points[0].labels, (std::vector<std::string>{"sm-high", "200", ""}));
  EXPECT_EQ(s.points[1].labels, (std::vector<std::string>{"", "100", ""}));
  EXPECT_EQ(s.points[2].labels, (std::vector<std::string>{"mem-high", "", "slow"}));
  const auto& a = s.points[1].run.args;
  EXPECT_NE(std::find(a.begin(), a.end(), "baseline"), a.end());  // policy left at the base
  const auto& c = s.points[2].run.args;
  EXPECT_NE(std::find(c.begin(), c.end(), "gpu.memory.l2_latency=300"), c.end());
  EXPECT_NE(std::find(c.begin(), c.end(), "seed=4"), c.end());
}

TEST(SweepSpec, IdsHashTheResolvedInputsNotHowTheyAreWritten) {
  std::string dir = temp_dir("ids");
  // The same workload content at another path, and a changed copy.
  fs::copy_file(wl("compute"), dir + "/same.json");
  std::string changed = read_file(wl("compute"));
  changed.replace(changed.find("\"insts_per_warp\": 2000"), 22, "\"insts_per_warp\": 1999");
  write_file(dir + "/changed.json", changed);
  write_file(dir + "/a.json", R"({"base": {"gpu": ")" + gpupm::test::gtx480_config() + R"(", "workload": ")" +
                                  wl("compute") +
                                  R"(", "seed": 7}, "axes": [{"name": "policy", "policies": ["baseline"]}]})");
  write_file(dir + "/b.json", R"({"base": {"gpu": ")" + gpupm::test::gtx480_config() + R"("}, "axes": [
      {"name": "w", "workloads": ["same.json", "changed.json"]},
      {"name": "seed", "set": "seed", "values": [7, 8]}]})");
  SweepSpec a = load_sweep_spec(dir + "/a.json");
  SweepSpec b = load_sweep_spec(dir + "/b.json");
  ASSERT_EQ(a.points.size(), 1u);
  ASSERT_EQ(b.points.size(), 4u);
  EXPECT_EQ(b.points[0].labels[0], "same");   // a workload's label is its file name
  EXPECT_EQ(a.points[0].id, b.points[0].id);  // base seed 7 + default policy == seed axis 7 at a copied file
  EXPECT_NE(b.points[0].id, b.points[1].id);  // seed 8
  EXPECT_NE(b.points[0].id, b.points[2].id);  // changed workload content
  EXPECT_EQ(load_sweep_spec(dir + "/b.json").points[3].id, b.points[3].id);  // stable
  // Two points resolving to the same run share it.
  std::string f = spec_file("dup", R"("axes": [{"name": "l2", "set": "gpu.memory.l2_latency", "values": [123, 124]},
      {"name": "again", "set": "gpu.memory.l2_latency", "values": [124]}])");
  SweepSpec d = load_sweep_spec(f);
  ASSERT_EQ(d.points.size(), 2u);
  EXPECT_EQ(d.points[0].id, d.points[1].id);  // the later override wins: both are l2_latency=124
  EXPECT_EQ(d.unique_runs().size(), 1u);
}

TEST(SweepSpec, BadSpecsNameFileAndPath) {
  std::string dir = temp_dir("badspec");
  auto f = [&](const std::string& name, const std::string& text) { return write_file(dir + "/" + name, text); };
  expect_spec_error(f("nogpu.json", R"({"base": {"workload": "x.json"}, "axes": []})"),
                    {"nogpu.json", "base.gpu", "missing"});
  expect_spec_error(f("nofile.json", R"({"base": {"gpu": "nope.json"}, "axes": []})"),
                    {"nofile.json", "base.gpu", "cannot open", "nope.json"});
  expect_spec_error(spec_file("combine", R"("combine": "zip", "axes": [{"name": "a", "policies": ["baseline"]}])"),
                    {"spec.json", "combine", "product", "list"});
  expect_spec_error(spec_file("typo", R"("axes": [{"name": "a", "policies": ["baseline"]}], "comine": "list")"),
                    {"spec.json", "comine", "unknown key", "combine"});
  expect_spec_error(spec_file("noaxes", R"("axes": [])"), {"axes", "1 to 32"});
  expect_spec_error(
      spec_file("twokinds", R"("axes": [{"name": "a", "policies": ["baseline"], "set": "seed", "values": [1]}])"),
      {"axes[0]", "exactly one of"});
  expect_spec_error(spec_file("reserved", R"("axes": [{"name": "energy_j", "policies": ["baseline"]}])"),
                    {"axes[0].name", "results.csv column"});
  expect_spec_error(
      spec_file("twice",
                R"("axes": [{"name": "a", "policies": ["baseline"]}, {"name": "a", "set": "seed", "values": [1]}])"),
      {"axes[1].name", "two axes"});
  expect_spec_error(spec_file("dupval", R"("axes": [{"name": "a", "set": "seed", "values": [1, 2, 1]}])"),
                    {"axes[0].values[2]", "duplicate"});
  expect_spec_error(
      spec_file("badset", R"("axes": [{"name": "a", "points": [{"label": "x", "set": ["gpu.sm.count"]}]}])"),
      {"axes[0].points[0].set[0]", "path=value"});
  // Every expanded run is validated like `gpupm run` would: the message names the spec, the run and the cause.
  expect_spec_error(spec_file("badkey", R"("axes": [{"name": "n", "set": "gpu.sm.cuont", "values": [4]}])"),
                    {"spec.json", "axes", "n=4", "sm.cuont", "unknown key"});
  expect_spec_error(spec_file("badpol", R"("axes": [{"name": "p", "policies": ["baseline", "turbo"]}])"),
                    {"spec.json", "p=turbo", "unknown policy"});
  expect_spec_error(spec_file("badrange", R"("axes": [{"name": "n", "set": "gpu.sm.count", "values": [15, 0]}])"),
                    {"n=0", "sm.count", "[1, 1024]"});
  // List mode: values must be the axis's, keys must be axes.
  expect_spec_error(spec_file("listval", R"("combine": "list", "axes": [{"name": "s", "set": "seed", "values": [1, 2]}],
      "runs": [{"s": 1}, {"s": 3}])"),
                    {"runs[1].s", "\"3\" is not a value", "{1, 2}"});
  expect_spec_error(spec_file("listkey", R"("combine": "list", "axes": [{"name": "s", "set": "seed", "values": [1]}],
      "runs": [{"s": 1, "t": 2}])"),
                    {"runs[0].t", "unknown key", "s"});
  expect_spec_error(
      spec_file("listruns", R"("axes": [{"name": "s", "set": "seed", "values": [1]}], "runs": [{"s": 1}])"),
      {"runs", "combine"});
  expect_spec_error(f("malformed.json", "{\"base\": {,}}"), {"malformed.json", "line 1"});
}

// ------------------------------------------------------------- results.csv

TEST(SweepResults, RowsPerPointWithMetricsStatusAndErrors) {
  std::string f = spec_file("results", R"("axes": [{"name": "policy", "policies": ["baseline", "sm-high"]},
      {"name": "note", "points": [{"label": "a, \"quoted\"", "set": ["seed=1"]}, {"label": "b", "set": ["seed=2"]}]}])");
  SweepSpec s = load_sweep_spec(f);
  ASSERT_EQ(s.points.size(), 4u);
  std::string dir = temp_dir("results_runs");
  std::map<std::string, RunOutcome> out;
  for (size_t i = 0; i < s.points.size(); ++i) {
    const auto& p = s.points[i];
    std::string rd = dir + "/" + p.id;
    fs::create_directories(rd);
    RunOutcome o{p.id, rd, 0, false, false, ""};
    if (i == 2) {
      o.status = 1;
      o.log_tail = "first line\ngpupm: error: the workload did not finish\n";
    } else if (i != 3) {  // point 3: never ran
      write_file(rd + "/report.json",
                 R"({"total": {"sim_time_s": )" + std::to_string(i + 1) +
                     R"(e-4, "energy_j": {"total": 0.5, "by_domain": {"sm": 0.25, "mem": 0.125, "constant": 0.125}},
          "edp_js": 1e-5, "ed2p_js2": 2e-9, "ipc": 30.5, "instructions": 123456789012,
          "vf_residency": {"sm": {"low": 0.25, "normal": 0.75}, "mem": {"normal": 1.0}}}})");
      if (i == 1)
        write_file(rd + "/report.json", R"({"total": {"sim_time_s": 2e-4, "vf_residency": {"sm": {"high": 1.0}}}})");
      out[p.id] = o;
    }
    if (i == 2) out[p.id] = o;
  }
  std::string csv = build_results_csv(s, out);
  auto lines = split_lines(csv);
  ASSERT_EQ(lines.size(), 5u) << csv;
  auto header = csv_cells(lines[0]);
  EXPECT_EQ(header[0], "id");
  EXPECT_EQ(header[1], "policy");
  EXPECT_EQ(header[2], "note");
  EXPECT_EQ(header[3], "status");
  EXPECT_EQ(header.back(), "error");
  // V/F residency columns: every level of every report, zero where a report has none.
  for (const char* c : {"residency_mem_normal", "residency_sm_high", "residency_sm_low", "residency_sm_normal"})
    EXPECT_NE(std::find(header.begin(), header.end(), c), header.end()) << c;
  auto rows = csv_rows(csv);
  EXPECT_EQ(rows[0]["note"], "a, \"quoted\"");
  EXPECT_EQ(rows[0]["id"], s.points[0].id);
  EXPECT_EQ(rows[0]["status"], "ok");
  EXPECT_EQ(rows[0]["sim_time_s"], "0.0001");
  EXPECT_EQ(rows[0]["energy_sm_j"], "0.25");
  EXPECT_EQ(rows[0]["energy_mem_j"], "0.125");
  EXPECT_EQ(rows[0]["edp_js"], "1e-05");
  EXPECT_EQ(rows[0]["ed2p_js2"], "2e-09");
  EXPECT_EQ(rows[0]["ipc"], "30.5");
  EXPECT_EQ(rows[0]["instructions"], "123456789012");
  EXPECT_EQ(rows[0]["residency_sm_low"], "0.25");
  EXPECT_EQ(rows[0]["residency_sm_high"], "0");
  EXPECT_EQ(rows[1]["residency_sm_high"], "1.0");
  EXPECT_EQ(rows[1]["energy_j"], "");  // absent from that report
  EXPECT_EQ(rows[2]["status"], "failed");
  EXPECT_EQ(rows[2]["exit_status"], "1");
  EXPECT_EQ(rows[2]["sim_time_s"], "");
  EXPECT_EQ(rows[2]["error"], "gpupm: error: the workload did not finish");
  EXPECT_EQ(rows[3]["status"], "failed");
  EXPECT_EQ(rows[3]["exit_status"], "-1");
  EXPECT_EQ(rows[3]["error"], "not run");
  EXPECT_EQ(csv, build_results_csv(s, out));  // deterministic
  EXPECT_EQ(csv_field("plain"), "plain");
  EXPECT_EQ(csv_field("a,b"), "\"a,b\"");
  EXPECT_EQ(csv_field("say \"x\""), "\"say \"\"x\"\"\"");
}

// ------------------------------------------------- executor bookkeeping

namespace {

using gpupm::test::fake_gpupm;

}  // namespace

TEST(SweepExecutor, FailuresAreRecordedAndDoNotStopOthers) {
  std::string dir = temp_dir("exec_fail");
  ExecutorOptions ex;
  ex.binary = fake_gpupm(dir);
  ex.jobs = 3;
  std::vector<RunSpec> specs = {
      {"a", {"--x", "1"}}, {"b", {"--fail", "3"}}, {"c", {"--x", "2"}}, {"d", {"--fail", "kill"}}, {"e", {"--x", "3"}}};
  auto out = execute_runs(specs, dir + "/out", ex, false);
  ASSERT_EQ(out.size(), 5u);
  EXPECT_EQ(gpupm::test::fake_gpupm_starts(dir), 5u);
  for (size_t i : {0, 2, 4}) {
    EXPECT_EQ(out[i].status, 0) << out[i].id;
    EXPECT_FALSE(out[i].reused);
    EXPECT_TRUE(fs::exists(dir + "/out/runs/" + specs[i].id + "/report.json"));
    EXPECT_EQ(read_file(out[i].dir + "/exit_status"), "0\n");
  }
  EXPECT_EQ(out[1].status, 3);
  EXPECT_NE(out[1].log_tail.find("gpupm: error: boom 3"), std::string::npos) << out[1].log_tail;
  EXPECT_NE(out[1].log_tail.find("some output"), std::string::npos) << out[1].log_tail;
  EXPECT_EQ(read_file(out[1].dir + "/exit_status"), "3\n");
  EXPECT_EQ(out[3].status, 128 + 9);  // killed: 128 + signal, as a shell reports it
  // What collection reads back from a run directory.
  RunOutcome r = rundir::read("b", out[1].dir);
  EXPECT_EQ(r.status, 3);
  EXPECT_NE(r.log_tail.find("boom 3"), std::string::npos);
  EXPECT_EQ(rundir::read("a", out[0].dir).status, 0);
}

TEST(SweepExecutor, ResumeSkipsCompleteRunsOnly) {
  std::string dir = temp_dir("exec_resume");
  ExecutorOptions ex;
  ex.binary = fake_gpupm(dir);
  ex.jobs = 2;
  std::vector<RunSpec> specs = {{"a", {"--x", "1"}, "fp-a"},
                                {"b", {"--fail", "2"}, "fp-b"},
                                {"c", {"--x", "2"}, "fp-c"},
                                {"d", {"--x", "3"}, "fp-d"}};
  auto first = execute_runs(specs, dir + "/out", ex, false);
  EXPECT_EQ(gpupm::test::fake_gpupm_starts(dir), 4u);
  // Again: only the failed run is retried.
  auto second = execute_runs(specs, dir + "/out", ex, false);
  EXPECT_EQ(gpupm::test::fake_gpupm_starts(dir), 5u);
  EXPECT_TRUE(second[0].reused);
  EXPECT_FALSE(second[1].reused);
  EXPECT_EQ(second[1].status, 2);
  EXPECT_TRUE(second[2].reused && second[3].reused);
  // A truncated report (a killed writer without the atomic rename), a removed
  // report and changed inputs are run again; the rest is reused.
  write_file(dir + "/out/runs/a/report.json", "{\"total\": {\"sim_ti");
  fs::remove(dir + "/out/runs/c/report.json");
  specs[3].fingerprint = "fp-d2";
  specs[1] = RunSpec{"b", {"--x", "4"}, "fp-b"};  // fixed
  auto third = execute_runs(specs, dir + "/out", ex, false);
  EXPECT_EQ(gpupm::test::fake_gpupm_starts(dir), 9u);
  for (const auto& o : third) {
    EXPECT_EQ(o.status, 0) << o.id;
    EXPECT_FALSE(o.reused) << o.id;
  }
  EXPECT_EQ(RunFingerprint::parse(read_file(dir + "/out/runs/d/inputs.fingerprint")).run, "fp-d2");
  auto fourth = execute_runs(specs, dir + "/out", ex, false);
  EXPECT_EQ(gpupm::test::fake_gpupm_starts(dir), 9u);
  for (const auto& o : fourth) EXPECT_TRUE(o.reused) << o.id;
  EXPECT_TRUE(rundir::complete(dir + "/out/runs/a", fingerprint_of(specs[0])));
  RunSpec other = specs[0];
  other.fingerprint = "fp-other";
  EXPECT_FALSE(rundir::complete(dir + "/out/runs/a", fingerprint_of(other)));
}

TEST(SweepExecutor, ManifestLinesAndTaskScriptRoundTripThroughTheShell) {
  RunSpec s{"0123abcd", {"--gpu", "/p/with space/g.json", "--set", "workload.name=\"it's\"", "--policy", "sm-high"}};
  std::string line = manifest_line(s);
  EXPECT_EQ(line.substr(0, 9), "0123abcd\t");
  EXPECT_EQ(line.find('\n'), std::string::npos);
  // The task script's own parsing of the line, run by bash with a stand-in gpupm that prints its arguments.
  std::string dir = temp_dir("manifest");
  write_file(dir + "/manifest.txt", "skipped\tx\n" + line + "\n");
  write_file(dir + "/echo_args.sh", "#!/bin/sh\nfor a in \"$@\"; do printf '[%s]\\n' \"$a\"; done\n");
  ::chmod((dir + "/echo_args.sh").c_str(), 0755);
  write_file(dir + "/task.sh", slurm_task_script(dir + "/echo_args.sh", dir + "/manifest.txt", dir + "/runs"));
  int rc = std::system(("SLURM_ARRAY_TASK_ID=1 bash " + dir + "/task.sh").c_str());
  EXPECT_EQ(rc, 0);
  EXPECT_EQ(read_file(dir + "/runs/0123abcd/exit_status"), "0\n");
  EXPECT_EQ(
      read_file(dir + "/runs/0123abcd/log.txt"),
      "[run]\n[--quiet]\n[--gpu]\n[/p/with space/g.json]\n[--set]\n[workload.name=\"it's\"]\n[--policy]\n[sm-high]\n"
      "[--out]\n[" +
          dir + "/runs/0123abcd]\n");
}

// ------------------------------------------------------ gpupm sweep, end to end

namespace {

// Four short compute runs (30 CTAs of 500 instructions per warp, ~0.1 s each),
// one of which cannot finish in its simulated-time limit.
std::string small_sweep(const std::string& dir, bool with_failure) {
  return write_file(dir + "/small.json", R"({"name": "small", "base": {"gpu": ")" + gpupm::test::gtx480_config() +
                                             R"(", "workload": ")" + wl("compute") +
                                             R"(", "set": ["workload.kernels[0].grid_ctas=30",
      "workload.kernels[0].insts_per_warp=500"]},
    "axes": [{"name": "policy", "policies": ["baseline", "sm-high"]},
             {"name": "limit", "points": [{"label": "none", "set": ["gpu.sim.max_sim_ms=100"]},
                                          {"label": "tiny", "set": ["gpu.sim.max_sim_ms=)" +
                                             std::string(with_failure ? "0.0001" : "50") + R"("]}]}]})");
}

}  // namespace

TEST(SweepCommand, RunsRecordsFailuresAndResumes) {
  std::string dir = temp_dir("sweep_cmd");
  std::string spec = small_sweep(dir, true);
  std::string out = dir + "/out", log;
  EXPECT_EQ(run_gpupm("sweep " + spec + " --out " + out + " --jobs 2", &log), 1) << log;
  EXPECT_NE(log.find("2 run(s) failed"), std::string::npos) << log;
  EXPECT_NE(log.find("limit=tiny"), std::string::npos) << log;
  EXPECT_NE(log.find("max_sim_ms"), std::string::npos) << log;  // the tail of the failed run's stderr
  auto rows = csv_rows(read_file(out + "/results.csv"));
  ASSERT_EQ(rows.size(), 4u);
  std::map<std::string, std::string> first_reports;
  for (const auto& r : rows) {
    EXPECT_TRUE(fs::exists(out + "/runs/" + r.at("id") + "/log.txt"));
    if (r.at("limit") == "tiny") {
      EXPECT_EQ(r.at("status"), "failed");
      EXPECT_EQ(r.at("exit_status"), "1");
      EXPECT_NE(r.at("error").find("max_sim_ms"), std::string::npos) << r.at("error");
      EXPECT_FALSE(fs::exists(out + "/runs/" + r.at("id") + "/report.json"));
    } else {
      EXPECT_EQ(r.at("status"), "ok");
      EXPECT_GT(std::stod(r.at("sim_time_s")), 0.0);
      EXPECT_GT(std::stod(r.at("energy_j")), 0.0);
      EXPECT_NEAR(
          std::stod(r.at("energy_sm_j")) + std::stod(r.at("energy_mem_j")) + std::stod(r.at("energy_constant_j")),
          std::stod(r.at("energy_j")), 1e-9);
      EXPECT_GT(std::stod(r.at("ipc")), 1.0);
      std::string res = r.at("policy") == "sm-high" ? "residency_sm_high" : "residency_sm_normal";
      EXPECT_NEAR(std::stod(r.at(res)), 1.0, 1e-9) << res;
      first_reports[r.at("id")] = read_file(out + "/runs/" + r.at("id") + "/report.json");
    }
  }
  EXPECT_NE(rows[0].at("sim_time_s"), rows[2].at("sim_time_s"));  // baseline vs SM high
  // Re-run: the two good runs are reused, the two failed ones retried (and fail again).
  EXPECT_EQ(run_gpupm("sweep " + spec + " --out " + out + " --jobs 2", &log), 1) << log;
  EXPECT_NE(log.find("4 runs (2 reused, 2 failed)"), std::string::npos) << log;
  for (const auto& [id, rep] : first_reports) EXPECT_EQ(read_file(out + "/runs/" + id + "/report.json"), rep);
  // Fixed: only the two formerly failing points run; same ids for the rest, same rows for them.
  std::string csv_before = read_file(out + "/results.csv");
  small_sweep(dir, false);
  EXPECT_EQ(run_gpupm("sweep " + spec + " --out " + out + " --jobs 2", &log), 0) << log;
  EXPECT_NE(log.find("4 runs (2 reused, 0 failed)"), std::string::npos) << log;
  auto after = csv_rows(read_file(out + "/results.csv"));
  ASSERT_EQ(after.size(), 4u);
  for (size_t i : {0, 2}) EXPECT_EQ(after[i], rows[i]);
  for (size_t i : {1, 3}) {
    EXPECT_EQ(after[i].at("status"), "ok");
    EXPECT_NE(after[i].at("id"), rows[i].at("id"));  // other inputs, other id
  }
  EXPECT_TRUE(fs::exists(out + "/sweep.json"));
}

TEST(SweepCommand, BadSpecExits2WithFileAndPath) {
  std::string dir = temp_dir("sweep_bad");
  std::string spec = write_file(
      dir + "/bad.json", R"({"base": {"gpu": ")" + gpupm::test::gtx480_config() + R"(", "workload": ")" +
                             wl("compute") + R"("}, "axes": [{"name": "n", "set": "gpu.sm.count", "values": [0]}]})");
  std::string log;
  EXPECT_EQ(run_gpupm("sweep " + spec + " --out " + dir + "/out", &log), 2);
  EXPECT_NE(log.find("bad.json"), std::string::npos) << log;
  EXPECT_NE(log.find("sm.count"), std::string::npos) << log;
  EXPECT_FALSE(fs::exists(dir + "/out/results.csv"));
  EXPECT_EQ(run_gpupm("sweep " + spec + " --out " + dir + "/out --executor pbs", &log), 2);
  EXPECT_NE(log.find("pbs"), std::string::npos) << log;
}

TEST(SweepCommand, ShippedExampleIsValid) {
  SweepSpec s = load_sweep_spec(source_path("configs/sweeps/example.json"));
  EXPECT_EQ(s.points.size(), 18u);
  EXPECT_EQ(s.unique_runs().size(), 18u);
}

// A rebuild during a long sweep replaces the program file under it: the runs the sweep starts later
// still run its own build (not the new file, nor fail on a path that is gone).
TEST(SweepCommand, RunsStartedAfterTheProgramFileIsRemovedStillRun) {
  const std::string dir = temp_dir("sweep_rebuilt");
  const std::string copy = dir + "/gpupm_copy", out = dir + "/out";
  fs::copy_file(gpupm::test::binary_path(), copy);
  const std::string spec = small_sweep(dir, false);
  const std::string first_run = out + "/runs";
  // The copy is removed once the first run has started; the other three start after it is gone.
  const std::string script = "(GPUPM_DATA_DIR=" + source_path(".") + " " + copy + " sweep " + spec + " --out " + out +
                             " --jobs 1 > " + dir + "/log.txt 2>&1; echo $? > " + dir + "/status) & " +
                             "while [ -z \"$(ls " + first_run + " 2>/dev/null)\" ]; do sleep 0.01; done; rm " + copy +
                             "; wait";
  ASSERT_EQ(std::system(("sh -c '" + script + "'").c_str()), 0);
  EXPECT_FALSE(fs::exists(copy));
  EXPECT_EQ(read_file(dir + "/status"), "0\n") << read_file(dir + "/log.txt");
  const auto rows = csv_rows(read_file(out + "/results.csv"));
  ASSERT_EQ(rows.size(), 4u);
  for (const auto& r : rows) EXPECT_EQ(r.at("status"), "ok") << r.at("id");
}
