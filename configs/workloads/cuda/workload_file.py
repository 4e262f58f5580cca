"""A seed suite's committed (ci) workload file as its gen_inputs.py writes it:
the comment, name and program, the "scales" line declaring the paper-scale
generator (../gen_paper.py with ARGS), then a line per buffer and per launch.
gen_inputs.py imports it from this folder (it puts the folder on sys.path).
"""
import json
import os


def comment(lines):
    """// LINE for each line (the workload loader accepts // comments)."""
    return "".join("// " + line + "\n" for line in lines)


def text(program, comment_text, paper_args, buffers, launches):
    """The workload of PROGRAM (its .cu beside it) after COMMENT_TEXT."""
    paper = {"generator": "../gen_paper.py", "args": paper_args}
    rows = ",\n    ".join(json.dumps(name) + ": " + json.dumps(spec) for name, spec in buffers.items())
    calls = ",\n    ".join(json.dumps(launch) for launch in launches)
    return (comment_text + '{\n  "name": %s,\n  "program": %s,\n' % (json.dumps(program), json.dumps(program + ".cu")) +
            '  "scales": {"paper": %s},  // README.md "Paper scale"\n' % json.dumps(paper) +
            '  "buffers": {\n    ' + rows + '\n  },\n  "launches": [\n    ' + calls + "\n  ]\n}\n")


def write(suite_dir, program, comment_text, paper_args, buffers, launches):
    """SUITE_DIR/PROGRAM/PROGRAM.json."""
    with open(os.path.join(suite_dir, program, program + ".json"), "w") as f:
        f.write(text(program, comment_text, paper_args, buffers, launches))
