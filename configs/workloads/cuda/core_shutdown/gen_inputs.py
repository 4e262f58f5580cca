#!/usr/bin/python3
"""Writes the core-shutdown suite's input graphs: a road-network-like graph for
SSSP (as LonestarGPU's USA road inputs: a grid with missing segments and short
highways), and for MST an undirected road-like graph with random weights (each
edge stored both ways with one id) and mst.json, whose Boruvka rounds (5 launch
entries each) are as many as the host loop runs on this input: rounds until one
merges nothing, that last one included; PVC's web log (URLs drawn with a
Zipf-like popularity) and pvc.json's bitonic launch list; PVR's log (the same
format, the client a 32-bit id from a pool of 1024) and pvr.json; SP's random
3-SAT formula (clause literals and each variable's edges in CSR).

Deterministic (numpy's PCG64 with fixed seeds; .npy through numpy.save).
Run from anywhere:  /usr/bin/python3 configs/workloads/cuda/core_shutdown/gen_inputs.py
"""
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))  # workload_file.py, shared by the suites
import workload_file  # noqa: E402

# Each workload's paper scale (gen_paper.py): the program, then the cuts of README.md's "Paper scale".
PAPER_ARGS = {"mst": ["mst"], "pvc": ["pvc"], "pvr": ["pvr"]}


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


def boruvka_rounds(nodes, undirected, weight):
    """Rounds of mst.cu's Boruvka until a round merges nothing, that one included:
    per component the lightest leaving edge by (weight, edge id), a root hooks
    under its partner (of a mutual pair the smaller id stays root), pointer
    jumping until flat, every node relabelled."""
    edges = len(undirected)
    key = weight.astype(np.int64) * edges + np.arange(edges)
    comp, rounds, none = np.arange(nodes), 0, np.iinfo(np.int64).max
    while True:
        rounds += 1
        a, b = comp[undirected[:, 0]], comp[undirected[:, 1]]
        crossing = a != b
        if not crossing.any():
            return rounds
        best = np.full(nodes, none)
        np.minimum.at(best, a[crossing], key[crossing])
        np.minimum.at(best, b[crossing], key[crossing])
        roots = np.flatnonzero(best != none)
        edge = best[roots] % edges
        ends_a, ends_b = comp[undirected[edge, 0]], comp[undirected[edge, 1]]
        partner = np.arange(nodes)
        partner[roots] = np.where(ends_a == roots, ends_b, ends_a)
        parent = partner.copy()
        stays = roots[(partner[partner[roots]] == roots) & (roots < partner[roots])]
        parent[stays] = stays
        while True:
            jumped = parent[parent]
            if np.array_equal(jumped, parent):
                break
            parent = jumped
        comp = parent[comp]


def mst_graph(width=192, height=128, max_weight=1000):
    rng = np.random.default_rng(212)
    pairs = road_edges(rng, width, height)
    nodes = width * height
    undirected = pairs[pairs[:, 0] < pairs[:, 1]]
    weight = rng.integers(1, max_weight + 1, size=len(undirected))
    ids = {(int(u), int(v)): i for i, (u, v) in enumerate(undirected)}
    row_ptr, order = csr(nodes, pairs[:, 0], pairs[:, 1])
    ordered = pairs[order]
    save("mst", "row_ptr", row_ptr)
    save("mst", "col", ordered[:, 1])
    save("mst", "edge_id", [ids[(min(u, v), max(u, v))] for u, v in ordered.tolist()])
    save("mst", "weight", weight, np.uint32)
    rounds = boruvka_rounds(nodes, undirected, weight)
    write_mst_workload(nodes, len(ordered), len(undirected), rounds, width, height)
    return len(undirected), rounds


