// memory.system "external" (docs/embedding.md#external-memory): the Gpu's
// mem_out sockets bound to a user's DRAM target (fixed latency, a bounded
// input queue whose back-pressure is END_REQ sent late). The same workload runs
// beside it on a Gpu with the model's own memory, in the same simulation; the
// user's DRAM must see every line that memory system served. The workloads'
// line counts do not depend on timing: each line is requested once per SM that
// touches it (streaming, no reuse; a program that copies a buffer once), so the
// two memories' different latencies change when, not how many.
// Each test is its own process.
#include <gtest/gtest.h>
#include <tlm_utils/multi_passthrough_target_socket.h>
#include <tlm_utils/peq_with_get.h>

#include "gpupm/platform/gpu.h"
#include "gpupm/platform/run_setup.h"
#include "gpupm/program/npy.h"
#include "gpupm/program/program_workload.h"
#include "gpupm/report/report_writer.h"
#include "support/sc_bench.h"
#include "support/test_support.h"

#include <algorithm>
#include <deque>
#include <fstream>
#include <map>

namespace gpupm {
namespace {

using sc_core::SC_NS;
using sc_core::sc_time;

// The user's memory: one multi-socket the SMs' mem_out sockets all bind to.
// Every request is served `latency` after it was taken; at most `depth` are
// taken at a time, and a BEGIN_REQ beyond that waits (TLM_ACCEPTED) for END_REQ.
// With `implicit_end_req`, a waiting request gets no END_REQ: its BEGIN_RESP
// ends it (the base protocol allows both).
class FixedLatencyDram : public sc_core::sc_module {
 public:
  tlm_utils::multi_passthrough_target_socket<FixedLatencyDram> in{"in"};
  uint64_t reads = 0, writes = 0, waited = 0;

  FixedLatencyDram(sc_core::sc_module_name name, sc_time latency, size_t depth, bool implicit_end_req)
      : sc_module(name), latency_(latency), depth_(depth), implicit_end_req_(implicit_end_req) {
    SC_HAS_PROCESS(FixedLatencyDram);
    in.register_nb_transport_fw(this, &FixedLatencyDram::nb_transport_fw);
    SC_THREAD(serve);
  }

 private:
  tlm::tlm_sync_enum nb_transport_fw(int port, tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase, sc_time&) {
    EXPECT_EQ(phase, tlm::BEGIN_REQ);  // the SM completes responses itself: no END_RESP
    port_of_[&gp] = port;
    if (taken_ == depth_) {
      waiting_.push_back(&gp);
      ++waited;
      return tlm::TLM_ACCEPTED;
    }
    take(gp);
    phase = tlm::END_REQ;
    return tlm::TLM_UPDATED;
  }
  void take(tlm::tlm_generic_payload& gp) {
    ++taken_;
    ++(gp.is_write() ? writes : reads);
    due_.notify(gp, latency_);
  }
  void send(tlm::tlm_generic_payload& gp, tlm::tlm_phase phase) {
    sc_time zero = sc_core::SC_ZERO_TIME;
    EXPECT_EQ(in[port_of_.at(&gp)]->nb_transport_bw(gp, phase, zero),
              phase == tlm::BEGIN_RESP ? tlm::TLM_COMPLETED : tlm::TLM_ACCEPTED);
  }
  void serve() {
    for (;;) {
      sc_core::wait(due_.get_event());
      while (tlm::tlm_generic_payload* gp = due_.get_next_transaction()) {
        --taken_;
        gp->set_response_status(tlm::TLM_OK_RESPONSE);
        send(*gp, tlm::BEGIN_RESP);
        port_of_.erase(gp);
        if (waiting_.empty()) continue;
        tlm::tlm_generic_payload& next = *waiting_.front();
        waiting_.pop_front();
        take(next);
        if (!implicit_end_req_) send(next, tlm::END_REQ);
      }
    }
  }

  sc_time latency_;
  size_t depth_;
  bool implicit_end_req_;
  size_t taken_ = 0;
  std::deque<tlm::tlm_generic_payload*> waiting_;
  std::map<const tlm::tlm_generic_payload*, int> port_of_;
  tlm_utils::peq_with_get<tlm::tlm_generic_payload> due_{"due"};
};

// A loosely-timed memory (memory.protocol "lt"): b_transport only. Each call
// adds `latency` to the annotation; with a `hold`, the call also waits that
// long inside (a target that serves one request at a time).
class LtDram : public sc_core::sc_module {
 public:
  tlm_utils::multi_passthrough_target_socket<LtDram> in{"in"};
  uint64_t reads = 0, writes = 0;

  LtDram(sc_core::sc_module_name name, sc_time latency, sc_time hold = sc_core::SC_ZERO_TIME)
      : sc_module(name), latency_(latency), hold_(hold) {
    in.register_b_transport(this, &LtDram::b_transport);
  }

