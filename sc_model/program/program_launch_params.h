// A program workload's launches as written (README.md, "Real kernels"): each
// key declared once (common/param.h) for the reader and
// docs/schema/workload.schema.json. What depends on the program (the .entry,
// its parameters, the SM's resources) is checked by load_program_workload.
#pragma once

#include "common/param.h"

#include <string>
#include <vector>

namespace gpupm {

struct ProgramLaunchParams {
  std::string kernel;
  std::vector<uint32_t> grid, block;  // x, y, z: 1 to 3 of them
  uint32_t shared_bytes = 0;
  uint32_t regs_per_thread = 0;  // 0: the PTX estimate
  std::vector<nlohmann::json> args;  // one per parameter: a buffer name or a number
  uint32_t repeat = 1;
  std::string while_buffer;  // while_nonzero.buffer ("": no while_nonzero)
  uint32_t while_max = 0;
};

struct ProgramLaunches {
  std::vector<ProgramLaunchParams> launches;
};

void describe(ParamVisitor& v, ProgramLaunchParams& l);
void describe(ParamVisitor& v, ProgramLaunches& p);

}  // namespace gpupm
