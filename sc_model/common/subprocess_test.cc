#include "gpupm/common/subprocess.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace gpupm {
namespace {

std::string fresh_dir(const std::string& tag) {
  auto dir = std::filesystem::temp_directory_path() / ("gpupm_subprocess_" + tag + "_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir.string();
}

TEST(Subprocess, ArgumentsReachTheProgramVerbatim) {
  std::vector<std::string> args = {"two words", "semi;colon", "'single'",    "\"double\"",
                                   "$HOME",     "*",          "back\\slash", ""};
  std::vector<std::string> argv = {"printf", "[%s]\\n"};
  argv.insert(argv.end(), args.begin(), args.end());
  SubprocessResult r = run_subprocess(argv);
  ASSERT_TRUE(r.ok()) << r.describe() << r.stderr_text;
  std::string expected;
  for (const auto& a : args) expected += "[" + a + "]\n";
  EXPECT_EQ(r.stdout_text, expected);
}

TEST(Subprocess, ShellSyntaxIsNotExecuted) {
  std::string dir = fresh_dir("inject");
  std::string victim = dir + "/X";
  SubprocessResult r = run_subprocess({"/bin/echo", "a;touch " + victim, "$(touch " + victim + ")",
                                       "`touch " + victim + "`", "| touch " + victim, "&& touch " + victim});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.stdout_text, "a;touch " + victim + " $(touch " + victim + ") `touch " + victim + "` | touch " + victim +
                               " && touch " + victim + "\n");
  EXPECT_FALSE(std::filesystem::exists(victim));
  std::filesystem::remove_all(dir);
}

TEST(Subprocess, ExitCodesAndSignals) {
  EXPECT_EQ(run_subprocess({"true"}).exit_code, 0);
  EXPECT_EQ(run_subprocess({"false"}).exit_code, 1);
  SubprocessResult r = run_subprocess({"sh", "-c", "exit 42"});
  EXPECT_EQ(r.exit_code, 42);
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.describe(), "exit status 42");
  SubprocessResult k = run_subprocess({"sh", "-c", "kill -TERM $$"});
  EXPECT_EQ(k.signal, 15);
  EXPECT_EQ(k.exit_code, -1);
  EXPECT_NE(k.describe().find("signal 15"), std::string::npos);
}

TEST(Subprocess, StdoutAndStderrAreSeparate) {
  SubprocessResult r = run_subprocess({"sh", "-c", "echo to-out; echo to-err >&2; exit 3"});
  EXPECT_EQ(r.stdout_text, "to-out\n");
  EXPECT_EQ(r.stderr_text, "to-err\n");
  EXPECT_EQ(r.exit_code, 3);
}

TEST(Subprocess, LargeOutputOnBothPipesDoesNotDeadlock) {
  // 1 MB on each pipe, interleaved: far more than a pipe buffer holds.
  SubprocessResult r = run_subprocess(
      {"sh", "-c",
       "i=0; while [ $i -lt 16 ]; do head -c 65536 /dev/zero; head -c 65536 /dev/zero >&2; i=$((i+1)); done"});
  ASSERT_TRUE(r.ok()) << r.describe();
  EXPECT_EQ(r.stdout_text.size(), 16u * 65536u);
  EXPECT_EQ(r.stderr_text.size(), 16u * 65536u);
}

TEST(Subprocess, WorkingDirectoryAndEnvironment) {
  std::string dir = fresh_dir("cwd");
  SubprocessOptions opt;
  opt.working_dir = dir;
  SubprocessResult r = run_subprocess({"pwd", "-P"}, opt);
  EXPECT_EQ(r.stdout_text, std::filesystem::canonical(dir).string() + "\n");
  opt.env = std::vector<std::string>{"GPUPM_SUBPROCESS_PROBE=a b;c"};
  r = run_subprocess({"/bin/sh", "-c", "printf %s \"$GPUPM_SUBPROCESS_PROBE\""}, opt);
  EXPECT_EQ(r.stdout_text, "a b;c");
  opt.working_dir = dir + "/missing";
  EXPECT_THROW(run_subprocess({"pwd"}, opt), SubprocessError);
  std::filesystem::remove_all(dir);
}

TEST(Subprocess, MissingProgramIsAClearError) {
  try {
    run_subprocess({"gpupm-no-such-program-xyz", "arg"});
    FAIL() << "expected SubprocessError";
  } catch (const SubprocessError& e) {
    EXPECT_NE(std::string(e.what()).find("gpupm-no-such-program-xyz"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("not found in PATH"), std::string::npos) << e.what();
  }
  EXPECT_THROW(run_subprocess({"/nonexistent/dir/prog"}), SubprocessError);
  EXPECT_THROW(run_subprocess({}), SubprocessError);
  // A file that exists but is not executable is not a program.
  std::string dir = fresh_dir("noexec");
  std::ofstream(dir + "/script") << "#!/bin/sh\necho hi\n";
  EXPECT_THROW(run_subprocess({dir + "/script"}), SubprocessError);
  std::filesystem::remove_all(dir);
}

TEST(Subprocess, FindProgramSearchesPathInOrder) {
  EXPECT_EQ(find_program({"gpupm-no-such-program-xyz"}), "");
  std::string sh = find_program({"gpupm-no-such-program-xyz", "sh"});
  ASSERT_FALSE(sh.empty());
  EXPECT_EQ(sh.back(), 'h');
  EXPECT_EQ(find_program({"/bin/sh"}), "/bin/sh");
  EXPECT_EQ(find_program({"/nonexistent/sh", ""}), "");
}

}  // namespace
}  // namespace gpupm
