#!/usr/bin/env python3
"""Check of scripts/run_archive.py against gpupm itself: a sweep's finished runs,
saved and restored into a fresh folder, are reused by the same sweep there (no run
simulated again, the same results.csv); a failed or half-written run is not saved;
a restore never overwrites a finished run; bad usage exits 2.

    run_archive_test.py GPUPM REPO_ROOT
"""

import gzip
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ARCHIVE = os.path.join(HERE, "run_archive.py")
GPUPM, ROOT = None, None


def archive(*args):
    return subprocess.run([sys.executable, ARCHIVE, *args], capture_output=True, text=True)


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def read_bytes(path):
    with open(path, "rb") as f:
        return f.read()


class RunArchive(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="run_archive_")
        self.spec = os.path.join(self.tmp, "sweep.json")
        spec = {
            "name": "archive",
            "base": {"gpu": os.path.join(ROOT, "configs/gpu/gtx480.json"), "policy": "static", "seed": 1},
            "combine": "product",
            "axes": [
                {"name": "kernel", "workloads": [os.path.join(ROOT, "configs/workloads/compute.json")]},
                {"name": "sm_level", "set": "policy.sm_level", "values": ["low", "high"]},
            ],
        }
        with open(self.spec, "w", encoding="utf-8") as f:
            json.dump(spec, f)

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def sweep(self, out):
        env = dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1")
        p = subprocess.run([GPUPM, "sweep", self.spec, "--out", out, "--jobs", "1"], capture_output=True, text=True,
                           env=env)
        self.assertEqual(p.returncode, 0, p.stderr)
        return p.stdout + p.stderr

    def test_restored_runs_are_reused_with_the_same_results(self):
        first, second, kept = (os.path.join(self.tmp, d) for d in ("first", "second", "kept"))
        self.assertIn("(0 reused", self.sweep(first))
        self.assertEqual(archive("save", first, kept).returncode, 0)
        self.assertEqual(len(os.listdir(kept)), 2)
        p = archive("restore", kept, second)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("2 run(s) restored", p.stdout)
        self.assertIn("2 runs (2 reused, 0 failed)", self.sweep(second))
        self.assertEqual(read(os.path.join(first, "results.csv")), read(os.path.join(second, "results.csv")))
        self.assertIn("0 run(s) restored, 2 already finished", archive("restore", kept, second).stdout)

    def test_saved_runs_are_compressed_the_same_each_time(self):
        first, kept = os.path.join(self.tmp, "first"), os.path.join(self.tmp, "kept")
        self.sweep(first)
        archive("save", first, kept)
        names = sorted(os.listdir(kept))
        self.assertTrue(all(n.endswith(".json.gz") for n in names), names)
        self.assertEqual(json.loads(gzip.decompress(read_bytes(os.path.join(kept, names[0]))))["exit_status"], 0)
        before = {n: read_bytes(os.path.join(kept, n)) for n in names}
        self.assertIn("0 run(s) saved, 2 already there", archive("save", first, kept).stdout)
        self.assertEqual(before, {n: read_bytes(os.path.join(kept, n)) for n in names})

    def test_failed_and_half_written_runs_are_not_saved(self):
        out, kept = os.path.join(self.tmp, "out"), os.path.join(self.tmp, "kept")
        self.sweep(out)
        runs = sorted(os.listdir(os.path.join(out, "runs")))
        with open(os.path.join(out, "runs", runs[0], "exit_status"), "w", encoding="utf-8") as f:
            f.write("1\n")
        with open(os.path.join(out, "runs", runs[1], "report.json"), "w", encoding="utf-8") as f:
            f.write('{"total": {')
        p = archive("save", out, kept)
        self.assertIn("0 run(s) saved", p.stdout)
        self.assertEqual(os.listdir(kept), [])

    def test_bad_usage_exits_2_with_one_message(self):
        for args in ([], ["copy", "a", "b"], ["save", os.path.join(self.tmp, "none"), self.tmp],
                     ["restore", os.path.join(self.tmp, "none"), self.tmp]):
            p = archive(*args)
            self.assertEqual(p.returncode, 2, args)
            self.assertTrue(p.stderr.startswith("run_archive: "), p.stderr)


if __name__ == "__main__":
    GPUPM, ROOT = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    unittest.main(argv=sys.argv[:1])
