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
//
// Second: a thread process that ends leaves its coroutine through
// sc_cor_pkg_qt::abort, which announces no switch at all (only yield does).
// ASan then keeps the ended thread's stack as the current one; the process is
// deleted and its stack freed, and at exit LeakSanitizer scans that range as
// the main thread's stack: unmapped once the freed block leaves ASan's
// quarantine, so its tracer died with SIGSEGV in whichever tests' allocations
// had pushed the block out ("Tracer caught signal 11", 8 to 14 of 221 tests,
// different ones each run), and an exception on the real stack afterwards was
// "ignored" with false reports to follow. abort and the helper QuickThreads
// runs on the new stack after it are interposed below (the library reaches
// both through its symbol table: a vtable slot and a GOT entry) and announce
// the switch as yield does.
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

namespace {

// sc_core::sc_cor_qt as libsystemc 2.3.4 lays it out (its create and yield read these offsets).
struct CoroutineLayout {
  void* vtable;
  size_t stack_size;
  void* stack;
};

}  // namespace

extern "C" void __sanitizer_finish_switch_fiber(void* fake_stack_save, const void** bottom_old, size_t* size_old);

// void sc_core::sc_cor_pkg_qt::abort(sc_core::sc_cor* next)
extern "C" void gpupm_sc_cor_pkg_qt_abort(void* self, void* next) asm("_ZN7sc_core13sc_cor_pkg_qt5abortEPNS_6sc_corE");
extern "C" void gpupm_sc_cor_pkg_qt_abort(void* self, void* next) {
  using Abort = void (*)(void*, void*);
  static const Abort library_abort =
      reinterpret_cast<Abort>(dlsym(RTLD_NEXT, "_ZN7sc_core13sc_cor_pkg_qt5abortEPNS_6sc_corE"));
  const auto* to = static_cast<const CoroutineLayout*>(next);
  // nullptr: the ending coroutine's fake stack is not kept (it never runs again).
  __sanitizer_start_switch_fiber(nullptr, to->stack, to->stack_size);
  library_abort(self, next);
}

// Runs on the new coroutine's stack right after abort's switch.
extern "C" void* sc_cor_qt_aborthelp(void*, void*, void*) {
  __sanitizer_finish_switch_fiber(nullptr, nullptr, nullptr);
  return nullptr;
}
