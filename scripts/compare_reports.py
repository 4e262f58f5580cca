#!/usr/bin/env python3
"""Compare two gpupm run directories: report.json with some fields left out,
and every other file both directories hold (epochs.csv, ...) byte for byte.

Usage: scripts/compare_reports.py BEFORE_DIR AFTER_DIR [--ignore /json/pointer ...] [--rewrites FILE]

--rewrites FILE names deliberate text changes (one "OLD<TAB>NEW" per line;
a line starting with # and holding no tab is a comment): each is applied to
BEFORE's strings and files first, so a change that only rewrites such a text
compares as identical. --replace OLD NEW adds one such pair (e.g. the two run
directories, which a run's log names); --skip-file NAME leaves a file out.

The default ignores are the fields that legitimately differ between builds of
the same model: the provenance ("/gpupm") and the per-SM breakdown added with
it ("/total/sm"). Exit status 0 when everything else is identical, 1 otherwise
(each difference printed), 2 on bad arguments.
"""
import argparse
import json
import os
import sys

DEFAULT_IGNORES = ["/gpupm", "/total/sm"]


def drop(doc, pointer):
    """Removes the member a JSON pointer names, if present."""
    parts = [p.replace("~1", "/").replace("~0", "~") for p in pointer.strip("/").split("/")]
    node = doc
    for p in parts[:-1]:
        if isinstance(node, dict) and p in node:
            node = node[p]
        elif isinstance(node, list) and p.isdigit() and int(p) < len(node):
            node = node[int(p)]
        else:
            return
    if isinstance(node, dict):
        node.pop(parts[-1], None)


def read_rewrites(path):
    """[(old, new)] from a tab-separated file; [] for no file."""
    if not path:
        return []
    pairs = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if line and not (line.startswith("#") and "\t" not in line):  # a comment has no tab
                old, new = line.split("\t")
                pairs.append((old, new))
    return pairs


def rewritten(node, pairs):
    """node with every string's OLD texts replaced by NEW."""
    if isinstance(node, str):
        for old, new in pairs:
            node = node.replace(old, new)
        return node
    if isinstance(node, dict):
        return {k: rewritten(v, pairs) for k, v in node.items()}
    if isinstance(node, list):
        return [rewritten(v, pairs) for v in node]
    return node


def differences(a, b, path=""):
    if type(a) is not type(b):
        yield f"{path or '/'}: {a!r} != {b!r}"
    elif isinstance(a, dict):
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                yield f"{path}/{k}: only in {'after' if k not in a else 'before'}"
            else:
                yield from differences(a[k], b[k], f"{path}/{k}")
    elif isinstance(a, list):
        if len(a) != len(b):
            yield f"{path}: {len(a)} != {len(b)} elements"
        for i, (x, y) in enumerate(zip(a, b)):
            yield from differences(x, y, f"{path}/{i}")
    elif a != b:
        yield f"{path}: {a!r} != {b!r}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("before")
    ap.add_argument("after")
    ap.add_argument("--ignore", action="append", default=None, help="JSON pointer to leave out (repeatable)")
    ap.add_argument("--rewrites", help="file of OLD<TAB>NEW text changes applied to BEFORE first")
    ap.add_argument("--replace", nargs=2, action="append", default=[], metavar=("OLD", "NEW"),
                    help="one more text change applied to BEFORE first (repeatable)")
    ap.add_argument("--skip-file", action="append", default=[], help="a file name to leave out (repeatable)")
    args = ap.parse_args()
    pairs = read_rewrites(args.rewrites) + [tuple(p) for p in args.replace]
    ignores = DEFAULT_IGNORES if args.ignore is None else args.ignore
    found = []
    reports = []
    for d in (args.before, args.after):
        with open(os.path.join(d, "report.json")) as f:
            doc = json.load(f)
        for p in ignores:
            drop(doc, p)
        reports.append(doc)
    reports[0] = rewritten(reports[0], pairs)
    found += [f"report.json {d}" for d in differences(*reports)]
    common = set(os.listdir(args.before)) & set(os.listdir(args.after))
    for name in sorted(common - {"report.json"} - set(args.skip_file)):
        pa, pb = os.path.join(args.before, name), os.path.join(args.after, name)
        if os.path.isfile(pa) and os.path.isfile(pb):
            with open(pa, "rb") as fa, open(pb, "rb") as fb:
                before, after = fa.read(), fb.read()
            rewritten_before = before
            for old, new in pairs:
                rewritten_before = rewritten_before.replace(old.encode(), new.encode())
            # Equal as rewritten, or as they are (a reused run's copy still names its old folder).
            if after not in (rewritten_before, before):
                found.append(f"{name}: bytes differ")
    for line in found:
        print(line)
    print(f"{args.before} vs {args.after}: {'identical' if not found else f'{len(found)} difference(s)'}"
          f" (report.json without {', '.join(ignores) or 'nothing'}; other files byte for byte)")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
