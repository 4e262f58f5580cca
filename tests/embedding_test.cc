// The Gpu embedded as a user's sc_main embeds it (docs/embedding.md): built
// beside another model, run with the platform's own sc_start() calls (first
// with a time limit, then without), completion seen through the callback, the
// event and the signal, and sc_start() returning once the platform is idle.
// Its report equals the CLI's for the same run. Each test is its own process.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>

#include "gpupm/platform/gpu.h"
#include "gpupm/platform/run_setup.h"
#include "gpupm/report/report_writer.h"
#include "support/error_of.h"
#include "support/report_runner.h"
#include "support/sc_bench.h"
#include "support/test_support.h"

namespace gpupm {
namespace {

using sc_core::SC_NS;
using sc_core::sc_time;

// Another model of the platform: a CPU-like thread that ticks on its own,
// waits for the GPU's completion event and keeps going a while after it; and
// an interrupt input bound to the GPU's done_o.
class HostModel : public sc_core::sc_module {
 public:
  sc_core::sc_in<bool> gpu_irq{"gpu_irq"};
  sc_time saw_event = sc_core::SC_ZERO_TIME, saw_irq = sc_core::SC_ZERO_TIME, finished = sc_core::SC_ZERO_TIME;
  uint64_t ticks = 0;

  HostModel(sc_core::sc_module_name name, const sc_core::sc_event& gpu_done) : sc_module(name), gpu_done_(gpu_done) {
    SC_HAS_PROCESS(HostModel);
    SC_THREAD(ticker);
    SC_THREAD(waiter);
    SC_METHOD(irq);
    sensitive << gpu_irq.pos();
    dont_initialize();
  }

 private:
  void ticker() {  // runs until 5 us after the GPU finished
    while (saw_event == sc_core::SC_ZERO_TIME || sc_core::sc_time_stamp() < saw_event + sc_time(5000, SC_NS)) {
      sc_core::wait(100, SC_NS);
      ++ticks;
    }
    finished = sc_core::sc_time_stamp();
  }
  void waiter() {
    sc_core::wait(gpu_done_);
    saw_event = sc_core::sc_time_stamp();
  }
  void irq() { saw_irq = sc_core::sc_time_stamp(); }

  const sc_core::sc_event& gpu_done_;
};

RunInputs equalizer_run() {
  RunInputs in;
  in.gpu_file = test::source_path("configs/gpu/gtx480.json");
  in.workload_file = test::source_path("configs/workloads/compute.json");
  in.policy = "equalizer-perf";  // V/F transitions: one may still be under way at the end
  in.sets = {"workload.kernels[0].grid_ctas=90"};
  return in;
}

class Embedding : public test::ScTest {};

TEST_F(Embedding, RunsUnderTheUsersScStartAndGoesQuiet) {
  LoadedRun run = load_run(equalizer_run());
  Gpu gpu("gpu", run.gpu, run.workload, std::move(run.policy));
  HostModel host("host", gpu.done_event());
  host.gpu_irq.bind(gpu.done_o);
  int callbacks = 0;
  sc_time callback_at;
  gpu.on_done = [&](Gpu& g) {
    ++callbacks;
    callback_at = sc_core::sc_time_stamp();
    EXPECT_TRUE(g.done());
  };

  sc_core::sc_start(sc_time(1000, SC_NS));  // a time limit: the platform pauses, the GPU is not done yet
  EXPECT_EQ(sc_core::sc_time_stamp(), sc_time(1000, SC_NS));
  EXPECT_FALSE(gpu.done());
  EXPECT_FALSE(gpu.done_o.read());

  sc_core::sc_start();  // no limit: returns only when nothing is left to do
  ASSERT_TRUE(gpu.done());
  EXPECT_EQ(callbacks, 1);
  EXPECT_GT(callback_at, sc_time(1000, SC_NS));
  EXPECT_EQ(host.saw_event, callback_at);  // notified one delta after the callback
  EXPECT_EQ(host.saw_irq, callback_at);
  EXPECT_TRUE(gpu.done_o.read());
  // The host kept running after the GPU finished, and the simulation ended with it.
  EXPECT_GE(host.finished, callback_at + sc_time(5000, SC_NS));
  EXPECT_EQ(sc_core::sc_time_stamp(), host.finished);
  EXPECT_FALSE(sc_core::sc_pending_activity());
  EXPECT_EQ(host.finished, sc_time(100, SC_NS) * double(host.ticks));
  // The completion snapshot is the one taken at the callback.
  EXPECT_DOUBLE_EQ(gpu.finish().time_s, callback_at.to_seconds());

  const Json embedded = build_report(gpu, run.doc);
  const RunInputs in = equalizer_run();
  test::RunResult cli =
      test::run_sim(in.workload_file, "--policy " + in.policy + " --set '" + in.sets[0] + "'", "embed");
  ASSERT_EQ(cli.status, 0) << cli.output;
  EXPECT_EQ(embedded, cli.report) << "embedded and CLI reports differ";
}

// A platform's own timed events at the GPU's edge times (here every
// nanosecond) leave the results as they are: coinciding edges of the SM and
// memory clocks, and a V/F transition that ends at an edge, run in the model's
// order (ClockDomain::runs_after, FrequencyManager's threads), not in the order
// SystemC's shared timed queue gives them. mst under core-dvfs has such
// coincidences; before the order was fixed, this neighbour changed 16 values of
// its report.
class Neighbour : public sc_core::sc_module {
 public:
  explicit Neighbour(sc_core::sc_module_name name) : sc_module(name) {
    SC_HAS_PROCESS(Neighbour);
    SC_METHOD(fire);
    sensitive << event_;
    dont_initialize();
    event_.notify(sc_core::SC_ZERO_TIME);
  }

