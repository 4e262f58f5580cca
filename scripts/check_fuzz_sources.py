#!/usr/bin/env python3
"""Checks that the fuzz build's SystemC-free reader library (fuzz/CMakeLists.txt,
READER_SOURCES, with the PTX library beside it) holds every source its targets reach, so the opt-in fuzz build
(scripts/fuzz.sh) keeps linking as the readers grow: a header sc_model/X.h whose
X.cc exists is taken to need X.cc, followed through both files' quoted includes.
None of the files they reach may include SystemC or TLM, which these libraries do not link.
Usage: check_fuzz_sources.py REPO_ROOT. Exit 1 and the missing/extra files if not."""
import os
import re
import sys

# Linked against gpupm_fuzz_readers only; the program-workload targets also against the PTX library
# (every sc_model/ptx/ source, globbed in fuzz/CMakeLists.txt).
READER_TARGETS = ["gpu_config", "workload", "pdn_network", "program_workload", "program_npy"]
# Linked without SystemC: the reader targets and the PTX library's own.
SYSTEMC_FREE_TARGETS = READER_TARGETS + ["ptx_parse", "ptx_exec"]


def listed_sources(root):
    text = open(os.path.join(root, "fuzz", "CMakeLists.txt")).read()
    block = re.search(r"set\(READER_SOURCES(.*?)\)", text, re.S).group(1)
    return set(re.findall(r"\$\{CMAKE_SOURCE_DIR\}/(sc_model/\S+\.cc)", block))


def includes(root, path):
    for line in open(os.path.join(root, path)):
        m = re.match(r'\s*#include "([^"]+)"', line)
        if m:
            header = re.sub(r"^gpupm/", "", m.group(1))  # the model's headers: sc_model/ as gpupm/
            for base in ("sc_model", os.path.dirname(path)):
                candidate = os.path.normpath(os.path.join(base, header))
                if os.path.isfile(os.path.join(root, candidate)):
                    yield candidate
                    break


SYSTEMC_INCLUDE = re.compile(r"\s*#include <(systemc|tlm)(\.h)?>|\s*#include <tlm_(core|utils)/")


def systemc_lines(root, path):
    return [n for n, line in enumerate(open(os.path.join(root, path)), 1) if SYSTEMC_INCLUDE.match(line)]


def reached_files(root, start):
    """Every file the target reaches (its includes and the sources of those), and the sources among them."""
    seen, todo, sources = set(), [start], set()
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        todo.extend(includes(root, path))
        if path.startswith("sc_model/") and path.endswith(".h"):
            source = path[:-2] + ".cc"
            if os.path.isfile(os.path.join(root, source)):
                sources.add(source)
                todo.append(source)
    return seen, sources


def main():
    root = sys.argv[1]
    listed = listed_sources(root)
    problems = [f"listed but missing: {s}" for s in sorted(listed) if not os.path.isfile(os.path.join(root, s))]
    for target in READER_TARGETS:
        _, sources = reached_files(root, f"fuzz/{target}_fuzz.cc")
        needed = {s for s in sources if not s.startswith("sc_model/ptx/")}
        for s in sorted(needed - listed):
            problems.append(f"fuzz_{target} reaches {s}, which READER_SOURCES in fuzz/CMakeLists.txt does not list")
    for target in SYSTEMC_FREE_TARGETS:
        reached, _ = reached_files(root, f"fuzz/{target}_fuzz.cc")
        for path in sorted(reached):
            for n in systemc_lines(root, path):
                problems.append(f"fuzz_{target} reaches {path}:{n}, which includes SystemC/TLM (the fuzz readers link none)")
    for p in problems:
        print(p)
    print(f"{len(listed)} reader sources listed; {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
