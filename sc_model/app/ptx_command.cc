// `gpupm ptx FILE`: what the PTX front end makes of a program: its kernels,
// their parameters and resources, and the opcode families each uses.
#include "gpupm/app/commands.h"
#include "gpupm/program/cuda_compiler.h"
#include "gpupm/ptx/ptx.h"

#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

namespace gpupm {

int command_ptx(const std::string& file) {
  try {
    require_regular_file(file);
    const std::string ptx_file = std::filesystem::path(file).extension() == ".cu" ? compile_cuda_to_ptx(file) : file;
    const std::string text = read_input_file(ptx_file);
    std::unique_ptr<ptx::Module> m;
    try {
      m = ptx::parse(text, ptx_file);
    } catch (const ptx::ParseError& e) {
      throw InputError(file, "", e.what());
    }
    m->rename_source(kCompiledSource, file);
    std::cout << file << ": PTX " << m->version << ", target " << m->target << ", " << m->kernels.size()
              << " kernel(s)\n";
    for (const auto& k : m->kernels) {
      std::cout << "\n" << k->name << "(";
      for (size_t i = 0; i < k->params.size(); ++i)
        std::cout << (i ? ", " : "") << ptx::type_name(k->params[i].type) << " " << k->params[i].name;
      std::cout << ")\n  " << k->info.size() << " instructions, " << k->regs_per_thread
                << " registers/thread (estimate), " << k->shared_static_bytes << " B static shared"
                << (k->uses_dynamic_shared ? " + dynamic" : "") << ", " << k->local_bytes << " B local/thread, "
                << k->num_regs << " registers declared in " << k->register_slots << " rows\n  ";
      size_t n = 0;
      for (const auto& [family, count] : k->opcode_families) std::cout << (n++ ? ", " : "") << family << " " << count;
      std::cout << "\n";
    }
  } catch (const InputError& e) {
    std::cerr << "gpupm: error: " << e.what() << "\n";
    return kExitBadInput;
  }
  return kExitOk;
}

}  // namespace gpupm
