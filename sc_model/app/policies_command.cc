#include "gpupm/app/policies_command.h"

#include <CLI/CLI.hpp>

#include <cstdio>
#include <iostream>

#include "gpupm/app/commands.h"
#include "gpupm/policy/policy_plugin.h"
#include "gpupm/policy/policy_registry.h"

namespace gpupm {

int preload_plugins(int argc, char** argv) {
  const std::string flag = "--plugin", flag_eq = "--plugin=";
  try {
    for (int i = 1; i < argc; ++i) {
      const std::string a = argv[i];
      if (a == flag && i + 1 < argc) load_policy_plugin(argv[++i]);
      if (a.rfind(flag_eq, 0) == 0) load_policy_plugin(a.substr(flag_eq.size()));
    }
  } catch (const InputError& e) {
    std::cerr << "gpupm: error: " << e.what() << "\n";
    return kExitBadInput;
  }
  return kExitOk;
}

void add_plugin_option(CLI::App* cmd, std::vector<std::string>& plugins) {
  cmd->add_option("--plugin", plugins,
                  "policy plugin: a shared object registering policies (repeatable; docs/embedding.md)");
}

int command_policies() {
  for (const PolicyEntry& e : registered_policies())
    std::printf("%-18s %s%s\n", e.name.c_str(), e.summary.c_str(),
                e.origin.empty() ? "" : (" [" + e.origin + "]").c_str());
  return kExitOk;
}

}  // namespace gpupm
