// `gpupm ptx FILE`: what the PTX front end makes of a program: its kernels,
// their parameters and resources, and the opcode families each uses.
#include "app/commands.h"
#include "program/cuda_compiler.h"
#include "ptx/ptx.h"

#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

namespace gpupm {

namespace {

const char* type_name(ptx::ScalarType t) {
  static const char* kNames[] = {"b8", "b16", "b32", "b64", "u8", "u16", "u32", "u64",
                                 "s8", "s16", "s32", "s64", "f32", "f64", "pred"};
  return kNames[size_t(t)];
}

}  // namespace

int command_ptx(const std::string& file) {
  try {
    const std::filesystem::path p(file);
    if (!std::filesystem::is_regular_file(p)) throw InputError(file, "", "no such file");
    const std::string ptx_file = p.extension() == ".cu" ? compile_cuda_to_ptx(file) : file;
    std::ifstream f(ptx_file, std::ios::binary);
    std::stringstream text;
    text << f.rdbuf();
    std::unique_ptr<ptx::Module> m;
    try {
      m = ptx::parse(text.str(), ptx_file);
    } catch (const ptx::ParseError& e) {
      throw InputError(file, "", e.what());
    }
    std::cout << file << ": PTX " << m->version << ", target " << m->target << ", " << m->kernels.size()
              << " kernel(s)\n";
    for (const auto& k : m->kernels) {
      std::cout << "\n" << k->name << "(";
      for (size_t i = 0; i < k->params.size(); ++i)
        std::cout << (i ? ", " : "") << type_name(k->params[i].type) << " " << k->params[i].name;
      std::cout << ")\n  " << k->info.size() << " instructions, " << k->regs_per_thread
                << " registers/thread (estimate), " << k->shared_static_bytes << " B static shared"
                << (k->uses_dynamic_shared ? " + dynamic" : "") << ", " << k->local_bytes << " B local/thread\n  ";
      size_t n = 0;
      for (const auto& [family, count] : k->opcode_families)
        std::cout << (n++ ? ", " : "") << family << " " << count;
      std::cout << "\n";
    }
  } catch (const InputError& e) {
    std::cerr << "gpupm: error: " << e.what() << "\n";
    return kExitBadInput;
  }
  return kExitOk;
}

}  // namespace gpupm
