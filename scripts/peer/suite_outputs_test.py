#!/usr/bin/env python3
"""Check of suite.py's outputs (no GPGPU-Sim needed): a record whose gpupm side another build,
config (or the same config edited) or settings made is listed in programs.csv and left out of gpgpusim.csv and
sensitivity.csv, so the figures never mix two gpupm sides; sensitivity.csv has a row only for a program with a
clock run measured."""

import argparse
import csv
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import suite  # noqa: E402


def record(build, gpu, kernel_s, row):
    return {"status": "ok", "gpupm_build": build, "gpupm_gpu": gpu, "gpupm_gpu_digest": gpu + "-digest",
            "gpupm_sets": [], "rows": [row],
            "gpupm_kernel_s": kernel_s, "gpgpusim_kernel_s": kernel_s, "wall_s": {"total": 1.0}}


def launch_row(program):
    return [program, "k", 0, 100, 110, 10, 10, 0.5, 0.5, 0.5, 0.5, 0.1, 0.1, 100.0, 90.0]


class StaleRecords(unittest.TestCase):
    def test_a_record_of_another_gpupm_side_is_listed_but_left_out_of_the_figures(self):
        with tempfile.TemporaryDirectory() as out:
            args = argparse.Namespace(out=out, gpupm_build="B", gpupm_set=[], gpu_name="alike",
                                      gpu_digest="alike-digest")
            results = {
                "current": {"base": record("B", "alike", 2.0, launch_row("current")),
                            "sm15": record("B", "alike", 1.8, launch_row("current")),
                            "mem15": record("B", "alike", 1.9, launch_row("current"))},
                "stale": {"base": record("A", "gtx480", 2.0, launch_row("stale")),
                          "sm15": record("B", "alike", 1.8, launch_row("stale")),
                          "mem15": dict(record("B", "alike", 1.9, launch_row("stale")), gpupm_gpu_digest="edited")},
            }
            stale = suite.write_outputs(args, ["current", "stale"], results, True)
            self.assertEqual(stale, 2)  # stale's base (another build and config) and mem15 (the config edited)
            with open(os.path.join(out, "gpgpusim.csv")) as f:
                self.assertEqual([r["program"] for r in csv.DictReader(f)], ["current"])
            with open(os.path.join(out, "sensitivity.csv")) as f:
                rows = {r["program"]: r for r in csv.DictReader(f)}
            self.assertEqual(rows["current"]["gpupm_sm15"], f"{2.0 / 1.8:.4f}")
            self.assertNotIn("stale", rows)  # no base of this gpupm side to divide by: nothing measured
            with open(os.path.join(out, "programs.csv")) as f:
                listed = [(r["program"], r["variant"], r["detail"]) for r in csv.DictReader(f)]
            self.assertEqual(len(listed), 6)
            details = dict(((p, v), d) for p, v, d in listed)
            self.assertIn("another build", details[("stale", "base")])
            self.assertIn("another build", details[("stale", "mem15")])


if __name__ == "__main__":
    unittest.main()