 private:
  void fire() { event_.notify(sc_time(1, SC_NS)); }
  sc_core::sc_event event_;
};

TEST_F(Embedding, APlatformsOwnTimedEventsLeaveTheResults) {
  RunInputs in;
  in.gpu_file = test::source_path("configs/gpu/gtx480.json");
  in.workload_file = test::source_path("configs/workloads/core_shutdown/mst.json");
  in.policy = "core-dvfs";
  LoadedRun run = load_run(in);
  Gpu gpu("gpu", run.gpu, run.workload, std::move(run.policy));
  Neighbour neighbour("neighbour");
  gpu.on_done = [](Gpu&) { sc_core::sc_stop(); };  // the neighbour never goes quiet
  sc_core::sc_start();
  ASSERT_TRUE(gpu.done());
  const Json embedded = build_report(gpu, run.doc);
  test::RunResult cli = test::run_sim(in.workload_file, "--policy core-dvfs", "neighbour");
  ASSERT_EQ(cli.status, 0) << cli.output;
  EXPECT_EQ(embedded, cli.report) << "a neighbour's timed events changed the results";
}

// A lockstep mismatch is the platform's to handle: an SC_ERROR of type
// gpupm/lockstep (with SystemC's default actions, thrown out of sc_start),
// never an exit of the whole process from inside the model.
TEST_F(Embedding, ALockstepMismatchIsReportedNotExited) {
#ifndef GPUPM_HAVE_RTL
  GTEST_SKIP() << "built without the Verilated RTL";
#endif
  RunInputs in = equalizer_run();
  in.sets.push_back("gpu.controller_impl=lockstep");
  ::setenv("GPUPM_LOCKSTEP_FAULT", "eq_sm_block:3:77:sum_xalu_o:4", 1);  // the RTL's test-only fault hook
  LoadedRun run = load_run(in);
  Gpu gpu("gpu", run.gpu, run.workload, std::move(run.policy));
  try {
    sc_core::sc_start();
    ADD_FAILURE() << "the injected mismatch was not reported";
  } catch (const sc_core::sc_report& r) {
    EXPECT_STREQ(r.get_msg_type(), "gpupm/lockstep");
    EXPECT_EQ(r.get_severity(), sc_core::SC_ERROR);
    const std::string msg = r.get_msg();
    EXPECT_EQ(msg.rfind("lockstep mismatch: eq_sm_block SM 3, cycle 77, signal sum_xalu_o:", 0), 0u) << msg;
    EXPECT_NE(msg.find("in the Equalizer policy call at SM cycle"), std::string::npos) << msg;
  }
  ::unsetenv("GPUPM_LOCKSTEP_FAULT");
  EXPECT_FALSE(gpu.done());
}

// An unknown policy in a program of one's own: the message names RunInputs (not
// the gpupm program's options), lists the known policies and says how to add
// one; the gpupm program's message keeps its options and has no such hint.
TEST(EmbeddingPolicy, AnUnknownPolicyNamesRunInputsAndTheRegistration) {
  RunInputs in = equalizer_run();
  in.policy = "my-policy";
  const auto message = [&](LoadedRun (*load)(const RunInputs&)) {
    try {
      load(in);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("(accepted)");
  };
  const std::string embedded = message(load_run);
  EXPECT_EQ(embedded.rfind(
                "gpupm::RunInputs (policy, sets): policy.name: unknown policy \"my-policy\"; expected one of {", 0),
            0u)
      << embedded;
  for (const char* part : {"baseline", "equalizer-perf", "GPUPM_REGISTER_POLICY", "docs/embedding.md"})
    EXPECT_NE(embedded.find(part), std::string::npos) << "missing '" << part << "' in: " << embedded;
  const std::string program = message(load_standalone_run);
  EXPECT_EQ(program.rfind("--policy/--set: policy.name: unknown policy \"my-policy\"; expected one of {", 0), 0u)
      << program;
  EXPECT_EQ(program.find("GPUPM_REGISTER_POLICY"), std::string::npos) << program;
}

// The documented sc_main names shipped configs as configs/...: outside a source
// checkout they are found under the data root (an install's share/gpupm, or
// $GPUPM_DATA_DIR), and a name found nowhere is reported as written.
TEST(EmbeddingInputs, ShippedConfigNamesWorkOutsideTheSourceTree) {
  const std::filesystem::path elsewhere = test::temp_dir("embedding_cwd"), before = std::filesystem::current_path();
  std::filesystem::current_path(elsewhere);
  ::setenv("GPUPM_DATA_DIR", test::source_path("").c_str(), 1);
  RunInputs in;
  in.gpu_file = "configs/gpu/gtx480_60sm.json";
  in.workload_file = "configs/workloads/compute.json";
  in.policy = "baseline";
  EXPECT_EQ(load_run(in).gpu.sm.count, 60u);
  in.gpu_file = "configs/gpu/no_such_gpu.json";
  const std::string message = test::error_of([&] { load_run(in); });
  EXPECT_NE(message.find("configs/gpu/no_such_gpu.json"), std::string::npos) << message;
  ::unsetenv("GPUPM_DATA_DIR");
  std::filesystem::current_path(before);
  std::filesystem::remove_all(elsewhere);
}

// Two GPUs inside a platform's own module: each one's trace is scoped by its
// hierarchical name (top.a..., top.b...), so the two traces tell them apart.
TEST_F(Embedding, TwoGpusTraceUnderTheirOwnHierarchicalNames) {
  struct Top : sc_core::sc_module {
    LoadedRun run_a = load_run(equalizer_run()), run_b = load_run(equalizer_run());
    Gpu a{"a", run_a.gpu, run_a.workload, std::move(run_a.policy)};
    Gpu b{"b", run_b.gpu, run_b.workload, std::move(run_b.policy)};
    explicit Top(sc_core::sc_module_name name) : sc_module(name) {}
  } top("top");
  const std::string dir = test::temp_dir("embed_trace");
  top.a.trace_to(dir + "/a.vcd", 1280);  // a multiple of sim.sample_period (128)
  top.b.trace_to(dir + "/b.vcd", 1280);
  sc_core::sc_start();
  ASSERT_TRUE(top.a.done() && top.b.done());
  top.a.finish_trace();
  top.b.finish_trace();
  for (const char* name : {"a", "b"}) {
    const std::string vcd = test::read_file(dir + "/" + name + ".vcd");
    const std::string scopes = "$scope module top $end\n$scope module " + std::string(name) + " $end\n";
    EXPECT_NE(vcd.find(scopes), std::string::npos) << name << ".vcd:\n" << vcd.substr(0, 400);
    EXPECT_EQ(vcd.find("$scope module gpu $end"), std::string::npos) << "no fixed \"gpu\" scope";
  }
}

// Into the platform's own sc_trace_file: the GPU's variables under its
// hierarchical name, beside the platform's own signal, in the platform's file.
TEST_F(Embedding, TraceJoinsThePlatformsOwnTraceFile) {
  struct Top : sc_core::sc_module {
    LoadedRun run = load_run(equalizer_run());
    Gpu gpu{"gpu0", run.gpu, run.workload, std::move(run.policy)};
    sc_core::sc_signal<bool> heartbeat{"heartbeat"};
    explicit Top(sc_core::sc_module_name name) : sc_module(name) {}
  } top("top");
  const double nominal_mhz = top.run.gpu.dvfs[Domain::Sm].levels[top.run.gpu.dvfs[Domain::Sm].nominal].mhz;
  EXPECT_THROW(top.gpu.trace_to(static_cast<sc_core::sc_trace_file*>(nullptr), 1280), std::invalid_argument);
  const std::string dir = test::temp_dir("embed_sc_trace");
  sc_core::sc_trace_file* file = sc_core::sc_create_vcd_trace_file((dir + "/platform").c_str());
  file->set_time_unit(1, sc_core::SC_PS);
  sc_core::sc_trace(file, top.heartbeat, "top.heartbeat");
  top.gpu.trace_to(file, 1280);
  sc_core::sc_start();
  ASSERT_TRUE(top.gpu.done());
  top.gpu.finish_trace();
  sc_core::sc_close_vcd_trace_file(file);
  const std::string vcd = test::read_file(dir + "/platform.vcd");
  for (const char* var : {"heartbeat", "gpu0", "sm0", "power_w", "sm_mhz", "v_sm", "total_w"})
    EXPECT_NE(vcd.find(var), std::string::npos) << var << " not in:\n" << vcd.substr(0, 2000);
  EXPECT_NE(vcd.find("r" + std::to_string(int(nominal_mhz)) + " "), std::string::npos)
      << "the SM clock's " << nominal_mhz << " MHz is not among the values";
}

// Without the platform's femtosecond resolution the model refuses and says what to do.
TEST(EmbeddingResolution, ACoarseTimeResolutionIsExplained) {
  sc_core::sc_report_handler::set_actions(sc_core::SC_ERROR, sc_core::SC_THROW);  // SystemC's default, made explicit
  LoadedRun run = load_run(equalizer_run());
  try {
    Gpu gpu("gpu", run.gpu, run.workload, std::move(run.policy));
    FAIL() << "a 1 ps resolution was accepted";
  } catch (const sc_core::sc_report& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("gpupm/time_resolution"), std::string::npos) << what;
    EXPECT_NE(what.find("1 fs or finer, but it is 1 ps"), std::string::npos) << what;
    EXPECT_NE(what.find("sc_set_time_resolution(1, sc_core::SC_FS)"), std::string::npos) << what;
  }
}

}  // namespace
}  // namespace gpupm
