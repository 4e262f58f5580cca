#!/usr/bin/python3
"""Writes the structured inputs of the Equalizer suite's programs (.npy files
beside each program): deterministic, fixed seeds, numpy's PCG64 generator.
Run from anywhere: /usr/bin/python3 configs/workloads/cuda/equalizer/gen_inputs.py
"""
import os

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))


def save(program, name, array):
    np.save(os.path.join(HERE, program, name + ".npy"), array)


def spmv_jds(rows=30720, warp=32, seed=61, rng=None, save=save, shortest=2, mean_extra=10.0, longest=60, band=256):
    """A FEM-like sparse matrix (most columns within +-256 of the diagonal, a few
    far ones; 2 to 60 non-zeros per row, skewed short) in Parboil's JDS format:
    rows sorted by length (longest first, `perm` maps back), stored diagonal by
    diagonal (`jds_ptr`), each diagonal padded to whole warps of rows with zero
    entries, and `warp_nnz` the length of each warp's longest row. (Row lengths:
    shortest + geometric(1 / mean_extra), at most longest; near columns within band.)"""
    rng = rng or np.random.default_rng(seed)
    lengths = np.minimum(shortest + rng.geometric(1.0 / mean_extra, rows), longest)
    columns = []
    for r, n in enumerate(lengths):
        near = r + rng.integers(-band, band + 1, n)
        far = rng.integers(0, rows, n)
        c = np.where(rng.random(n) < 0.9, near, far) % rows
        columns.append(np.sort(c))
    values = [rng.integers(-64, 65, n) / 64.0 for n in lengths]
    perm = np.argsort(-lengths, kind="stable").astype(np.int32)
    sorted_len = lengths[perm]
    padded_rows = -(-rows // warp) * warp
    warp_nnz = sorted_len[::warp].astype(np.int32)  # longest row of each warp (sorted)
    ptr, data, index = [0], [], []
    for k in range(int(sorted_len[0])):
        live = int(np.count_nonzero(sorted_len > k))
        span = min(-(-live // warp) * warp, padded_rows)
        d = np.zeros(span, np.float32)
        i = np.zeros(span, np.int32)
        for slot in range(live):
            r = perm[slot]
            d[slot] = values[r][k]
            i[slot] = columns[r][k]
        data.append(d)
        index.append(i)
        ptr.append(ptr[-1] + span)
    save("spmv", "perm", perm)
    save("spmv", "warp_nnz", warp_nnz)
    save("spmv", "jds_ptr", np.array(ptr, np.int32))
    save("spmv", "data", np.concatenate(data))
    save("spmv", "index", np.concatenate(index))
    return len(ptr), sum(len(d) for d in data)


def kmeans_points(points=12288, features=34, k=5, blobs=8, seed=81, rng=None, save=save, grid=64):
    """Points around `blobs` random centres (spread 0.4), every coordinate a multiple
    of 1/grid in [0, 4) so that centre sums of up to 2^24 / (4 grid) points are
    exact floats; the first k points are the initial clusters, as Rodinia takes
    them. Returns the points."""
    rng = rng or np.random.default_rng(seed)
    centres = rng.uniform(0.5, 3.5, (blobs, features))
    which = rng.integers(0, blobs, points)
    x = centres[which] + rng.normal(0.0, 0.4, (points, features))
    x = np.clip(np.round(x * grid), 0, 4 * grid - 1) / grid
    x = x.astype(np.float32)
    save("kmeans", "features", x.reshape(-1))
    save("kmeans", "clusters0", x[:k].reshape(-1).copy())
    return x


def bfs_graph(nodes=65536, seed=91, rng=None, save=save):
    """A directed graph of 1 to 10 edges per node (Rodinia's generator's range),
    90% of them to nodes within 1024 places, the rest anywhere (so the search
    takes a dozen levels rather than a handful); node i is (first edge, count).
    Returns the number of levels a search from node 0 expands (the last one
    finds nothing new), for the workload's launch list."""
    rng = rng or np.random.default_rng(seed)
    degree = rng.integers(1, 11, nodes)
    starts = np.concatenate([[0], np.cumsum(degree)[:-1]])
    owner = np.repeat(np.arange(nodes), degree)
    near = owner + rng.integers(-1024, 1025, owner.size)
    far = rng.integers(0, nodes, owner.size)
    edges = (np.where(rng.random(owner.size) < 0.9, near, far) % nodes).astype(np.int32)
    save("bfs", "nodes", np.stack([starts, degree], axis=1).astype(np.int32).reshape(-1))
    save("bfs", "edges", edges)
    level = np.full(nodes, -1)
    level[0] = 0
    frontier, depth = [0], 0
    while frontier:
        nxt = []
        for v in frontier:
            for to in edges[starts[v]:starts[v] + degree[v]]:
                if level[to] < 0:
                    level[to] = depth + 1
                    nxt.append(int(to))
        frontier, depth = nxt, depth + 1
    return depth, int(edges.size), int(np.count_nonzero(level >= 0))


def histo_values(n=524288, bins=65536, seed=121, rng=None, save=save):
    """Histogram input: 70% of the values around bin 32768 (normal, sigma 400: the
    central bins overflow the 8-bit counts), 30% anywhere (sparse, out of the
    shared window)."""
    rng = rng or np.random.default_rng(seed)
    peak = np.clip(np.round(rng.normal(bins / 2, 400.0, n)), 0, bins - 1)
    spread = rng.integers(0, bins, n)
    values = np.where(rng.random(n) < 0.7, peak, spread).astype(np.uint32)
    save("histo", "input", values)


def lavamd_particles(particles=4800, seed=131, rng=None, save=save):
    """Rodinia's lavaMD inputs: each particle's v, x, y, z and charge a random
    tenth in [0.1, 1] ((rand() % 10 + 1) / 10 in Rodinia)."""
    rng = rng or np.random.default_rng(seed)
    tenths = lambda *shape: (rng.integers(1, 11, shape) / 10.0).astype(np.float32)
    save("lavaMD", "rv", tenths(particles, 4).reshape(-1))
    save("lavaMD", "qv", tenths(particles))


def streamcluster_points(num=24576, dim=32, k=10, seed=141, rng=None, save=save):
    """Points uniform in [0, 1)^dim (coordinates transposed: coord[d * num + i]),
    weight 1; the first k points are the open centres: each point's assign is its
    nearest centre's index and cost the squared distance (float32); center_table maps a centre's index to 0..k-1. Points are
    Rodinia's 32-byte structs: weight, pad, coordinate pointer (0), assign, cost, pad."""
    rng = rng or np.random.default_rng(seed)
    coord = rng.random((dim, num), dtype=np.float32)
    cost = np.full(num, np.float32(np.inf), np.float32)
    assign = np.zeros(num, np.int64)
    for c in range(k):
        d = np.zeros(num, np.float32)
        for j in range(dim):  # fma(diff, diff, sum) in float32: exact product, one rounding
            diff = coord[j] - coord[j, c]
            d = (diff.astype(np.float64) * diff + d).astype(np.float32)
        closer = d < cost
        cost[closer], assign[closer] = d[closer], c
    point = np.zeros(num, dtype=[("weight", "<f4"), ("pad0", "<i4"), ("coord", "<u8"), ("assign", "<i8"),
                                 ("cost", "<f4"), ("pad1", "<i4")])
    point["weight"], point["assign"], point["cost"] = 1.0, assign, cost
    table = np.zeros(num, np.int32)
    table[:k] = np.arange(k)
    save("streamcluster", "coord", coord.reshape(-1))
    save("streamcluster", "points", point.view(np.float32).copy())
    save("streamcluster", "center_table", table)


def cutcp_bins(bins=(8, 8, 3), side=4.0, depth=8, seed=151, rng=None, save=save, atoms=(2, 8)):
    """Atoms for cutcp, already in Parboil's bin layout: each cubic bin (side 4)
    holds atoms[0] to atoms[1] - 1 (2 to 7) atoms (uniform inside it, charges in [-1, 1] without 0) in its
    first slots, then empty slots (q = 0): float4 (x, y, z, q) per slot."""
    rng = rng or np.random.default_rng(seed)
    bx, by, bz = bins
    out = np.zeros((bz, by, bx, depth, 4), np.float32)
    for z in range(bz):
        for y in range(by):
            for x in range(bx):
                n = int(rng.integers(*atoms))
                pos = (np.array([x, y, z]) + rng.random((n, 3))) * side
                q = rng.uniform(0.05, 1.0, n) * rng.choice([-1.0, 1.0], n)
                out[z, y, x, :n, :3], out[z, y, x, :n, 3] = pos, q
    save("cutcp", "bins", out.reshape(-1))


def particlefilter_video(size=128, frames=3, radius=5, seed=161, rng=None, save=save):
    """Rodinia's synthetic video, [x][y][frame] u8: a disk of radius 5 starting
    at the centre and moving (+1, -2) per frame, plus normal noise (sigma 2),
    clamped to 0..255; and the disk's offsets (dy, dx) (Rodinia's strel: every
    offset within the radius). Rodinia paints 100 and 228, the two levels of its
    likelihood, which puts a mean log-likelihood of about 328 under a particle on
    the disk: exp() of that overflows float and every weight becomes NaN. Here the
    background is 120 and the disk 170 (log-likelihoods -72 to +31)."""
    rng = rng or np.random.default_rng(seed)
    video = np.full((size, size, frames), 120.0)
    xs, ys = np.meshgrid(np.arange(size), np.arange(size), indexing="ij")
    for f in range(frames):
        cx, cy = size // 2 + f, size // 2 - 2 * f
        video[:, :, f][(xs - cx) ** 2 + (ys - cy) ** 2 <= radius * radius] = 170.0
    video = np.clip(np.round(video + rng.normal(0.0, 2.0, video.shape)), 0, 255).astype(np.uint8)
    offsets = [(dy, dx) for dx in range(-radius, radius + 1) for dy in range(-radius, radius + 1)
               if dx * dx + dy * dy <= radius * radius]
    save("particlefilter", "video", video.reshape(-1))
    save("particlefilter", "objxy", np.array(offsets, np.int32).reshape(-1))
    return len(offsets)


def suffix_array(text):
    """Suffix array by prefix doubling (ranks of 2^k-prefixes, sorted by pairs)."""
    n = len(text)
    rank = text.astype(np.int64)
    k = 1
    while True:
        second = np.where(np.arange(n) + k < n, rank[np.minimum(np.arange(n) + k, n - 1)] + 1, 0)
        order = np.lexsort((second, rank))
        pair = rank[order] * (n + 2) + second[order]
        new_rank = np.empty(n, np.int64)
        new_rank[order] = np.concatenate([[0], np.cumsum(pair[1:] != pair[:-1])])
        rank = new_rank
        if rank.max() == n - 1:
            return order.astype(np.int32)
        k *= 2


def mummer_reads(ref_length=65536, reads=15360, read_length=32, seed=181, rng=None, save=save):
    """A random 4-letter reference, its suffix array, and reads copied from random
    places of it with 3% of their letters substituted (so matches end early)."""
    rng = rng or np.random.default_rng(seed)
    ref = rng.integers(0, 4, ref_length).astype(np.uint8)
    starts = rng.integers(0, ref_length - read_length, reads)
    r = ref[starts[:, None] + np.arange(read_length)]
    mutate = rng.random(r.shape) < 0.03
    r = np.where(mutate, (r + rng.integers(1, 4, r.shape)) % 4, r).astype(np.uint8)
    save("mummer", "ref", ref)
    save("mummer", "suffixes", suffix_array(ref))
    save("mummer", "reads", r.reshape(-1))


def cfd_mesh(nx=128, ny=128, seed=191, rng=None, save=save):
    """A cfd mesh of nx * ny elements with 4 faces each (-x, +x, -y, +y
    neighbours; Rodinia's meshes are unstructured, the kernels only see the
    neighbour table): faces off the x ends are far field (-2), off the y ends
    walls (-1); face normals (area 1 outward, tilted by up to 10%) and element
    areas vary a little; the variables start at Rodinia's far field (density 1.4,
    Mach 1.2 along x, pressure 1) with 5% noise, so the interior fluxes are not
    zero. ff: the far-field variables and their flux contributions."""
    rng = rng or np.random.default_rng(seed)
    n = nx * ny
    idx = np.arange(n).reshape(ny, nx)
    nb = np.empty((4, ny, nx), np.int32)
    nb[0] = np.roll(idx, 1, axis=1)
    nb[0][:, 0] = -2
    nb[1] = np.roll(idx, -1, axis=1)
    nb[1][:, -1] = -2
    nb[2] = np.roll(idx, 1, axis=0)
    nb[2][0, :] = -1
    nb[3] = np.roll(idx, -1, axis=0)
    nb[3][-1, :] = -1
    base = np.array([[-1, 0, 0], [1, 0, 0], [0, -1, 0], [0, 1, 0]], np.float64)
    normals = base[:, None, :] + rng.uniform(-0.1, 0.1, (4, n, 3))  # [face][element][dim]
    normals = np.transpose(normals, (2, 0, 1)).astype(np.float32)    # [dim][face][element]
    gamma, density, pressure, mach = 1.4, 1.4, 1.0, 1.2
    speed = mach * np.sqrt(gamma * pressure / density)
    energy = density * 0.5 * speed * speed + pressure / (gamma - 1)
    ff_vars = np.array([density, density * speed, 0.0, 0.0, energy])
    variables = ff_vars[:, None] * (1 + rng.uniform(-0.05, 0.05, (5, n)))
    variables[2:4] = rng.uniform(-0.05, 0.05, (2, n))  # small cross-flow momentum
    u = ff_vars[1:4] / density
    p = pressure
    fx = [u[0] * ff_vars[1] + p, u[0] * ff_vars[2], u[0] * ff_vars[3]]
    fy = [fx[1], u[1] * ff_vars[2] + p, u[1] * ff_vars[3]]
    fz = [fx[2], fy[2], u[2] * ff_vars[3] + p]
    fe = list(u * (energy + p))
    save("cfd", "neighbours", nb.reshape(-1))
    save("cfd", "normals", normals.reshape(-1))
    save("cfd", "areas", rng.uniform(0.9, 1.1, n).astype(np.float32))
    save("cfd", "variables0", variables.astype(np.float32).reshape(-1))
    save("cfd", "ff", np.array(list(ff_vars) + fx + fy + fz + fe, np.float32))


def leukocyte_frame(width=112, height=80, cells=6, seed=201, rng=None, save=save, edge=None):
    """A microscope-like frame: a few bright cells (radius 7-10) on a noisy
    background, and its gradient (central differences) that the detection reads;
    the 7 circles (radii 5 to 11) of 150 points as offsets with their normals'
    cos/sin, and a dilation disk of radius 6 as (dy, dx) offsets. `edge(t)` is a
    cell's brightness t pixels outside its rim (default the logistic 1 / (1 + e^t))."""
    rng = rng or np.random.default_rng(seed)
    ys, xs = np.mgrid[0:height, 0:width]
    image = rng.normal(0.0, 0.05, (height, width))
    for _ in range(cells):
        cx, cy, r = rng.uniform(15, width - 15), rng.uniform(15, height - 15), rng.uniform(7, 10)
        t = ((xs - cx) ** 2 + (ys - cy) ** 2) ** 0.5 - r
        image += edge(t) if edge else 1.0 / (1.0 + np.exp(t))
    gy, gx = np.gradient(image)
    theta = 2 * np.pi * np.arange(150) / 150
    radii = np.arange(5, 12)
    save("leukocyte", "grad_x", gx.astype(np.float32).reshape(-1))
    save("leukocyte", "grad_y", gy.astype(np.float32).reshape(-1))
    save("leukocyte", "tx", np.round(radii[:, None] * np.cos(theta)).astype(np.int32).reshape(-1))
    save("leukocyte", "ty", np.round(radii[:, None] * np.sin(theta)).astype(np.int32).reshape(-1))
    save("leukocyte", "cosines", np.cos(theta).astype(np.float32))
    save("leukocyte", "sines", np.sin(theta).astype(np.float32))
    disk = [(dy, dx) for dy in range(-6, 7) for dx in range(-6, 7) if dx * dx + dy * dy <= 36]
    save("leukocyte", "disk", np.array(disk, np.int32).reshape(-1))
    return len(disk)


if __name__ == "__main__":
    print("spmv: jds_ptr, entries", spmv_jds())
    kmeans_points()
    print("bfs: levels expanded, edges, reached", bfs_graph())
    histo_values()
    lavamd_particles()
    streamcluster_points()
    cutcp_bins()
    print("particlefilter: disk offsets", particlefilter_video())
    mummer_reads()
    cfd_mesh()
    print("leukocyte: disk offsets", leukocyte_frame())
