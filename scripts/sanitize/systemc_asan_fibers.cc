// Linked into gpupm and gpupm_tests in an AddressSanitizer build (CMakeLists.txt,
// GPUPM_SANITIZE containing "address"; gcc, whose libasan is a shared library).
//
// Why: Debian's libsystemc 2.3.4 tells ASan about its QuickThreads stack
// switches (weak calls to __sanitizer_start_switch_fiber in
// sc_cor_pkg_qt::yield), but for the main coroutine, the stack sc_start runs
// on and method processes run on, it passes bottom 0 and size 0. After the
// first switch from a thread process back to the scheduler, ASan believes the
// current stack is empty; every later throw or _Exit there makes
// __asan_handle_no_return give up ("ASan is ignoring requested
// __asan_handle_no_return ... False positive error reports may follow"), the
// unwound frames stay poisoned and the next calls on that stack are reported
// as stack-buffer-overflows. This definition comes before libasan's in symbol
// lookup; it passes the main thread's real stack bounds instead of (0, 0).
#include <dlfcn.h>
#include <pthread.h>

#include <cstddef>

namespace {

struct StackBounds {
  void* bottom = nullptr;
  size_t size = 0;
};

StackBounds main_thread_stack() {
  StackBounds s;
  pthread_attr_t attr;
  if (pthread_getattr_np(pthread_self(), &attr) == 0) {
    pthread_attr_getstack(&attr, &s.bottom, &s.size);
    pthread_attr_destroy(&attr);
  }
  return s;
}

// Static initialisation runs on the main thread, before sc_main.
const StackBounds kMainStack = main_thread_stack();

}  // namespace

extern "C" void __sanitizer_start_switch_fiber(void** fake_stack_save, const void* bottom, size_t size) {
  using StartSwitch = void (*)(void**, const void*, size_t);
  static const StartSwitch asan_start_switch =
      reinterpret_cast<StartSwitch>(dlsym(RTLD_NEXT, "__sanitizer_start_switch_fiber"));
  if (bottom == nullptr && size == 0) {  // SystemC's main coroutine
    bottom = kMainStack.bottom;
    size = kMainStack.size;
  }
  if (asan_start_switch) asan_start_switch(fake_stack_save, bottom, size);
}
