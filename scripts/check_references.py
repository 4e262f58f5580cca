#!/usr/bin/env python3
"""Checks that the repository's code and documentation refer only to files inside it.

Usage: scripts/check_references.py [REPO_ROOT]     (default: this script's repository)

Fails (exit 1, one line per finding: file:line: what) on
  1. a reference to material outside the repository: a path through ../shared,
     shared/specs or shared/seeds, specs/<name>.md, seeds/<name>, ARCHITECTURE.md,
     or a citation by the outside extraction's section numbers ("spec 1.4",
     "specs 3.2", "P2.2"), in any text file;
  2. a docs/papers.md#<anchor> mention, in any text file, whose anchor papers.md
     does not define;
  3. in a markdown file (docs, READMEs): a link [text](target) to a repository file or
     anchor that does not exist, or a link that leaves the repository; a path mention
     (sc_model/..., configs/..., docs/..., scripts/..., rtl/..., tests/..., tb/...,
     cmake/..., fuzz/...) naming a file or folder that does not exist.
Exit 0 when there is nothing to report, 2 on a bad argument.
"""
import os
import re
import sys

# Files allowed to keep outside references until a pending merge. Each entry says why
# and when it goes.
ALLOWED_OUTSIDE_REFERENCES = {
    # The record of the one deliberate output change (old texts and their replacements)
    # that scripts/compare_outputs.sh applies to a record made before it.
    "scripts/rewrites/papers_references.tsv",
    # This checker names the patterns it looks for.
    "scripts/check_references.py",
}

# Repository files that may be named although they do not exist yet.
ALLOWED_MISSING: set = set()  # none today: name an entry here only with why and until when

SKIPPED_DIRS = {".git", "__pycache__"}
SKIPPED_SUFFIXES = (".png", ".npy", ".bin", ".o", ".a", ".so", ".gz", ".pdf", ".vcd")
SOURCE_DIRS = ("sc_model", "configs", "docs", "scripts", "rtl", "tests", "tb", "examples", "cmake", "fuzz")

OUTSIDE = [
    (re.compile(r"\.\./shared\b"), "path into ../shared (outside the repository)"),
    (re.compile(r"(?<![\w/.-])shared/(specs|seeds)\b"), "path into shared/ (outside the repository)"),
    (re.compile(r"(?<![\w.-])specs/[\w.-]+\.md\b"), "reference to specs/*.md (outside the repository)"),
    (re.compile(r"(?<![\w.-])seeds/[\w.-]+"), "reference to seeds/ (outside the repository)"),
    (re.compile(r"\bARCHITECTURE\.md\b"), "reference to ARCHITECTURE.md (outside the repository; docs/architecture.md)"),
    (re.compile(r"\bspecs? (section )?\d+(\.\d+)*\b"), "citation by the outside extraction's numbering (spec x.y)"),
    (re.compile(r"\bP[123]\.\d+\b"), "citation by the outside extraction's numbering (P1.x-P3.x)"),
]
PAPERS_MENTION = re.compile(r"docs/papers\.md#([\w-]+)")
MD_LINK = re.compile(r"(?<!!)\[[^\]\n]*\]\(([^)\s]+)\)")
PATH_MENTION = re.compile(r"(?<![\w./#-])((?:%s)/[\w./-]*[\w/])" % "|".join(SOURCE_DIRS))


def text_files(root):
    """Every text file at the top and in the source folders, as a path relative to root
    (build trees and run outputs a user keeps in the checkout are left out)."""
    for folder, dirs, files in os.walk(root):
        rel_folder = os.path.relpath(folder, root)
        dirs[:] = sorted(d for d in dirs if d not in SKIPPED_DIRS and
                         (rel_folder != "." or d in SOURCE_DIRS + (".ci",)))
        for name in sorted(files):
            if name.endswith(SKIPPED_SUFFIXES):
                continue
            path = os.path.normpath(os.path.join(rel_folder, name))
            try:
                with open(os.path.join(root, path), encoding="utf-8") as f:
                    text = f.read()
            except (UnicodeDecodeError, OSError):
                continue
            if "\0" not in text:
                yield path, text


