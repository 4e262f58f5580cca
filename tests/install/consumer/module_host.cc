// Loads module.cc's shared library as a platform loads its module plugins and
// prints the SM count it read (the install test checks it).
#include <dlfcn.h>

#include <cstdint>
#include <iostream>

int main(int argc, char* argv[]) {
  void* module = argc == 2 ? dlopen(argv[1], RTLD_LAZY | RTLD_LOCAL) : nullptr;
  if (!module) return std::cerr << "usage: module_host MODULE (" << dlerror() << ")\n", 1;
  auto sms = reinterpret_cast<uint32_t (*)()>(dlsym(module, "gpupm_consumer_module_sms"));
  if (!sms) return std::cerr << dlerror() << "\n", 1;
  std::cout << "module sms " << sms() << "\n";
  return 0;
}
