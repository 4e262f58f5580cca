// The one CSV writer (common/csv_writer.h): RFC 4180 quoting where needed and
// numbers as the stream formats them; a kernel name with a comma, quotes and
// angle brackets survives epochs.csv through Python's csv module.
#include <gtest/gtest.h>

#include "gpupm/common/csv_writer.h"
#include "support/test_support.h"

namespace {

using gpupm::csv_field;
using gpupm::CsvWriter;
using gpupm::test::ProcessResult;
using gpupm::test::run_gpupm_argv;
using gpupm::test::run_process;
using gpupm::test::source_path;
using gpupm::test::temp_dir;

TEST(Csv, FieldsAreQuotedOnlyWhereNeeded) {
  EXPECT_EQ(csv_field("plain"), "plain");
  EXPECT_EQ(csv_field(""), "");
  EXPECT_EQ(csv_field("gemm<float>"), "gemm<float>");
  EXPECT_EQ(csv_field("a,b"), "\"a,b\"");
  EXPECT_EQ(csv_field("say \"x\""), "\"say \"\"x\"\"\"");
  EXPECT_EQ(csv_field("two\nlines"), "\"two\nlines\"");
  EXPECT_EQ(csv_field("cr\r"), "\"cr\r\"");
  EXPECT_EQ(csv_field(" padded"), "\" padded\"");  // readers trim unquoted white space
}

TEST(Csv, WriterSeparatesQuotesAndFormatsNumbersAsTheStreamDoes) {
  CsvWriter w(9);
  w << "epoch"
    << "kernel"
    << "v";
  w.end_row();
  w << uint64_t(3) << "gemm<float, 128>" << 0.123456789012 << 1e-7 << 42.0;
  w.end_row();
  w.row({"x,y", "z"});
  EXPECT_EQ(w.str(), "epoch,kernel,v\n3,\"gemm<float, 128>\",0.123456789,1e-07,42\n\"x,y\",z\n");
}

TEST(Csv, KernelNameRoundTripsThroughPythonCsv) {
  const std::string dir = temp_dir("csv_name");
  const std::string name = "gemm<float, 128> \"x\"";
  ProcessResult r = run_gpupm_argv({"run", "--quiet", "--gpu", source_path("configs/gpu/gtx480.json"), "--workload",
                                    source_path("configs/workloads/compute.json"), "--set",
                                    "workload.kernels[0].name=\"gemm<float, 128> \\\"x\\\"\"", "--set",
                                    "workload.kernels[0].grid_ctas=60", "--out", dir});
  ASSERT_EQ(r.status, 0) << r.err;
  // Every row has the header's width and the kernel column reads back as written.
  const char* check =
      "import csv, sys\n"
      "rows = list(csv.reader(open(sys.argv[1], newline='')))\n"
      "k = rows[0].index('kernel')\n"
      "assert all(len(r) == len(rows[0]) for r in rows), 'ragged rows'\n"
      "names = {r[k] for r in rows[1:]} - {''}\n"
      "assert names == {sys.argv[2]}, names\n"
      "print(len(rows) - 1)\n";
  ProcessResult py = run_process({"/usr/bin/python3", "-c", check, dir + "/epochs.csv", name});
  EXPECT_EQ(py.status, 0) << py.err;
  EXPECT_GT(std::stoi(py.out.empty() ? "0" : py.out), 1) << py.out;
}

}  // namespace
