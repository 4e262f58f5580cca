"""The generator protocol of paper-scale inputs (README.md beside this file, "Scales").

gpupm runs a program's paper-scale generator as

    python3 GENERATOR OUT_DIR PROGRAM [NAME=VALUE ...]

(PYTHONPATH holding this folder, so `import paper_scale` works from any suite),
when `--scale paper` asks for inputs its cache lacks. The generator writes
OUT_DIR/workload.json, a program workload without "program" (gpupm runs the
declaring workload's .cu), and the .npy files it names; gpupm renames OUT_DIR
into the cache when it succeeds. The output must be the same bytes on every
machine: use Rng below (numpy's PCG64 bit stream, which numpy keeps stable, and
only +, -, *, /, sqrt and integer arithmetic on it, never numpy's distributions
or transcendental functions, whose last bits vary between builds and CPUs),
write arrays with Output.array (.npy 1.0 written here) and never sum floats in
an order numpy may choose.

A suite's generator is a table of programs: main({"kmeans": kmeans, ...}).
Each program is a function f(out, **sizes) whose keyword defaults are the paper
sizes; NAME=VALUE arguments (integers) override them, which the tests use to
generate a reduced size quickly.
"""
import json
import os
import sys

import numpy as np


class Rng:
    """Deterministic draws from one PCG64 stream (random_raw: numpy's stable bit
    stream), with the names and arguments of numpy's Generator methods that the
    suites' generators use, so a ci generator function takes it as its `rng`."""

    def __init__(self, seed):
        self.bits = np.random.PCG64(seed)

    def _raw(self, size):
        n = int(np.prod(size)) if size is not None else 1
        return self.bits.random_raw(n).astype(np.uint64), size

    @staticmethod
    def _shaped(values, size):
        return values.reshape(size) if size is not None else values[0]

    def random(self, size=None, dtype=np.float64):
        """[0, 1): 53 random bits (float64) or 24 (float32)."""
        raw, size = self._raw(size)
        if np.dtype(dtype) == np.float32:
            return self._shaped(((raw >> np.uint64(40)).astype(np.float32) * np.float32(2.0 ** -24)), size)
        return self._shaped((raw >> np.uint64(11)).astype(np.float64) * (2.0 ** -53), size)

    def uniform(self, low=0.0, high=1.0, size=None):
        return low + (high - low) * self.random(size)

    def integers(self, low, high=None, size=None):
        """int64 in [low, high), high - low < 2^32: the high 32 bits times the span (Lemire's method)."""
        if high is None:
            low, high = 0, low
        raw, size = self._raw(size)
        v = (((raw >> np.uint64(32)) * np.uint64(high - low)) >> np.uint64(32)).astype(np.int64) + low
        return self._shaped(v, size)

    def normal(self, loc=0.0, scale=1.0, size=None):
        """Approximately normal: 4 uniforms summed, centred and scaled to unit variance (Irwin-Hall)."""
        s = self.random(size) + self.random(size) + self.random(size) + self.random(size)
        return loc + scale * (s - 2.0) * np.sqrt(3.0)

    def geometric(self, p, size):
        """Trials up to the first success (>= 1), counted trial by trial (no logarithm)."""
        n = int(np.prod(size))
        trials = np.ones(n, np.int64)
        live = np.arange(n)
        while live.size:
            failed = self.random(live.size) >= p
            live = live[failed]
            trials[live] += 1
        return trials.reshape(size)

    def choice(self, values, size):
        return np.asarray(values)[self.integers(0, len(values), size)]


def npy_bytes(array):
    """A 1-D array as .npy format 1.0 (little-endian, C order), header padded to 64 bytes."""
    a = np.ascontiguousarray(array).reshape(-1)
    descr = a.dtype.newbyteorder("<").str if a.dtype.itemsize > 1 else a.dtype.str.replace(">", "|").replace("<", "|")
    header = "{'descr': '%s', 'fortran_order': False, 'shape': (%d,), }" % (descr, a.size)
    pad = 64 - (10 + len(header) + 1) % 64
    header = header + " " * (pad % 64) + "\n"
    return b"\x93NUMPY\x01\x00" + len(header).to_bytes(2, "little") + header.encode("ascii") + a.astype(descr).tobytes()


