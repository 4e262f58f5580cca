// A local pool of `gpupm run` child processes: the one way every experiment
// (and, later, every sweep) runs its simulations. Each run gets its own
// directory DIR/runs/<id>/ with report.json, epochs.csv and log.txt; a run
// whose report.json exists and whose inputs (arguments and the files they name)
// are unchanged is reused, so an interrupted experiment resumes where it stopped
// and a changed workload or config is simulated again.
#pragma once

#include <string>
#include <vector>

namespace gpupm {

struct RunSpec {
  std::string id;                 // directory name under runs/
  std::vector<std::string> args;  // arguments after `gpupm run`, without --out
};

// A digest of a run's inputs: its arguments and the contents of the files they name.
std::string inputs_fingerprint(const RunSpec& spec);

struct RunOutcome {
  std::string id;
  std::string dir;
  int status = -1;  // exit status (0 ok); -1 if it did not exit normally
  bool reused = false;  // its report was already there
};

std::vector<RunOutcome> run_pool(const std::vector<RunSpec>& specs, const std::string& out_dir, int jobs,
                                 bool progress);

}  // namespace gpupm
