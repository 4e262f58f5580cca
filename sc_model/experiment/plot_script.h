// Drawing an output directory's plots with one of scripts/plot_*.py.
#pragma once

#include <string>

namespace gpupm {

// Runs python3 scripts/SCRIPT OUT_DIR without a shell (the directory reaches the
// script verbatim, whatever characters it holds) and waits for it. Returns ""
// when the script succeeded, else why the plots are missing (python3 absent,
// the script's exit status and last stderr line, e.g. no matplotlib).
std::string run_plot_script(const std::string& script, const std::string& out_dir);

}  // namespace gpupm
