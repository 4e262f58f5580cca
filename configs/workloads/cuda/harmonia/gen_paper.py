#!/usr/bin/python3
"""Paper-scale inputs of the Harmonia suite (the SM-allocation suite shares
lud, srad, maxflops and device_memory), generated on demand (`gpupm run
--scale paper`; the protocol is ../paper_scale.py and ../README.md, "Scales").
Each program's function takes the original's input as keyword defaults; the
workload's "args" hold the cuts the time budget forces, and README.md beside
this file says per program what the original ran, what we run and why.
Draws come from paper_scale.Rng (the same bytes on every machine).
By hand: /usr/bin/python3 gen_paper.py OUT_DIR PROGRAM [NAME=VALUE ...]
"""

import numpy as np

from gen_inputs import beamer_directions
from paper_scale import Rng, blocks, main, random_init

LJ_FCC_LATTICE = 1.5874010519681994  # 2^(1/6) sqrt(2) = 2^(2/3): FCC at the Lennard-Jones minimum, as a literal


def maxflops(out, threads=524288, passes=10):
    """SHOC MaxFlops `-s 1`: a 2 MB buffer (524,288 floats, a thread each), 10
    passes; each pass launches MAdd and MulMAdd (two of SHOC's kernel families)."""
    out.buffer("data", "f32", threads, random_init(-1.0, 1.0, 181))
    grid = [blocks(threads, 128)]
    out.launch("madd", grid, [128], ["data", 96, 0.999, 0.0005], repeat=passes)
    out.launch("mul_madd", grid, [128], ["data", 64, 0.9995, 0.0005], repeat=passes)
    out.facts.update(threads=threads, passes=passes)
    out.write("SHOC MaxFlops: %d threads of 8 FMA chains, MAdd then MulMAdd, %d passes each" % (threads, passes))


def device_memory(out, megabytes=64, threads=32768, passes=10):
    """SHOC DeviceMemory: a 64 MB buffer read and written coalesced by a global
    work size of 32,768 (blocks of 256), 10 passes of each test."""
    words = megabytes << 18
    out.buffer("data", "f32", words, random_init(0.0, 1.0, 182))
    out.buffer("sums", "f32", threads)
    grid = [blocks(threads, 256)]
    out.launch("read_coalesced", grid, [256], ["data", "sums", words], repeat=passes)
    out.launch("write_coalesced", grid, [256], ["data", words, 2.0], repeat=passes)
    out.facts.update(words=words, threads=threads, passes=passes)
    out.write("SHOC DeviceMemory: %d MB read then written coalesced by %d threads, %d passes each"
              % (megabytes, threads, passes))


def sort(out, keys=262144, passes=10, tile=1024):
    """SHOC Sort `-s 1`: 1 MB of random 32-bit keys (262,144), 4-bit radix (8
    count/scan/scatter rounds a sort), 10 passes; each pass sorts its own
    random array (SHOC copies fresh keys in before each)."""
    tiles = keys // tile
    out.buffer("scratch", "u32", keys)
    out.buffer("counts", "u32", 16 * tiles)
    for p in range(passes):
        name = "keys%d" % p
        out.buffer(name, "u32", keys, random_init(0, 4294967295, 1830 + p))
        for r in range(8):
            src, dst = (name, "scratch") if r % 2 == 0 else ("scratch", name)
            out.launch("radix_count", [tiles], [256], [src, "counts", 4 * r])
            out.launch("radix_scan", [1], [256], ["counts", 16 * tiles])
            out.launch("radix_scatter", [tiles], [256], [src, dst, "counts", 4 * r])
    out.facts.update(keys=keys, passes=passes)
    out.write("SHOC Sort: %d passes, each a radix sort of %d random 32-bit keys (8 rounds of 4 bits)"
              % (passes, keys))


