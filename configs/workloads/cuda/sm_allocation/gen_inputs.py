#!/usr/bin/python3
"""Writes the SM-allocation suite's generated files: gups.json with each
thread's start in HPCC's random stream (gups/starts.npy), and hotspot.json
(Rodinia's chip constants for the grid, one launch per pyramid of time steps,
the temperature buffers ping-ponged). gen_paper.py reuses these functions.

Deterministic (integer arithmetic and IEEE float32/float64 operations only;
.npy through numpy.save). Run from anywhere:
/usr/bin/python3 configs/workloads/cuda/sm_allocation/gen_inputs.py
"""
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))  # workload_file.py, shared by the suites
import workload_file  # noqa: E402

# Each workload's paper scale (gen_paper.py): the program, then the cuts of README.md's "Paper scale".
PAPER_ARGS = {"gups": ["gups", "updates=16777216"], "hotspot": ["hotspot"]}

HPCC_POLY = np.uint64(0x7)  # HPCC RandomAccess: the stream multiplies by x modulo x^64 + x^2 + x + 1


def lfsr_step(values):
    """HPCC's next random value of each element (numpy uint64): (v << 1) ^ (v < 0 as signed ? 7 : 0)."""
    return (values << np.uint64(1)) ^ np.where(values >> np.uint64(63) == 1, HPCC_POLY, np.uint64(0))


def lfsr_times(values, power):
    """values * power in GF(2)[x] / (x^64 + x^2 + x + 1), power an int: the sum of values * x^j over its set bits."""
    product = np.zeros_like(values)
    for j in range(64):
        if (power >> j) & 1:
            product ^= values
        values = lfsr_step(values)
    return product


def hpcc_starts(threads, updates_per_thread):
    """HPCC_starts(thread * updates_per_thread) for every thread: x^n, the stream's value after n steps
    from 1. threads a power of two: the list doubles, its second half the first times x^(len * per)."""
    assert threads & (threads - 1) == 0
    starts = np.ones(1, np.uint64)
    jump = np.ones(1, np.uint64)
    for _ in range(updates_per_thread):
        jump = lfsr_step(jump)  # x^updates_per_thread
    while starts.size < threads:
        starts = np.concatenate([starts, lfsr_times(starts, int(jump[0]))])
        jump = lfsr_times(jump, int(jump[0]))  # x^(2 len * per)
    return starts


def write_workload(program, header, workload):
    """<program>/<program>.json: the comment HEADER (lines), its buffers and launches."""
    workload_file.write(HERE, program, workload_file.comment(header), PAPER_ARGS[program], workload["buffers"],
                        workload["launches"])


