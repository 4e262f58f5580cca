// Output files: folders checked before a run, write errors with the reason and
// the final name, and no temporary left where the user looks.
#include "gpupm/common/output_files.h"

#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <fstream>

#include "gpupm/common/json_reader.h"
#include "support/test_support.h"

namespace gpupm {
namespace {

namespace fs = std::filesystem;

size_t entries(const std::string& dir) {
  size_t n = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir)) ++n;
  return n;
}

TEST(OutputFiles, FolderProblemsAreNamedBeforeAnythingIsWritten) {
  const std::string dir = test::temp_dir("outdir");
  std::ofstream(dir + "/file") << "x";
  EXPECT_EQ(output_dir_problem(dir), "");
  EXPECT_EQ(output_dir_problem(dir + "/new/deeper"), "");  // created later, in a writable folder
  EXPECT_EQ(output_dir_problem(dir + "/file"), "is a file");
  EXPECT_EQ(output_dir_problem("/dev/null"), "is a device");
  EXPECT_EQ(output_dir_problem(dir + "/file/sub"), "a part of the path is a file, not a folder");
  EXPECT_NE(output_dir_problem(dir + "/" + std::string(300, 'a')).find("longer than 255 bytes"), std::string::npos);
  std::string deep = dir;
  while (deep.size() < 4000) deep += "/" + std::string(200, 'd');
  EXPECT_NE(output_dir_problem(deep).find("leave room for the files written in it"), std::string::npos);
  EXPECT_FALSE(fs::exists(dir + "/new"));  // checking creates nothing
  try {
    check_output_dir("--dump-buffers", dir + "/file");
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("--dump-buffers: " + dir + "/file: is a file; expected a writable folder"),
              std::string::npos)
        << e.what();
  }
}

TEST(OutputFiles, WriteErrorNamesTheFinalFileAndTheReasonAndLeavesNothing) {
  const std::string dir = test::temp_dir("outerr");
  // A file size limit makes the write fail as a full disk would (EFBIG instead of ENOSPC).
  const pid_t pid = ::fork();
  if (pid == 0) {
    struct rlimit lim = {1000, 1000};
    ::setrlimit(RLIMIT_FSIZE, &lim);
    std::signal(SIGXFSZ, SIG_IGN);
    try {
      write_outputs(dir, {{"small.txt", "ok"}, {"big.bin", std::string(5000, 'x')}});
    } catch (const std::runtime_error& e) {
      const std::string what = e.what();
      ::_exit(what == "cannot write " + dir + "/big.bin: File too large" ? 3 : 4);
    }
    ::_exit(5);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  EXPECT_EQ(WEXITSTATUS(status), 3);
  EXPECT_EQ(entries(dir), 0u);  // neither the file written first nor any temporary
}

TEST(OutputFiles, AKilledWriterLeavesNoTemporary) {
  const std::string dir = test::temp_dir("outkill");
  const pid_t pid = ::fork();
  if (pid == 0) {
    AtomicFile f(dir + "/buffer.npy");
    f.write("partial", 7);
    ::raise(SIGKILL);  // killed mid-write: nothing unwinds
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  EXPECT_TRUE(WIFSIGNALED(status));
  EXPECT_EQ(entries(dir), 0u);
}

TEST(OutputFiles, TemporariesOfADeadWriterAreRemovedByTheNextWrite) {
  const std::string dir = test::temp_dir("outstale");
  const pid_t dead = ::fork();
  if (dead == 0) ::_exit(0);
  ::waitpid(dead, nullptr, 0);
  const std::string stale = dir + "/.report.json.tmp" + std::to_string(dead);
  const std::string live = dir + "/.report.json.tmp" + std::to_string(::getppid());  // a running process's
  std::ofstream(stale) << "left by a killed run";
  std::ofstream(live) << "still being written";
  write_outputs(dir, {{"report.json", "{}\n"}});
  EXPECT_FALSE(fs::exists(stale));
  EXPECT_TRUE(fs::exists(live));
  EXPECT_EQ(test::read_file(dir + "/report.json"), "{}\n");
}

}  // namespace
}  // namespace gpupm
