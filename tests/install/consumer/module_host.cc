// Loads module.cc's shared library as a platform's own SystemC program loads
// its module plugins, and prints the SM count the module read (the install
// test checks it). The program has sc_main and links SystemC; the model is
// only in the module.
#include <dlfcn.h>

#include <systemc>

#include <cstdint>
#include <iostream>

int sc_main(int argc, char* argv[]) {
  void* module = argc == 2 ? dlopen(argv[1], RTLD_NOW | RTLD_LOCAL) : nullptr;
  if (!module) return std::cerr << "usage: module_host MODULE (" << dlerror() << ")\n", 1;
  auto sms = reinterpret_cast<uint32_t (*)()>(dlsym(module, "gpupm_consumer_module_sms"));
  if (!sms) return std::cerr << dlerror() << "\n", 1;
  std::cout << "module sms " << sms() << "\n";
  return 0;
}