TYPES = {"u8": np.uint8, "s32": np.int32, "u32": np.uint32, "s64": np.int64, "u64": np.uint64,
         "f32": np.float32, "f64": np.float64}


class Output:
    """The generated workload: buffers, launches, description; write() saves workload.json."""

    def __init__(self, folder, name):
        self.folder, self.name = folder, name
        self.buffers, self.launches = {}, []
        self.files = {}  # NAME.npy written: (buffer type, elements)
        self.facts = {}  # sizes the tests and the README state (the workload's "description" ends with them)

    def save(self, program, name, array):
        """Writes NAME.npy (the ci generators' save(program, name, array); the program is this one)."""
        a = np.ascontiguousarray(array).reshape(-1)
        kind = next(t for t, d in TYPES.items() if a.dtype == d)
        with open(os.path.join(self.folder, name + ".npy"), "wb") as f:
            f.write(npy_bytes(a))
        self.files[name] = (kind, int(a.size))

    def from_file(self, buffer, file=None):
        """A buffer initialised from FILE.npy (default: its own name) written by save()."""
        file = file or buffer
        kind, count = self.files[file]
        self.buffers[buffer] = {"type": kind, "count": count, "init": {"file": file + ".npy"}}

    def array(self, name, buffer_type, values):
        """A buffer initialised from NAME.npy holding VALUES as BUFFER_TYPE (u8, s32, f32, ...)."""
        a = np.ascontiguousarray(values, dtype=TYPES[buffer_type])
        self.save(self.name, name, a)
        self.from_file(name)
        return a

    def buffer(self, name, buffer_type, count, init=None):
        """A buffer of COUNT elements, zeros or INIT (fill, iota, random: the workload contract)."""
        self.buffers[name] = {"type": buffer_type, "count": int(count)}
        if init is not None:
            self.buffers[name]["init"] = init

    def launch(self, kernel, grid, block, args, **extra):
        entry = {"kernel": kernel, "grid": list(grid), "block": list(block), "args": list(args)}
        entry.update(extra)
        self.launches.append(entry)

    def write(self, description):
        facts = ", ".join("%s %s" % (k, v) for k, v in self.facts.items())
        doc = {"name": self.name, "description": description + (" [" + facts + "]" if facts else ""),
               "buffers": self.buffers, "launches": self.launches}
        with open(os.path.join(self.folder, "workload.json"), "w") as f:
            json.dump(doc, f, indent=1, sort_keys=True)
            f.write("\n")


def random_init(lo, hi, seed):
    """A buffer initialiser gpupm fills itself (nothing is written): uniform in [lo, hi], seeded."""
    return {"random": {"min": lo, "max": hi, "seed": seed}}


def blocks(n, per_block):
    """CTAs to cover n items, per_block each."""
    return -(-int(n) // int(per_block))


def main(programs):
    """GENERATOR OUT_DIR PROGRAM [NAME=VALUE ...]: runs programs[PROGRAM](Output, **sizes)."""
    if len(sys.argv) < 3 or sys.argv[2] not in programs:
        sys.exit("usage: %s OUT_DIR PROGRAM [NAME=VALUE ...]; PROGRAM one of %s"
                 % (os.path.basename(sys.argv[0]), ", ".join(sorted(programs))))
    folder, program = sys.argv[1], sys.argv[2]
    sizes = {}
    for arg in sys.argv[3:]:
        name, _, value = arg.partition("=")
        if not name or not value.lstrip("-").isdigit():
            sys.exit("expected NAME=INTEGER, got %r" % arg)
        sizes[name] = int(value)
    os.makedirs(folder, exist_ok=True)
    out = Output(folder, program)
    programs[program](out, **sizes)
