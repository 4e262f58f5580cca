#!/usr/bin/env python3
"""Register correspondence by name on a Yosys equivalence miter: an inductive proof that needs only a
combinational check.

Input: the AIGER miter synth.py builds (`miter -equiv -flatten gold gate`, async2sync, every flip-flop
initially 0, `write_aiger -zinit -vmap`), whose one output is 1 when the two designs' outputs differ.
The vmap names the literal of every wire bit; a register bit's wire (gold.age_q[3], gate.age_q[3]) is,
while rst_ni is high, the output of its flip-flop. Flip-flops whose wires share a name form a class
(a flip-flop one design keeps in copies and the other merged makes a class of several).

The check written out (a combinational AIGER): every flip-flop is cut, the members of a class share one
free input, and the outputs are the miter's output and, per class, the XOR of each member's next state
with the first member's. All outputs 0 for every input and every shared state means: from any state
where each class agrees, the next state agrees again and the designs' outputs are equal. The initial
state (all 0) agrees, so by induction over cycles the outputs are equal in every cycle of every input
sequence, rst_ni included. The classes are only a hypothesis the check tests: a wrong or missing pairing
can make it fail (not proven), never pass wrongly; a flip-flop in no class is a free input.

Usage: regcorr.py MITER.aig MITER.vmap OUT.aig   (writes OUT.aig and OUT.aig.labels, one line per output)
"""

import re
import sys
from collections import defaultdict


def read_aig(path):
    """Binary AIGER (no symbol table needed): inputs, latches (next state), outputs, AND gates."""
    data = open(path, "rb").read()
    nl = data.index(b"\n")
    head = data[:nl].split()
    if head[0] != b"aig" or len(head) != 6:
        raise ValueError(f"{path}: not a binary AIGER file with one header of 5 counts")
    _, ni, nlatch, nout, nand = map(int, head[1:6])
    pos = nl + 1
    latches, outputs = [], []
    for _ in range(nlatch):
        end = data.index(b"\n", pos)
        fields = list(map(int, data[pos:end].split()))
        if len(fields) > 1 and fields[1] != 0:
            raise ValueError(f"{path}: a latch whose initial value is not 0 (write_aiger -zinit expected)")
        latches.append(fields[0])
        pos = end + 1
    for _ in range(nout):
        end = data.index(b"\n", pos)
        outputs.append(int(data[pos:end]))
        pos = end + 1

    def varint():
        nonlocal pos
        value, shift = 0, 0
        while True:
            byte = data[pos]
            pos += 1
            value |= (byte & 0x7F) << shift
            shift += 7
            if not byte & 0x80:
                return value

    ands = []
    for k in range(nand):
        lhs = 2 * (ni + nlatch + k + 1)
        rhs0 = lhs - varint()
        ands.append((lhs, rhs0, rhs0 - varint()))
    return ni, latches, outputs, ands


def write_aig(path, num_inputs, outputs, ands):
    """A combinational binary AIGER; `ands` in order, the k-th defining variable num_inputs + k + 1."""
    with open(path, "wb") as f:
        f.write(f"aig {num_inputs + len(ands)} {num_inputs} 0 {len(outputs)} {len(ands)}\n".encode())
        f.write("".join(f"{o}\n" for o in outputs).encode())
        out = bytearray()
        for lhs, rhs0, rhs1 in ands:
            rhs0, rhs1 = max(rhs0, rhs1), min(rhs0, rhs1)
            for delta in (lhs - rhs0, rhs0 - rhs1):
                while delta >= 0x80:
                    out.append((delta & 0x7F) | 0x80)
                    delta >>= 7
                out.append(delta)
        f.write(out)


def read_vmap(path):
    """The reset input's literal and, per wire name without its gold./gate. prefix, each side's bit literals."""
    reset_lit, wires = None, defaultdict(dict)
    for line in open(path):
        kind, index, bit, name = line.split(maxsplit=3)
        name = name.strip()
        if kind == "input" and name == "in_rst_ni":
            reset_lit = 2 * (int(index) + 1)
        elif kind == "wire":
            m = re.match(r"(gold|gate)\.(.*)$", name)
            if m:
                wires[m.group(2)].setdefault(m.group(1), {})[int(bit)] = int(index)
    return reset_lit, wires


