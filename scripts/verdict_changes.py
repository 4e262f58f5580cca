#!/usr/bin/env python3
"""Lists the claims whose verdict changes between the synthetic and the real suite.

Usage: scripts/verdict_changes.py [--check] [REPO_ROOT]     (default: this script's repository)

Reads each experiment's docs/<e>/summary.json (synthetic) and docs/<e>/real/summary.json
(real) and the hand-written reasons in docs/verdict_reasons.json
({"experiment": {"claim id": "one-line measured reason"}}), and writes
docs/verdict_changes.md: per experiment, every claim whose verdict differs, with both
suites' verdicts and figures and the reason. A claim printed by one suite only is "absent"
in the other.

Without --check it writes the file; with --check it regenerates the text and compares it
with the committed file. Either way it fails (exit 1, one line per finding) on a changed
claim without a reason, a reason for a claim whose verdict no longer changes, or (--check)
a committed file that differs from the regenerated one. Exit 2 on a bad argument or an
unreadable input.
"""
import json
import os
import sys

EXPERIMENTS = ["equalizer", "core_shutdown", "harmonia", "sm_allocation", "voltage_noise"]
REASONS = "docs/verdict_reasons.json"
OUTPUT = "docs/verdict_changes.md"
FIGURE_MAX = 160  # longer figures (lists over every launch) are cut; the summaries keep them whole


def fail_input(message):
    print(f"verdict_changes.py: {message}", file=sys.stderr)
    sys.exit(2)


def read_json(root, path):
    try:
        with open(os.path.join(root, path)) as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        fail_input(f"{path}: {e}")


def claims_by_id(root, path):
    claims = read_json(root, path).get("claims")
    if not isinstance(claims, list):
        fail_input(f"{path}: claims: expected a list of claims")
    for n, c in enumerate(claims):
        if not isinstance(c, dict) or not all(isinstance(c.get(k), str) for k in ("id", "claim", "verdict")):
            fail_input(f"{path}: claims[{n}]: expected an object with the strings id, claim and verdict")
    return {c["id"]: c for c in claims}


def figure(claim):
    """The claim's measured figure, or its note when it has none (n/a); cut at a '; ' or ', '."""
    if claim is None:
        return "-"
    text = claim.get("measured", "").strip()
    if text in ("", "-"):
        text = claim.get("note", "").strip() or "-"
    if len(text) > FIGURE_MAX:
        cut = max(text.rfind("; ", 0, FIGURE_MAX), text.rfind(", ", 0, FIGURE_MAX))
        text = text[: cut if cut > 0 else FIGURE_MAX] + "; ... (whole in summary.json)"
    return text


def cell(text):
    return text.replace("|", "\\|").replace("\n", " ")


def changed_claims(synthetic, real):
    """(id, synthetic claim or None, real claim or None) for each claim whose verdict differs."""
    ids = list(synthetic) + [i for i in real if i not in synthetic]
    rows = []
    for i in ids:
        s, r = synthetic.get(i), real.get(i)
        if (s or {}).get("verdict", "absent") != (r or {}).get("verdict", "absent"):
            rows.append((i, s, r))
    return rows


def reason_findings(experiment, rows, reasons):
    """Changed claims without a one-line reason, and reasons naming a claim that no longer changes."""
    changed = {i for i, _, _ in rows}
    findings = []
    for i in sorted(changed):
        reason = reasons.get(i)
        if not isinstance(reason, str) or not reason.strip() or "\n" in reason:
            findings.append(f"{REASONS}: {experiment}.{i}: the verdict changes between the suites; "
                            "give a one-line measured reason")
    for i in sorted(set(reasons) - changed):
        findings.append(f"{REASONS}: {experiment}.{i}: its verdict no longer changes; remove the reason")
    return findings


def experiment_section(experiment, rows, n_claims, reasons):
    lines = [f"## {experiment}", "",
             f"{len(rows)} of {n_claims} claims change verdict. Summaries: "
             f"[synthetic]({experiment}/summary.md), [real]({experiment}/real/summary.md); "
             f"the real suite's measured reasons: [{experiment}/real/README.md]({experiment}/real/README.md).", ""]
    if not rows:
        return lines + ["None.", ""]
    lines += ["| id | claim | synthetic | synthetic figure | real | real figure | why |",
              "|---|---|---|---|---|---|---|"]
    for i, s, r in rows:
        text = (s or r)["claim"]
        vs, vr = (s or {}).get("verdict", "absent"), (r or {}).get("verdict", "absent")
        lines.append("| " + " | ".join(cell(x) for x in (i, text, vs, figure(s), vr, figure(r), reasons.get(i, ""))) + " |")
    return lines + [""]


def generate(root):
    """The document's text and the reason findings."""
    all_reasons = read_json(root, REASONS)
    if not isinstance(all_reasons, dict):
        fail_input(f"{REASONS}: expected an object {{experiment: {{claim id: reason}}}}")
    findings = [f"{REASONS}: {e}: not an experiment (allowed: {', '.join(EXPERIMENTS)})"
                for e in sorted(set(all_reasons) - set(EXPERIMENTS))]
    lines = ["# Claims that change verdict between the synthetic and the real suites", "",
             "Generated by scripts/verdict_changes.py from each experiment's synthetic and real",
             "summary.json and the hand-written reasons in docs/verdict_reasons.json (one measured",
             "line per claim); ctest `verdict_changes` fails when this file is stale, a changed claim",
             "has no reason, or a reason names a claim whose verdict no longer changes. \"absent\": the",
             "suite's summary does not print the claim. Figures over 160 characters are cut.", ""]
    for e in EXPERIMENTS:
        synthetic = claims_by_id(root, f"docs/{e}/summary.json")
        real = claims_by_id(root, f"docs/{e}/real/summary.json")
        reasons = all_reasons.get(e, {})
        rows = changed_claims(synthetic, real)
        findings += reason_findings(e, rows, reasons)
        lines += experiment_section(e, rows, len(set(synthetic) | set(real)), reasons)
    return "\n".join(lines), findings


def main(argv):
    args = [a for a in argv if a != "--check"]
    check = len(args) < len(argv)
    if len(args) > 1 or (args and args[0].startswith("-")):
        fail_input(f"{' '.join(args)}: unexpected; usage: verdict_changes.py [--check] [REPO_ROOT]")
    root = args[0] if args else os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    text, findings = generate(root)
    path = os.path.join(root, OUTPUT)
    if check:
        try:
            with open(path) as f:
                committed = f.read()
        except OSError:
            committed = None
        if committed != text:
            findings.append(f"{OUTPUT}: differs from what scripts/verdict_changes.py generates; rerun it")
    elif not findings:
        with open(path, "w") as f:
            f.write(text)
    for line in findings:
        print(line)
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