def gups_launch(threads, updates_per_thread, log_size, block=128):
    """One update launch: 128-thread CTAs (the HPCC CUDA port's update block); the
    feedback HPCC's POLY (a kernel parameter: gups.cu says why)."""
    return {"kernel": "gups_update", "grid": [threads // block], "block": [block],
            "args": ["table", "starts", updates_per_thread, log_size, int(HPCC_POLY)]}


def gups_buffers(log_size, threads):
    """The table as HPCC initialises it (word i holds i) and the threads' starts (from a file)."""
    return {"table": {"type": "u64", "count": 1 << log_size, "init": {"iota": {"start": 0, "step": 1}}},
            "starts": {"type": "u64", "count": threads, "init": {"file": "starts.npy"}}}


def gups_workload(log_size=19, threads=131072, updates_per_thread=8):
    np.save(os.path.join(HERE, "gups", "starts.npy"), hpcc_starts(threads, updates_per_thread))
    updates = threads * updates_per_thread
    header = [f"GUPS (HPCC RandomAccess): {updates} random xor updates ({updates >> log_size} x the table) of a",
              f"table of 2^{log_size} 64-bit words ({8 << log_size >> 20} MiB, word i starting as i); {threads} "
              "threads,",
              f"each {updates_per_thread} consecutive values of HPCC's stream from its start (starts.npy). "
              "Written by gen_inputs.py."]
    write_workload("gups", header, {"buffers": gups_buffers(log_size, threads),
                                    "launches": [gups_launch(threads, updates_per_thread, log_size)]})


# Rodinia hotspot's chip (hotspot.cu): 16 mm x 16 mm x 0.5 mm of silicon.
T_CHIP, CHIP_HEIGHT, CHIP_WIDTH = np.float32(0.0005), np.float32(0.016), np.float32(0.016)
MAX_PD, PRECISION, SPEC_HEAT_SI, K_SI, FACTOR_CHIP = 3.0e6, 0.001, 1.75e6, 100, 0.5


def hotspot_constants(rows, cols):
    """Cap, Rx, Ry, Rz and step as Rodinia's host computes them: float variables, double
    literals (so double arithmetic where one takes part), each result stored as float."""
    f32, f64 = np.float32, np.float64
    grid_height, grid_width = CHIP_HEIGHT / f32(rows), CHIP_WIDTH / f32(cols)
    cap = f32(FACTOR_CHIP * SPEC_HEAT_SI * f64(T_CHIP) * f64(grid_width) * f64(grid_height))
    rx = f32(f64(grid_width) / (2.0 * K_SI * f64(T_CHIP) * f64(grid_height)))
    ry = f32(f64(grid_height) / (2.0 * K_SI * f64(T_CHIP) * f64(grid_width)))
    rz = T_CHIP / (f32(K_SI) * grid_height * grid_width)  # int * float: float arithmetic
    max_slope = f32(MAX_PD / (FACTOR_CHIP * f64(T_CHIP) * SPEC_HEAT_SI))
    step = f32(PRECISION / f64(max_slope))
    return [float(v) for v in (cap, rx, ry, rz, step)]


def hotspot_power_max(rows, cols):
    """The most a cell dissipates: Rodinia's MAX_PD (W/m^2) over the cell's area."""
    return float("%.6g" % (MAX_PD * (0.016 / rows) * (0.016 / cols)))


def hotspot_launches(rows, cols, pyramid_height, iterations):
    """Rodinia's host loop: a launch per pyramid_height steps, temp0 -> temp1 -> temp0 ...
    (iterations a multiple of pyramid_height: Rodinia's last, shorter pyramid would
    tile the grid with the wrong kept size)."""
    assert iterations % pyramid_height == 0
    kept = 16 - 2 * pyramid_height
    grid = [-(-cols // kept), -(-rows // kept)]
    constants = hotspot_constants(rows, cols)
    launches = []
    for launch in range(iterations // pyramid_height):
        src, dst = ("temp0", "temp1") if launch % 2 == 0 else ("temp1", "temp0")
        launches.append({"kernel": "calculate_temp", "grid": grid, "block": [16, 16],
                         "args": [pyramid_height, "power", src, dst, cols, rows, pyramid_height, pyramid_height]
                         + constants})
    return launches


def hotspot_workload(size=512, pyramid_height=2, iterations=2):
    cells = size * size
    buffers = {"power": {"type": "f32", "count": cells,
                         "init": {"random": {"min": 0.0, "max": hotspot_power_max(size, size), "seed": 211}}},
               "temp0": {"type": "f32", "count": cells, "init": {"random": {"min": 323.0, "max": 343.0, "seed": 212}}},
               "temp1": {"type": "f32", "count": cells}}
    header = [f"HotSpot (Rodinia 3.1's run script: {size} {pyramid_height} {iterations}): {iterations} time steps "
              f"on a {size} x {size} chip grid,",
              f"a launch per pyramid of {pyramid_height} steps (temp0 -> temp1 -> ...); temperatures 323-343, "
              "power up to",
              "MAX_PD x the cell's area. The args after the borders: Cap, Rx, Ry, Rz, step. Written by gen_inputs.py."]
    write_workload("hotspot", header, {"buffers": buffers,
                                       "launches": hotspot_launches(size, size, pyramid_height, iterations)})


if __name__ == "__main__":
    gups_workload()
    hotspot_workload()