class Miter:
    def __init__(self, aig):
        self.num_inputs, self.latches, self.outputs, self.ands = read_aig(aig)
        self.gate_of = {lhs >> 1: (r0, r1) for lhs, r0, r1 in self.ands}
        self.first_latch = self.num_inputs + 1

    def latch_of(self, var):
        k = var - self.first_latch
        return k if 0 <= k < len(self.latches) else None

    def fold(self, lit, reset_lit, depth=0):
        """`lit` with rst_ni high and constants folded, through a few AND levels: 0/1, an input or
        latch literal, or None (logic the fold does not reduce)."""
        if lit < 2:
            return lit
        if reset_lit is not None and lit >> 1 == reset_lit >> 1:
            return 1 ^ ((lit ^ reset_lit) & 1)
        var, neg = lit >> 1, lit & 1
        if var < self.first_latch + len(self.latches):
            return lit
        if depth >= 6 or var not in self.gate_of:
            return None
        a, b = (self.fold(r, reset_lit, depth + 1) for r in self.gate_of[var])
        if a == 0 or b == 0:
            folded = 0
        elif a == 1:
            folded = b
        elif b == 1:
            folded = a
        else:
            return None
        return None if folded is None else folded ^ neg

    def flop(self, lit, reset_lit):
        """(latch index, inverted) a wire shows while rst_ni is high, or None."""
        folded = self.fold(lit, reset_lit)
        if folded is None or folded < 2:
            return None
        k = self.latch_of(folded >> 1)
        return None if k is None else (k, folded & 1)


def classes_by_name(miter, reset_lit, wires):
    parent = list(range(len(miter.latches)))

    def find(k):
        while parent[k] != k:
            parent[k] = parent[parent[k]]
            k = parent[k]
        return k

    names, paired = {}, set()
    for name, sides in wires.items():
        if "gold" not in sides or "gate" not in sides:
            continue
        for bit, gold_lit in sides["gold"].items():
            if bit not in sides["gate"]:
                continue
            gold, gate = miter.flop(gold_lit, reset_lit), miter.flop(sides["gate"][bit], reset_lit)
            if not gold or not gate or gold[1] != gate[1]:
                continue
            parent[find(gate[0])] = find(gold[0])
            paired.update((gold[0], gate[0]))  # one latch when Yosys merged the two identical flip-flops
            for k in (gold[0], gate[0]):
                # a register's own name (lowRISC's _q) over the ports and views that show it
                if k not in names or (name.endswith("_q") and not names[k].rsplit("[", 1)[0].endswith("_q")):
                    names[k] = f"{name}[{bit}]"
    classes = defaultdict(list)
    for k in range(len(miter.latches)):
        classes[find(k)].append(k)
    return sorted(classes.values()), names, paired


def build(aig, vmap, out):
    """Writes the combinational check; returns its figures and the label of each output."""
    miter = Miter(aig)
    reset_lit, wires = read_vmap(vmap)
    classes, names, paired = classes_by_name(miter, reset_lit, wires)
    ni = miter.num_inputs
    var_map = {v: v for v in range(ni + 1)}
    next_var = ni + 1
    for members in classes:
        for k in members:
            var_map[miter.first_latch + k] = next_var
        next_var += 1
    num_inputs = next_var - 1
    ands = []

    def lit(x):
        return 2 * var_map[x >> 1] + (x & 1)

    for lhs, r0, r1 in miter.ands:
        var_map[lhs >> 1] = next_var
        ands.append((2 * next_var, lit(r0), lit(r1)))
        next_var += 1

    def and_gate(a, b):
        nonlocal next_var
        ands.append((2 * next_var, a, b))
        next_var += 1
        return ands[-1][0]

    def xor(a, b):
        return and_gate(and_gate(a, b ^ 1) ^ 1, and_gate(a ^ 1, b) ^ 1) ^ 1

    outputs = [lit(o) for o in miter.outputs]
    labels = [f"the miter's output {i} (the designs' outputs differ)" for i in range(len(outputs))]
    for members in classes:
        for k in members[1:]:
            outputs.append(xor(lit(miter.latches[members[0]]), lit(miter.latches[k])))
            labels.append(f"next state of {names.get(k, f'latch {k}')}")
    write_aig(out, num_inputs, outputs, ands)
    with open(str(out) + ".labels", "w") as f:
        f.write("\n".join(labels) + "\n")
    return {
        "latches": len(miter.latches),
        "classes": len(classes),
        "unpaired": sum(len(c) == 1 and c[0] not in paired for c in classes),
        "outputs": len(outputs),
        "labels": labels,
    }


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    figures = build(*sys.argv[1:4])
    print(f"{figures['latches']} flip-flops in {figures['classes']} classes ({figures['unpaired']} in no pair), "
          f"{figures['outputs']} outputs")
