#!/usr/bin/env python3
"""Prints a fenced code block of a Markdown page, so a test can build and run it as written.

Usage: scripts/doc_snippet.py PAGE HEADING LANG [N]
  the N-th (default 1) block fenced as ```LANG under the section whose heading line
  (## or ###) is HEADING. Exit 1 (with why) if there is no such section or block.
"""
import sys


def snippet(text, heading, lang, n):
    in_section, found, fence, block = False, 0, None, []
    for line in text.splitlines():
        if fence is not None:  # inside a fenced block: nothing here is a heading
            if line.strip() == "```":
                if fence == lang and in_section:
                    found += 1
                    if found == n:
                        return "\n".join(block) + "\n"
                fence, block = None, []
            else:
                block.append(line)
        elif line.startswith("```"):
            fence = line.strip()[3:]
        elif line.startswith("#"):
            in_section = line.lstrip("#").strip() == heading
    return None


def main(argv):
    if len(argv) not in (4, 5):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    page, heading, lang = argv[1:4]
    n = int(argv[4]) if len(argv) == 5 else 1
    with open(page, encoding="utf-8") as f:
        code = snippet(f.read(), heading, lang, n)
    if code is None:
        print(f"{page}: no ```{lang} block #{n} under the heading '{heading}'", file=sys.stderr)
        return 1
    sys.stdout.write(code)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
