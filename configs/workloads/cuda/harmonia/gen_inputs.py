#!/usr/bin/python3
"""Writes the Harmonia suite's generated files: the launch lists of sort.json
(8 radix passes x 3 kernels), lud.json (one diagonal/perimeter/internal
triple per block step), srad.json (five launches per iteration), bpt.json (a build launch per tree level, then the
query batches), LUD's diagonally dominant matrix, and XSBench's materials (nuclide lists,
concentrations, the material distribution).

Deterministic (numpy's PCG64 with fixed seeds; .npy through numpy.save).
Run from anywhere:  /usr/bin/python3 configs/workloads/cuda/harmonia/gen_inputs.py
"""
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))  # workload_file.py, shared by the suites
import workload_file  # noqa: E402

# Each workload's paper scale (gen_paper.py): the program, then the cuts of README.md's "Paper scale".
PAPER_ARGS = {"sort": ["sort"], "lud": ["lud"], "srad": ["srad"], "bpt": ["bpt"], "graph500": ["graph500"],
              "comd": ["comd", "steps=60"], "minife": ["minife", "iterations=20"]}


def write_workload(program, header, workload):
    """<program>/<program>.json: the comment HEADER (lines), its buffers and launches."""
    workload_file.write(HERE, program, workload_file.comment(header), PAPER_ARGS[program], workload["buffers"],
                        workload["launches"])


def sort_workload(keys=65536, tile=1024, passes=8):
    tiles = keys // tile
    launches = []
    for p in range(passes):
        src, dst = ("keys", "scratch") if p % 2 == 0 else ("scratch", "keys")
        launches += [
            {"kernel": "radix_count", "grid": [tiles], "block": [256], "args": [src, "counts", 4 * p]},
            {"kernel": "radix_scan", "grid": [1], "block": [256], "args": ["counts", 16 * tiles]},
            {"kernel": "radix_scatter", "grid": [tiles], "block": [256], "args": [src, dst, "counts", 4 * p]},
        ]
    buffers = {
        "keys": {"type": "u32", "count": keys, "init": {"random": {"min": 0, "max": 4294967295, "seed": 183}}},
        "scratch": {"type": "u32", "count": keys},
        "counts": {"type": "u32", "count": 16 * tiles},
    }
    header = [f"Sort: radix sort of {keys} random 32-bit keys, {passes} passes of 4 bits (keys -> scratch -> keys),",
              "each pass count / scan / scatter. Written by gen_inputs.py."]
    write_workload("sort", header, {"name": "sort", "program": "sort.cu", "buffers": buffers, "launches": launches})


def lud_workload(n=256, block=16):
    rng = np.random.default_rng(184)
    matrix = rng.uniform(-1.0, 1.0, size=(n, n)).astype(np.float32)
    matrix[np.arange(n), np.arange(n)] += np.float32(n)  # diagonally dominant: no pivoting needed
    np.save(os.path.join(HERE, "lud", "matrix.npy"), matrix.reshape(-1))
    launches = []
    for offset in range(0, n - block, block):
        rest = (n - offset) // block - 1
        launches += [
            {"kernel": "lud_diagonal", "grid": [1], "block": [block], "args": ["a", n, offset]},
            {"kernel": "lud_perimeter", "grid": [rest], "block": [2 * block], "args": ["a", n, offset]},
            {"kernel": "lud_internal", "grid": [rest, rest], "block": [block, block], "args": ["a", n, offset]},
        ]
    launches.append({"kernel": "lud_diagonal", "grid": [1], "block": [block], "args": ["a", n, n - block]})
    buffers = {"a": {"type": "f32", "count": n * n, "init": {"file": "matrix.npy"}}}
    header = [f"LUD: blocked LU of a {n} x {n} diagonally dominant matrix, {block} x {block} blocks:",
              "diagonal / perimeter / internal per block step, a last diagonal. Written by gen_inputs.py."]
    write_workload("lud", header, {"name": "lud", "program": "lud.cu", "buffers": buffers, "launches": launches})


