// Policy plugins on the command line and `gpupm policies`: `--plugin FILE`
// (repeatable) on run, sweep, experiment and policies loads a shared object
// whose policies join the shipped ones (policy/policy_plugin.h).
#pragma once

#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace gpupm {

// Loads every plugin argv names (`--plugin FILE`, `--plugin=FILE`) before the
// command line is built, so its policies are in --help and every check. 0, or
// the exit status after the message (2: a bad plugin).
int preload_plugins(int argc, char** argv);
// The --plugin option of a command (already loaded by preload_plugins; kept
// for passing to child runs).
void add_plugin_option(CLI::App* cmd, std::vector<std::string>& plugins);
// `gpupm policies`: every policy with its one-line summary and, for a plugin's, its file.
int command_policies();

}  // namespace gpupm
