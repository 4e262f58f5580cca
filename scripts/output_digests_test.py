#!/usr/bin/env python3
"""Check of scripts/output_digests.py on a hand-made record: the build's provenance and the run's
stderr do not enter a digest, any other change to a report (its per-SM figures too), an epochs.csv or
a dumped buffer does; --check names each changed, new and missing output and exits 1 (0 when all
match), and skips (77) against a table of another clang.

    output_digests_test.py
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "output_digests.py")
CLANG = "Debian clang version 14.0.6"


def digests(*args, clang=CLANG):
    return subprocess.run([sys.executable, SCRIPT, *args, "--clang", clang], capture_output=True, text=True)


class OutputDigests(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="output_digests_")
        self.record = os.path.join(self.tmp, "record")
        self.run = os.path.join(self.record, "runs", "cuda_kmeans.json")
        os.makedirs(os.path.join(self.run, "buffers"))
        self.report = {"gpupm": {"version": "abc1234"},
                       "total": {"cycles": 1200, "energy_j": 0.1, "sm": [{"energy_j": 0.05}, {"energy_j": 0.05}]}}
        self.write_report()
        self.write("epochs.csv", b"epoch,ipc\n0,1.5\n")
        self.write("buffers/out.bin", b"\x00\x01\x02\x03")
        with open(self.run + ".stderr", "w") as f:
            f.write("a warning\n")
        self.table = os.path.join(self.tmp, "digests.sha256")
        self.assertEqual(digests(self.record, "--write", self.table).returncode, 0)

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def write(self, name, data):
        with open(os.path.join(self.run, name), "wb") as f:
            f.write(data)

    def write_report(self):
        with open(os.path.join(self.run, "report.json"), "w") as f:
            json.dump(self.report, f)

    def check(self, clang=CLANG):
        return digests(self.record, "--check", self.table, clang=clang)

    def test_unchanged_outputs_pass(self):
        result = self.check()
        self.assertEqual(result.returncode, 0, result.stdout)
        self.assertIn("3 outputs digested, 0 difference(s)", result.stdout)

    def test_provenance_stderr_and_key_order_do_not_count(self):
        self.report = {"total": {"sm": [{"energy_j": 0.05}, {"energy_j": 0.05}], "energy_j": 0.1, "cycles": 1200},
                       "gpupm": {"version": "def5678-dirty"}}
        self.write_report()
        with open(self.run + ".stderr", "w") as f:
            f.write("another warning\n")
        self.assertEqual(self.check().returncode, 0)

    def test_a_changed_report_value_fails(self):
        self.report["total"]["energy_j"] = 0.1000000000000001
        self.write_report()
        result = self.check()
        self.assertEqual(result.returncode, 1)
        self.assertIn("changed: runs/cuda_kmeans.json/report.json", result.stdout)

    def test_a_changed_per_sm_figure_fails(self):
        self.report["total"]["sm"][1]["energy_j"] = 0.06
        self.write_report()
        self.assertEqual(self.check().returncode, 1)

    def test_a_table_of_another_clang_skips(self):
        result = self.check(clang="Debian clang version 16.0.6")
        self.assertEqual(result.returncode, 77)
        self.assertIn("'Debian clang version 14.0.6'", result.stdout)

    def test_a_changed_buffer_or_epoch_row_fails(self):
        self.write("buffers/out.bin", b"\x00\x01\x02\x04")
        self.write("epochs.csv", b"epoch,ipc\n0,1.6\n")
        result = self.check()
        self.assertEqual(result.returncode, 1)
        self.assertIn("changed: runs/cuda_kmeans.json/buffers/out.bin", result.stdout)
        self.assertIn("changed: runs/cuda_kmeans.json/epochs.csv", result.stdout)

    def test_new_and_missing_outputs_fail(self):
        os.remove(os.path.join(self.run, "epochs.csv"))
        self.write("buffers/extra.bin", b"\x05")
        result = self.check()
        self.assertEqual(result.returncode, 1)
        self.assertIn("missing (the run did not write it): runs/cuda_kmeans.json/epochs.csv", result.stdout)
        self.assertIn("new (not in", result.stdout)

    def test_a_malformed_table_is_refused(self):
        with open(self.table, "w") as f:
            f.write("# clang: " + CLANG + "\nnot a digest line\n")
        result = self.check()
        self.assertEqual(result.returncode, 2)
        self.assertIn("expected 'SHA256  PATH'", result.stderr)


if __name__ == "__main__":
    unittest.main()
