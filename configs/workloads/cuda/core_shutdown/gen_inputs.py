#!/usr/bin/python3
"""Writes the core-shutdown suite's input graphs: a road-network-like graph for
SSSP (as LonestarGPU's USA road inputs: a grid with missing segments and short
highways).

Deterministic (numpy's PCG64 with fixed seeds; .npy through numpy.save).
Run from anywhere:  /usr/bin/python3 configs/workloads/cuda/core_shutdown/gen_inputs.py
"""
import os

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))


def save(folder, name, values, dtype=np.int32):
    np.save(os.path.join(HERE, folder, name + ".npy"), np.asarray(values, dtype=dtype).reshape(-1))


def csr(nodes, src, dst):
    """Row pointers and the order that sorts edges by (source, destination)."""
    order = np.lexsort((dst, src))
    row_ptr = np.zeros(nodes + 1, dtype=np.int64)
    np.add.at(row_ptr, src + 1, 1)
    return np.cumsum(row_ptr), order


def road_edges(rng, width, height, shortcut_fraction=0.03, reach=32):
    """A road-network-like graph: a width x height grid with edges both ways between
    neighbours, a few nodes missing edges, and short highways between nearby nodes."""
    ids = np.arange(width * height).reshape(height, width)
    right = np.stack([ids[:, :-1].ravel(), ids[:, 1:].ravel()], axis=1)
    down = np.stack([ids[:-1, :].ravel(), ids[1:, :].ravel()], axis=1)
    streets = np.concatenate([right, down])
    streets = streets[rng.uniform(size=len(streets)) >= 0.1]  # 10% of street segments missing
    starts = rng.choice(width * height, size=int(shortcut_fraction * width * height), replace=False)
    dx, dy = rng.integers(-reach, reach + 1, size=(2, len(starts)))
    ends = np.clip(starts // width + dy, 0, height - 1) * width + np.clip(starts % width + dx, 0, width - 1)
    undirected = np.concatenate([streets, np.stack([starts, ends], axis=1)])
    both = np.concatenate([undirected, undirected[:, ::-1]])
    both = both[both[:, 0] != both[:, 1]]
    return np.unique(both, axis=0)


def sssp_graph(width=192, height=128):
    rng = np.random.default_rng(210)
    pairs = road_edges(rng, width, height)
    row_ptr, order = csr(width * height, pairs[:, 0], pairs[:, 1])
    save("sssp", "row_ptr", row_ptr)
    save("sssp", "col", pairs[order, 1])
    return len(pairs)


if __name__ == "__main__":
    print("sssp edges", sssp_graph())