def write_mst_workload(nodes, entries, edges, rounds, width, height):
    grid, block = [(nodes + 127) // 128], [128]
    graph = ["row_ptr", "col", "edge_id", "weight"]
    one_round = [
        {"kernel": "mst_find_min", "grid": grid, "block": block, "args": graph + ["comp", "best", nodes]},
        {"kernel": "mst_find_min2", "grid": grid, "block": block, "args": graph + ["comp", "best", "partner", nodes]},
        {"kernel": "mst_hook", "grid": grid, "block": block, "args": ["comp", "best", "partner", "parent", "in_tree", nodes]},
        {"kernel": "mst_jump", "grid": grid, "block": block, "args": ["comp", "parent", "changed", nodes],
         "while_nonzero": {"buffer": "changed", "max": 1000}},
        {"kernel": "mst_relabel", "grid": grid, "block": block, "args": ["comp", "parent", "best", nodes]},
    ]
    buffers = {
        "row_ptr": {"type": "s32", "count": nodes + 1, "init": {"file": "row_ptr.npy"}},
        "col": {"type": "s32", "count": entries, "init": {"file": "col.npy"}},
        "edge_id": {"type": "s32", "count": entries, "init": {"file": "edge_id.npy"}},
        "weight": {"type": "u32", "count": edges, "init": {"file": "weight.npy"}},
        "comp": {"type": "s32", "count": nodes, "init": {"iota": {"start": 0, "step": 1}}},
        "best": {"type": "u32", "count": nodes, "init": {"fill": 4294967295}},
        "partner": {"type": "s32", "count": nodes},
        "parent": {"type": "s32", "count": nodes},
        "in_tree": {"type": "u32", "count": edges},
        "changed": {"type": "u32", "count": 1},
    }
    header = (f"// MST: Boruvka on a {width} x {height} road-like graph ({edges} weighted undirected edges),\n"
              f"// {rounds} rounds (the last merges nothing). Written by gen_inputs.py.\n")
    write_workload("mst", header, buffers, one_round * rounds)


def sp_formula(variables=1024, clauses=4096):
    """A random 3-SAT formula (3 distinct variables per clause, each negated with
    probability 1/2; clause/variable ratio 4.0) and each variable's edges in CSR."""
    rng = np.random.default_rng(216)
    clause_var = np.array([rng.choice(variables, 3, replace=False) for _ in range(clauses)]).reshape(-1)
    save("sp", "clause_var", clause_var)
    save("sp", "negated", rng.integers(0, 2, size=3 * clauses), np.uint8)
    var_row, order = csr(variables, clause_var, np.arange(3 * clauses))
    save("sp", "var_row", var_row)
    save("sp", "var_edges", order)


def web_log(seed, lines, urls, line_bytes=32, url_bytes=24):
    """A web log: each line's URL (Zipf-like popularity) NUL-padded in its first
    url_bytes, then client address and time (random bytes)."""
    rng = np.random.default_rng(seed)
    words = ["news", "sport", "wiki", "shop", "mail", "img", "docs", "blog"]
    names = [f"/{words[u % 8]}/{words[(u // 8) % 8]}/p{u}.html" for u in range(urls)]
    popularity = 1.0 / np.arange(1, urls + 1)
    picks = rng.choice(urls, size=lines, p=popularity / popularity.sum())
    log = np.zeros((lines, line_bytes), dtype=np.uint8)
    for row, u in enumerate(picks):
        url = names[u].encode()[:url_bytes]
        log[row, :len(url)] = list(url)
        log[row, url_bytes:] = rng.integers(0, 256, line_bytes - url_bytes)  # client address and time, binary
    return rng, log


def bitonic_launches(kernel, grid, block, buffers, count):
    """One launch per (k, j) step of a bitonic sort of `count` elements."""
    launches, k = [], 2
    while k <= count:
        j = k // 2
        while j > 0:
            launches.append({"kernel": kernel, "grid": grid, "block": block, "args": buffers + [j, k]})
            j //= 2
        k *= 2
    return launches


def write_workload(name, header, buffers, launches):
    workload_file.write(HERE, name, header, PAPER_ARGS[name], buffers, launches)


def map_sort_reduce(name, log, lines, line_bytes, key_type, out, header):
    """A Mars-like job over a web log: `<name>_map` writes a key per line, `<name>_bitonic`
    sorts them (one launch per step), `<name>_reduce` writes `out`. header(steps) is the
    workload's comment."""
    save(name, "log", log, np.uint8)
    grid, block = [lines // 128], [128]
    launches = [{"kernel": f"{name}_map", "grid": grid, "block": block, "args": ["log", "keys", "lines", lines]}]
    launches += bitonic_launches(f"{name}_bitonic", grid, block, ["keys", "lines"], lines)
    launches.append({"kernel": f"{name}_reduce", "grid": grid, "block": block, "args": ["keys", out, lines]})
    buffers = {
        "log": {"type": "u8", "count": lines * line_bytes, "init": {"file": "log.npy"}},
        "keys": {"type": key_type, "count": lines},
        "lines": {"type": "s32", "count": lines},
        out: {"type": "s32", "count": lines},
    }
    write_workload(name, header(len(launches) - 2), buffers, launches)


def pvc_log(lines=16384, urls=512, line_bytes=32):
    _, log = web_log(213, lines, urls, line_bytes)
    map_sort_reduce("pvc", log, lines, line_bytes, "u32", "views", lambda steps: (
        f"// PVC: page view counts of a {lines}-line web log ({urls} URLs, Zipf-like popularity):\n"
        f"// map, {steps} bitonic sort steps, reduce. Written by gen_inputs.py.\n"))


def pvr_log(lines=16384, urls=512, clients=1024, line_bytes=32, url_bytes=24):
    """PVC's log format with the client address a 32-bit id (little-endian, after the URL)
    drawn uniformly from `clients`, so visitors return."""
    rng, log = web_log(218, lines, urls, line_bytes, url_bytes)
    client = rng.integers(0, clients, size=lines).astype("<u4")
    log[:, url_bytes:url_bytes + 4] = client.view(np.uint8).reshape(lines, 4)
    map_sort_reduce("pvr", log, lines, line_bytes, "u64", "visitors", lambda steps: (
        f"// PVR: distinct visitors of each URL in a {lines}-line web log ({urls} URLs, Zipf-like\n"
        f"// popularity, {clients} clients): map, {steps} bitonic sort steps of (URL hash, client)\n"
        f"// keys, reduce. Written by gen_inputs.py.\n"))


if __name__ == "__main__":
    print("sssp edges", sssp_graph())
    print("mst edges, rounds", mst_graph())
    pvc_log()
    pvr_log()
    sp_formula()
