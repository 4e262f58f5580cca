#include "gpupm/program/program_workload_params.h"
#include "gpupm/common/json_reader.h"

#include "gpupm/program/buffer_types.h"
#include "gpupm/program/npy.h"

#include <cstdio>
#include <filesystem>
#include <limits>

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
  v.integer("shared_bytes", l.shared_bytes, 0, 1u << 20, "bytes",
            "dynamic shared memory per CTA (at most gpu.sm.shared_bytes)");
  v.integer("regs_per_thread", l.regs_per_thread, 1, 255, "registers",
            "registers per thread (default: the PTX estimate)");
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

namespace {

// A rule that the number `key` (when given) is an element of the buffer's type.
void fits_type(ParamVisitor& v, const char* key, const nlohmann::json& value, const BufferSpec& b) {
  v.rule((std::string(key) + "_fits_type").c_str(), "the value is an element of the buffer's type", [key, &value, &b] {
    const std::string what = value.is_null() ? "" : element_problem(value, buffer_type(b.type));
    return problem_unless(what.empty(), key, what);
  });
}

// A .npy init file: there, of the buffer's dtype and element count (its
// header is read here; the data only when the buffer is initialised).
std::optional<ParamProblem> file_problem(const BufferSpec& b, const std::string& dir) {
  if (b.init.file.empty()) return std::nullopt;
  const std::string p = (std::filesystem::path(dir) / b.init.file).string();
  if (const std::string problem = regular_file_problem(p); !problem.empty())
    return ParamProblem{"file", p + ": " + problem};
  NpyHeader h;
  try {
    h = read_npy_header(p);
  } catch (const InputError& e) {
    return ParamProblem{"file", e.what()};
  }
  const BufferType& t = buffer_type(b.type);
  if (h.dtype != t.dtype)
    return ParamProblem{"file",
                        p + " holds dtype " + h.dtype + ", expected " + t.dtype + " for a " + b.type + " buffer"};
  if (h.count != b.count)
    return ParamProblem{
        "file", p + " holds " + std::to_string(h.count) + " elements, the buffer has count " + std::to_string(b.count)};
  return std::nullopt;
}

// min <= max, compared exactly (as doubles, two u64 bounds 1 apart are equal).
bool ordered(const nlohmann::json& min, const nlohmann::json& max) {
  if (min.is_number_float() || max.is_number_float()) return min.get<double>() <= max.get<double>();
  auto wide = [](const nlohmann::json& v) {
    return v.is_number_unsigned() ? __int128(v.get<uint64_t>()) : __int128(v.get<int64_t>());
  };
  return wide(min) <= wide(max);
}

void describe_init(ParamVisitor& v, BufferSpec& b, const std::string& dir) {
  BufferInit& in = b.init;
  v.one_of("one_form", "exactly one of fill, iota, random, file", {{"fill"}, {"iota"}, {"random"}, {"file"}}, [&v] {
    const int forms = v.given("fill") + v.given("iota") + v.given("random") + v.given("file");
    return problem_unless(forms == 1, "", "expected exactly one of fill, iota, random, file");
  });
  v.exact_number("fill", in.fill, "every element this value");
  fits_type(v, "fill", in.fill, b);
  v.section("iota", Presence::kOptional, "element i is start + i x step", [&in, &b](ParamVisitor& s) {
    s.exact_number("start", in.start, "the first element", Presence::kRequired);
    fits_type(s, "start", in.start, b);
    s.exact_number("step", in.step, "the difference between neighbours", Presence::kRequired);
    fits_type(s, "step", in.step, b);
    s.rule("integer_step", "an integer buffer's step is an integer", [&in, &b] {
      return problem_unless(buffer_type(b.type).is_float || !in.step.is_number_float(), "step", "expected an integer");
    });
    s.rule("last_fits_type", "a float buffer's last element is in its type's range", [&in, &b] {
      const BufferType& t = buffer_type(b.type);
      if (!t.is_float || !in.start.is_number() || !in.step.is_number()) return problem_unless(true, "", "");
      const double last = in.start.get<double>() + double(b.count - 1) * in.step.get<double>();
      const std::string what = element_problem(nlohmann::json(last), t);
      char value[32];
      std::snprintf(value, sizeof value, "%.9g", last);
      return problem_unless(what.empty(), "step",
                            std::string("the last element, start + (count - 1) x step = ") + value + ": " + what);
    });
  });
  v.section("random", Presence::kOptional, "uniform in [min, max] from one xoshiro256** stream",
            [&in, &b](ParamVisitor& s) {
              s.exact_number("min", in.min, "the smallest value", Presence::kRequired);
              fits_type(s, "min", in.min, b);
              s.exact_number("max", in.max, "the largest value", Presence::kRequired);
              fits_type(s, "max", in.max, b);
              s.rule("ordered", "min <= max",
                     [&in] { return problem_unless(ordered(in.min, in.max), "max", "expected max >= min"); });
              s.integer("seed", in.seed, 0, std::numeric_limits<uint64_t>::max(), "", "the stream's seed",
                        Presence::kRequired);
            });
  v.text("file", in.file, ".npy file of the buffer's dtype and count, relative to the workload");
  v.rule("file_matches", "the file holds the buffer's dtype and count", [&b, dir] { return file_problem(b, dir); });
}

// The program's keys: the document's own (presence: kOptional, as apps may
// stand in for them) or an app's (kRequired). `dir`: where init files are.
void describe_program(ParamVisitor& v, ProgramParams& p, const std::string& dir, Presence presence) {
  v.text_matching("name", p.name, kFileNamePattern, kFileNameAllowed,
                  "the application's name (of two co-running apps, the folder of its dumped buffers)",
                  Presence::kRequired);
  v.text("description", p.description, "what the program computes");
  v.text("program", p.program, ".cu (CUDA C++) or .ptx file, relative to the workload", presence);
  v.named_objects("buffers", p.buffers, 4096, kFileNamePattern, kFileNameAllowed,
                  "device buffers by name (a dumped buffer is NAME.npy)",
                  [&dir](ParamVisitor& s, BufferSpec& b) { describe(s, b, dir); });
  v.rule("buffer_bytes", "all buffers together hold at most 2048 MiB", [&p] {
    uint64_t total = 0;
    for (const BufferSpec& b : p.buffers) {
      total += b.count * buffer_type(b.type).bytes;
      if (total > kMaxBufferBytes)
        return problem_unless(
            false, "buffers." + b.name + ".count",
            "all buffers together may hold at most " + std::to_string(kMaxBufferBytes >> 20) + " MiB");
    }
    return problem_unless(true, "", "");
  });
  v.list("launches", p.launches, 1, 4096, presence, "the host program's launches, in order",
         [](ParamVisitor& s, ProgramLaunchParams& l) { describe(s, l); });
}

}  // namespace