 private:
  void b_transport(int, tlm::tlm_generic_payload& gp, sc_time& delay) {
    ++(gp.is_write() ? writes : reads);
    if (hold_ != sc_core::SC_ZERO_TIME) sc_core::wait(hold_);
    delay += latency_;
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
  }
  sc_time latency_, hold_;
};

RunInputs run_of(const std::string& workload, std::vector<std::string> sets) {
  RunInputs in;
  in.gpu_file = test::source_path("configs/gpu/gtx480.json");
  in.workload_file = test::source_path(workload);
  in.sets = std::move(sets);
  return in;
}

// The same run twice, side by side: on the model's memory and on the user's DRAM.
struct SideBySide {
  SideBySide(const RunInputs& in, bool implicit_end_req)
      : internal_run(load_run(in)),
        external_run(load_run(external(in))),
        internal("internal", internal_run.gpu, internal_run.workload, std::move(internal_run.policy)),
        external_gpu("external", external_run.gpu, external_run.workload, std::move(external_run.policy)),
        dram("dram", sc_time(300, SC_NS), 64, implicit_end_req) {
    for (auto& socket : external_gpu.mem_out()) socket.bind(dram.in);
  }
  static RunInputs external(RunInputs in) {
    in.sets.push_back("gpu.memory.system=external");
    return in;
  }
  // Reads: every line the model's memory served. Writes: at most those: the GPU
  // completes when its last warp retires, and stores still in an SM's LSU then
  // are never sent (a slow memory leaves more of them; the tests say which).
  void run_and_compare() {
    sc_core::sc_start();
    ASSERT_TRUE(internal.done());
    ASSERT_TRUE(external_gpu.done());
    const MemActivity& served = internal.finish().mem;
    EXPECT_GT(served.reads, 0u);
    EXPECT_EQ(dram.reads, served.reads);
    EXPECT_LE(dram.writes, served.writes);
    EXPECT_GT(dram.waited, 0u) << "the DRAM's queue never filled: back-pressure untested";
    EXPECT_EQ(external_gpu.finish().sm.insts, internal.finish().sm.insts);
  }

