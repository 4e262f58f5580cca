#include "gpupm/experiment/plot_script.h"
#include "gpupm/common/data_dir.h"

#include "gpupm/common/subprocess.h"

#include <iostream>

namespace gpupm {

namespace {

std::string last_line(std::string text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
  return text.substr(text.find_last_of('\n') == std::string::npos ? 0 : text.find_last_of('\n') + 1);
}

}  // namespace

std::string run_plot_script(const std::string& script, const std::string& out_dir) {
  const std::string python = find_python3();
  if (python.empty()) return "python3 not found";
  SubprocessOptions options;
  options.capture_stdout = false;  // the script's own messages reach the user as before
  try {
    SubprocessResult r = run_subprocess({python, data_file("scripts/") + script, out_dir}, options);
    if (r.ok()) {
      std::cerr << r.stderr_text;  // warnings pass through
      return "";
    }
    const std::string why = last_line(r.stderr_text);
    return "scripts/" + script + ": " + r.describe() + (why.empty() ? "" : ": " + why);
  } catch (const SubprocessError& e) {
    return e.what();
  }
}

}  // namespace gpupm