def slug(heading):
    """GitHub's anchor for a markdown heading."""
    s = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return s.replace(" ", "-")


def anchors_of(text):
    ids = set(re.findall(r'<a id="([\w-]+)"', text))
    ids.update(slug(h) for h in re.findall(r"^#+ +(.+?)\s*$", text, re.M))
    return ids


def is_pattern(line, end, mention):
    """A mention that stands for several files or a user's file, not one repository path:
    continued by a glob or brace list (pdn.{h,cc}, vote_arbiter.*), or with a placeholder
    name in capitals (configs/workloads/W.json, DIR/...)."""
    rest = line[end:].lstrip(".")
    if rest[:1] in ("*", "{", "<", "$"):
        return True
    stem = os.path.basename(mention.rstrip("/")).split(".")[0]
    return "..." in mention or (stem.isupper() and stem.replace("_", "").isalpha())


def exists(root, path):
    return path in ALLOWED_MISSING or os.path.exists(os.path.join(root, path))


def check_link(root, md_path, target, anchors_cache, files):
    """What is wrong with a markdown link target, or None."""
    if re.match(r"^[a-z][a-z0-9+.-]*:", target):  # http:, https:, mailto:
        return None
    path, _, anchor = target.partition("#")
    if path:
        resolved = os.path.normpath(os.path.join(os.path.dirname(md_path), path))
        if resolved == ".." or resolved.startswith("../"):
            return "link leaves the repository: " + target
        if not exists(root, resolved):
            return "link to a missing file: " + target
    else:
        resolved = md_path
    if anchor and resolved.endswith(".md") and resolved in files:
        if resolved not in anchors_cache:
            anchors_cache[resolved] = anchors_of(files[resolved])
        if anchor not in anchors_cache[resolved]:
            return "link to a missing anchor: " + target
    return None


def findings(root):
    files = dict(text_files(root))
    papers = files.get("docs/papers.md")
    paper_anchors = anchors_of(papers) if papers is not None else set()
    anchors_cache = {}
    for path, text in files.items():
        for lineno, line in enumerate(text.split("\n"), 1):
            where = "%s:%d: " % (path, lineno)
            if path not in ALLOWED_OUTSIDE_REFERENCES:
                for pattern, what in OUTSIDE:
                    m = pattern.search(line)
                    if m:
                        yield where + what + ": " + m.group(0)
            for anchor in PAPERS_MENTION.findall(line):
                if papers is None:
                    yield where + "docs/papers.md is missing"
                elif anchor not in paper_anchors:
                    yield where + "docs/papers.md has no anchor #" + anchor
            if not path.endswith(".md") or path in ALLOWED_OUTSIDE_REFERENCES:
                continue
            for target in MD_LINK.findall(line):
                problem = check_link(root, path, target, anchors_cache, files)
                if problem:
                    yield where + problem
            for m in PATH_MENTION.finditer(line):
                mention = m.group(1).rstrip(".")
                if is_pattern(line, m.end(1), mention):
                    continue
                if not exists(root, mention.rstrip("/")):
                    yield where + "names a missing repository path: " + mention


def main(argv):
    if len(argv) > 2:
        print("usage: check_references.py [REPO_ROOT]", file=sys.stderr)
        return 2
    root = argv[1] if len(argv) == 2 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    if not os.path.isdir(os.path.join(root, "sc_model")):
        print("check_references.py: %s is not the gpupm repository (no sc_model/)" % root, file=sys.stderr)
        return 2
    problems = list(findings(root))
    for p in problems:
        print(p)
    if problems:
        print("%d reference problem(s); docs/papers.md cites the papers inside the repository" % len(problems))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
