// A small VCD (IEEE 1364 value change dump) writer for real-valued signals in
// nested scopes, written atomically (common/output_files.h, AtomicFile): into an
// unnamed file beside the target, named by commit(); destroyed without a commit
// or killed, it leaves no trace file behind.
//
// Why not SystemC's sc_trace: it checks every traced variable at every delta
// cycle (the run got ~8x slower), warns once per sample when its 1 ns unit
// meets the fs time resolution, writes one flat scope of 32-bit vectors, and
// aborts on an unwritable path. Here values are pushed at the platform's own
// samples and only the changed ones are written.
#pragma once

#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

namespace gpupm {

class AtomicFile;

class VcdWriter {
 public:
  // Opens the temporary file; std::runtime_error naming the file and the reason if it cannot.
  explicit VcdWriter(std::string path, std::string timescale = "1 ps");
  ~VcdWriter();
  VcdWriter(const VcdWriter&) = delete;
  VcdWriter& operator=(const VcdWriter&) = delete;

  // Declares a real variable `name` in scope path `scope` (outermost first),
  // before the first sample; returns its handle. Declare a scope's variables together.
  size_t add_real(const std::vector<std::string>& scope, const std::string& name);
  // The variable's value at the sample being built.
  void set(size_t var, double value) { values_[var] = value; }
  // Ends a sample at `time` (timescale units, non-decreasing): writes the
  // changed values (all of them at the first sample).
  void sample(uint64_t time);
  // Flushes, closes and renames into place; std::runtime_error with the reason
  // (e.g. "No space left on device") on any write error, the file removed.
  void commit();

 private:
  struct Var {
    std::vector<std::string> scope;
    std::string name, id;
  };
  void write_header();
  void put(const char* text, size_t n);
  [[noreturn]] void fail(const std::string& what, int error);

  std::string path_, timescale_;
  std::unique_ptr<AtomicFile> out_;
  std::FILE* file_ = nullptr;  // buffered writes to out_
  std::vector<char> buffer_;   // stdio buffer: larger than the default
  int error_ = 0;              // first errno of a failed write
  bool header_done_ = false;
  std::vector<Var> vars_;
  std::vector<double> values_, written_;
};

}  // namespace gpupm
