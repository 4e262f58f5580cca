// AddressSanitizer and SystemC's coroutines (scripts/sanitize/systemc_asan_fibers.cc):
// after a thread process ends (sc_cor_pkg_qt::abort), ASan must take the
// scheduler's stack for the current one again. It kept the ended thread's, whose
// stack is then freed: LeakSanitizer's tracer scanned it at exit and died with
// SIGSEGV in random tests. Skipped outside an ASan build (scripts/test-sanitize.sh).
#define SC_INCLUDE_DYNAMIC_PROCESSES
#include <gtest/gtest.h>
#include <pthread.h>

#include <systemc>

#include "support/sc_bench.h"

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/common_interface_defs.h>
#endif

namespace gpupm {
namespace {

struct EndingThread : sc_core::sc_module {
  SC_HAS_PROCESS(EndingThread);
  explicit EndingThread(sc_core::sc_module_name name) : sc_module(name) { SC_THREAD(run); }
  void run() {  // spawns a thread that ends last: its abort is the run's final switch
    sc_core::sc_spawn([] { sc_core::wait(5, sc_core::SC_NS); }, "ends_last");
  }
};

class SanitizerFibers : public test::ScTest {};

TEST_F(SanitizerFibers, AsanKnowsTheSchedulersStackAfterAThreadEnds) {
#if !defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "checks an AddressSanitizer build (scripts/test-sanitize.sh)";
#else
  EndingThread bench("bench");
  sc_core::sc_start(sc_core::sc_time(20, sc_core::SC_NS));
  pthread_attr_t attr;
  void* bottom = nullptr;
  size_t size = 0;
  ASSERT_EQ(pthread_getattr_np(pthread_self(), &attr), 0);
  pthread_attr_getstack(&attr, &bottom, &size);
  pthread_attr_destroy(&attr);
  // A switch to this same stack reports the stack ASan believed it was on.
  void* fake_stack = nullptr;
  const void* was_bottom = nullptr;
  size_t was_size = 0;
  __sanitizer_start_switch_fiber(&fake_stack, bottom, size);
  __sanitizer_finish_switch_fiber(fake_stack, &was_bottom, &was_size);
  EXPECT_EQ(was_bottom, bottom);
  EXPECT_EQ(was_size, size);
#endif
}

}  // namespace
}  // namespace gpupm