def lud(out, n=1024, block=16, seed=184):
    """Rodinia LUD as its OpenCL run (`-s 1024`; Harmonia ran OpenCL on the
    HD7970): a 1024 x 1024 matrix, uniform in [-1, 1) plus n on the diagonal
    (no pivoting needed; Rodinia's generated input is uniform in [0, 1)), 16 x 16 blocks."""
    matrix = Rng(seed).uniform(-1.0, 1.0, (n, n)).astype(np.float32)
    matrix[np.arange(n), np.arange(n)] += np.float32(n)
    out.array("a", "f32", matrix)
    for offset in range(0, n - block, block):
        rest = (n - offset) // block - 1
        out.launch("lud_diagonal", [1], [block], ["a", n, offset])
        out.launch("lud_perimeter", [rest], [2 * block], ["a", n, offset])
        out.launch("lud_internal", [rest, rest], [block, block], ["a", n, offset])
    out.launch("lud_diagonal", [1], [block], ["a", n, n - block])
    out.facts.update(n=n, block_steps=n // block)
    out.write("Rodinia LUD: blocked LU of a %d x %d diagonally dominant matrix, %d block steps" % (n, n, n // block))


def xsbench_materials(rng, nuclides):
    """XSBench's 12 materials (fuel first, 34 nuclides of the small problem's 68,
    then as gen_inputs.xsbench_materials), each a distinct random set of nuclides."""
    counts = [34, 5, 4, 4, 27, 21, 21, 21, 21, 21, 9, 9]
    probability = np.array([0.140, 0.052, 0.275, 0.134, 0.154, 0.064, 0.066, 0.055, 0.008, 0.015, 0.025, 0.013])
    members = [np.sort(np.argsort(rng.random(nuclides), kind="stable")[:c]) for c in counts]
    return (np.concatenate([[0], np.cumsum(counts)]), np.concatenate(members), rng.uniform(0.0, 1.0, sum(counts)),
            np.cumsum(probability) / probability.sum())


def xsbench(out, nuclides=68, points=11303, lookups=50000, iterations=2, seed=185):
    """XSBench small (68 nuclides, 11,303 energy points each) as the GPU port's
    `small` run (50,000 lookups; UNCONFIRMED whether per kernel), a lookup
    kernel per iteration: Harmonia's XSBench has 2."""
    offsets, members, conc, cdf = xsbench_materials(Rng(seed), nuclides)
    total = nuclides * points
    out.buffer("jitter", "f32", total, random_init(0.0, 0.999, 186))
    out.buffer("energy", "f32", total)
    out.buffer("xs", "f32", 5 * total, random_init(0.0, 1.0, 187))
    out.array("mat_offsets", "s32", offsets)
    out.array("mat_nuclides", "s32", members)
    out.array("mat_conc", "f32", conc)
    out.array("mat_cdf", "f32", cdf)
    out.buffer("macro_xs", "f32", 5 * lookups)
    out.launch("xs_grid_init", [blocks(total, 256)], [256], ["energy", "jitter", points, total])
    for it in range(iterations):
        out.launch("xs_lookup", [blocks(lookups, 128)], [128], ["macro_xs", "energy", "xs", "mat_offsets",
                                                               "mat_nuclides", "mat_conc", "mat_cdf", points,
                                                               lookups, it + 1])
    out.facts.update(nuclides=nuclides, points=points, lookups=lookups, iterations=iterations)
    out.write("XSBench small: %d nuclides x %d energy points, 12 materials, %d lookup kernels of %d lookups"
              % (nuclides, points, iterations, lookups))


def bpt(out, order=64, height=4, root_children=4, batches=5, batch=10000, seed=188):
    """Rodinia b+tree on mil.txt's size (about 1 M keys; 4 x 64^3 = 1,048,576
    here: a complete tree of order 64 under a root of 4 children, since bpt.cu's
    order is 64, Rodinia's 256) and command.txt's findK of 10,000 queries, in 5
    batches (Harmonia needs the kernel repeated; Rodinia runs it once). Record
    keys 4 i + gap, gaps random 0-3 (the ci input's)."""
    records = root_children * order ** (height - 1)
    slots = order + 1
    nodes = [root_children * order ** (d - 1) if d else 1 for d in range(height)]  # per level, root first
    first = np.concatenate([[0], np.cumsum(nodes)])
    gaps = Rng(seed).integers(0, 4, records)
    out.array("gaps", "s32", gaps)
    # The root (written here: bpt_build fills whole nodes) has 4 children, its other slots sentinels.
    keys, children = np.zeros(int(first[-1]) * slots, np.int64), np.zeros(int(first[-1]) * slots, np.int64)
    child = np.arange(root_children)
    keys[:slots], children[:slots] = 0x7FFFFFFF, -1
    keys[child] = 4 * child * (records // root_children) + gaps[child * (records // root_children)]
    children[child] = 1 + child
    out.array("keys", "s32", keys)
    out.array("children", "s32", children)
    out.buffer("records", "s32", records, random_init(0, 1000000000, 189))
    out.buffer("queries", "s32", batches * batch, random_init(0, 4 * records - 1, 190))
    out.buffer("answers", "s32", batches * batch)
    for level in range(1, height):  # leaves last: their children are record indices
        child_first = int(first[level + 1]) if level + 1 < height else 0
        out.launch("bpt_build", [blocks(nodes[level] * slots, 256)], [256],
                   ["keys", "children", "gaps", int(first[level]), nodes[level], child_first,
                    records // (nodes[level] * order)])
    for b in range(batches):
        out.launch("bpt_find_k", [batch], [order],
                   ["keys", "children", "records", "queries", "answers", height, b * batch])
    out.facts.update(records=records, order=order, height=height, queries=batches * batch)
    out.write("Rodinia b+tree: %d records, order %d, height %d; findK over %d batches of %d random queries"
              % (records, order, height, batches, batch))


def srad(out, rows=502, cols=458, iterations=100, reduce_threads=256):
    """Rodinia srad_v1 `100 0.5 502 458`: 100 iterations on a 502 x 458 image, lambda 0.5."""
    pixels = rows * cols
    grid = [blocks(pixels, 256)]
    partials = blocks(pixels, 2 * reduce_threads)
    assert partials <= 2 * reduce_threads  # the second reduce finishes in one block
    out.buffer("image", "f32", pixels, random_init(0.5, 1.5, 201))
    for name in ("sums", "squares", "dn", "ds", "dw", "de", "c"):
        out.buffer(name, "f32", pixels)
    for _ in range(iterations):
        out.launch("srad_prepare", grid, [256], ["image", "sums", "squares", pixels])
        out.launch("srad_reduce", [partials], [reduce_threads], ["sums", "squares", pixels])
        out.launch("srad_reduce", [1], [reduce_threads], ["sums", "squares", partials])
        out.launch("srad_coeff", grid, [256], ["image", "sums", "squares", "dn", "ds", "dw", "de", "c", rows, cols])
        out.launch("srad_update", grid, [256], ["image", "dn", "ds", "dw", "de", "c", rows, cols, 0.5])
    out.facts.update(image="%dx%d" % (rows, cols), iterations=iterations)
    out.write("Rodinia SRAD v1: %d iterations on a %d x %d image, lambda 0.5" % (iterations, rows, cols))


def kronecker_graph(rng, scale, edge_factor):
    """Graph500's generator (A, B, C, D = .57, .19, .19, .05): R-MAT edges, ids
    permuted, undirected, no self loops or duplicates; CSR."""
    edges = edge_factor << scale
    src, dst = np.zeros(edges, np.int64), np.zeros(edges, np.int64)
    for _ in range(scale):
        u = rng.random(edges)
        quadrant = (u >= 0.57).astype(np.int64) + (u >= 0.76) + (u >= 0.95)
        src = src * 2 + (quadrant >= 2)
        dst = dst * 2 + (quadrant % 2)
    permutation = np.argsort(rng.random(1 << scale), kind="stable")
    pairs = np.stack([permutation[src], permutation[dst]], axis=1)
    pairs = pairs[pairs[:, 0] != pairs[:, 1]]
    pairs = np.unique(np.concatenate([pairs, pairs[:, ::-1]]), axis=0)
    row_ptr = np.concatenate([[0], np.cumsum(np.bincount(pairs[:, 0], minlength=1 << scale))])
    return row_ptr, pairs[:, 1]


def graph500(out, scale=14, edge_factor=16, roots=64, seed=202):
    """Graph500 2.1.4's defaults: SCALE 14, edge factor 16, 64 BFS roots (nodes
    with an edge), each search's steps top-down or bottom-up as Beamer's
    heuristic picks on this graph."""
    rng = Rng(seed)
    row_ptr, col = kronecker_graph(rng, scale, edge_factor)
    n = 1 << scale
    out.array("row_ptr", "s32", row_ptr)
    out.array("col", "s32", col)
    out.buffer("level", "s32", n)
    candidates = np.flatnonzero(np.diff(row_ptr) > 0)
    chosen = candidates[np.argsort(rng.random(candidates.size), kind="stable")[:roots]]
    grid, steps = [blocks(n, 128)], 0
    for root in chosen:
        out.launch("bfs_init", grid, [128], ["level", n, int(root)])
        for step, bottom_up in enumerate(beamer_directions(row_ptr, col, int(root))):
            out.launch("bfs_bottom_up" if bottom_up else "bfs_top_down", grid, [128],
                       ["row_ptr", "col", "level", n, step])
            steps += 1
    out.facts.update(scale=scale, edge_factor=edge_factor, entries=int(col.size), roots=roots, steps=steps)
    out.write("Graph500: direction-optimizing BFS from %d roots of a scale-%d Kronecker graph (edge factor %d, "
              "%d directed entries), %d steps" % (roots, scale, edge_factor, col.size, steps))


def comd(out, cells_per_side=20, steps=100, seed=203, dt=0.002, cutoff=1.5):
    """CoMD's defaults (`-x 20 -y 20 -z 20`, 100 steps): 20^3 FCC unit cells,
    32,000 atoms at the Lennard-Jones minimum jiggled by 2%, velocity Verlet."""
    rng = Rng(seed)
    basis = np.array([[0, 0, 0], [0.5, 0.5, 0], [0.5, 0, 0.5], [0, 0.5, 0.5]])
    z, y, x = np.meshgrid(*[np.arange(cells_per_side)] * 3, indexing="ij")
    corners = np.stack([x.ravel(), y.ravel(), z.ravel()], axis=1)  # cell index = (z * side + y) * side + x
    atoms = ((corners[:, None, :] + basis[None, :, :]) * LJ_FCC_LATTICE).reshape(-1, 3)
    atoms += rng.uniform(-0.02, 0.02, atoms.shape) * LJ_FCC_LATTICE
    out.array("pos", "f32", atoms.T.reshape(-1))
    n = len(atoms)
    box = float(np.float32(cells_per_side * LJ_FCC_LATTICE))
    out.buffer("vel", "f32", 3 * n, random_init(-0.5, 0.5, 204))
    out.buffer("force", "f32", 3 * n)
    out.buffer("energy", "f32", n)
    grid, components = [blocks(n, 128)], [blocks(3 * n, 128)]
    force = ("comd_force", grid, [128], ["pos", "force", "energy", cells_per_side, box, cutoff * cutoff])
    out.launch(*force)
    for _ in range(steps):
        out.launch("comd_advance_velocity", components, [128], ["vel", "force", 3 * n, dt / 2])
        out.launch("comd_advance_position", components, [128], ["pos", "vel", 3 * n, dt])
        out.launch(*force)
        out.launch("comd_advance_velocity", components, [128], ["vel", "force", 3 * n, dt / 2])
    out.facts.update(atoms=n, steps=steps)
    out.write("CoMD: %d velocity-Verlet steps of %d Lennard-Jones atoms, FCC, %d^3 cells" % (steps, n, cells_per_side))


def minife(out, side=64, iterations=200, dot_threads=256):
    """miniFE cg_solve (its mesh size UNCONFIRMED for Harmonia: 64^3 nodes
    chosen; miniFE's default 5^3 is a smoke test), up to miniFE's 200 CG iterations."""
    rows = side ** 3
    grid = [blocks(rows, 128)]
    partials = blocks(rows, 2 * dot_threads)
    pap = iterations + 1

    def dot(a, b, slot):
        out.launch("cg_dot_partial", [partials], [dot_threads], [a, b, "partials", rows])
        out.launch("cg_dot_final", [1], [dot_threads], ["partials", "dots", partials, slot])

    out.buffer("cols", "s32", 27 * rows)
    out.buffer("values", "f32", 27 * rows)
    out.buffer("r", "f32", rows, random_init(0.0, 1.0, 205))
    for name in ("x", "p", "ap"):
        out.buffer(name, "f32", rows)
    out.buffer("partials", "f32", partials)
    out.buffer("dots", "f32", 2 * iterations + 1)
    out.launch("minife_assemble", grid, [128], ["cols", "values", side])
    dot("r", "r", 0)
    for k in range(iterations):
        out.launch("cg_update_p", grid, [128], ["p", "r", "dots", rows, k, k - 1])
        out.launch("cg_matvec", grid, [128], ["ap", "cols", "values", "p", rows])
        dot("p", "ap", pap + k)
        out.launch("cg_update_xr", grid, [128], ["x", "r", "p", "ap", "dots", rows, k, pap + k])
        dot("r", "r", k + 1)
    out.facts.update(rows=rows, iterations=iterations)
    out.write("miniFE: %d CG iterations on the 27-point operator of a %d^3 node mesh" % (iterations, side))


PROGRAMS = {"bpt": bpt, "comd": comd, "device_memory": device_memory, "graph500": graph500, "lud": lud,
            "maxflops": maxflops, "minife": minife, "sort": sort, "srad": srad, "xsbench": xsbench}

if __name__ == "__main__":
    main(PROGRAMS)
