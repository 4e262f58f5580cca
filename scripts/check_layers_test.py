#!/usr/bin/env python3
"""Unit check of scripts/check_layers.py: it passes the real tree and fails on a
planted upward, sideways or cross-policy include, naming file:line and the edge.
Each case runs the checker on a temporary copy of sc_model/ with one bad line."""

import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
CHECKER = os.path.join(HERE, "check_layers.py")
SC_MODEL = os.path.join(HERE, "..", "sc_model")


def run(root):
    p = subprocess.run([sys.executable, CHECKER, root], capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


class CheckLayers(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="check_layers_")
        self.root = os.path.join(self.tmp, "sc_model")
        shutil.copytree(SC_MODEL, self.root, ignore=shutil.ignore_patterns("*.md"))

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def plant(self, rel, include):
        """Appends `#include "include"` to rel; returns its line number."""
        path = os.path.join(self.root, rel)
        with open(path, encoding="utf-8") as f:
            lines = f.read().count("\n")
        with open(path, "a", encoding="utf-8") as f:
            f.write(f'#include "{include}"\n')
        return lines + 1

    def assert_rejected(self, rel, include, words):
        line = self.plant(rel, include)
        rc, out, _ = run(self.root)
        self.assertEqual(rc, 1, out)
        self.assertIn(f'{rel}:{line}: forbidden include "{include}"', out)
        for w in words:
            self.assertIn(w, out)
        self.assertEqual(out.count("\n"), 1, out)  # only the planted line

    def test_the_tree_is_clean(self):
        rc, out, err = run(self.root)
        self.assertEqual((rc, out, err), (0, "", ""))

    def test_upward_include_fails(self):
        self.assert_rejected("sm/lsu.h", "gpupm/platform/gpu.h", ["higher layer 'platform'"])

    def test_block_including_a_block_fails(self):
        self.assert_rejected("sm/lsu.h", "gpupm/gwde/gwde_config.h", ["never include each other"])

    def test_policy_including_another_policy_fails(self):
        self.assert_rejected("policy/harmonia/harmonia_policy.h", "gpupm/policy/sm_allocation/partition.h",
                             ["the policy folder policy/sm_allocation/"])

    def test_shared_policy_code_including_a_policy_fails(self):
        self.assert_rejected("policy/shared/observe/kernel_counters.h", "gpupm/policy/harmonia/harmonia_model.h",
                             ["policy/shared/ includes the policy folder policy/harmonia/"])

    def test_unit_test_may_wire_a_neighbour_block(self):
        self.plant("sm/lsu_test.cc", "gpupm/gwde/gwde_config.h")
        self.assertEqual(run(self.root)[0], 0)

    def test_a_model_header_without_the_gpupm_prefix_fails(self):
        self.assert_rejected("sm/lsu.h", "common/rng.h", ['included as "gpupm/common/..."'])

    def test_unknown_folder_is_a_usage_error(self):
        os.makedirs(os.path.join(self.root, "misc"))
        rc, _, err = run(self.root)
        self.assertEqual(rc, 2)
        self.assertIn("misc", err)


if __name__ == "__main__":
    unittest.main()
