// Output files written atomically: every file is written whole to an unnamed
// temporary in its folder (O_TMPFILE; where the filesystem has none, a hidden
// named one), then given its name, so a reader never sees a half-written output
// and a killed run leaves no temporary behind.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace gpupm {

// What keeps DIR from being an output folder ("" when nothing): a name too
// long, a file or device in its place, a folder that cannot be written (read-only,
// full, no permission), each with the system's reason. DIR need not exist yet:
// then the folder it would be created in is checked. Nothing is created.
std::string output_dir_problem(const std::string& dir);
// Throws InputError naming `option` and DIR unless output_dir_problem(DIR) is "".
void check_output_dir(const std::string& option, const std::string& dir);
// Checks DIR as check_output_dir does, then creates it.
void prepare_output_dir(const std::string& dir, const std::string& option = "--out");
// One output file on its way: written to an unnamed file in its folder
// (nothing on disk if the process dies), named by commit(). Errors are
// std::runtime_error "cannot write PATH: <the system's reason>".
class AtomicFile {
 public:
  // `what` names the kind of file in messages ("VCD trace ": "cannot write VCD trace PATH: ...").
  explicit AtomicFile(const std::string& path, const std::string& what = "");
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;
  ~AtomicFile();  // not committed: nothing is left
  int fd() const { return fd_; }
  void write(const char* data, size_t size);
  void commit();  // closes the file and gives it its name (replacing an older file whole)

 private:
  [[noreturn]] void fail(int error) const;
  std::string final_, what_, hidden_;  // hidden_: the temporary name (fallback, and during commit)
  int fd_ = -1;
  bool named_ = false;  // hidden_ exists on disk
};

// Writes every (name, content) under DIR: all temporaries first, then the
// renames. std::runtime_error naming the final file and the system's reason
// when one cannot be written (nothing of this call is left then).
void write_outputs(const std::string& dir, const std::vector<std::pair<std::string, std::string>>& files);

}  // namespace gpupm
