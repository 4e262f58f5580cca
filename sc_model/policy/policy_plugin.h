// Policy plugins for the gpupm program: a shared object whose
// GPUPM_REGISTER_POLICY lines (policy/policy_registry.h) run when it is loaded,
// resolving the gpupm symbols it uses against the program
// (docs/embedding.md#policy-plugins).
#pragma once

#include <string>

namespace gpupm {

// Loads FILE and its policies; loading the same file again does nothing.
// InputError ("--plugin FILE: ...", exit 2) saying what is expected when FILE
// is missing, not an ELF shared object, cannot be loaded, registers no policy
// or a policy name already taken.
void load_policy_plugin(const std::string& file);

}  // namespace gpupm
