#!/usr/bin/env python3
"""Check of peer.py's PTX preparation for GPGPU-Sim (no GPGPU-Sim needed): the integer literals its lexer would
read wrongly (outside a C int, in a 64-bit instruction) become 0d literals of the same 64 bits, and nothing else
changes."""

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


if __name__ == "__main__":
    unittest.main()
