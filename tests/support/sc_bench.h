// The SystemC pieces every block test shares (sc_model/<block>/*_test.cc):
//   ScTest    the fixture: femtosecond time resolution, set before any sc_time
//             (each test runs in its own process, so once per test)
//   ScBench   a test bench module with one thread running the test's script
//             (`body`, from time 0) and waits to absolute times; a test's bench
//             derives from it and adds the block under test and its sockets
#pragma once

#include <gtest/gtest.h>
#include <systemc>

#include <functional>

namespace gpupm::test {

class ScTest : public ::testing::Test {
 protected:
  ScTest() { sc_core::sc_set_time_resolution(1, sc_core::SC_FS); }
};

class ScBench : public sc_core::sc_module {
 public:
  std::function<void()> body;  // the test's script; runs in the bench's thread

  explicit ScBench(sc_core::sc_module_name name) : sc_module(name) {}

  // In the script: wait until simulated time `t` (now or later).
  static void wait_until(sc_core::sc_time t) { sc_core::wait(t - sc_core::sc_time_stamp()); }
  static void at_ns(double ns) { wait_until(sc_core::sc_time(ns, sc_core::SC_NS)); }

 protected:
  // The script's thread is made after the parts of the derived bench (as at the
  // end of its constructor), so the processes start in the same order.
  void before_end_of_elaboration() override {
    SC_HAS_PROCESS(ScBench);
    SC_THREAD(run);
  }

 private:
  void run() {
    if (body) body();
  }
};

}  // namespace gpupm::test
