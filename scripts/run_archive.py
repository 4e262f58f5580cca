#!/usr/bin/env python3
"""Keeps the finished runs of a long experiment in a folder small enough to commit, and puts them back.

A paper-scale experiment runs for more core-hours than one machine session gives it, and its output
folder does not outlive the machine. `save` copies what the experiment reads back from each finished
run (report.json, the run's fingerprint, exit status and CPU seconds: one gzip-compressed JSON file
per run, RUN.json.gz, no epochs.csv or log; a paper-scale report's epoch series compress about 10x)
into ARCHIVE; `restore` writes them back into a fresh output folder, where
`gpupm experiment` (same command, same --out, a build of the same sources) takes them as complete
and runs only the rest.

    scripts/run_archive.py save    OUT_DIR ARCHIVE_DIR   # after (or while) the experiment runs
    scripts/run_archive.py restore ARCHIVE_DIR OUT_DIR   # before running it again elsewhere

The fingerprint names the build's source hash and the digest of the run's inputs, so a restored run is
reused only by a gpupm built from the same sources on the same inputs (paths included); any other
build sees it as stale and runs it again unless --reuse-stale is given. A run's arguments hold
absolute paths (the checkout's configs, OUT_DIR, generated workloads in the cache): restore into the
same OUT_DIR and run from a checkout at the same path, or every run counts as another run.
"""
import gzip
import json
import os
import sys
import tempfile

RUN_FILES = ("inputs.fingerprint", "exit_status", "cpu_seconds")


def fail(message):
    print(f"run_archive: {message}", file=sys.stderr)
    sys.exit(2)


def read_text(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def write_atomic(path, data):
    folder = os.path.dirname(path)
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".tmp-")
    os.fchmod(fd, 0o644)  # mkstemp's 0600 would follow the file into git and onto other machines
    with os.fdopen(fd, "wb") as f:
        f.write(data.encode("utf-8") if isinstance(data, str) else data)
    os.replace(tmp, path)


ARCHIVED = ".json.gz"


def read_entry(path):
    with gzip.open(path, "rt", encoding="utf-8") as f:
        return f.read()


def compressed(text):
    return gzip.compress(text.encode("utf-8"), compresslevel=9, mtime=0)  # mtime 0: same bytes every save


def finished(run_dir):
    """A run whose exit status is 0 and whose report.json is whole (what gpupm calls complete)."""
    try:
        if read_text(os.path.join(run_dir, "exit_status")).strip() != "0":
            return None
        report = json.loads(read_text(os.path.join(run_dir, "report.json")))
        fingerprint = read_text(os.path.join(run_dir, "inputs.fingerprint"))
    except (OSError, ValueError):
        return None
    if "sim_time_s" not in report.get("total", {}):
        return None
    entry = {"fingerprint": fingerprint, "exit_status": 0, "report": report}
    try:
        entry["cpu_seconds"] = float(read_text(os.path.join(run_dir, "cpu_seconds")))
    except (OSError, ValueError):
        pass
    return entry


def save(out_dir, archive):
    runs = os.path.join(out_dir, "runs")
    if not os.path.isdir(runs):
        fail(f"{runs}: no runs folder (is {out_dir} an experiment's --out?)")
    os.makedirs(archive, exist_ok=True)
    added = kept = 0
    for run_id in sorted(os.listdir(runs)):
        entry = finished(os.path.join(runs, run_id))
        if entry is None:
            continue
        target = os.path.join(archive, run_id + ARCHIVED)
        text = json.dumps(entry, indent=1, sort_keys=True) + "\n"
        if os.path.exists(target) and read_entry(target) == text:
            kept += 1
            continue
        write_atomic(target, compressed(text))
        added += 1
    print(f"run_archive: {added} run(s) saved, {kept} already there, in {archive}")


def restore(archive, out_dir):
    if not os.path.isdir(archive):
        fail(f"{archive}: no such folder")
    restored = present = 0
    for name in sorted(os.listdir(archive)):
        if not name.endswith(ARCHIVED):
            continue
        entry = json.loads(read_entry(os.path.join(archive, name)))
        run_dir = os.path.join(out_dir, "runs", name[: -len(ARCHIVED)])
        if finished(run_dir) is not None:
            present += 1
            continue
        os.makedirs(run_dir, exist_ok=True)
        write_atomic(os.path.join(run_dir, "report.json"), json.dumps(entry["report"], indent=1) + "\n")
        write_atomic(os.path.join(run_dir, "inputs.fingerprint"), entry["fingerprint"])
        if "cpu_seconds" in entry:
            write_atomic(os.path.join(run_dir, "cpu_seconds"), "%.3f\n" % entry["cpu_seconds"])
        write_atomic(os.path.join(run_dir, "exit_status"), "0\n")  # last: the run counts only once whole
        restored += 1
    print(f"run_archive: {restored} run(s) restored, {present} already finished, into {out_dir}")


def main(argv):
    if len(argv) != 4 or argv[1] not in ("save", "restore"):
        fail("usage:\n" + __doc__.split("\n\n")[2])
    (save if argv[1] == "save" else restore)(argv[2], argv[3])


if __name__ == "__main__":
    main(sys.argv)
