#!/usr/bin/python3
"""Paper-scale inputs of the Equalizer suite, generated on demand (`gpupm run
--scale paper`; the protocol is ../paper_scale.py and ../README.md, "Scales").
Each program's function takes the paper sizes as keyword defaults and reuses
the ci generator (gen_inputs.py) where one exists, with paper_scale's
reproducible Rng. README.md beside this file says per program what the
original ran, what we run, and each factor cut for the time budget.
By hand: /usr/bin/python3 gen_paper.py OUT_DIR PROGRAM [NAME=VALUE ...]
"""

import numpy as np

import gen_inputs as ci
from paper_scale import Rng, blocks, main, random_init


def backprop(out, inputs=65536):
    """Rodinia's default (`backprop 65536`) is the ci input: one training step of
    a 65536 -> 16 -> 1 network; written again here so every program has a paper scale."""
    hidden = 17  # backprop.cu's kHidden + 1
    rows = inputs // 16
    out.buffer("input", "f32", inputs + 1, random_init(0.0, 1.0, 111))
    out.buffer("weights", "f32", (inputs + 1) * hidden, random_init(-0.01, 0.01, 112))
    out.buffer("previous", "f32", (inputs + 1) * hidden)
    out.buffer("partial_sum", "f32", inputs)
    out.buffer("hidden", "f32", hidden)
    out.buffer("hidden_weights", "f32", hidden, random_init(-1.0, 1.0, 113))
    out.buffer("hidden_prev", "f32", hidden)
    out.buffer("target", "f32", 1, {"fill": 0.1})
    out.buffer("output", "f32", 2)
    out.buffer("hidden_delta", "f32", hidden)
    out.launch("bpnn_layerforward", [1, rows], [16, 16], ["input", "weights", "partial_sum"])
    out.launch("bpnn_output", [1], [1024], ["partial_sum", "weights", "hidden", "hidden_weights", "hidden_prev",
                                             "target", "output", "hidden_delta", rows, 0.3, 0.3])
    out.launch("bpnn_adjust_weights", [1, rows], [16, 16], ["hidden_delta", "input", "weights", "previous", 0.3, 0.3])
    out.facts.update(inputs=inputs)
    out.write("Rodinia backprop 65536 (its default): one training step of a %d -> 16 -> 1 network" % inputs)


def kmeans(out, points=494020, k=5, iterations=500, seed=81):
    """Rodinia kmeans on kdd_cup's shape (494,020 x 34; UNCONFIRMED from the
    file): points around 8 blobs, coordinates multiples of 1/8 in [0, 4) (a
    centre's sum of up to 2^24 / 32 points is exact in any order), the first k
    points the initial clusters. Rodinia loops kmeansPoint + the host's centre
    update until no point moves (at most 500 times); the loop is counted on this
    input in exact arithmetic and runs whole, or its first `iterations`."""
    features = 34  # kmeans.cu's kFeatures
    x = ci.kmeans_points(points=points, k=k, seed=seed, rng=Rng(seed), save=out.save, grid=8)
    out.from_file("features")
    out.from_file("clusters", "clusters0")
    out.buffer("membership", "s32", points)
    loop = kmeans_loop_iterations(np.round(x * 8).astype(np.int64), k)
    runs = min(iterations, loop)
    for _ in range(runs):
        out.launch("kmeansPoint", [blocks(points, 256)], [256], ["features", "clusters", "membership", points, k])
        out.launch("kmeans_centers", [k, features], [256], ["features", "membership", "clusters", points])
    out.facts.update(points=points, k=k, loop_iterations=loop, iterations=runs)
    out.write("Rodinia kmeans, kdd_cup's shape: %d points x 34 features, k = %d; the first %d of the %d "
              "iterations Rodinia's loop takes on this input" % (points, k, runs, loop))