  LoadedRun internal_run, external_run;
  Gpu internal, external_gpu;
  FixedLatencyDram dram;
};

class ExternalMemory : public test::ScTest {};

TEST_F(ExternalMemory, UsersDramSeesEveryLineOfAStreamingRun) {
  SideBySide s(run_of("configs/workloads/streaming.json", {"workload.kernels[0].grid_ctas=30"}), false);
  s.run_and_compare();
  EXPECT_EQ(s.dram.writes, s.internal.finish().mem.writes);  // every store drained before completion
  // The SM side counted what it sent (END_REQ always explicit here, so all by completion).
  EXPECT_EQ(s.external_gpu.finish().mem.reads, s.dram.reads);
  EXPECT_EQ(s.external_gpu.finish().mem.writes, s.dram.writes);
  EXPECT_EQ(s.external_gpu.finish().mem.read_responses, s.dram.reads);

  const Json report = build_report(s.external_gpu, s.external_run.doc);
  const Json& memory = report.at("memory");
  EXPECT_EQ(memory.at("system"), "external");
  EXPECT_EQ(memory.at("energy_modelled"), false);
  EXPECT_EQ(memory.at("seen_by_the_sms").at("line_reads"), s.dram.reads);
  EXPECT_EQ(memory.at("seen_by_the_sms").at("bytes_written"), s.dram.writes * 128);
  // 300 ns in the DRAM, no more: the port adds no latency of its own.
  EXPECT_NEAR(memory.at("seen_by_the_sms").at("mean_read_latency_ns").get<double>(), 300.0, 1e-6);
  EXPECT_EQ(report.at("total").at("energy_j").at("by_domain").at("mem"), 0.0);
  EXPECT_FALSE(build_report(s.internal, s.internal_run.doc).contains("memory"));
  const std::string file = test::temp_dir("external_memory") + "/report.json";
  std::ofstream(file) << report.dump(2);
  std::string why;
  EXPECT_TRUE(test::report_matches_schema(file, &why)) << why;
  EXPECT_THROW(s.internal.mem_out(), std::logic_error);
}

// A real program: its data lives in the workload's device memory, so the
// user's DRAM serves timing only (the payload's data pointer is a scratch
// line); the results are the same bytes as with the model's memory.
TEST_F(ExternalMemory, AProgramRunsOnTheUsersDramWithImplicitEndReq) {
  SideBySide s(run_of("configs/workloads/cuda/stream_copy/stream_copy.json", {"workload.launches[0].args[2]=65536"}),
               true);
  s.run_and_compare();  // writes: ~8155 of 8192 reach this slow DRAM before completion, all the model's memory
  const std::string dir = test::temp_dir("external_memory_program");
  dump_program_buffers(s.internal_run.workload, dir + "/internal");
  dump_program_buffers(s.external_run.workload, dir + "/external");
  const std::vector<float> src = read_npy(dir + "/external/src.npy").as<float>();
  const std::vector<float> dst = read_npy(dir + "/external/dst.npy").as<float>();
  const size_t copied = 65536 * 4;  // n4 float4s
  ASSERT_GT(dst.size(), copied);
  EXPECT_TRUE(std::equal(src.begin(), src.begin() + copied, dst.begin()));
  EXPECT_EQ(test::read_file(dir + "/external/dst.npy"), test::read_file(dir + "/internal/dst.npy"));
}

// memory.protocol "lt": the same requests through b_transport. A fixed-latency
// LT memory and an AT memory of the same latency that never pushes back give
// the same run, cycle for cycle; an LT memory that waits inside its calls holds
// each SM's next request back, so the run is slower and the lines the same.
TEST_F(ExternalMemory, ALooselyTimedMemoryGivesTheRunOfAnAtMemoryOfTheSameLatency) {
  const RunInputs at_in = SideBySide::external(
      run_of("configs/workloads/cuda/stream_copy/stream_copy.json", {"workload.launches[0].args[2]=16384"}));
  RunInputs lt_in = at_in;
  lt_in.sets.push_back("gpu.memory.protocol=lt");
  LoadedRun at_run = load_run(at_in), lt_run = load_run(lt_in), held_run = load_run(lt_in);
  Gpu at("at", at_run.gpu, at_run.workload, std::move(at_run.policy));
  Gpu lt("lt", lt_run.gpu, lt_run.workload, std::move(lt_run.policy));
  Gpu held("held", held_run.gpu, held_run.workload, std::move(held_run.policy));
  FixedLatencyDram at_dram("at_dram", sc_time(300, SC_NS), size_t(1) << 20, false);
  LtDram lt_dram("lt_dram", sc_time(300, SC_NS));
  LtDram held_dram("held_dram", sc_time(300, SC_NS), sc_time(20, SC_NS));
  for (auto& socket : at.mem_out()) socket.bind(at_dram.in);
  for (auto& socket : lt.mem_out()) socket.bind(lt_dram.in);
  for (auto& socket : held.mem_out()) socket.bind(held_dram.in);
  sc_core::sc_start();
  ASSERT_TRUE(at.done() && lt.done() && held.done());
  EXPECT_GT(at_dram.reads, 0u);
  EXPECT_EQ(lt_dram.reads, at_dram.reads);
  EXPECT_EQ(lt_dram.writes, at_dram.writes);
  EXPECT_EQ(at_dram.waited, 0u);
  const Json at_report = build_report(at, at_run.doc), lt_report = build_report(lt, lt_run.doc);
  EXPECT_EQ(lt_report.at("total"), at_report.at("total"));
  EXPECT_EQ(lt_report.at("kernels"), at_report.at("kernels"));
  EXPECT_EQ(held_dram.reads, at_dram.reads);
  EXPECT_GT(held.finish().time_s, 1.2 * lt.finish().time_s) << "a target waiting in b_transport held nothing back";
  EXPECT_EQ(held.finish().sm.insts, lt.finish().sm.insts);
}

TEST(ExternalMemoryCli, ALooselyTimedProtocolNeedsAnExternalMemory) {
  const std::string out = test::temp_dir("external_memory_lt_cli") + "/out";
  test::ProcessResult r = test::run_gpupm_argv({"run", "--gpu", test::source_path("configs/gpu/gtx480.json"),
                                                "--workload", test::source_path("configs/workloads/streaming.json"),
                                                "--set", "gpu.memory.protocol=lt", "--out", out, "--quiet"});
  EXPECT_EQ(r.status, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("memory.protocol"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("needs system \"external\""), std::string::npos) << r.err;
}

TEST(ExternalMemoryCli, TheProgramRefusesAnExternalMemory) {
  const std::string out = test::temp_dir("external_memory_cli") + "/out";
  test::ProcessResult r = test::run_gpupm_argv({"run", "--gpu", test::source_path("configs/gpu/gtx480.json"),
                                                "--workload", test::source_path("configs/workloads/streaming.json"),
                                                "--set", "gpu.memory.system=external", "--out", out, "--quiet"});
  EXPECT_EQ(r.status, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("memory.system: \"external\" is for a SystemC platform"), std::string::npos) << r.err;
  EXPECT_TRUE(test::read_file(out + "/report.json").empty());
}

}  // namespace
}  // namespace gpupm
