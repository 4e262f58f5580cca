#!/usr/bin/env python3
"""Check of dram_trace.py's figures on a hand-made GPGPU-Sim peer trace (no GPGPU-Sim needed)."""

import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import dram_trace  # noqa: E402


def line_read(cycle, channel, bank, row, line_addr):
    """The four sector requests of one line read entering the scheduler."""
    return [f"Q {cycle} {channel} {bank} {row} 0 {line_addr + 32 * s}" for s in range(4)]


def served(cycle, channel, bank, row, hits):
    """Sector requests handed to the bank, the first a row miss unless `hits` says otherwise."""
    return [f"S {cycle} {channel} {bank} {row} 0 {int(h)}" for h in hits]


class Figures(unittest.TestCase):
    def test_two_lines_of_one_row_then_a_line_of_another(self):
        trace = (line_read(1, 0, 2, 7, 0x1000) + line_read(2, 0, 2, 7, 0x1080)
                 + served(3, 0, 2, 7, [False] + [True] * 7)
                 + line_read(4, 0, 2, 9, 0x9000) + ["A 4 0 1 4096"]  # other trace lines are ignored
                 + served(5, 0, 2, 9, [False, True, True, True]))
        s = dram_trace.summarise(trace)
        self.assertEqual((s["reads"], s["writes"], s["line_reads"]), (12, 0, 3))
        self.assertAlmostEqual(s["row_hits_per_sector"], 10 / 12)
        self.assertAlmostEqual(s["misses_per_line_read"], 2 / 3)
        self.assertAlmostEqual(s["sectors_per_activation"], (8 + 4) / 2)
        # The second line finds the first's four sectors waiting (one line, same row); the third none.
        self.assertAlmostEqual(s["lines_waiting_in_row"], 1 / 3)
        self.assertAlmostEqual(s["lines_waiting_in_channel"], 1 / 3)

    def test_a_write_between_reads_counts_its_row_miss_but_waits_in_no_read_figure(self):
        trace = (line_read(1, 1, 0, 3, 0x0) + ["Q 2 1 0 5 1 4096"]
                 + served(3, 1, 0, 3, [False, True, True, True]) + ["S 4 1 0 5 1 0"]
                 + line_read(5, 1, 0, 3, 0x80) + served(6, 1, 0, 3, [False, True, True, True]))
        s = dram_trace.summarise(trace)
        self.assertEqual((s["reads"], s["writes"], s["line_reads"]), (8, 1, 2))
        self.assertAlmostEqual(s["misses_per_line_read"], 3 / 2)  # the write's row miss included
        self.assertAlmostEqual(s["row_hits_per_sector"], 6 / 9)
        self.assertAlmostEqual(s["lines_waiting_in_channel"], 0.0)  # the write is not a waiting read

    def test_writes_are_counted_but_no_line_read(self):
        trace = ["Q 1 0 0 3 1 0", "S 2 0 0 3 1 0"]
        self.assertIsNone(dram_trace.summarise(trace))

    def test_a_trace_without_dram_lines(self):
        self.assertIsNone(dram_trace.summarise(["B 1 L1D_000 8", ""]))


if __name__ == "__main__":
    unittest.main()
