#!/usr/bin/python3
"""Paper-scale inputs of the core shut-down suite, generated on demand (`gpupm
run --scale paper`; the protocol is ../paper_scale.py and ../README.md,
"Scales"). Each program's function takes the original's input as keyword
defaults; the workload's "args" hold the cuts the time budget forces, and
README.md beside this file says per program what the original ran, what we
run and why. Draws come from paper_scale.Rng (the same bytes on every machine).
By hand: /usr/bin/python3 gen_paper.py OUT_DIR PROGRAM [NAME=VALUE ...]
"""

import numpy as np

from gen_inputs import bitonic_launches, boruvka_rounds, csr
from paper_scale import Rng, blocks, main, random_init

# DIMACS USA-road-d.NY, the smallest of LonestarGPU's road networks: 264,346
# nodes, 733,846 arcs (2.78 arcs per node).
NY_ARCS_PER_NODE = 733846 / 264346


def road_graph(rng, width, height, highways=0.03, reach=32):
    """A road-network-like graph, as gen_inputs.road_edges: a width x height grid
    whose street segments are kept with the probability that gives NY's arcs per
    node, plus short highways between nearby nodes; each edge both ways, sorted."""
    n = width * height
    ids = np.arange(n).reshape(height, width)
    right = np.stack([ids[:, :-1].ravel(), ids[:, 1:].ravel()], axis=1)
    down = np.stack([ids[:-1, :].ravel(), ids[1:, :].ravel()], axis=1)
    streets = np.concatenate([right, down])
    keep = (NY_ARCS_PER_NODE / 2 * n - highways * n) / len(streets)
    streets = streets[rng.random(len(streets)) < keep]
    starts = np.unique(rng.integers(0, n, int(highways * n)))
    dx, dy = rng.integers(-reach, reach + 1, len(starts)), rng.integers(-reach, reach + 1, len(starts))
    ends = np.clip(starts // width + dy, 0, height - 1) * width + np.clip(starts % width + dx, 0, width - 1)
    undirected = np.concatenate([streets, np.stack([starts, ends], axis=1)])
    both = np.concatenate([undirected, undirected[:, ::-1]])
    return np.unique(both[both[:, 0] != both[:, 1]], axis=0)


def reached_from(row_ptr, col, source):
    """Nodes a search from `source` reaches (breadth-first, a level at a time)."""
    seen = np.zeros(len(row_ptr) - 1, bool)
    seen[source] = True
    frontier = np.array([source])
    while frontier.size:
        first, count = row_ptr[frontier], row_ptr[frontier + 1] - row_ptr[frontier]
        at = np.repeat(first - np.concatenate([[0], np.cumsum(count)[:-1]]), count) + np.arange(count.sum())
        reached = np.unique(col[at])
        frontier = reached[~seen[reached]]
        seen[frontier] = True
    return int(seen.sum())


def sssp(out, width=514, height=514, rounds=1000, seed=210):
    """LonestarGPU SSSP on USA-road-d.NY's size and degree (264,346 nodes, 2.78
    arcs per node; here a 514 x 514 road-like graph), weights 1-1000 (the ci
    input's), from the centre node; rounds until none lowers a distance (at most
    `rounds`: LonestarGPU's loop has no cap; the while_nonzero needs one)."""
    pairs = road_graph(Rng(seed), width, height)
    n = width * height
    row_ptr, order = csr(n, pairs[:, 0], pairs[:, 1])
    col = pairs[order, 1]
    source = (height // 2) * width + width // 2
    out.array("row_ptr", "s32", row_ptr)
    out.array("col", "s32", col)
    out.buffer("weight", "u32", len(col), random_init(1, 1000, 211))
    out.buffer("dist", "u32", n)
    out.buffer("changed", "u32", 1)
    grid = [blocks(n, 128)]
    out.launch("sssp_init", grid, [128], ["dist", n, source])
    out.launch("sssp_relax", grid, [128], ["row_ptr", "col", "weight", "dist", "changed", n],
               while_nonzero={"buffer": "changed", "max": rounds})
    out.facts.update(nodes=n, arcs=len(col), reached=reached_from(row_ptr, col, source), source=source)
    out.write("LonestarGPU SSSP on a road-like graph of USA-road-d.NY's size and degree: %d nodes, %d arcs, "
              "weights 1-1000, from the centre node, rounds until none lowers a distance" % (n, len(col)))


def mst(out, width=514, height=514, max_weight=1000, seed=212):
    """LonestarGPU MST on a road-like graph of USA-road-d.NY's size and degree
    (its mst runs USA-road-d.FLA.sym; road networks start at NY's 264,346
    nodes), weights 1-1000; as many Boruvka rounds as the host loop runs."""
    rng = Rng(seed)
    pairs = road_graph(rng, width, height)
    nodes = width * height
    undirected = pairs[pairs[:, 0] < pairs[:, 1]]  # sorted, so an edge's id is its row
    weight = rng.integers(1, max_weight + 1, len(undirected))
    row_ptr, order = csr(nodes, pairs[:, 0], pairs[:, 1])
    ordered = pairs[order]
    low, high = np.minimum(ordered[:, 0], ordered[:, 1]), np.maximum(ordered[:, 0], ordered[:, 1])
    edge_id = np.searchsorted(undirected[:, 0] * nodes + undirected[:, 1], low * nodes + high)
    out.array("row_ptr", "s32", row_ptr)
    out.array("col", "s32", ordered[:, 1])
    out.array("edge_id", "s32", edge_id)
    out.array("weight", "u32", weight)
    rounds = boruvka_rounds(nodes, undirected, weight)
    out.buffer("comp", "s32", nodes, {"iota": {"start": 0, "step": 1}})
    out.buffer("best", "u32", nodes, {"fill": 4294967295})
    out.buffer("partner", "s32", nodes)
    out.buffer("parent", "s32", nodes)
    out.buffer("in_tree", "u32", len(undirected))
    out.buffer("changed", "u32", 1)
    grid, graph = [blocks(nodes, 128)], ["row_ptr", "col", "edge_id", "weight"]
    for _ in range(rounds):
        out.launch("mst_find_min", grid, [128], graph + ["comp", "best", nodes])
        out.launch("mst_find_min2", grid, [128], graph + ["comp", "best", "partner", nodes])
        out.launch("mst_hook", grid, [128], ["comp", "best", "partner", "parent", "in_tree", nodes])
        out.launch("mst_jump", grid, [128], ["comp", "parent", "changed", nodes],
                   while_nonzero={"buffer": "changed", "max": 1000})
        out.launch("mst_relabel", grid, [128], ["comp", "parent", "best", nodes])
    out.facts.update(nodes=nodes, edges=len(undirected), rounds=rounds)
    out.write("LonestarGPU MST (Boruvka) on a road-like graph of USA-road-d.NY's size and degree: %d nodes, "
              "%d weighted edges, %d rounds (the last merges nothing)" % (nodes, len(undirected), rounds))


def sp(out, variables=10000, clauses=42000, max_sweeps=1000, seed=216):
    """LonestarGPU SP on a random 3-SAT formula of its inputs' shape (UNCONFIRMED:
    random-42000-10000-3.cnf, 10,000 variables, 42,000 clauses, ratio 4.2; 3
    distinct variables a clause, each negated with probability 1/2), surveys
    drawn in [0, 1); Jacobi sweeps until no survey moves by more than 0.01 (at
    most `max_sweeps`), then one decimation step and the clauses' states."""
    rng = Rng(seed)
    clause_var = rng.integers(0, variables, (clauses, 3))
    while True:  # redraw clauses that name a variable twice
        repeated = np.flatnonzero((clause_var[:, 0] == clause_var[:, 1]) | (clause_var[:, 0] == clause_var[:, 2]) |
                                  (clause_var[:, 1] == clause_var[:, 2]))
        if not repeated.size:
            break
        clause_var[repeated] = rng.integers(0, variables, (repeated.size, 3))
    edges = 3 * clauses
    var_row, var_edges = csr(variables, clause_var.reshape(-1), np.arange(edges))
    out.array("clause_var", "s32", clause_var.reshape(-1))
    out.array("negated", "u8", rng.integers(0, 2, edges))
    out.array("var_row", "s32", var_row)
    out.array("var_edges", "s32", var_edges)
    out.buffer("eta0", "f32", edges, random_init(0, 1, 217))
    out.buffer("eta1", "f32", edges)
    out.buffer("state", "u32", 3)
    out.buffer("bias", "f32", variables)
    out.buffer("assign", "s32", variables)
    out.buffer("clause_state", "s32", clauses)
    out.launch("sp_update", [blocks(edges, 96)], [96],
               ["clause_var", "negated", "var_row", "var_edges", "eta0", "eta1", "state", clauses, 0.01, max_sweeps],
               while_nonzero={"buffer": "state", "max": max_sweeps})
    out.launch("sp_bias", [blocks(variables, 128)], [128],
               ["var_row", "var_edges", "negated", "eta0", "eta1", "state", "bias", "assign", variables, 0.99])
    out.launch("sp_simplify", [blocks(clauses, 128)], [128], ["clause_var", "negated", "assign", "clause_state", clauses])
    out.facts.update(variables=variables, clauses=clauses, max_sweeps=max_sweeps)
    out.write("LonestarGPU SP: a random 3-SAT formula of %d variables and %d clauses (ratio %.2f), sweeps until "
              "no survey moves by more than 0.01 (at most %d), one decimation step"
              % (variables, clauses, clauses / variables, max_sweeps))


def url_table(urls, url_bytes=24):
    """The log's URLs (gen_inputs.web_log's names), NUL-padded; no two share an FNV-1a hash."""
    words = ["news", "sport", "wiki", "shop", "mail", "img", "docs", "blog"]
    table = np.zeros((urls, url_bytes), np.uint8)
    hashes = set()
    for u in range(urls):
        name = ("/%s/%s/p%d.html" % (words[u % 8], words[(u // 8) % 8], u)).encode()[:url_bytes]
        table[u, :len(name)] = list(name)
        h = 2166136261
        for byte in name:
            h = ((h ^ byte) * 16777619) & 0xFFFFFFFF
        hashes.add(h)
    assert len(hashes) == urls, "two URLs share a hash"
    return table


def web_log(rng, lines, urls, tail, line_bytes=32):
    """Mars's GenWebLogSrc shape: each line's URL drawn uniformly from `urls`
    (rand() % 1024), then the line's tail fields (`tail`: lines x 8 bytes)."""
    table = url_table(urls)
    log = np.zeros((lines, line_bytes), np.uint8)
    log[:, :table.shape[1]] = table[rng.integers(0, urls, lines)]
    log[:, table.shape[1]:] = tail
    return log


def map_sort_reduce(out, name, log, key_type, result, description):
    """Mars's job as pvc.cu / pvr.cu run it: map, a launch per bitonic step, reduce."""
    lines = log.shape[0]
    out.array("log", "u8", log.reshape(-1))
    out.buffer("keys", key_type, lines)
    out.buffer("lines", "s32", lines)
    out.buffer(result, "s32", lines)
    grid = [blocks(lines, 128)]
    out.launch(name + "_map", grid, [128], ["log", "keys", "lines", lines])
    steps = bitonic_launches(name + "_bitonic", grid, [128], ["keys", "lines"], lines)
    for step in steps:
        out.launch(step["kernel"], step["grid"], step["block"], step["args"])
    out.launch(name + "_reduce", grid, [128], ["keys", result, lines])
    out.facts.update(lines=lines, sort_steps=len(steps))
    out.write(description + ": map, %d bitonic sort steps, reduce" % len(steps))


def pvc(out, lines=1 << 20, urls=1024, seed=213):
    """Mars PageViewCount on `Gen data 1000000 count`'s log: 1 M lines (2^20
    here: the bitonic sort needs a power of two), URLs uniform over 1,024, a
    random client address (4 bytes) and a cookie below 1,000 per line."""
    rng = Rng(seed)
    address = rng.integers(0, 256, (lines, 4))
    cookie = rng.integers(0, 1000, lines).astype("<u4").view(np.uint8).reshape(lines, 4)
    log = web_log(rng, lines, urls, np.concatenate([address, cookie], axis=1))
    map_sort_reduce(out, "pvc", log, "u32", "views",
                    "Mars PageViewCount: a %d-line web log, %d URLs of uniform popularity" % (lines, urls))


def pvr(out, lines=1 << 20, urls=1024, seed=218):
    """Mars PageViewRank on `Gen data 1000000 rank`'s log: 1 M lines (2^20), URLs
    uniform over 1,024, the client a 31-bit rand() (so nearly every visit is a
    distinct visitor), then a random time."""
    rng = Rng(seed)
    client = rng.integers(0, 1 << 31, lines).astype("<u4").view(np.uint8).reshape(lines, 4)
    log = web_log(rng, lines, urls, np.concatenate([client, rng.integers(0, 256, (lines, 4))], axis=1))
    map_sort_reduce(out, "pvr", log, "u64", "visitors",
                    "Mars PageViewRank: distinct visitors per URL of a %d-line web log, %d URLs" % (lines, urls))


def lib(out, paths=4096):
    """LIB (GPGPU-Sim's suite): NPATH 4,096 paths in 64 blocks of 64 (the ci
    input: its rates and timesteps are lib.cu's constants)."""
    out.buffer("value", "f32", paths)
    out.buffer("shocks", "f32", 28 * paths, random_init(-1.7320508, 1.7320508, 214))
    out.buffer("lambda", "f32", 56, random_init(0.15, 0.25, 215))
    out.launch("lib_path", [blocks(paths, 64)], [64], ["value", "shocks", "lambda", paths])
    out.facts.update(paths=paths)
    out.write("LIB: %d LIBOR paths of 56 rates over 28 timesteps, one launch" % paths)


PROGRAMS = {"lib": lib, "mst": mst, "pvc": pvc, "pvr": pvr, "sp": sp, "sssp": sssp}

if __name__ == "__main__":
    main(PROGRAMS)