void describe(ParamVisitor& v, BufferSpec& b, const std::string& dir) {
  b.dir = dir;
  v.choice("type", b.type, buffer_type_names(), "element type", Presence::kRequired);
  v.integer("count", b.count, 1, uint64_t(1) << 31, "elements", "elements in the buffer", Presence::kRequired);
  v.section("init", Presence::kOptional, "initial contents (default: zeros)",
            [&b, &dir](ParamVisitor& s) { describe_init(s, b, dir); });
}

void describe(ParamVisitor& v, WorkloadScales& s) {
  v.section(
      "scales", Presence::kOptional,
      "the program's inputs at other scales than ci (this document): gpupm run --scale NAME",
      [&s](ParamVisitor& scales) {
        scales.section(
            "paper", Presence::kOptional,
            "the input the seed paper ran, written by a generator on first use into the cache", [&s](ParamVisitor& p) {
              p.text("generator", s.paper.generator,
                     "python3 script, relative to the workload: GENERATOR OUT_DIR ARGS... writes "
                     "OUT_DIR/workload.json and its input files",
                     Presence::kRequired);
              p.rule("generator_exists", "the generator is a regular file", [&s] {
                const std::filesystem::path g = std::filesystem::path(s.dir) / s.paper.generator;
                return problem_unless(std::filesystem::is_regular_file(g), "generator", "no such file: " + g.string());
              });
              p.text_list("args", s.paper.args, 0, 64, "", "", "the generator's arguments after the output folder");
            });
      });
}

void describe(ParamVisitor& v, ProgramWorkloadParams& w) {
  v.one_of("program_or_apps", "either program with launches (one application) or apps",
           {{"program", "launches"}, {"apps"}}, [&v] {
             if (v.given("apps") && (v.given("program") || v.given("buffers") || v.given("launches")))
               return problem_unless(
                   false, "apps", "give either program (one application) or apps, each with its buffers and launches");
             return problem_unless(v.given("program") || v.given("apps"), "program", "missing (required without apps)");
           });
  const std::string& inputs = w.inputs_dir.empty() ? w.dir : w.inputs_dir;
  describe_program(v, w.main, inputs, Presence::kOptional);
  v.rule("launches_with_program", "a program has launches",
         [&v] { return problem_unless(v.given("apps") || v.given("launches"), "launches", "missing (required)"); });
  v.list("apps", w.apps, 1, 2, Presence::kOptional, "one or two co-running programs on disjoint SM sets",
         [&inputs](ParamVisitor& s, ProgramParams& a) { describe_program(s, a, inputs, Presence::kRequired); });
  v.rule("distinct_app_names", "the apps have different names", [&w] {
    return problem_unless(w.apps.size() < 2 || w.apps[0].name != w.apps[1].name, "apps[1].name",
                          "expected a name different from apps[0]'s");
  });
  w.scales.dir = w.dir;
  describe(v, w.scales);
  v.rule("scales_of_one_program", "scales belong to a one-program workload", [&v] {
    return problem_unless(!(v.given("scales") && v.given("apps")), "scales",
                          "scales are declared by a one-program workload (\"program\"), not by apps");
  });
  v.flag("respawn", w.respawn, "two programs as a queue pair: a finished one starts again from its inputs");
  v.rule("respawn_two_apps", "respawn needs two apps", [&w] {
    return problem_unless(!w.respawn || w.apps.size() == 2, "respawn",
                          "re-spawning needs two co-running applications (\"apps\" with 2 entries)");
  });
}

}  // namespace gpupm
