// An optional outside check of the PTX clang makes for the suite: when NVIDIA's
// assembler ptxas is installed (PATH or /usr/local/cuda/bin) every program of
// configs/workloads/cuda/ must assemble for sm_70 (sm_75 where ptxas has no
// sm_70), and ptxas's register count of
// each kernel is printed next to our liveness estimate (sc_model/ptx/ptx_registers.cc,
// the occupancy default). Only a rejected PTX fails; the counts are a report.
// Skipped when ptxas or clang is absent. Nothing else in gpupm uses ptxas.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <map>
#include <sstream>

#include "gpupm/program/cuda_compiler.h"
#include "gpupm/ptx/ptx.h"
#include "support/test_support.h"

namespace {

std::string find_ptxas() {
  std::vector<std::string> dirs;
  if (const char* path = std::getenv("PATH")) {
    std::stringstream s(path);
    for (std::string d; std::getline(s, d, ':');) dirs.push_back(d);
  }
  dirs.push_back("/usr/local/cuda/bin");
  for (const std::string& d : dirs) {
    const std::string candidate = d + "/ptxas";
    if (!d.empty() && access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return "";
}

std::vector<std::string> suite_programs() {
  std::vector<std::string> files;
  const std::filesystem::path root = gpupm::test::source_path("configs/workloads/cuda");
  for (const auto& e : std::filesystem::recursive_directory_iterator(root))
    if (e.path().extension() == ".cu") files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

// ptxas -v says "Compiling entry function 'k' ..." then "... Used N registers" per kernel.
std::map<std::string, int> registers_used(const std::string& verbose_output) {
  std::map<std::string, int> used;
  std::stringstream s(verbose_output);
  std::string entry;
  for (std::string line; std::getline(s, line);) {
    const std::string compiling = "Compiling entry function '";
    if (auto at = line.find(compiling); at != std::string::npos) {
      const size_t from = at + compiling.size();
      entry = line.substr(from, line.find('\'', from) - from);
    } else if (auto used_at = line.find("Used "); used_at != std::string::npos && !entry.empty()) {
      used[entry] = std::stoi(line.substr(used_at + 5));
    }
  }
  return used;
}

// sm_70, which clang targets; ptxas of CUDA 13 and later starts at sm_75 (the PTX
// is the same: a .target sm_70 module assembles for any later GPU).
std::string target_for(const std::string& ptxas, const std::string& ptx) {
  for (const char* arch : {"sm_70", "sm_75"}) {
    const gpupm::test::ProcessResult r =
        gpupm::test::run_process({ptxas, std::string("-arch=") + arch, "-o", "/dev/null", ptx});
    if ((r.err + r.out).find("is not defined for option") == std::string::npos) return arch;
  }
  return "sm_75";
}

TEST(PtxasCheck, SuitePtxAssemblesForSm70) {
  const std::string ptxas = find_ptxas();
  if (ptxas.empty()) GTEST_SKIP() << "ptxas not found in PATH or /usr/local/cuda/bin (optional check)";
  if (gpupm::find_cuda_clang().empty()) GTEST_SKIP() << "no clang++ to compile the suite (scripts/install-deps.sh)";
  const std::vector<std::string> programs = suite_programs();
  ASSERT_FALSE(programs.empty());
  const std::string arch = target_for(ptxas, gpupm::compile_cuda_to_ptx(programs[0]));
  std::cout << ptxas << " -arch=" << arch << "\n";
  std::cout << std::left << std::setw(20) << "program" << std::setw(22) << "kernel" << std::right << std::setw(8)
            << "ptxas" << std::setw(10) << "estimate"
            << "\n";
  for (const std::string& cu : programs) {
    const std::string ptx = gpupm::compile_cuda_to_ptx(cu);
    const auto module = gpupm::ptx::parse(gpupm::test::read_file(ptx), ptx);
    const gpupm::test::ProcessResult r =
        gpupm::test::run_process({ptxas, "-arch=" + arch, "-v", "-o", "/dev/null", ptx});
    EXPECT_EQ(r.status, 0) << "ptxas rejects the PTX of " << cu << " (" << ptx << "):\n" << r.err << r.out;
    const std::map<std::string, int> used = registers_used(r.err + r.out);
    for (const auto& k : module->kernels) {
      auto it = used.find(k->name);
      std::cout << std::left << std::setw(20) << std::filesystem::path(cu).stem().string() << std::setw(22) << k->name
                << std::right << std::setw(8) << (it == used.end() ? std::string("?") : std::to_string(it->second))
                << std::setw(10) << k->regs_per_thread << "\n";
    }
  }
}

}  // namespace
