#!/usr/bin/env python3
"""Digests of every shipped workload's outputs, kept in git so a test sees any change to them.

compare_outputs.sh compares one build's outputs with another's, by hand; this keeps the outputs' SHA-256
digests in tests/shipped_outputs/digests.sha256, so a build whose outputs differ from the committed model's
fails ctest `shipped_outputs` without a second build to compare against. A refactor or speed-up leaves
the file as it is; a deliberate model change rewrites it in its own commit, and the diff of the file
names every workload output the change moves.

    scripts/output_digests.py RECORD_DIR --clang TEXT            # prints the table
    scripts/output_digests.py RECORD_DIR --clang TEXT --check F  # exit 1 naming each output that differs
    scripts/output_digests.py RECORD_DIR --clang TEXT --write F

RECORD_DIR is `scripts/compare_outputs.sh record DIR` made with EXPERIMENTS=" " (runs/ only). TEXT is the
first line of `--version` of the clang that compiled the CUDA programs to PTX: another clang makes other
PTX, so the table's first line names it, and --check against a table of another clang exits 77 (ctest's
skip) saying so. A run's report.json is digested without the build's provenance (`gpupm`), in canonical form (sorted keys; floats as Python prints them, which round-trips exactly); every other
file of the run (epochs.csv, the dumped buffers) byte for byte; the run's stderr is left out.
"""
import argparse
import hashlib
import json
import os
import sys

SKIPPED_FILES = ("inputs.fingerprint", "cpu_seconds")


def fail(message):
    print(f"output_digests: {message}", file=sys.stderr)
    sys.exit(2)


def digest_of(path):
    if os.path.basename(path) == "report.json":
        with open(path) as f:
            doc = json.load(f)
        doc.pop("gpupm", None)
        data = json.dumps(doc, sort_keys=True, separators=(",", ":")).encode()
    else:
        with open(path, "rb") as f:
            data = f.read()
    return hashlib.sha256(data).hexdigest()


def digests(record):
    """{"runs/ID/FILE": sha256} over every run directory of the record."""
    runs = os.path.join(record, "runs")
    if not os.path.isdir(runs):
        fail(f"{runs}: no such directory (make it with compare_outputs.sh record)")
    out = {}
    for root, dirs, files in os.walk(runs):
        dirs.sort()
        for name in sorted(files):
            if name in SKIPPED_FILES or name.endswith(".stderr"):
                continue
            path = os.path.join(root, name)
            out[os.path.relpath(path, record)] = digest_of(path)
    return out


CLANG_HEADER = "# clang: "
SKIP_STATUS = 77  # ctest's SKIP_RETURN_CODE for this test


def text_of(table, clang):
    return CLANG_HEADER + clang + "\n" + "".join(f"{sha}  {path}\n" for path, sha in sorted(table.items()))


def read_table(path):
    """(the clang line of the table, {path: sha256})."""
    table = {}
    with open(path) as f:
        first = f.readline().rstrip("\n")
        if not first.startswith(CLANG_HEADER):
            fail(f"{path}:1: expected '{CLANG_HEADER}<clang --version's first line>'")
        for number, line in enumerate(f, 2):
            sha, sep, name = line.rstrip("\n").partition("  ")
            if not sep or len(sha) != 64:
                fail(f"{path}:{number}: expected 'SHA256  PATH'")
            table[name] = sha
    return first[len(CLANG_HEADER):], table


def check(found, clang, expected_path):
    expected_clang, expected = read_table(expected_path)
    if clang != expected_clang:
        print(f"skipped: the digests in {expected_path} are of PTX compiled by '{expected_clang}'; "
              f"this machine's is '{clang}', which compiles the CUDA programs to other PTX")
        return SKIP_STATUS
    problems = [f"changed: {p}" for p in sorted(found) if p in expected and found[p] != expected[p]]
    problems += [f"new (not in {expected_path}): {p}" for p in sorted(found) if p not in expected]
    problems += [f"missing (the run did not write it): {p}" for p in sorted(expected) if p not in found]
    for line in problems:
        print(line)
    print(f"{len(found)} outputs digested, {len(problems)} difference(s) from {expected_path}")
    if problems:
        print("A refactor must leave every output as it was. A deliberate model change rewrites the "
              "file in its own commit: scripts/output_digests.py RECORD_DIR --write " + expected_path)
    return 1 if problems else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("record")
    parser.add_argument("--clang", required=True, metavar="TEXT")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--check", metavar="FILE")
    mode.add_argument("--write", metavar="FILE")
    args = parser.parse_args()
    found = digests(args.record)
    if args.check:
        return check(found, args.clang, args.check)
    if args.write:
        with open(args.write + ".tmp", "w") as f:
            f.write(text_of(found, args.clang))
        os.replace(args.write + ".tmp", args.write)
        print(f"{len(found)} digests written to {args.write}")
        return 0
    sys.stdout.write(text_of(found, args.clang))
    return 0


if __name__ == "__main__":
    sys.exit(main())
