// The queues as run. A queue is written with its applications, or built from
// the applications' measured classes as the paper describes its nine: oriented
// (at least 60% of one class), equal (every class alike) or a random mix.
#pragma once

#include "gpupm/policy/sm_allocation/sm_profiles.h"

#include <cstdint>
#include <string>
#include <vector>

namespace gpupm {

struct SmAllocationQueue {
  std::string name, kind;
  std::vector<std::string> apps;  // the arrival order: written, or filled when built
  std::string oriented;           // build: ceil(60%) of `length` from this class, the rest from the others
  bool equal = false;             // build: two applications of every class measured
  uint32_t random_seed = 0;       // build (> 0): `length` applications drawn from all with this seed
  uint32_t length = 6;            // of an oriented or random queue
  bool to_build() const { return !oriented.empty() || equal || random_seed > 0; }
};

struct BuiltQueues {
  std::vector<SmAllocationQueue> queues;  // every queue with its apps, in the config's order
  std::vector<std::string> unbuilt;       // "NAME: why" for a queue the measured classes cannot fill
};

// The written queues as they are and the others built from PROFILES (their
// classes, in the profiles' order). Deterministic: the same profiles give the
// same queues. A built queue arrives interleaved (the classes in turn; an oriented
// queue's class with the others), no application fills more than half of it and
// no first come, first served pair is one application twice.
BuiltQueues build_queues(const std::vector<SmAllocationQueue>& written, const ProfileSet& profiles);

}  // namespace gpupm
