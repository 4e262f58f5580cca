// A program workload as written (docs/real_kernels.md): its program, its
// named buffers with their initialisers and its launches, or two such programs
// as apps. Each key is declared once (common/param.h) for the reader, `gpupm
// params --workload` and docs/schema/workload.schema.json. What depends on the
// program (its .entry names and parameters, the SM's resources) is checked
// when the program is loaded (program/program_workload.h).
#pragma once

#include "gpupm/common/param.h"

#include <string>
#include <vector>
#include <nlohmann/json.hpp>

namespace gpupm {

struct ProgramLaunchParams {
  std::string kernel;
  std::vector<uint32_t> grid, block;  // x, y, z: 1 to 3 of them
  uint32_t shared_bytes = 0;
  uint32_t regs_per_thread = 0;      // 0: the PTX estimate
  std::vector<nlohmann::json> args;  // one per parameter: a buffer name or a number
  uint32_t repeat = 1;
  std::string while_buffer;  // while_nonzero.buffer ("": no while_nonzero)
  uint32_t while_max = 0;
};

// A buffer's initial contents: exactly one form given (none: zeros). Numbers
// are kept as written, so a 64-bit integer keeps every bit.
struct BufferInit {
  nlohmann::json fill;         // every element
  nlohmann::json start, step;  // iota: start + i x step
  nlohmann::json min, max;     // random: uniform in [min, max]
  uint64_t seed = 0;           // random: the stream's seed
  std::string file;            // a .npy file, relative to the workload
  bool is_fill() const { return !fill.is_null(); }
  bool is_iota() const { return !start.is_null(); }
  bool is_random() const { return !min.is_null(); }
  bool is_file() const { return !file.empty(); }
};

struct BufferSpec {
  std::string name;  // its key in "buffers"
  std::string type;  // u8, s32, u32, s64, u64, f32, f64
  uint64_t count = 0;
  BufferInit init;
  std::string dir;  // the workload file's folder (init files are relative to it)
};

// One program: the document itself, or one of its apps.
struct ProgramParams {
  std::string name, description;
  std::string program;  // .cu or .ptx, relative to the workload
  std::vector<BufferSpec> buffers;
  std::vector<ProgramLaunchParams> launches;
};

// A scale of a program's inputs other than "ci" (the document itself): a python3
// generator that writes the workload's buffers and launches and their input
// files on first use (program/workload_scale.h, configs/workloads/cuda/README.md "Scales").
struct ScaleParams {
  std::string generator;          // python3 script, relative to the workload
  std::vector<std::string> args;  // its arguments after the output folder
  bool given() const { return !generator.empty(); }
};

// A program workload's "scales" section.
struct WorkloadScales {
  std::string dir;  // the workload file's folder: set before reading
  ScaleParams paper;
};

struct ProgramWorkloadParams {
  std::string dir;         // the workload file's folder: set before reading
  std::string inputs_dir;  // where init files are (a generated scale's folder); empty: dir
  ProgramParams main;
  WorkloadScales scales;
  std::vector<ProgramParams> apps;
  bool respawn = false;
};

// All buffers of a program together hold at most this many bytes.
constexpr uint64_t kMaxBufferBytes = uint64_t(1) << 31;

void describe(ParamVisitor& v, ProgramLaunchParams& l);
// `dir`: the workload's folder, where init files are looked for.
void describe(ParamVisitor& v, BufferSpec& b, const std::string& dir);
void describe(ParamVisitor& v, WorkloadScales& s);  // the "scales" key alone
void describe(ParamVisitor& v, ProgramWorkloadParams& w);

}  // namespace gpupm
