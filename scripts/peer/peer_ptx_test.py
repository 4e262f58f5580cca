#!/usr/bin/env python3
"""Check of peer.py's preparation of a GPGPU-Sim run (no GPGPU-Sim needed): the integer literals its PTX lexer
would read wrongly (outside a C int, in a 64-bit instruction) become 0d literals of the same 64 bits, and nothing
else changes; the clock factors move the GPGPU-Sim clock domains gpupm's config says they move."""

import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import peer  # noqa: E402


class WideImmediates(unittest.TestCase):
    def rewrite(self, line):
        return peer.with_wide_immediates_as_bits(line)

    def test_a_wide_literal_of_a_64_bit_instruction_becomes_its_bits(self):
        self.assertEqual(self.rewrite("\tand.b64 \t%rd14, %rd3, -4294967296;"), "\tand.b64 \t%rd14, %rd3, 0dFFFFFFFF00000000;")
        self.assertEqual(self.rewrite("\tadd.s64 %rd1, %rd2, 4294967295;"), "\tadd.s64 %rd1, %rd2, 0d00000000FFFFFFFF;")
        self.assertEqual(self.rewrite("\t@%p1 or.b64 %rd1, %rd2, 0x100000000U;"), "\t@%p1 or.b64 %rd1, %rd2, 0d0000000100000000;")
        self.assertEqual(self.rewrite("\tmov.u64 %rd1, 18446744073709551615;"), "\tmov.u64 %rd1, 0dFFFFFFFFFFFFFFFF;")

    def test_what_the_lexer_reads_right_is_left_alone(self):
        for line in ["\tmov.b64 %rd5, 2147483647;", "\tmov.b64 %rd5, -2147483648;", "\tmov.u32 %r81, -2128831035;",
                     "\tmul.wide.u32 %rd12, %r1, 32;", "\tld.global.u64 %rd3, [%rd2+8];", "\tmov.b64 %rd5, %rd4294967296;",
                     "\t.loc 1 4294967296 0", "\tadd.s64 %rd1, %rd2, 1; // 4294967296"]:
            self.assertEqual(self.rewrite(line), line)

    def test_a_literal_beyond_64_bits_is_refused(self):
        with self.assertRaises(SystemExit):
            self.rewrite("\tmov.u64 %rd1, 18446744073709551616;")



class ClockDomains(unittest.TestCase):
    CONFIG = "-gpgpu_num_int_units 1\n-gpgpu_clock_domains 700.0:700.0:700.0:924.0\n-power_simulation_enabled 1\n"

    def domains(self, sm, mem, l2_follows_sm):
        text, domains = peer.gpgpusim_config(self.CONFIG, sm, mem, False, l2_follows_sm)
        self.assertIn("-gpgpu_clock_domains " + ":".join(f"{x:.6g}" for x in domains) + "\n", text)
        self.assertIn("-power_simulation_enabled 0\n", text)
        return domains

    def test_an_l2_on_the_sm_clock_moves_with_the_sm_factor(self):
        self.assertEqual(self.domains(1.15, 1.0, True), [805.0, 805.0, 805.0, 924.0])
        self.assertEqual(self.domains(1.0, 1.15, True), [700.0, 700.0, 700.0, 1062.6])

    def test_an_l2_on_the_memory_clock_moves_with_the_memory_factor(self):
        self.assertEqual(self.domains(1.15, 1.0, False), [805.0, 700.0, 700.0, 924.0])
        self.assertEqual(self.domains(1.0, 1.15, False), [700.0, 805.0, 805.0, 1062.6])

    def test_the_nominal_clocks_are_the_same_either_way(self):
        self.assertEqual(self.domains(1.0, 1.0, True), self.domains(1.0, 1.0, False))


if __name__ == "__main__":
    unittest.main()
