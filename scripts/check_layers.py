#!/usr/bin/env python3
"""Layering check of sc_model/: no #include points from a lower layer to a higher one.

Usage: scripts/check_layers.py [SC_MODEL_DIR]   (default: the sc_model/ beside this script)

LAYERS (docs/architecture.md#layers says why) lists the folders from the bottom up. A file may
include its own folder and any folder of a lower layer; folders of one layer never
include each other (the blocks talk through protocol/, not through each other's
headers). Two refinements:
  - policy/<name>/ (one policy) and policy/shared/ may include policy/ and
    policy/shared/, never a policy's folder (policy/ itself may: the registry);
  - a unit test (*_test.cc) may also include a folder of its own layer (its bench
    wires the neighbour block it talks to) and the test support (support/).
Model headers are included as "gpupm/<folder>/..." (sc_model/ is gpupm/ on the include path,
as installed), never by the bare folder a user's own headers could shadow.
Exit 0: clean. Exit 1: each forbidden include as file:line and the edge.
Exit 2: bad arguments, or a folder the table does not know.
"""

import os
import re
import sys

LAYERS = [  # bottom to top
    ("common", ["common"]),                       # utilities: JSON reader, writers, RNG
    ("protocol", ["protocol"]),                   # TLM messages and read-only status interfaces
    ("foundations", ["clock", "ptx", "workload"]),  # time base and the inputs the blocks execute
    ("controllers", ["controllers"]),             # controller golden models and their wrappers
    ("blocks", ["sm", "gwde", "mem", "freq", "vr", "power", "host"]),
    ("sources", ["program", "policy"]),           # program workloads, policies
    ("platform", ["platform"]),
    ("report", ["report"]),
    ("sweep", ["sweep"]),
    ("experiment", ["experiment"]),
    ("app", ["app"]),
]
TEST_SUPPORT = "support"  # tests/support/, on the test binaries' include path
PREFIX = "gpupm/"  # model headers are included as "gpupm/<folder>/...", as a user includes them

INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')
SOURCE_SUFFIXES = (".h", ".cc", ".cpp")


def layer_of():
    return {folder: i for i, (_, folders) in enumerate(LAYERS) for folder in folders}


def allowed_table():
    """Folder -> the folders it may include (tests aside), for the docs and --table."""
    table = {}
    for i, (_, folders) in enumerate(LAYERS):
        below = [f for _, fs in LAYERS[:i] for f in fs]
        for f in folders:
            table[f] = below
    return table


def policy_part(rel_dir):
    """policy/<name> for a file under a subfolder of policy/ (shared/ too), else None."""
    parts = rel_dir.split("/")
    return "policy/" + parts[1] if len(parts) >= 2 and parts[0] == "policy" else None


def violation(src_rel, include, is_test, layers):
    """Why src_rel may not include `include` (None: allowed)."""
    src_dir = os.path.dirname(src_rel)
    src_folder, first = src_dir.split("/")[0], include.split("/")[0]
    if not include.startswith(PREFIX):
        if first in layers:
            return f'a model header is included as "{PREFIX}{first}/...", never by a bare folder'
        return None if first == TEST_SUPPORT and is_test else f"'{first}/' is not an sc_model folder"
    target = include[len(PREFIX):]
    dst_folder = target.split("/")[0]
    if dst_folder not in layers:
        return f"'{dst_folder}/' is not an sc_model folder"
    src_layer, dst_layer = layers[src_folder], layers[dst_folder]
    if src_folder == dst_folder:
        own, other = policy_part(src_dir), policy_part(os.path.dirname(target))
        if own and other and own != other and other != "policy/shared":
            return f"{own}/ includes the policy folder {other}/ (shared code goes to policy/shared/)"
        return None
    if dst_layer < src_layer or (is_test and dst_layer == src_layer):
        return None
    name = LAYERS[src_layer][0]
    if dst_layer == src_layer:
        return f"{src_folder}/ includes {dst_folder}/: folders of layer '{name}' never include each other"
    return f"{src_folder}/ (layer '{name}') includes {dst_folder}/ (higher layer '{LAYERS[dst_layer][0]}')"


def check(root):
    layers = layer_of()
    problems, unknown = [], set()
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames.sort()
        rel_dir = os.path.relpath(dirpath, root).replace(os.sep, "/")
        if rel_dir == ".":
            continue
        if rel_dir.split("/")[0] not in layers:
            unknown.add(rel_dir.split("/")[0])
            continue
        for name in sorted(filenames):
            if not name.endswith(SOURCE_SUFFIXES):
                continue
            src_rel = f"{rel_dir}/{name}"
            with open(os.path.join(dirpath, name), encoding="utf-8", errors="replace") as f:
                for lineno, line in enumerate(f, 1):
                    m = INCLUDE.match(line)
                    if not m or "/" not in m.group(1):
                        continue  # system, generated (Verilator) or same-folder headers
                    why = violation(src_rel, m.group(1), name.endswith("_test.cc"), layers)
                    if why:
                        problems.append(f"{src_rel}:{lineno}: forbidden include \"{m.group(1)}\": {why}")
    return problems, sorted(unknown)


def main(argv):
    if len(argv) > 2 or (len(argv) == 2 and argv[1].startswith("-") and argv[1] != "--table"):
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    if len(argv) == 2 and argv[1] == "--table":
        for folder, allowed in allowed_table().items():
            print(f"{folder:12} {' '.join(allowed) or '-'}")
        return 0
    root = argv[1] if len(argv) == 2 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "sc_model")
    if not os.path.isdir(root):
        print(f"check_layers: {root}: not a directory", file=sys.stderr)
        return 2
    problems, unknown = check(root)
    if unknown:
        print(f"check_layers: folder(s) with no row in the layer table (scripts/check_layers.py LAYERS): "
              f"{', '.join(unknown)}", file=sys.stderr)
        return 2
    for p in problems:
        print(p)
    if problems:
        print(f"check_layers: {len(problems)} forbidden include(s); layer order: docs/architecture.md#layers", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
