#include "program/program_launch_params.h"

namespace gpupm {

namespace {

// grid and block: 1 to 3 extents (each in the declared range), y and z at most max_yz.
std::optional<ParamProblem> dim3_problem(const std::vector<uint32_t>& d, const char* key, uint64_t max_yz) {
  if (d.empty() || d.size() > 3) return ParamProblem{key, "expected an array of 1 to 3 positive integers"};
  for (size_t i = 1; i < d.size(); ++i)
    if (d[i] > max_yz)
      return ParamProblem{key, "expected an array of 1 to 3 positive integers, element " + std::to_string(i) +
                                   " in [1, " + std::to_string(max_yz) + "]"};
  return std::nullopt;
}

}  // namespace

void describe(ParamVisitor& v, ProgramLaunchParams& l) {
  v.text("kernel", l.kernel, "the .entry name", Presence::kRequired);
  v.integer_list("grid", l.grid, 1, 0x7fffffff, "CTAs: x, y, z (1 to 3 of them; y and z at most 65535)");
  v.rule("grid_dims", "grid has 1 to 3 extents", [&l] { return dim3_problem(l.grid, "grid", 65535); });
  v.integer_list("block", l.block, 1, 1024, "threads per CTA: x, y, z (1 to 3 of them)");
  v.rule("block_dims", "block has 1 to 3 extents", [&l] { return dim3_problem(l.block, "block", 1024); });
  v.integer("shared_bytes", l.shared_bytes, 0, 1u << 20, "bytes", "dynamic shared memory per CTA (at most gpu.sm.shared_bytes)");
  v.integer("regs_per_thread", l.regs_per_thread, 1, 255, "registers", "registers per thread (default: the PTX estimate)");
  v.json_list("args", l.args, 0, 4096, JsonItems::kValues, "one per parameter: a buffer name or a number",
              Presence::kRequired);
  v.integer("repeat", l.repeat, 1, 100000, "launches", "launches of this entry");
  v.section("while_nonzero", Presence::kOptional, "launch again while a buffer's first element is non-zero",
            [&l](ParamVisitor& s) {
              s.text("buffer", l.while_buffer, "the flag buffer: repeat while its first element is non-zero",
                     Presence::kRequired);
              s.integer("max", l.while_max, 1, 100000, "launches", "at most this many launches", Presence::kRequired);
            });
  v.rule("repeat_or_while", "either repeat or while_nonzero, not both", [&v] {
    return problem_unless(!(v.given("repeat") && v.given("while_nonzero")), "repeat",
                          "give either repeat or while_nonzero, not both");
  });
}

void describe(ParamVisitor& v, ProgramLaunches& p) {
  v.list("launches", p.launches, 1, 4096, Presence::kRequired, "the host program's launches, in order",
         [](ParamVisitor& s, ProgramLaunchParams& l) { describe(s, l); });
}

}  // namespace gpupm