def srad_workload(rows=256, cols=384, iterations=6, reduce_threads=256):
    pixels = rows * cols
    grid = [(pixels + 255) // 256]
    partials = (pixels + 2 * reduce_threads - 1) // (2 * reduce_threads)
    step = [
        {"kernel": "srad_prepare", "grid": grid, "block": [256], "args": ["image", "sums", "squares", pixels]},
        {"kernel": "srad_reduce", "grid": [partials], "block": [reduce_threads], "args": ["sums", "squares", pixels]},
        {"kernel": "srad_reduce", "grid": [1], "block": [reduce_threads], "args": ["sums", "squares", partials]},
        {"kernel": "srad_coeff", "grid": grid, "block": [256],
         "args": ["image", "sums", "squares", "dn", "ds", "dw", "de", "c", rows, cols]},
        {"kernel": "srad_update", "grid": grid, "block": [256],
         "args": ["image", "dn", "ds", "dw", "de", "c", rows, cols, 0.5]},
    ]
    assert partials <= 2 * reduce_threads  # the second reduce finishes in one block
    buffers = {"image": {"type": "f32", "count": pixels, "init": {"random": {"min": 0.5, "max": 1.5, "seed": 201}}}}
    buffers.update({name: {"type": "f32", "count": pixels} for name in ["sums", "squares", "dn", "ds", "dw", "de", "c"]})
    header = [f"SRAD: {iterations} iterations of speckle-reducing diffusion on a {rows} x {cols} image",
              "(lambda 0.5), five launches each. Written by gen_inputs.py."]
    write_workload("srad", header, {"name": "srad", "program": "srad.cu", "buffers": buffers,
                                    "launches": step * iterations})


def bpt_workload(records=262144, order=64, batches=5, batch=6144):
    """A complete tree of height 3 over `records` keys: root, records / order^2 inner nodes, leaves."""
    leaves = records // order
    inner = leaves // order
    slots = order + 1
    levels = [(0, 1, 1, records // order), (1, inner, 1 + inner, order), (1 + inner, leaves, 0, 1)]
    launches = [{"kernel": "bpt_build", "grid": [(nodes * slots + 255) // 256], "block": [256],
                 "args": ["keys", "children", "gaps", first, nodes, child_first, per_child]}
                for first, nodes, child_first, per_child in levels]
    launches += [{"kernel": "bpt_find_k", "grid": [batch], "block": [order],
                  "args": ["keys", "children", "records", "queries", "answers", len(levels), b * batch]}
                 for b in range(batches)]
    nodes = (1 + inner + leaves) * slots
    buffers = {
        "gaps": {"type": "s32", "count": records, "init": {"random": {"min": 0, "max": 3, "seed": 188}}},
        "records": {"type": "s32", "count": records, "init": {"random": {"min": 0, "max": 1000000000, "seed": 189}}},
        "keys": {"type": "s32", "count": nodes},
        "children": {"type": "s32", "count": nodes},
        "queries": {"type": "s32", "count": batches * batch,
                    "init": {"random": {"min": 0, "max": 4 * records - 1, "seed": 190}}},
        "answers": {"type": "s32", "count": batches * batch},
    }
    header = [f"B+tree: {records} records (keys 4 i + gap, gap random 0-3), order {order}, height 3: a build",
              f"launch per level, then findK over {batches} batches of {batch} random queries (about a quarter hit).",
              "Written by gen_inputs.py."]
    write_workload("bpt", header, {"name": "bpt", "program": "bpt.cu", "buffers": buffers, "launches": launches})


def kronecker_graph(rng, scale, edge_factor, probabilities=(0.57, 0.19, 0.19, 0.05)):
    """Graph500's generator: R-MAT edges, ids permuted, undirected, no self loops or duplicates."""
    edges = edge_factor << scale
    src = np.zeros(edges, dtype=np.int64)
    dst = np.zeros(edges, dtype=np.int64)
    for _ in range(scale):
        quadrant = rng.choice(4, size=edges, p=probabilities)
        src = src * 2 + (quadrant >= 2)
        dst = dst * 2 + (quadrant % 2)
    permutation = rng.permutation(1 << scale)
    pairs = np.stack([permutation[src], permutation[dst]], axis=1)
    pairs = pairs[pairs[:, 0] != pairs[:, 1]]
    pairs = np.unique(np.concatenate([pairs, pairs[:, ::-1]]), axis=0)  # both directions, sorted by source
    row_ptr = np.zeros((1 << scale) + 1, dtype=np.int64)
    np.add.at(row_ptr, pairs[:, 0] + 1, 1)
    return np.cumsum(row_ptr), pairs[:, 1]


def beamer_directions(row_ptr, col, root, alpha=14, beta=24):
    """Per BFS step, True for bottom-up: switch when the frontier's edges exceed the unexplored
    edges / alpha, back when the frontier shrinks below n / beta (Beamer et al. 2012)."""
    n = len(row_ptr) - 1
    degree = np.diff(row_ptr)
    level = np.full(n, -1)
    level[root] = 0
    frontier, current, bottom_up, steps = np.array([root]), 0, False, []
    unexplored = degree.sum() - degree[root]
    while len(frontier):
        frontier_edges = degree[frontier].sum()
        if not bottom_up and frontier_edges > unexplored / alpha:
            bottom_up = True
        elif bottom_up and len(frontier) < n / beta:
            bottom_up = False
        steps.append(bottom_up)
        neighbours = np.unique(np.concatenate([col[row_ptr[v]:row_ptr[v + 1]] for v in frontier]))
        frontier = neighbours[level[neighbours] < 0]
        level[frontier] = current + 1
        unexplored -= degree[frontier].sum()
        current += 1
    return steps  # the last step finds nothing, as the host loop's last


def graph500_workload(scale=14, edge_factor=4, roots=4):
    rng = np.random.default_rng(202)
    row_ptr, col = kronecker_graph(rng, scale, edge_factor)
    np.save(os.path.join(HERE, "graph500", "row_ptr.npy"), row_ptr.astype(np.int32))
    np.save(os.path.join(HERE, "graph500", "col.npy"), col.astype(np.int32))
    n = 1 << scale
    degree = np.diff(row_ptr)
    candidates = np.flatnonzero(degree > 0)
    grid = [(n + 127) // 128]
    launches = []
    for root in rng.choice(candidates, size=roots, replace=False):
        launches.append({"kernel": "bfs_init", "grid": grid, "block": [128], "args": ["level", n, int(root)]})
        for step, bottom_up in enumerate(beamer_directions(row_ptr, col, int(root))):
            launches.append({"kernel": "bfs_bottom_up" if bottom_up else "bfs_top_down", "grid": grid,
                             "block": [128], "args": ["row_ptr", "col", "level", n, step]})
    buffers = {
        "row_ptr": {"type": "s32", "count": n + 1, "init": {"file": "row_ptr.npy"}},
        "col": {"type": "s32", "count": len(col), "init": {"file": "col.npy"}},
        "level": {"type": "s32", "count": n},
    }
    header = [f"Graph500: direction-optimizing BFS from {roots} roots of a scale-{scale} Kronecker graph",
              f"(edge factor {edge_factor}, {len(col)} directed entries); the level buffer holds the last root's.",
              "Written by gen_inputs.py."]
    write_workload("graph500", header, {"name": "graph500", "program": "graph500.cu", "buffers": buffers,
                                        "launches": launches})


def comd_workload(cells_per_side=12, steps=5, dt=0.002, cutoff=1.5):
    """FCC lattice at the Lennard-Jones minimum (nearest neighbours 2^(1/6)), atoms jiggled by 2%."""
    rng = np.random.default_rng(203)
    lattice = 2 ** (1 / 6) * np.sqrt(2)
    basis = np.array([[0, 0, 0], [0.5, 0.5, 0], [0.5, 0, 0.5], [0, 0.5, 0.5]])
    z, y, x = np.meshgrid(*[np.arange(cells_per_side)] * 3, indexing="ij")
    corners = np.stack([x.ravel(), y.ravel(), z.ravel()], axis=1)  # cell index = (z * side + y) * side + x
    atoms = ((corners[:, None, :] + basis[None, :, :]) * lattice).reshape(-1, 3)
    atoms += rng.uniform(-0.02, 0.02, atoms.shape) * lattice
    np.save(os.path.join(HERE, "comd", "positions.npy"), atoms.T.astype(np.float32).reshape(-1))
    n = len(atoms)
    box = float(np.float32(cells_per_side * lattice))
    grid, block = [(n + 127) // 128], [128]
    components = [(3 * n + 127) // 128]
    force = {"kernel": "comd_force", "grid": grid, "block": block,
             "args": ["pos", "force", "energy", cells_per_side, box, cutoff * cutoff]}
    half_kick = {"kernel": "comd_advance_velocity", "grid": components, "block": block,
                 "args": ["vel", "force", 3 * n, dt / 2]}
    drift = {"kernel": "comd_advance_position", "grid": components, "block": block, "args": ["pos", "vel", 3 * n, dt]}
    buffers = {
        "pos": {"type": "f32", "count": 3 * n, "init": {"file": "positions.npy"}},
        "vel": {"type": "f32", "count": 3 * n, "init": {"random": {"min": -0.5, "max": 0.5, "seed": 204}}},
        "force": {"type": "f32", "count": 3 * n},
        "energy": {"type": "f32", "count": n},
    }
    header = [f"CoMD: {steps} velocity-Verlet steps (dt {dt}) of {n} Lennard-Jones atoms, FCC, {cells_per_side}^3 cells,",
              f"cutoff {cutoff}: an initial force, then half kick / drift / force / half kick. Written by gen_inputs.py."]
    write_workload("comd", header, {"name": "comd", "program": "comd.cu", "buffers": buffers,
                                    "launches": [force] + [half_kick, drift, force, half_kick] * steps})


def minife_workload(side=24, iterations=15, dot_threads=256):
    rows = side ** 3
    grid, block = [(rows + 127) // 128], [128]
    partials = (rows + 2 * dot_threads - 1) // (2 * dot_threads)
    pap = iterations + 1  # dots: r.r of iterations 0..iterations, then p.Ap of each iteration

    def dot(a, b, slot):
        return [{"kernel": "cg_dot_partial", "grid": [partials], "block": [dot_threads], "args": [a, b, "partials", rows]},
                {"kernel": "cg_dot_final", "grid": [1], "block": [dot_threads], "args": ["partials", "dots", partials, slot]}]

    launches = [{"kernel": "minife_assemble", "grid": grid, "block": block, "args": ["cols", "values", side]}]
    launches += dot("r", "r", 0)
    for k in range(iterations):
        launches.append({"kernel": "cg_update_p", "grid": grid, "block": block,
                         "args": ["p", "r", "dots", rows, k, k - 1]})
        launches.append({"kernel": "cg_matvec", "grid": grid, "block": block, "args": ["ap", "cols", "values", "p", rows]})
        launches += dot("p", "ap", pap + k)
        launches.append({"kernel": "cg_update_xr", "grid": grid, "block": block,
                         "args": ["x", "r", "p", "ap", "dots", rows, k, pap + k]})
        launches += dot("r", "r", k + 1)
    buffers = {
        "cols": {"type": "s32", "count": 27 * rows},
        "values": {"type": "f32", "count": 27 * rows},
        "r": {"type": "f32", "count": rows, "init": {"random": {"min": 0.0, "max": 1.0, "seed": 205}}},
        "x": {"type": "f32", "count": rows},
        "p": {"type": "f32", "count": rows},
        "ap": {"type": "f32", "count": rows},
        "partials": {"type": "f32", "count": partials},
        "dots": {"type": "f32", "count": 2 * iterations + 1},
    }
    header = [f"miniFE: {iterations} CG iterations on the 27-point operator of a {side}^3 node mesh, x0 = 0,",
              "r0 = b random in [0, 1); assembly, then 7 launches per iteration. Written by gen_inputs.py."]
    write_workload("minife", header, {"name": "minife", "program": "minife.cu", "buffers": buffers,
                                      "launches": launches})


def xsbench_materials(nuclides=68):
    """12 materials (fuel first, the most nuclides), each a distinct random set of nuclides."""
    rng = np.random.default_rng(185)
    counts = [34, 5, 4, 4, 27, 21, 21, 21, 21, 21, 9, 9]
    probability = np.array([0.140, 0.052, 0.275, 0.134, 0.154, 0.064, 0.066, 0.055, 0.008, 0.015, 0.025, 0.013])
    members = [np.sort(rng.choice(nuclides, size=c, replace=False)) for c in counts]
    folder = os.path.join(HERE, "xsbench")
    np.save(os.path.join(folder, "mat_offsets.npy"), np.concatenate([[0], np.cumsum(counts)]).astype(np.int32))
    np.save(os.path.join(folder, "mat_nuclides.npy"), np.concatenate(members).astype(np.int32))
    np.save(os.path.join(folder, "mat_conc.npy"), rng.uniform(0.0, 1.0, sum(counts)).astype(np.float32))
    np.save(os.path.join(folder, "mat_cdf.npy"), (np.cumsum(probability) / probability.sum()).astype(np.float32))


if __name__ == "__main__":
    sort_workload()
    lud_workload()
    xsbench_materials()
    bpt_workload()
    srad_workload()
    graph500_workload()
    comd_workload()
    minife_workload()
