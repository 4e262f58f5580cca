#!/usr/bin/python3
"""Paper-scale inputs of the SM-allocation suite's own programs (GUPS and
Rodinia hotspot; the suite's other programs are the Harmonia and Equalizer
suites'), generated on demand (`gpupm run --scale paper`; the protocol is
../paper_scale.py and ../README.md, "Scales"). Each program's function takes
the original's input as keyword defaults; the workload's "args" hold the cuts
the time budget forces, and README.md beside this file says per program what
the original ran, what we run and why. Draws come from paper_scale.Rng; the
rest is integer arithmetic and float32/float64 operations (the same bytes on
every machine).
By hand: /usr/bin/python3 gen_paper.py OUT_DIR PROGRAM [NAME=VALUE ...]
"""

import numpy as np

from gen_inputs import gups_buffers, gups_launch, hotspot_launches, hotspot_power_max, hpcc_starts
from paper_scale import Rng, main


def gups(out, log_size=25, updates=4 << 25, threads=262144):
    """HPCC RandomAccess as its CUDA port sizes it: a table of half its 512 MB
    memory budget (2^25 words, 256 MB) and HPCC's 4 x table size updates; our
    262,144 threads in 128-thread CTAs (4 waves on 60 SMs; the port runs 128
    threads), each a contiguous piece of the stream."""
    assert updates % threads == 0
    per_thread = updates // threads
    out.buffers.update(gups_buffers(log_size, threads))
    out.save("gups", "starts", hpcc_starts(threads, per_thread))
    out.launches.append(gups_launch(threads, per_thread, log_size))
    out.facts.update(log_size=log_size, updates=updates, threads=threads)
    out.write("HPCC RandomAccess: %d xor updates of a 2^%d-word table by %d threads" % (updates, log_size, threads))


def hotspot(out, size=1024, pyramid_height=2, iterations=2, seed=213):
    """Rodinia 3.1 hotspot on its largest standard input, temp_1024 / power_1024
    (a 1024 x 1024 chip grid), with the run script's pyramid height 2 and 2 time
    steps; the data are generated (temperatures 323-343, power up to MAX_PD x
    the cell's area), not Rodinia's files."""
    rng = Rng(seed)
    cells = size * size
    out.array("temp0", "f32", rng.uniform(323.0, 343.0, cells))
    out.array("power", "f32", rng.uniform(0.0, hotspot_power_max(size, size), cells))
    out.buffer("temp1", "f32", cells)
    out.launches.extend(hotspot_launches(size, size, pyramid_height, iterations))
    out.facts.update(grid="%dx%d" % (size, size), pyramid_height=pyramid_height, iterations=iterations)
    out.write("Rodinia hotspot: %d time steps on a %d x %d grid, pyramids of %d" % (iterations, size, size,
                                                                                pyramid_height))


PROGRAMS = {"gups": gups, "hotspot": hotspot}

if __name__ == "__main__":
    main(PROGRAMS)