def kmeans_loop_iterations(units, k, limit=500):
    """Iterations of Rodinia's loop (assign to the nearest centre, recompute the
    centres, until no point changes; at most 500) on integer coordinates: the
    distance to a centre sum/count is compared as an exact integer / count^2."""
    centre_sum, count = units[:k].copy(), np.ones(k, np.int64)
    member = np.full(len(units), -1)
    for it in range(1, limit + 1):
        scaled = np.stack([((units * count[c] - centre_sum[c]) ** 2).sum(axis=1) for c in range(k)], axis=1)
        new = np.argmin(scaled / (count.astype(np.float64) ** 2)[None, :], axis=1)
        if np.array_equal(new, member):
            return it
        member = new
        for c in range(k):
            mine = member == c
            if mine.any():
                centre_sum[c], count[c] = units[mine].sum(axis=0), int(mine.sum())
    return limit


def bfs(out, nodes=1000000, seed=91):
    """Rodinia bfs on graph1MW_6's recipe (Rodinia's graphgen): each node picks 2
    to 4 uniformly random partners and every edge is stored both ways (mean
    degree 6); the search from node 0 runs every level (expand + update), the
    last one finding nothing, as Rodinia's loop does."""
    rng = Rng(seed)
    picks = rng.integers(2, 5, nodes)
    source = np.repeat(np.arange(nodes), picks)
    target = rng.integers(0, nodes, source.size)
    frm, to = np.concatenate([source, target]), np.concatenate([target, source])
    order = np.argsort(frm, kind="stable")
    edges = to[order].astype(np.int32)
    degree = np.bincount(frm, minlength=nodes)
    start = np.concatenate([[0], np.cumsum(degree)[:-1]])
    out.array("nodes", "s32", np.stack([start, degree], axis=1))
    out.array("edges", "s32", edges)
    levels = bfs_levels(start, degree, edges, nodes)
    for name, kind in (("mask", "u8"), ("updating", "u8"), ("visited", "u8"), ("cost", "s32")):
        out.buffer(name, kind, nodes)
    out.buffer("over", "s32", levels)
    grid = [blocks(nodes, 512)]
    out.launch("bfs_init", grid, [512], ["mask", "visited", "cost", nodes, 0])
    for level in range(levels):
        out.launch("bfs_expand", grid, [512], ["nodes", "edges", "mask", "updating", "visited", "cost", nodes])
        out.launch("bfs_update", grid, [512], ["mask", "updating", "visited", "over", level, nodes])
    out.facts.update(nodes=nodes, edges=int(edges.size), levels=levels)
    out.write("Rodinia bfs, graph1MW_6's recipe: %d nodes, %d edges, %d levels from node 0"
              % (nodes, edges.size, levels))


def bfs_levels(start, degree, edges, nodes):
    """Levels a search from node 0 expands, the last one finding nothing."""
    seen = np.zeros(nodes, bool)
    seen[0] = True
    frontier, depth = np.array([0]), 0
    while frontier.size:
        first, count = start[frontier], degree[frontier]
        at = np.repeat(first - np.concatenate([[0], np.cumsum(count)[:-1]]), count) + np.arange(count.sum())
        reached = np.unique(edges[at])
        frontier = reached[~seen[reached]]
        seen[frontier] = True
        depth += 1
    return depth


def cfd(out, nx=312, ny=311, iterations=2000, seed=191):
    """Rodinia cfd on fvcorr.domn.097K's size (about 97,000 elements, 4 faces
    each; the exact count UNCONFIRMED): a grid-connected nx x ny mesh (the
    kernels see only the neighbour table). Rodinia runs 2,000 iterations (a cut
    runs the first `iterations`), each the copy, step factor and 3 Runge-Kutta
    stages of flux + time step."""
    n = nx * ny
    ci.cfd_mesh(nx=nx, ny=ny, seed=seed, rng=Rng(seed), save=out.save)
    for name in ("neighbours", "normals", "areas", "ff"):
        out.from_file(name)
    out.from_file("variables", "variables0")
    for name, count in (("old_variables", 5 * n), ("step_factors", n), ("fluxes", 5 * n)):
        out.buffer(name, "f32", count)
    for _ in range(iterations):
        out.launch("cuda_copy", [blocks(5 * n, 192)], [192], ["variables", "old_variables", 5 * n])
        out.launch("cuda_compute_step_factor", [blocks(n, 192)], [192], [n, "variables", "areas", "step_factors"])
        for stage in range(3):
            out.launch("cuda_compute_flux", [blocks(n, 512)], [512],
                       [n, "neighbours", "normals", "variables", "ff", "fluxes"], regs_per_thread=21)
            out.launch("cuda_time_step", [blocks(n, 192)], [192],
                       [stage, n, "old_variables", "variables", "step_factors", "fluxes"], regs_per_thread=56)
    out.facts.update(elements=n, iterations=iterations)
    out.write("Rodinia cfd, fvcorr.domn.097K's size: %d elements, the first %d of Rodinia's 2000 iterations"
              % (n, iterations))


