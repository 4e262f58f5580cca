// Running a CUDA suite program (configs/workloads/cuda/) and checking its dumped
// buffers against a host computation: shared by every suite's test.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <queue>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpupm/common/json_reader.h"
#include "gpupm/program/npy.h"
#include "support/test_support.h"

namespace gpupm::test {

constexpr double kU = 1.0 / 16777216.0;  // 2^-24: unit roundoff of float

inline double sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }  // the host reference of both suites

// One run of a suite program and access to its dumped buffers and workload.
// `program` is its folder under configs/workloads/cuda/ ("kmeans",
// "equalizer/lbm"); the workload is <folder>/<last name>.json. With
// GPUPM_TEST_SCALE=paper in the environment (a check by hand: minutes a
// program, never in ctest's run) it runs at --scale paper and the workload is
// the generated one, as the report echoes it.
class ProgramRun {
 public:
  explicit ProgramRun(const std::string& program) : program_(program) {
    const std::string stem = program.substr(program.rfind('/') + 1);
    const std::string workload = cuda_workload(program);
    const char* scale = std::getenv("GPUPM_TEST_SCALE");
    dir_ = temp_dir("cuda_" + stem);
    std::string args = "run --gpu " + source_path("configs/gpu/gtx480.json") + " --workload " + workload +
                       " --policy baseline --out " + dir_ + "/out --dump-inputs " + dir_ + "/in --dump-buffers " +
                       dir_ + "/final --quiet" + (scale && *scale ? std::string(" --scale ") + scale : "");
    status_ = run_gpupm(args, &output_);
    workload_ = scale && *scale && status_ == 0
                    ? gpupm::load_json_file(dir_ + "/out/report.json").at("config").at("workload")
                    : gpupm::load_json_file(workload);
  }
  bool ok() const { return status_ == 0; }
  const std::string& output() const { return output_; }

  template <class T>
  std::vector<T> initial(const std::string& buffer) const {
    return load<T>(dir_ + "/in/" + buffer + ".npy", buffer);
  }
  template <class T>
  std::vector<T> final(const std::string& buffer) const {
    return load<T>(dir_ + "/final/" + buffer + ".npy", buffer);
  }
  // A launch argument from the workload file (so sizes are stated once, there).
  const gpupm::Json& arg(size_t launch, size_t index) const {
    return workload_.at("launches").at(launch).at("args").at(index);
  }
  size_t launch_count() const { return workload_.at("launches").size(); }
  const gpupm::Json& launch(size_t l) const { return workload_.at("launches").at(l); }

 private:
  template <class T>
  std::vector<T> load(const std::string& path, const std::string& buffer) const {
    gpupm::NpyArray a = gpupm::read_npy(path);
    uint64_t declared = workload_.at("buffers").at(buffer).at("count").get<uint64_t>();
    if (a.count != declared)
      throw std::runtime_error(path + ": " + std::to_string(a.count) + " elements, workload says " +
                               std::to_string(declared));
    return a.as<T>();
  }
  std::string program_, dir_, output_;
  gpupm::Json workload_;
  int status_ = -1;
};

// Counts mismatches and reports only the first few (a wrong kernel would print millions).
class Mismatches {
 public:
  explicit Mismatches(std::string what) : what_(std::move(what)) {}
  ~Mismatches() { EXPECT_EQ(count_, 0u) << what_ << ": " << count_ << " elements out of tolerance"; }
  template <class A, class B>
  void exact(size_t i, A got, B want) {
    if (got != want) report(i, "got " + std::to_string(got) + ", want " + std::to_string(want));
  }
  void bits(size_t i, float got, float want) {  // bit-identical floats
    uint32_t g, w;
    std::memcpy(&g, &got, 4);
    std::memcpy(&w, &want, 4);
    if (g != w) report(i, "got " + str(got) + ", want " + str(want) + " (bit-exact expected)");
  }
  void near(size_t i, double got, double want, double tolerance) {
    if (!(std::fabs(got - want) <= tolerance))
      report(i, "got " + str(got) + ", want " + str(want) + ", tolerance " + str(tolerance));
  }

 private:
  static std::string str(double v) {
    char b[40];
    std::snprintf(b, sizeof b, "%.9g", v);
    return b;
  }
  void report(size_t i, const std::string& text) {
    if (++count_ <= 8) ADD_FAILURE() << what_ << "[" << i << "]: " << text;
  }
  std::string what_;
  size_t count_ = 0;
};

// Host BFS over a CSR graph: each node's level from `source` (-1 when unreachable).
// Levels do not depend on the order nodes are visited in, so every BFS program checks against it.
inline std::vector<int32_t> bfs_levels(const std::vector<int32_t>& row_ptr, const std::vector<int32_t>& col,
                                       int source) {
  std::vector<int32_t> level(row_ptr.size() - 1, -1);
  level[size_t(source)] = 0;
  std::queue<int> frontier;
  frontier.push(source);
  while (!frontier.empty()) {
    int v = frontier.front();
    frontier.pop();
    for (int e = row_ptr[size_t(v)]; e < row_ptr[size_t(v) + 1]; ++e)
      if (level[size_t(col[size_t(e)])] < 0) {
        level[size_t(col[size_t(e)])] = level[size_t(v)] + 1;
        frontier.push(col[size_t(e)]);
      }
  }
  return level;
}

#define RUN_OR_FAIL(run) ASSERT_TRUE((run).ok()) << (run).output()

}  // namespace gpupm::test
