#!/usr/bin/env python3
"""Writes the structured inputs of the CUDA suite (graphs, sparse matrices,
clustered points, landmarks) and the needleman_wunsch workload's launch list.

Deterministic: a fixed-seed generator of our own (so the files do not depend on
numpy's or Python's generator versions), .npy written by hand (format 1.0,
little-endian, C order, 1-D), so plain python3 is enough. Run from anywhere:
    python3 configs/workloads/cuda/gen_inputs.py
"""
import json
import math
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))


class Rng:
    """splitmix64: tiny, fixed forever."""

    def __init__(self, seed):
        self.state = seed & 0xFFFFFFFFFFFFFFFF

    def next_u64(self):
        self.state = (self.state + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
        return z ^ (z >> 31)

    def uniform(self):  # [0, 1)
        return (self.next_u64() >> 11) / float(1 << 53)

    def below(self, n):  # integer in [0, n)
        return self.next_u64() % n

    def gauss(self):
        u1 = 1.0 - self.uniform()
        return math.sqrt(-2.0 * math.log(u1)) * math.cos(2.0 * math.pi * self.uniform())


def write_npy(path, dtype, values):
    fmt = {"<i4": "i", "<u4": "I", "<f4": "f", "|u1": "B"}[dtype]
    header = "{'descr': '%s', 'fortran_order': False, 'shape': (%d,), }" % (dtype, len(values))
    # magic (6) + version (2) + length (2) + header + '\n' padded to a multiple of 64
    pad = 64 - (10 + len(header) + 1) % 64
    header = header + " " * (pad % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode("latin1"))
        f.write(struct.pack("<%d%s" % (len(values), fmt), *values))
    print("%-45s %8d bytes" % (os.path.relpath(path, HERE), os.path.getsize(path)))


def out(program, name):
    return os.path.join(HERE, program, name)


def bfs_graph():
    """Directed graph, 10240 nodes, 1-8 out-edges each: mostly to nearby node ids
    (long paths: many BFS levels), some anywhere (short cuts)."""
    rng, n = Rng(101), 10240
    row_ptr, col = [0], []
    for v in range(n):
        for _ in range(1 + rng.below(8)):
            if rng.uniform() < 0.9:
                u = (v + int(rng.below(161)) - 80) % n
            else:
                u = rng.below(n)
            col.append(u)
        row_ptr.append(len(col))
    write_npy(out("bfs", "row_ptr.npy"), "<i4", row_ptr)
    write_npy(out("bfs", "col.npy"), "<i4", col)


def kmeans_points():
    """8192 points in 4-D around 8 centres. Coordinates are multiples of 1/64 in
    [-8, 8], so any sum of up to 8192 of them is exact in float: the device's
    centroid sums cannot depend on summation order."""
    rng, n, k, dims = Rng(202), 8192, 8, 4
    centres = [[rng.uniform() * 10.0 - 5.0 for _ in range(dims)] for _ in range(k)]
    points = []
    for i in range(n):
        c = centres[rng.below(k)]
        for d in range(dims):
            v = c[d] + 1.2 * rng.gauss()
            points.append(max(-512, min(512, round(v * 64.0))) / 64.0)
    write_npy(out("kmeans", "points.npy"), "<f4", points)
    # Initial centroids: k points spread through the data set.
    first = []
    for c in range(k):
        i = c * (n // k)
        first.extend(points[i * dims:(i + 1) * dims])
    write_npy(out("kmeans", "centroids0.npy"), "<f4", first)


def spmv_matrix():
    """4096 x 4096 CSR, 0-20 non-zeros per row (a few rows up to 80, longer than
    a warp), column indices sorted, values supplied by the workload's random init."""
    rng, rows = Rng(303), 4096
    row_ptr, col = [0], []
    for r in range(rows):
        length = rng.below(21) if rng.uniform() < 0.97 else 40 + rng.below(41)
        cols = sorted(set((r + int(rng.below(1024)) - 512) % rows for _ in range(length)))
        col.extend(cols)
        row_ptr.append(len(col))
    write_npy(out("spmv_csr", "row_ptr.npy"), "<i4", row_ptr)
    write_npy(out("spmv_csr", "col.npy"), "<i4", col)
    return len(col)


def particle_landmarks():
    """16 landmarks in a 100 x 100 map and noisy ranges measured from (37, 62)."""
    rng, count = Rng(404), 16
    landmarks, ranges = [], []
    for _ in range(count):
        x, y = rng.uniform() * 100.0, rng.uniform() * 100.0
        landmarks += [x, y]
        ranges.append(math.hypot(x - 37.0, y - 62.0) + 0.8 * rng.gauss())
    write_npy(out("particle_filter", "landmarks.npy"), "<f4", landmarks)
    write_npy(out("particle_filter", "ranges.npy"), "<f4", ranges)


def needleman_wunsch_workload():
    """The launch list: nw_init, then one nw_tiles launch per tile anti-diagonal."""
    n, tile, match, mismatch, gap = 1024, 32, 2, -1, 2
    tiles = n // tile
    launches = [{"kernel": "nw_init", "grid": [(n + 1 + 255) // 256], "block": [256], "args": ["score", n, gap]}]
    for d in range(2 * tiles - 1):
        on_diagonal = min(d, tiles - 1) - max(0, d - (tiles - 1)) + 1
        launches.append({"kernel": "nw_tiles", "grid": [on_diagonal], "block": [tile],
                         "args": ["score", "seq_a", "seq_b", n, d, match, mismatch, gap]})
    workload = {
        "name": "needleman_wunsch",
        "program": "needleman_wunsch.cu",
        "buffers": {
            "score": {"type": "s32", "count": (n + 1) * (n + 1)},
            "seq_a": {"type": "u8", "count": n, "init": {"random": {"min": 0, "max": 3, "seed": 41}}},
            "seq_b": {"type": "u8", "count": n, "init": {"random": {"min": 0, "max": 3, "seed": 42}}},
        },
        "launches": launches,
    }
    path = out("needleman_wunsch", "needleman_wunsch.json")
    with open(path, "w") as f:
        f.write("// Generated by configs/workloads/cuda/gen_inputs.py (needleman_wunsch_workload).\n")
        f.write("// n = %d, 32x32 tiles: launch 1+d computes tile anti-diagonal d.\n" % n)
        f.write("{\n")
        f.write('  "name": "needleman_wunsch",\n  "program": "needleman_wunsch.cu",\n  "buffers": {\n')
        items = list(workload["buffers"].items())
        for i, (name, spec) in enumerate(items):
            f.write("    %s: %s%s\n" % (json.dumps(name), json.dumps(spec), "," if i + 1 < len(items) else ""))
        f.write("  },\n  \"launches\": [\n")
        for i, launch in enumerate(launches):
            f.write("    %s%s\n" % (json.dumps(launch), "," if i + 1 < len(launches) else ""))
        f.write("  ]\n}\n")
    print("%-45s %8d bytes" % (os.path.relpath(path, HERE), os.path.getsize(path)))


if __name__ == "__main__":
    bfs_graph()
    kmeans_points()
    print("spmv_csr non-zeros:", spmv_matrix())
    particle_landmarks()
    needleman_wunsch_workload()
