#!/usr/bin/env python3
"""Validate every shipped input under configs/ against its JSON Schema in docs/schema/.

  configs/gpu/*.json             docs/schema/gpu_config.schema.json
  configs/workloads/**/*.json    docs/schema/workload.schema.json
  configs/sweeps/*.json          docs/schema/sweep_spec.schema.json
  configs/experiments/*.json     docs/schema/experiment.schema.json

The files carry // and /* */ comments, which gpupm's reader skips: they are
stripped here the same way (outside strings) before validating.

Usage: scripts/check_schemas.py [REPO_DIR]
Exit status: 0 every file valid, 1 some file invalid (each printed),
77 the python3 jsonschema module is missing (a test skips then).
"""
import glob
import json
import os
import sys

SKIP = 77
KINDS = [("gpu_config", "configs/gpu/*.json"),
         ("workload", "configs/workloads/**/*.json"),
         ("sweep_spec", "configs/sweeps/*.json"),
         ("experiment", "configs/experiments/*.json")]


def strip_comments(text):
    """The JSON text without // line and /* block */ comments outside strings."""
    out, i, in_string = [], 0, False
    while i < len(text):
        c = text[i]
        if in_string:
            out.append(c)
            if c == "\\":
                out.append(text[i + 1])
                i += 1
            elif c == '"':
                in_string = False
        elif c == '"':
            in_string = True
            out.append(c)
        elif text.startswith("//", i):
            end = text.find("\n", i)
            i = len(text) if end < 0 else end
            continue
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            i = len(text) if end < 0 else end + 2
            continue
        else:
            out.append(c)
        i += 1
    return "".join(out)


def main():
    try:
        import jsonschema
    except ImportError:
        print("python3 jsonschema is not installed: nothing checked")
        return SKIP
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..")
    failures, checked = 0, 0
    for kind, pattern in KINDS:
        with open(os.path.join(root, "docs", "schema", kind + ".schema.json")) as f:
            schema = json.load(f)
        validator = jsonschema.Draft202012Validator(schema)
        for path in sorted(glob.glob(os.path.join(root, pattern), recursive=True)):
            with open(path) as f:
                doc = json.loads(strip_comments(f.read()))
            errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.absolute_path))
            checked += 1
            for e in errors[:3]:
                failures += 1
                where = "/".join(str(p) for p in e.absolute_path) or "$"
                print(f"{os.path.relpath(path, root)}: {where}: {e.message[:300]} ({kind})")
    print(f"{checked} files checked against docs/schema/, {failures} problems")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