def cutcp(out, box=40, atoms=(4, 9), cutoff=12.0, seed=151):
    """Parboil cutcp on watbox.sl40's shape (UNCONFIRMED from the file): a
    40 A water box (atoms at water's density, about 0.1 per A^3: 4 to 8 per
    4 A bin, never more than a bin's 8 slots), lattice spacing 0.5 A, cutoff
    12 A (Parboil's constants)."""
    side = box // 4
    ci.cutcp_bins(bins=(side, side, side), seed=seed, rng=Rng(seed), save=out.save, atoms=atoms)
    out.from_file("bins")
    nx = ny = box * 2  # lattice points at spacing 0.5 inside the box, a multiple of the 8 x 8 regions
    nz = (box * 2 // 6) * 6  # regions are 6 points deep
    out.buffer("lattice", "f32", nx * ny * nz)
    out.launch("cuda_cutoff_potential_lattice", [nx // 8, ny // 8, nz // 6], [8, 8, 3],
               ["bins", side, side, side, 0.5, cutoff, "lattice", nx, ny], regs_per_thread=21)
    out.facts.update(box_A=box, lattice="%dx%dx%d" % (nx, ny, nz), cutoff=cutoff)
    out.write("Parboil cutcp, watbox.sl40's shape: a %d A water box, a %d x %d x %d lattice, cutoff %g A"
              % (box, nx, ny, nz, cutoff))


def histo(out, width=996, height=1040, iterations=20, bins=65536, seed=121):
    """Parboil histo default (`-- 20 4`): 20 iterations; the image's size is in
    img.bin's header (UNCONFIRMED: 996 x 1040 chosen); values as the ci input's."""
    n = width * height
    ci.histo_values(n=n, bins=bins, seed=seed, rng=Rng(seed), save=out.save)
    out.from_file("input")
    out.buffer("lowest", "u32", 1, {"fill": 4294967295})
    out.buffer("highest", "u32", 1)
    out.buffer("total", "u64", 1)
    out.buffer("slots", "u32", n)
    out.buffer("counts", "u32", bins)
    out.buffer("histo", "u8", bins)
    for _ in range(iterations):  # grids fill the GPU once (grid-stride loops), as the ci workload's
        out.launch("histo_prescan", [45], [512], ["input", "lowest", "highest", "total", n])
        out.launch("histo_intermediates", [30], [768], ["input", "lowest", "total", "slots", n])
        out.launch("histo_main", [45], [512], ["slots", "lowest", "total", "counts", n])
        out.launch("histo_final", [45], [512], ["counts", "histo", "lowest", "highest", "total", bins])
    out.facts.update(values=n, bins=bins, iterations=iterations)
    out.write("Parboil histo: %d values (%d x %d), %d bins, %d iterations" % (n, width, height, bins, iterations))


def lavaMD(out, boxes1d=10, seed=131):
    """Rodinia lavaMD `-boxes1d 10`: 1,000 boxes of 100 particles, one block each."""
    boxes = boxes1d ** 3
    ci.lavamd_particles(particles=boxes * 100, seed=seed, rng=Rng(seed), save=out.save)
    out.from_file("rv")
    out.from_file("qv")
    out.buffer("fv", "f32", boxes * 400)
    out.launch("kernel_gpu_cuda", [boxes], [128], ["rv", "qv", "fv", boxes1d, boxes1d, boxes1d, 0.5],
               regs_per_thread=64)
    out.facts.update(boxes=boxes)
    out.write("Rodinia lavaMD -boxes1d %d: %d boxes of 100 particles" % (boxes1d, boxes))


def lbm(out, nx=120, ny=120, nz=150, steps=100):
    """Parboil lbm on 120_120_150_ldc.of's lattice (120 x 120 x 150): Parboil's
    short run takes 100 steps (a cut runs the first `steps`)."""
    cells = nx * ny * nz
    out.buffer("flags", "u32", cells, random_init(0, 19, 51))
    out.buffer("noise", "f32", cells, random_init(-0.01, 0.01, 52))
    out.buffer("f_a", "f32", 19 * cells)
    out.buffer("f_b", "f32", 19 * cells)
    out.launch("lbm_init", [ny, nz], [nx], ["f_a", "noise", 0.05])
    for step in range(steps):
        src, dst = ("f_a", "f_b") if step % 2 == 0 else ("f_b", "f_a")
        out.launch("lbm_stream_collide", [ny, nz], [nx], [src, dst, "flags", 1.95], regs_per_thread=36)
    out.facts.update(lattice="%dx%dx%d" % (nx, ny, nz), steps=steps)
    out.write("Parboil lbm: a %d x %d x %d lattice, the first %d of the short run's 100 steps" % (nx, ny, nz, steps))


def leukocyte(out, width=640, height=480, cells=36, seed=201):
    """Rodinia leukocyte's frame size (640 x 480; the number of cells in its
    video UNCONFIRMED: 36 chosen); cell rims a rational smooth step (no exp,
    whose last bits vary between machines)."""
    disk = ci.leukocyte_frame(width=width, height=height, cells=cells, seed=seed, rng=Rng(seed), save=out.save,
                              edge=lambda t: 0.5 - 0.5 * t / (1.0 + np.abs(t)))
    for name in ("grad_x", "grad_y", "tx", "ty", "cosines", "sines", "disk"):
        out.from_file(name)
    out.buffer("gicov", "f32", width * height)
    out.buffer("dilated", "f32", width * height)
    margin = 11  # the largest circle's radius
    interior = (width - 2 * margin) * (height - 2 * margin)
    out.launch("GICOV_kernel", [blocks(interior, 192)], [192],
               ["grad_x", "grad_y", "tx", "ty", "cosines", "sines", "gicov", width, height, margin], regs_per_thread=21)
    out.launch("dilate_kernel", [blocks(width * height, 192)], [192], ["gicov", "disk", disk, "dilated", width, height],
               regs_per_thread=28)
    out.facts.update(frame="%dx%d" % (width, height))
    out.write("Rodinia leukocyte detection on a %d x %d frame" % (width, height))


def mri_gridding(out, samples=262144, size=64, radius=2.0):
    """Parboil mri-gridding: the sample count and grid of small.uks are in its
    header (UNCONFIRMED: 262,144 samples on a 64^3 grid chosen), radius 2."""
    bins = (size // 4) ** 3
    for i, axis in enumerate(("kx", "ky", "kz")):
        out.buffer(axis, "f32", samples, random_init(0.0, size - 0.01, 211 + i))
    out.buffer("re", "f32", samples, random_init(-1.0, 1.0, 214))
    out.buffer("im", "f32", samples, random_init(-1.0, 1.0, 215))
    for name, count in (("bin_count", bins), ("bin_start", bins + 1), ("sample_bin", samples),
                        ("sample_rank", samples)):
        out.buffer(name, "s32", count)
    out.buffer("sorted_position", "f32", 4 * samples)
    out.buffer("sorted_value", "f32", 2 * samples)
    out.buffer("grid", "f32", 2 * size ** 3)
    out.launch("binning_kernel", [blocks(samples, 64)], [64],
               ["kx", "ky", "kz", "bin_count", "sample_bin", "sample_rank", samples, size // 4])
    out.launch("scan_kernel", [1], [256], ["bin_count", "bin_start", bins])
    out.launch("reorder_kernel", [blocks(samples, 256)], [256],
               ["kx", "ky", "kz", "re", "im", "sample_bin", "sample_rank", "bin_start", "sorted_position",
                "sorted_value", samples])
    out.launch("gridding_kernel", [blocks(size ** 3, 256)], [256],
               ["sorted_position", "sorted_value", "bin_start", "grid", size, radius], regs_per_thread=21)
    out.facts.update(samples=samples, grid="%d^3" % size)
    out.write("Parboil mri-gridding: %d samples gridded onto %d^3 points" % (samples, size))


def mri_q(out, voxels=32768, samples=3072, chunk=1024):
    """Parboil mri-q small (32_32_32_dataset.bin): 32^3 voxels; its sample count
    UNCONFIRMED (3,072 chosen); ComputeQ in Parboil's chunks of 1,024 samples."""
    for i, axis in enumerate(("kx", "ky", "kz")):
        out.buffer(axis, "f32", samples, random_init(-0.25, 0.25, 101 + i))
    out.buffer("phi_r", "f32", samples, random_init(-1.0, 1.0, 104))
    out.buffer("phi_i", "f32", samples, random_init(-1.0, 1.0, 105))
    out.buffer("phi_mag", "f32", samples)
    for i, axis in enumerate(("x", "y", "z")):
        out.buffer(axis, "f32", voxels, random_init(-0.5, 0.5, 106 + i))
    out.buffer("qr", "f32", voxels)
    out.buffer("qi", "f32", voxels)
    out.launch("ComputePhiMag", [blocks(samples, 128)], [128], ["phi_r", "phi_i", "phi_mag", samples])
    for first in range(0, samples, chunk):
        out.launch("ComputeQ", [blocks(voxels, 256)], [256],
                   ["kx", "ky", "kz", "phi_mag", "x", "y", "z", "qr", "qi", first, min(chunk, samples - first), voxels],
                   regs_per_thread=25)
    out.facts.update(voxels=voxels, samples=samples)
    out.write("Parboil mri-q: %d voxels, %d k-space samples in chunks of %d" % (voxels, samples, chunk))


def mummer(out, ref_length=5227293, reads=2500000, read_length=100, seed=181):
    """MUMmerGPU's default data: the B. anthracis genome NC_003997 (5,227,293
    letters; a random 4-letter text here) and 2.5 M reads of 100 letters
    (genreads.py's recipe), 3% substitutions as the ci input's."""
    ci.mummer_reads(ref_length=ref_length, reads=reads, read_length=read_length, seed=seed, rng=Rng(seed),
                    save=out.save)
    for name in ("ref", "suffixes", "reads"):
        out.from_file(name)
    out.buffer("best_length", "s32", reads)
    out.buffer("best_position", "s32", reads)
    out.launch("mummer_match", [blocks(reads, 256)], [256],
               ["ref", "suffixes", ref_length, "reads", reads, read_length, 1, 16, "best_length", "best_position"],
               regs_per_thread=21)
    out.facts.update(reference=ref_length, reads=reads, read_length=read_length)
    out.write("MUMmerGPU: %d reads of %d letters against a %d-letter reference" % (reads, read_length, ref_length))


def particlefilter(out, particles=1000, size=128, frames=10, seed=161):
    """Rodinia particlefilter (float) default `-x 128 -y 128 -z 10 -np 1000`:
    1,000 particles over frames 1..9 of a 128 x 128 x 10 video: 4 kernels a frame."""
    offsets = ci.particlefilter_video(size=size, frames=frames, seed=seed, rng=Rng(seed), save=out.save)
    out.from_file("video")
    out.from_file("objxy")
    nb = blocks(particles, 512)
    out.buffer("seed", "u32", particles, random_init(1, 2147483646, 171))
    out.buffer("xj", "f32", frames * particles, {"fill": size / 2.0})
    out.buffer("yj", "f32", frames * particles, {"fill": size / 2.0})
    for name in ("array_x", "array_y", "likelihood", "weights", "cdf", "u"):
        out.buffer(name, "f32", particles)
    out.buffer("ind", "s32", particles * offsets)
    out.buffer("partial_sums", "f32", nb)
    for frame in range(1, frames):
        out.launch("likelihood_kernel", [nb], [512],
                   ["array_x", "array_y", "xj", "yj", "objxy", offsets, "ind", "likelihood", "video", "weights",
                    "seed", particles, frame, size, size, frames, "partial_sums"])
        out.launch("sum_kernel", [nb], [512], ["partial_sums", nb])
        out.launch("normalize_weights_kernel", [1], [512], ["weights", particles, "partial_sums", "cdf", "u", "seed"])
        out.launch("find_index_kernel", [nb], [512], ["array_x", "array_y", "cdf", "u", "xj", "yj", particles, frame])
    out.facts.update(particles=particles, frames=frames)
    out.write("Rodinia particlefilter: %d particles, a %d x %d x %d video" % (particles, size, size, frames))


def pathfinder(out, cols=100000, rows=100, pyramid=20):
    """Rodinia pathfinder `100000 100 20`: the host loop's launches of `pyramid` rows."""
    out.buffer("wall", "s32", (rows - 1) * cols, random_init(0, 9, 18))
    out.buffer("result_a", "s32", cols, random_init(0, 9, 19))
    out.buffer("result_b", "s32", cols)
    src, dst = "result_a", "result_b"
    for start in range(0, rows - 1, pyramid):
        steps = min(pyramid, rows - 1 - start)
        out.launch("dynproc_kernel", [blocks(cols, 256 - 2 * pyramid)], [256],
                   [steps, "wall", src, dst, cols, start, pyramid])
        src, dst = dst, src
    out.facts.update(cols=cols, rows=rows, pyramid=pyramid)
    out.write("Rodinia pathfinder: %d rows x %d columns, pyramids of %d" % (rows, cols, pyramid))


def sad(out, width=640, height=480):
    """Parboil sad: the frame size of its default reference.bin/frame.bin is
    UNCONFIRMED (640 x 480 chosen); search range +-16 as Parboil's."""
    positions, mbs = 33 * 33, (width // 16) * (height // 16)
    out.buffer("cur", "u32", width * height, random_init(0, 255, 31))
    out.buffer("ref", "u32", width * height, random_init(0, 255, 32))
    out.buffer("sad4", "u32", mbs * 16 * positions)
    out.buffer("sad8", "u32", mbs * 20 * positions)
    out.buffer("sad16", "u32", mbs * 5 * positions)
    out.launch("mb_sad_calc", [width // 4, height // 4], [64], ["cur", "ref", "sad4", width, height])
    out.launch("larger_sad_calc_8", [mbs], [64], ["sad4", "sad8"])
    out.launch("larger_sad_calc_16", [mbs], [64], ["sad8", "sad16"])
    out.facts.update(frame="%dx%d" % (width, height), macroblocks=mbs)
    out.write("Parboil sad: a %d x %d frame (%d macroblocks), search +-16" % (width, height, mbs))


def sgemm(out, m=1024, n=1056, k=992):
    """Parboil sgemm medium: (1024 x 992) (992 x 1056), alpha 1.5, beta 0.5 as the ci workload's."""
    out.buffer("a", "f32", m * k, random_init(-1.0, 1.0, 41))
    out.buffer("b", "f32", k * n, random_init(-1.0, 1.0, 42))
    out.buffer("c", "f32", m * n, random_init(-1.0, 1.0, 43))
    out.launch("sgemm_nn", [m // 128, n // 16], [128], ["a", "b", "c", m, n, k, 1.5, 0.5], regs_per_thread=40)
    out.facts.update(m=m, n=n, k=k)
    out.write("Parboil sgemm medium: C (%d x %d) = 1.5 A (%d x %d) B + 0.5 C" % (m, n, m, k))


def spmv(out, rows=146689, repeats=50, seed=61):
    """Parboil spmv large (Dubcova3: 146,689 rows, 3,636,643 non-zeros, a FEM
    matrix): rows of 9 + geometric(1/16) non-zeros (mean about 25), at most 64,
    mostly within 512 of the diagonal, in JDS; Parboil's 50 repeats."""
    ptr, entries = ci.spmv_jds(rows=rows, seed=seed, rng=Rng(seed), save=out.save, shortest=9, mean_extra=16.0,
                               longest=64, band=512)
    for name in ("data", "index", "perm", "jds_ptr", "warp_nnz"):
        out.from_file(name)
    out.buffer("x", "f32", rows, random_init(-1.0, 1.0, 62))
    out.buffer("y", "f32", rows)
    out.launch("spmv_jds", [blocks(rows, 192)], [192], ["data", "index", "perm", "jds_ptr", "warp_nnz", "x", "y", rows],
               regs_per_thread=21, repeat=repeats)
    out.facts.update(rows=rows, jds_entries=entries, repeats=repeats)
    out.write("Parboil spmv, Dubcova3's shape: %d rows, %d JDS entries, %d repeats" % (rows, entries, repeats))


def stencil(out, nx=512, ny=512, nz=64, iterations=100):
    """Parboil stencil default (512 x 512 x 64, 100 iterations; a cut runs the
    first `iterations`), the grids ping-ponged."""
    for name in ("a", "b"):  # the same contents: the boundary is the same in each
        out.buffer(name, "f32", nx * ny * nz, random_init(0.0, 1.0, 71))
    for it in range(iterations):
        src, dst = ("a", "b") if it % 2 == 0 else ("b", "a")
        out.launch("block2d_reg_tiling", [nx // 32, ny // 4], [32, 4], [0.5, 0.0833, src, dst, nx, ny, nz],
                   regs_per_thread=48)
    out.facts.update(grid="%dx%dx%d" % (nx, ny, nz), iterations=iterations)
    out.write("Parboil stencil: %d x %d x %d, the first %d of Parboil's 100 iterations" % (nx, ny, nz, iterations))


def streamcluster(out, num=65536, dim=256, k=10, calls=179, seed=141):
    """Rodinia streamcluster `10 20 256 65536 65536 1000`: 65,536 points in 256
    dimensions; one pass of its pFL loop, ITER kmax ln(kmax) = 3 x 20 x ln 20 =
    179 pgain calls (Rodinia runs several passes, their number data-dependent;
    a cut runs the first `calls`), each into its own work_mem slice as the ci
    workload's, 10 open centres."""
    ci.streamcluster_points(num=num, dim=dim, k=k, seed=seed, rng=Rng(seed), save=out.save)
    for name in ("coord", "points", "center_table"):
        out.from_file(name)
    out.buffer("work_mem", "f32", num * (k + 1) * calls)
    out.buffer("switch_membership", "u8", num * calls)
    for call in range(calls):
        candidate = (7919 * (call + 1)) % num
        out.launch("kernel_compute_cost", [blocks(num, 512)], [512],
                   [num, dim, candidate, "points", k, k + 1, "coord", "work_mem", "center_table", "switch_membership",
                    call], regs_per_thread=21)
    out.facts.update(points=num, dim=dim, calls=calls)
    out.write("Rodinia streamcluster: %d points in %d dimensions, %d pgain calls" % (num, dim, calls))


PROGRAMS = {"backprop": backprop, "bfs": bfs, "cfd": cfd, "cutcp": cutcp, "histo": histo, "kmeans": kmeans,
            "lavaMD": lavaMD, "lbm": lbm, "leukocyte": leukocyte, "mri-gridding": mri_gridding, "mri-q": mri_q,
            "mummer": mummer, "particlefilter": particlefilter, "pathfinder": pathfinder, "sad": sad,
            "sgemm": sgemm, "spmv": spmv, "stencil": stencil, "streamcluster": streamcluster}

if __name__ == "__main__":
    main(PROGRAMS)
