#!/usr/bin/env python3
"""Synthesis, timing and equivalence report of the gpupm RTL blocks.

For each block (rtl/eq_sm_block.sv, rtl/vote_arbiter.sv, rtl/droop_predictor.sv,
rtl/stagger_unit.sv; default parameters):
  1. Yosys 0.23: read_verilog -sv, synth -flatten (the 8-bit popcount leaf
     popcount8 kept as a hierarchy boundary), dfflibmap + ABC with a
     delay-targeted script (buffering and gate sizing) onto the OSU 0.18 um
     standard cells; cells, flip-flops and area (um^2) from `stat -liberty`,
     a transistor estimate from `stat -tech cmos` on the generic gates.
  2. OpenSTA (`sta`): worst setup path at a relaxed clock, so the minimum
     period and maximum frequency follow; also register-to-register only and
     the reset recovery check. Judged against the GTX480 SM clock (700 MHz,
     805 MHz boosted) scaled from its 40 nm to 0.18 um with the feature size
     (periods x 4.5: 6.43 / 5.59 ns), not against 1.43 ns at 0.18 um.
  3. Pre/post-synthesis equivalence with Yosys: the elaborated RTL (gold)
     against the mapped netlist (gate, Liberty cell functions), equiv_make,
     equiv_simple, equiv_induct, equiv_status -assert; or, for a block whose
     "equiv_method" is abc_dprove (or with --equiv-method), ABC's sequential
     equivalence check (yosys-abc dprove) on a Yosys miter of the two; abc_regcorr:
     the flip-flops paired by name on that miter (regcorr.py) and the induction
     step proven by ABC's combinational checker.

Outputs: build/rtl_report.json and docs/rtl_report.md (paths can be changed),
work files under build/rtl_synth/<block>/.

The Liberty file comes from Debian's qflow-tech-osu018 package; if it is not
in the cache (build/osu018) it is fetched with `apt-get download` and unpacked
with `dpkg -x` (the package depends on all of qflow, so it is not installed).
Override with --liberty or GPUPM_OSU018_LIB.

Usage: scripts/rtl/synth.py [--blocks eq_sm_block vote_arbiter droop_predictor stagger_unit] [--no-equiv]
       [--period-ns 10] [--json PATH] [--markdown PATH] [--build-dir DIR]
       [--render-only]   (rewrite the Markdown from an existing JSON)
Takes a few minutes, most of it the equivalence proofs (stagger_unit's by register correspondence, about
30 s; Yosys's default proof does not finish at 15 SMs in 10 minutes).
--equiv-method abc_dprove proves every block that way; --equiv-netlist FILE proves FILE (e.g. a netlist with
a planted difference) instead of the block's own net_keep.v.
--gpu pascal_60sm: the blocks at the Pascal config's size (docs/rtl_report_pascal.md; the 60-SM
stagger unit takes about 12 minutes: 4 of synthesis, 5 of miter, 3 of proof), not part of the rtl_synth_report
ctest.
"""

import argparse
import difflib
import datetime
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import regcorr  # this folder's (on sys.path as synth.py's own folder)

REPO = Path(__file__).resolve().parents[2]
RTL = REPO / "rtl"

# The proof after equiv_make: equiv_simple (each $equiv cell on its own) then equiv_induct (the rest, default
# 4 steps). A block may set "equiv_proof" instead (the 60-SM blocks: see their path notes).
EQUIV_PROOF = ["equiv_simple", "equiv_induct"]
# One-step induction over every $equiv cell at once, no equiv_simple: every flip-flop has its $equiv cell, so
# "all equal in one cycle -> all equal in the next, for every input, the reset included" is the whole proof; it
# assumes less than the default 4-step induction (one equal cycle, not four), so it claims more.
EQUIV_PROOF_INDUCT1 = ["equiv_induct -seq 1"]
BLOCKS = {
    "eq_sm_block": {
        "sources": ["gpupm_pkg.sv", "popcount8.sv", "popcount.sv", "eq_warp_sample.sv", "eq_decision.sv",
                    "eq_sm_block.sv"],
        "params": {"WARPS": 48, "SAMPLE_LOG2": 7, "EPOCH_LOG2": 5},
        "scope": "one per SM",
        "path_note": "The four per-sample popcounts are registered (smp_*_q, the sample pipeline stage; "
                     "EqSmBlock's contract takes the sample one cycle before the accumulate cycle, so the epoch "
                     "still ends at cycle 4095 and no output moves). The worst path is now the sample front end "
                     "alone: xalu_def_i through the X_alu mask and the 48-bit popcount into smp_xalu_q, with the "
                     "inputs given no external delay. The epoch evaluation (sample register, 11-bit add, "
                     "Algorithm 1 comparators, hysteresis, num_blocks) is register-to-register. Before the "
                     "pipeline stage (commit 109e515) the popcounts sat on the evaluation path: 6.80 ns from "
                     "xmem_def_i to num_blocks_q (46 stages), 2443 cells, 115 flip-flops, 92058 um^2, 0.37 ns "
                     "over the scaled 700 MHz period and 1.21 ns over 805 MHz.",
    },
    "vote_arbiter": {
        "sources": ["gpupm_pkg.sv", "popcount8.sv", "popcount.sv", "vote_count.sv", "vote_arbiter.sv"],
        "params": {"N_SMS": 15},
        "scope": "one per GPU",
        "path_note": "The worst path runs from the votes through the COMP/MEM counters, the plurality / "
                     "majority comparisons, the mode/five-state decision and the busy counters' load.",
    },
    "droop_predictor": {
        "sources": ["gpupm_pkg.sv", "droop_predictor.sv"],
        "params": {"SLOTS": 2},
        "scope": "one per SM",
        "path_note": "From the history registers (or the candidate inputs) through the 9-bit limits h + t, "
                     "the slot running sums and the three comparators per slot to admit_o (combinational: "
                     "the dispatch unit's mask) and into h0_q through the admitted-estimate adder.",
    },
    "stagger_unit": {
        "sources": ["gpupm_pkg.sv", "popcount8.sv", "stagger_mult.sv", "stagger_unit.sv"],
        "params": {"N_SMS": 15, "REPORT_PERIOD": 10, "WINDOW_SLOTS": 3},
        # Proven at its own 15 SMs by register correspondence by name (about 30 s, the 60-SM row's method):
        # Yosys's default proof did not finish in 10 minutes, its one-step induction (EQUIV_PROOF_INDUCT1)
        # takes about 11, ABC's dprove about a minute (and cannot decide a difference BMC does not reach).
        "equiv_method": "abc_regcorr",
        "scope": "one per GPU",
        "path_note": "Two-stage pipeline. Stage 1 (the strobe's edge): age/transition update, per byte of 8 "
                     "SMs the pending SMs of age >= k (8-bit counts), their byte sums and each SM's count of "
                     "same-age SMs below it in its byte (its rank), rank -> m (rank mod groups from a constant "
                     "table), into the registered multipliers mult_q; stage 2 (the trigger cycle): step x m "
                     "(8 x 5 bits) into the 14-bit hold counters. In one cycle (rank, mod, multiply, counter "
                     "load) the path was 9.36 ns (7629 cells, 291 flip-flops, 288210 um^2); pipelined with one "
                     "15-bit popcount per SM over pairwise age comparisons and rank mod groups as a divider, "
                     "5.98 ns (7408 cells, 389 flip-flops, 295068 um^2).",
    },
}
# The blocks at the Pascal config's size (configs/gpu/pascal_60sm.json: 60 SMs, 64 warps per SM; the
# parameter sets Veq_sm_block_w64, Vvote_arbiter_n60, Vstagger_unit_n60 of rtl/rtl.cmake), judged against
# its clock: `--gpu pascal_60sm`, written to docs/rtl_report_pascal.md (not part of the ctest's report).
PASCAL_BLOCKS = {
    "eq_sm_block_w64": {
        "top": "eq_sm_block",
        "sources": BLOCKS["eq_sm_block"]["sources"],
        "params": {"WARPS": 64, "SAMPLE_LOG2": 7, "EPOCH_LOG2": 5},
        "scope": "one per SM",
        "path_note": "The GTX480 row's structure (registered per-sample popcounts) at 64 warps: 64-bit "
                     "popcounts on the sample front end, 12-bit epoch sums.",
    },
    "vote_arbiter_n60": {
        "top": "vote_arbiter",
        "sources": BLOCKS["vote_arbiter"]["sources"],
        "params": {"N_SMS": 60},
        "scope": "one per GPU",
        "equiv_proof": EQUIV_PROOF_INDUCT1,
        "path_note": "The GTX480 row's structure with 60 votes: the COMP/MEM counters are 60-input popcounts, "
                     "the path 42 stages against 32. Equivalence: one-step induction over all 867 $equiv cells at "
                     "once (equiv_induct -seq 1). The default proof (equiv_simple, then a 4-step equiv_induct) "
                     "did not finish in 600 s: equiv_simple tries each cell alone, with the other cycle's "
                     "flip-flops free, so each busy-counter cell is a SAT problem over the 60-vote counts.",
    },
    "stagger_unit_n60": {
        "top": "stagger_unit",
        "sources": BLOCKS["stagger_unit"]["sources"],
        "params": {"N_SMS": 60, "REPORT_PERIOD": 10, "WINDOW_SLOTS": 3},
        "scope": "one per GPU",
        # Register correspondence by name: equiv_induct -seq 1 had not finished after 22 minutes, abc_dprove
        # after 112 minutes on the 3619-latch, 158435-AND miter (ABC's &scorr alone gave up SAT calls at 10,000
        # conflicts and kept 3343 latches); paired by name, the check is one combinational proof.
        "equiv_method": "abc_regcorr",
        "path_note": "The GTX480 row's two-stage pipeline with 60 SMs (6-bit ranks). Ranks: per byte of 8 SMs, "
                     "the pending SMs of age >= k (3 x 8 counts of 8 bits), 24 byte sums (an age-a SM's rank "
                     "counts age >= a in the bytes below its own, age > a from its own byte up) shared by the "
                     "byte's SMs, plus one 8-bit count per SM of the same-age SMs below it in its byte. Before, "
                     "each SM had a 60-bit popcount over 60 pairwise age comparisons: every age "
                     "register fed about 120 comparators (a 1.80 ns clock-to-Q), stage 1 was 6.87 ns and stage "
                     "2 (rank mod groups as a divider, then step x m) 7.85 ns in 56908 cells. Above 32 SMs, none "
                     "changing a cycle: per 8 SMs one copy of the step, policy_i and groups (loaded on the detect "
                     "edge) and of the strobe (report_q == REPORT_PERIOD - 1, registered; decoded from report_q, "
                     "a report_q bit drove about 160 gates: flip-flop outputs are unbuffered inputs to ABC), each "
                     "always_ff with (* keep *), or Yosys merges the identical flip-flops; mult_q holds the "
                     "rank's two terms (the byte sum, the in-byte count) and stage 2 adds them and maps the rank "
                     "to m (rank mod groups from a constant table). The worst path is now the detection: a "
                     "pending register, an 8-bit count, the pending count (the byte counts' sum), the k_min "
                     "comparison and detect's buffers into the trigger counter. "
                     "Equivalence: register correspondence by name (each RTL flip-flop and the netlist's of the "
                     "same name start equal and, the check proves, stay equal; Yosys merges the eight strobe "
                     "copies of the netlist side into one in the miter, a class of nine), its induction step one "
                     "combinational proof by ABC's iprove.",
    },
}
GPUS = {
    # name: rows, SM clock and boosted clock (MHz), process node (nm), SM area basis
    "gtx480": {"blocks": BLOCKS, "mhz": 700.0, "boost_mhz": 805.0, "node_nm": 40.0},
    "pascal_60sm": {"blocks": PASCAL_BLOCKS, "mhz": 1417.0, "boost_mhz": 1629.55, "node_nm": 16.0},
}
ALL_BLOCKS = {**BLOCKS, **PASCAL_BLOCKS}
KEEP_HIERARCHY = ["popcount8", "stagger_mult"]  # equivalence cut points (rtl/popcount.sv, rtl/stagger_mult.sv)

# Scaling assumptions, stated in the report.
SM_CLOCK_MHZ = 700.0        # GTX480 core clock (GPGPU-Sim config)
SM_CLOCK_BOOST_MHZ = 805.0  # +15 % (Equalizer's high level)
FERMI_DIE_MM2 = 529.0       # GF100, 40 nm
FERMI_SMS = 16
NODE_NM = 180.0
FERMI_NODE_NM = 40.0

# ABC: delay-oriented mapping, then buffering and sizing (the default
# Liberty script does neither, which leaves 100-fanout strobes on an INVX1).
ABC_SCRIPT = """strash
&get -n
&fraig -x
&put
scorr
dc2
dretime
strash
&get -n
&dch -f
&nf -D {d}
&put
buffer -p
upsize -D {d}
dnsize -D {d}
stime -p
"""
# An aggressive delay target for the mapper (below any period reachable at 0.18 um, so ABC maps
# for delay everywhere), not the clock the report judges against (clock_targets_180nm()).
ABC_TARGET_PS = 1400

# STA environment: inputs driven by a BUFX2 with no external delay, outputs
# loaded with 10 fF (a few gate inputs); ideal clock.
INPUT_DRIVER = "BUFX2"
OUTPUT_LOAD_PF = 0.01


def log(msg):
    print(f"[synth] {msg}", flush=True)


def run(cmd, cwd, logfile, timeout=None):
    t0 = time.time()
    with open(logfile, "w") as f:
        try:
            p = subprocess.run(cmd, cwd=cwd, stdout=f, stderr=subprocess.STDOUT, timeout=timeout)
            rc = p.returncode
        except subprocess.TimeoutExpired:
            rc = None
    return rc, time.time() - t0


def find_liberty(args):
    if args.liberty:
        return Path(args.liberty)
    if os.environ.get("GPUPM_OSU018_LIB"):
        return Path(os.environ["GPUPM_OSU018_LIB"])
    installed = REPO / ".cache/osu018/usr/share/qflow/tech/osu018/osu018_stdcells.lib"  # scripts/install-deps.sh
    if installed.exists():
        return installed
    cache = Path(args.build_dir) / "osu018"
    lib = cache / "usr/share/qflow/tech/osu018/osu018_stdcells.lib"
    if lib.exists():
        return lib
    log(f"OSU 0.18 um Liberty not cached: fetching qflow-tech-osu018 into {cache}")
    cache.mkdir(parents=True, exist_ok=True)
    subprocess.run(["apt-get", "download", "qflow-tech-osu018"], cwd=cache, check=True)
    debs = sorted(glob.glob(str(cache / "qflow-tech-osu018_*.deb")))
    if not debs:
        sys.exit("apt-get download qflow-tech-osu018 produced no .deb")
    subprocess.run(["dpkg", "-x", debs[-1], str(cache)], check=True)
    if not lib.exists():
        sys.exit(f"{lib} missing after unpacking {debs[-1]}")
    return lib


def tool_version(cmd):
    try:
        out = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=30).stdout
        return out.strip().splitlines()[0] if out.strip() else "?"
    except (OSError, subprocess.TimeoutExpired):
        return "?"


def sta_version():
    try:
        out = subprocess.run(["sta", "-no_init", "-no_splash", "-exit", "/dev/null"], stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, text=True, timeout=30, input="").stdout
    except (OSError, subprocess.TimeoutExpired):
        return "?"
    m = re.search(r"OpenSTA\s+\S+", out)
    if m:
        return m.group(0)
    try:
        out = subprocess.run(["sta", "-version"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                             timeout=30).stdout.strip()
        return "OpenSTA " + out if out else "OpenSTA"
    except (OSError, subprocess.TimeoutExpired):
        return "OpenSTA"


# ---------------------------------------------------------------------------
# Yosys synthesis
# ---------------------------------------------------------------------------

def top_of(block):
    return ALL_BLOCKS[block].get("top", block)


def read_cmds(block, params=None):
    srcs = " ".join(str(RTL / s) for s in ALL_BLOCKS[block]["sources"])
    params = ALL_BLOCKS[block]["params"] if params is None else params
    top = top_of(block)
    chparams = "".join(f"chparam -set {k} {v} {top}\n" for k, v in params.items())
    return f"read_verilog -sv {srcs}\n{chparams}hierarchy -check -top {top}\n"


def parse_stat(text, module):
    """The `stat -liberty` section of one flat module: cell counts and chip area."""
    m = re.search(r"^=== " + re.escape(module) + r" ===\n(.*?)(?=^=== |\Z)", text, re.S | re.M)
    if not m:
        sys.exit(f"no statistics for module {module}")
    last = m.group(1)
    cells = {}
    for m in re.finditer(r"^\s+(\S+)\s+(\d+)\s*$", last, re.M):
        name = m.group(1)
        if name.startswith("$") or re.match(r"^[A-Z][A-Z0-9]*X\d$|^[A-Z0-9]+$", name):
            cells[name] = int(m.group(2))
    area = re.findall(r"Chip area for module '\\?[^']*': ([0-9.]+)", last)
    total = re.findall(r"Number of cells:\s+(\d+)", last)
    return cells, float(area[-1]) if area else None, int(total[0]) if total else None


def synthesize(block, lib, work, params=None):
    abc = work / "abc_speed.scr"
    abc.write_text(ABC_SCRIPT.format(d=ABC_TARGET_PS))
    top = top_of(block)
    # A leaf instantiated with parameters is a derived module ($paramod\<name>\<PARAM>=...).
    keep = "".join(f"setattr -mod -set keep_hierarchy 1 {m} $paramod\\{m}\\*\n" for m in KEEP_HIERARCHY)
    ys = (
        f"read_liberty -lib {lib}\n"  # cell port directions for `check`
        + read_cmds(block, params)
        + keep
        + f"synth -top {top} -flatten\n"
        + "tee -o generic_cmos.txt stat -tech cmos\n"
        + f"dfflibmap -liberty {lib}\n"
        + f"abc -liberty {lib} -script {abc}\n"
        + "opt_clean\n"
        + "check -assert\n"
        + "rename -wire -suffix _reg t:DFF* t:LATCH\n"  # flip-flops named after their Q wire
        + "write_verilog -noattr net_keep.v\n"   # names kept: equivalence check
        + "design -save mapped\n"
        + "setattr -mod -unset keep_hierarchy\n"
        + f"flatten\nhierarchy -top {top}\n"
        + f"tee -o stat_flat.txt stat -liberty {lib}\n"
        + "design -load mapped\n"
        + "opt_clean -purge\n"
        + "write_verilog -noattr -noexpr net_sta.v\n"  # no assigns/concats: OpenSTA's reader
    )
    (work / "synth.ys").write_text(ys)
    rc, secs = run(["yosys", "-q", "-l", "synth.log", "synth.ys"], work, work / "synth.stdout")
    if rc != 0:
        sys.exit(f"yosys synthesis of {block} failed, see {work}/synth.log")
    cells, area, total = parse_stat((work / "stat_flat.txt").read_text(), top)
    ffs = {k: v for k, v in cells.items() if k.startswith("DFF") or k == "LATCH"}
    cmos = (work / "generic_cmos.txt").read_text()
    cmos = cmos.split("=== design hierarchy ===")[-1] if "=== design hierarchy ===" in cmos else \
        cmos.split(f"=== {top} ===")[-1]
    m = re.search(r"Estimated number of transistors:\s+(\d+)(\+?)", cmos)
    return {
        "cells": total,
        "cell_types": cells,
        "flip_flops": sum(ffs.values()),
        "flip_flop_cells": ffs,
        "area_um2": area,
        "transistors_generic_estimate": int(m.group(1)) if m else None,
        "transistors_estimate_excludes_flops": bool(m and m.group(2)),
        "yosys_seconds": round(secs, 1),
    }


# ---------------------------------------------------------------------------
# OpenSTA
# ---------------------------------------------------------------------------

def parse_path(text):
    """One report_checks path: start, end, arrival, slack, setup, cells on it."""
    r = {}
    m = re.search(r"Startpoint: (\S+)(?: \(([^)]*)\))?", text)
    if m:
        r["startpoint"] = m.group(1) + (f" ({m.group(2)})" if m.group(2) else "")
    m = re.search(r"Endpoint: (\S+)(?: \(([^)]*)\))?", text)
    if m:
        r["endpoint"] = m.group(1) + (f" ({m.group(2)})" if m.group(2) else "")
    m = re.search(r"([-0-9.]+)\s+data arrival time", text)
    if m:
        r["arrival_ns"] = float(m.group(1))
    m = re.search(r"([-0-9.]+)\s+slack \((MET|VIOLATED)\)", text)
    if m:
        r["slack_ns"] = float(m.group(1))
    # Cell stages on the data path (lines like "0.161  0.491 ^ _3115_/Y (NAND3X1)").
    r["stages"] = len(re.findall(r"^\s+[-0-9.]+\s+[-0-9.]+\s+[v^]\s+\S+/\S+\s+\(([A-Z0-9]+)\)", text, re.M))
    return r


def timing(block, lib, work, period):
    # rst_ni, like clk_i, is a net a buffer tree distributes after placement (which this flow
    # does not do): timed as ideal. The recovery check is also reported with rst_ni driven by one
    # INPUT_DRIVER into every flip-flop's R/S pin, which is what an unbuffered net would cost.
    inputs = "[delete_from_list [all_inputs] [get_ports {clk_i rst_ni}]]"
    tcl = f"""read_liberty {lib}
read_verilog net_sta.v
link_design {top_of(block)}
create_clock -name clk -period {period} [get_ports clk_i]
set_input_delay 0 -clock clk [delete_from_list [all_inputs] [get_ports clk_i]]
set_output_delay 0 -clock clk [all_outputs]
set_driving_cell -lib_cell {INPUT_DRIVER} -pin Y {inputs}
set_load {OUTPUT_LOAD_PF} [all_outputs]
puts "=== worst"
report_checks -path_delay max -path_group clk -digits 3
puts "=== reg2reg"
report_checks -path_delay max -from [all_registers -clock_pins] -to [all_registers -data_pins] -digits 3
puts "=== recovery"
report_checks -path_delay max -path_group **async_default** -digits 3
set_driving_cell -lib_cell {INPUT_DRIVER} -pin Y [get_ports rst_ni]
puts "=== recovery_unbuffered"
report_checks -path_delay max -path_group **async_default** -digits 3
puts "=== end"
"""
    (work / "sta.tcl").write_text(tcl)
    rc, _ = run(["sta", "-no_init", "-exit", "sta.tcl"], work, work / "sta.log")
    text = (work / "sta.log").read_text()
    if rc != 0 or "=== end" not in text:
        sys.exit(f"OpenSTA on {block} failed, see {work}/sta.log")
    if re.search(r"^Error", text, re.M):
        sys.exit(f"OpenSTA reported errors on {block}, see {work}/sta.log")
    sections = dict(re.findall(r"=== (\w+)\n(.*?)(?==== )", text, re.S))
    worst = parse_path(sections.get("worst", ""))
    reg2reg = parse_path(sections.get("reg2reg", ""))
    recovery = parse_path(sections.get("recovery", ""))
    unbuffered = parse_path(sections.get("recovery_unbuffered", ""))
    out = {"analysis_period_ns": period, "worst": worst, "reg2reg": reg2reg, "reset_recovery": recovery,
           "reset_recovery_unbuffered": unbuffered}
    if "slack_ns" in worst:
        min_period = period - worst["slack_ns"]  # arrival + setup, ideal clock
        out["min_period_ns"] = round(min_period, 3)
        out["fmax_mhz"] = round(1000.0 / min_period, 1)
        scaled = min_period * FERMI_NODE_NM / NODE_NM
        out["min_period_ns_scaled_40nm"] = round(scaled, 3)
        out["fmax_mhz_scaled_40nm"] = round(1000.0 / scaled, 1)
        for name, mhz in (("700MHz", SM_CLOCK_MHZ), ("805MHz", SM_CLOCK_BOOST_MHZ)):
            out[f"meets_{name}_at_180nm"] = out["fmax_mhz"] >= mhz
            out[f"meets_{name}_scaled_40nm"] = out["fmax_mhz_scaled_40nm"] >= mhz
            target = clock_targets_180nm()[name]
            out[f"target_period_ns_180nm_{name}"] = round(target, 3)
            out[f"slack_ns_180nm_{name}"] = round(target - min_period, 3)
    if "slack_ns" in reg2reg:
        out["reg2reg_min_period_ns"] = round(period - reg2reg["slack_ns"], 3)
    return out


# ---------------------------------------------------------------------------
# Equivalence
# ---------------------------------------------------------------------------

def gold_gate_cmds(block, lib, params=None, netlist="net_keep.v", gold_lowering=""):
    """Yosys commands leaving two modules: gold (the RTL after proc, flatten, then gold_lowering) and gate (the
    mapped netlist read with the Liberty cell functions, flattened)."""
    return (
        read_cmds(block, params)
        + "proc\nflatten\nopt_clean\n" + gold_lowering
        + f"rename {top_of(block)} gold\ndesign -stash gold\n"
        + f"read_liberty -ignore_miss_func {lib}\n"
        + f"read_verilog {netlist}\n"
        + f"hierarchy -check -top {top_of(block)}\nflatten\nopt_clean\n"
        + f"rename {top_of(block)} gate\ndesign -stash gate\n"
        + "design -copy-from gold -as gold gold\n"
        + "design -copy-from gate -as gate gate\n"
    )


def equivalence(block, lib, work, timeout, params=None, proof=None, netlist="net_keep.v"):
    proof = proof or ALL_BLOCKS[block].get("equiv_proof", EQUIV_PROOF)
    ys = (
        gold_gate_cmds(block, lib, params, netlist)
        + "equiv_make gold gate equiv\n"
        + "hierarchy -top equiv\n"
        + "async2sync\n"
        + "".join(f"{step}\n" for step in proof)
        + "equiv_status -assert\n"
    )
    (work / "equiv.ys").write_text(ys)
    rc, secs = run(["yosys", "-q", "-l", "equiv.log", "equiv.ys"], work, work / "equiv.stdout", timeout)
    text = (work / "equiv.log").read_text() if (work / "equiv.log").exists() else ""
    m = re.findall(r"Found (\d+) \$equiv cells in equiv:\s*\n\s*Of those cells (\d+) are proven and (\d+) are unproven",
                   text)
    res = {
        "method": f"yosys equiv_make, {', '.join(proof)}, equiv_status -assert, RTL (proc+flatten) vs "
                  "mapped netlist with Liberty cell functions, async resets via async2sync",
        "seconds": round(secs, 1),
    }
    if rc is None:
        res["status"] = "timeout"
    elif rc == 0 and "Equivalence successfully proven" in text:
        res["status"] = "pass"
    else:
        res["status"] = "fail"
    if m:
        total, proven, unproven = map(int, m[-1])
        res.update({"equiv_cells": total, "proven": proven, "unproven": unproven})
    return res


# Sequential equivalence by ABC (yosys-abc's dprove) on a miter of gold and gate: Yosys builds the miter (its
# one output is 1 when any output differs), makes the asynchronous resets synchronous (async2sync: a reset
# forces the flip-flops' outputs and next state to their reset values), gives every flip-flop of both designs
# the initial value 0 and writes an AIGER file; dprove (BMC, then register correspondence by induction,
# fraiging, k-step induction, interpolation, PDR) either proves the output 0 in every cycle, finds a
# counterexample trace or gives up (undecided). Proven: from the state where every flip-flop of both designs is
# 0, for every input sequence, rst_ni included, the outputs are equal in every cycle. A first cycle with rst_ni
# low takes both designs to their reset states, so that covers every sequence after a reset.
ABC_DPROVE = "dprove -v -C 100000 -G 100000000"


# The RTL to generic gates before the miter, one module at a time: the 60-SM stagger unit's rank -> m table
# lookups ($shiftx over 1536 constant bits, 60 of them) become 2.4 million cells in techmap before opt_expr
# folds them to 155 thousand; in the miter, with the netlist beside them, Yosys passed 14 GB in that opt_expr.
# wreduce first narrows the 32-bit index multiplications.
GOLD_TO_GATES = "opt_expr\nwreduce\ntechmap\nopt_expr\nopt_clean\n"


def miter_lowering(map_option="-map miter.aim"):
    """From the stashed gold and gate designs to the miter's AIGER file (and its map)."""
    return (
        "miter -equiv -flatten gold gate miter\n"
        + "hierarchy -top miter\n"
        + "select -assert-none t:$dlatch t:$adlatch t:$_DLATCH* t:$_DLATCHSR*\n"
        + "async2sync\ndffunmap\ntechmap\nopt -fast -nodffe -nosdff\ndffunmap\n"
        + "setundef -zero -init\n"  # init 0; an x the RTL may hold becomes 0 (one of its values: a pass stays sound)
        + "aigmap\nopt_clean\n"
        # AIGER has one implicit clock: only AND/NOT gates and rising-edge flip-flops on in_clk_i may remain
        + "select -assert-none t:* t:$_AND_ t:$_NOT_ t:$_DFF_P_ %u %u %d\n"
        + "select -assert-none t:$_DFF_P_ %x:+[C] t:$_DFF_P_ %d w:in_clk_i %d\n"
        + "tee -o miter_stat.txt stat\n"
        + f"write_aiger -zinit {map_option} miter.aig\n"
    )


def miter_cmds(block, lib, params=None, netlist="net_keep.v", map_option="-map miter.aim"):
    return gold_gate_cmds(block, lib, params, netlist, GOLD_TO_GATES) + miter_lowering(map_option)


def equivalence_abc(block, lib, work, timeout, params=None, netlist="net_keep.v"):
    """Sequential equivalence of the RTL and the mapped netlist by ABC's dprove (see ABC_DPROVE)."""
    res = {
        "method": f"ABC {ABC_DPROVE} (yosys-abc) on a Yosys miter (miter -equiv) of the RTL (proc, flatten, "
                  "techmap) and the mapped netlist with Liberty cell functions, async resets via async2sync, every "
                  "flip-flop of both initially 0: outputs equal in every cycle for every input sequence",
    }
    miter_secs, failed = build_miter(block, lib, work, timeout, params, netlist, "miter.aim")
    res["miter_seconds"] = round(miter_secs, 1)
    if failed:
        return {**res, **failed}
    rc, text = run_abc(f"read_aiger miter.aig; print_stats; {ABC_DPROVE}", work, "dprove.log", timeout, res)
    m = re.search(r"i/o =\s*(\d+)/\s*(\d+)\s+lat =\s*(\d+)\s+and =\s*(\d+)", text)
    if m:
        res["aig"] = dict(zip(("inputs", "outputs", "latches", "ands"), map(int, m.groups())))
    cex = re.search(r"asserted in frame (\d+)", text)
    if rc is None:
        res.update({"status": "timeout", "result": "not finished"})
    elif "Networks are equivalent" in text:
        res.update({"status": "pass", "result": "equivalent"})
    elif "Networks are not equivalent" in text:
        res.update({"status": "fail", "result": "counterexample" + (f" in frame {cex.group(1)}" if cex else "")})
    else:
        res.update({"status": "fail", "result": "undecided" if "UNDECIDED" in text else f"abc exit {rc}"})
    return res


def x_driven_wires_in_use(netlist_text):
    """Wires the netlist assigns an x constant and any cell or assignment then reads (setundef -zero makes
    every x 0: harmless on Yosys's leftover function-local wires, which nothing reads, an assumption if read)."""
    x_wires = re.findall(r"^\s*assign (\\\S+ |[\w.$]+)\s*(?:\[[\d:]+\])?\s*=\s*\d+'h?x+;", netlist_text, re.M)
    reads = [ln for ln in netlist_text.splitlines()
             if not re.match(r"\s*(wire|input|output|reg)\b", ln) and not re.search(r"=\s*\d+'h?x+;", ln)]
    text = "\n".join(reads)
    return sorted({w.strip() for w in x_wires if re.search(re.escape(w.strip()) + r"(?![\w$.])", text)})


def run_abc(script, work, log, timeout, res):
    """yosys-abc on `script` within what the miter left of `timeout`; adds its and the total seconds to `res`.
    Returns its exit code (None: timed out) and its log."""
    left = None if timeout is None else max(1.0, timeout - res["miter_seconds"])
    rc, secs = run(["yosys-abc", "-c", script], work, work / log, left)
    res["abc_seconds"] = round(secs, 1)
    res["seconds"] = round(res["miter_seconds"] + secs, 1)
    return rc, (work / log).read_text()


def build_miter(block, lib, work, timeout, params, netlist, map_file):
    """The miter's AIGER file (miter_cmds) and its map; None and the failure's result when not built."""
    read = x_driven_wires_in_use((work / netlist).read_text())
    if read:
        return 0.0, {"status": "fail", "seconds": 0.0,
                     "result": f"the netlist reads x constants ({', '.join(read[:3])}): not proven"}
    option = "-vmap" if map_file.endswith(".vmap") else "-map"
    (work / "miter.ys").write_text(miter_cmds(block, lib, params, netlist, f"{option} {map_file}"))
    for f in ("miter.aig", map_file):
        (work / f).unlink(missing_ok=True)
    rc, secs = run(["yosys", "-q", "-l", "miter.log", "miter.ys"], work, work / "miter.stdout", timeout)
    if rc != 0:
        return secs, {"status": "timeout" if rc is None else "fail", "seconds": round(secs, 1),
                      "result": "miter not built, see miter.log"}
    # write_aiger -zinit adds an input per uninitialized flip-flop: none may be there (setundef -init)
    names = [ln.split()[-1] for ln in (work / map_file).read_text().splitlines() if ln.startswith("input")]
    if any(not n.startswith("in_") for n in names):
        sys.exit(f"{block}: the miter has inputs that are not the blocks' inputs, see {work}/{map_file}")
    return secs, None


# Register correspondence by name (scripts/rtl/regcorr.py): each gold flip-flop and the gate flip-flop(s) of
# the same name share one free input, and ABC's iprove (fraiging with SAT) proves every output of the check
# (the designs' outputs differ; a class member's next state differs from its class's) constant 0: equal states
# give equal next states and outputs, and with the equal initial state that is an induction over cycles. For a
# netlist that keeps its registers and their names (synth.py's does), the sequential problem dprove cannot
# finish at 60 SMs (3619 latches) becomes one combinational proof. Not ABC's &cec -m: on a many-output check
# it can print "equivalent" for outputs that are 1 (regcorr_test.py's planted case: iprove finds it).
ABC_REGCORR = "iprove -v"


def equivalence_regcorr(block, lib, work, timeout, params=None, netlist="net_keep.v"):
    """Sequential equivalence by register correspondence by name, proven combinationally (see ABC_REGCORR)."""
    res = {
        "method": "register correspondence by name (scripts/rtl/regcorr.py) on a Yosys miter (miter -equiv) of "
                  "the RTL (proc, flatten, techmap) and the mapped netlist with Liberty cell functions, async "
                  f"resets via async2sync, every flip-flop of both initially 0; ABC {ABC_REGCORR} (yosys-abc) "
                  "proves equal states give equal next states and outputs: outputs equal in every cycle for "
                  "every input sequence",
    }
    miter_secs, failed = build_miter(block, lib, work, timeout, params, netlist, "miter.vmap")
    res["miter_seconds"] = round(miter_secs, 1)
    if failed:
        return {**res, **failed}
    figures = regcorr.build(work / "miter.aig", work / "miter.vmap", work / "regcorr.aig")
    res["flip_flops"] = figures["latches"]
    res["classes"] = figures["classes"]
    res["unpaired"] = figures["unpaired"]
    rc, text = run_abc(f"read_aiger regcorr.aig; print_stats; {ABC_REGCORR}", work, "regcorr.log", timeout, res)
    failing = re.search(r"^SATISFIABLE \(output = (\d+)\)", text, re.M)
    if rc is None:
        res.update({"status": "timeout", "result": "not finished"})
    elif rc == 0 and re.search(r"^UNSATISFIABLE", text, re.M) and not failing:
        res.update({"status": "pass", "result": "equivalent"})
    elif failing:
        index = int(failing.group(1))
        label = figures["labels"][index] if index < len(figures["labels"]) else f"output {index}"
        res.update({"status": "fail", "result": f"not proven: {label} differs"})
    else:
        res.update({"status": "fail", "result": "undecided" if "UNDECIDED" in text else f"abc exit {rc}"})
    return res


EQUIV_METHODS = {"yosys": equivalence, "abc_dprove": equivalence_abc, "abc_regcorr": equivalence_regcorr}


# ---------------------------------------------------------------------------
# Report
# ---------------------------------------------------------------------------

def clock_targets_180nm():
    """The SM clock's period scaled from the GTX480's 40 nm to 0.18 um (ns)."""
    scale = NODE_NM / FERMI_NODE_NM
    return {"700MHz": 1000.0 / SM_CLOCK_MHZ * scale, "805MHz": 1000.0 / SM_CLOCK_BOOST_MHZ * scale}


def sm_area_um2_scaled():
    sm_mm2 = FERMI_DIE_MM2 / FERMI_SMS
    return sm_mm2 * (NODE_NM / FERMI_NODE_NM) ** 2 * 1e6


# The Pascal config's GPU: GP102 (TITAN X Pascal), 16 nm, 471 mm^2, 30 SMs (pascal_60sm.json's SMs are GP102's).
PASCAL_DIE_MM2 = 471.0
PASCAL_SMS = 30


def pascal_clock_targets_180nm():
    g = GPUS["pascal_60sm"]
    scale = NODE_NM / g["node_nm"]
    return {"nominal": 1000.0 / g["mhz"] * scale, "boost": 1000.0 / g["boost_mhz"] * scale}


def pascal_sm_area_um2_scaled():
    return PASCAL_DIE_MM2 / PASCAL_SMS * (NODE_NM / GPUS["pascal_60sm"]["node_nm"]) ** 2 * 1e6


def pascal_timing(t):
    """The critical path against the Pascal config's SM clock, scaled from 16 nm to 0.18 um."""
    out = {}
    if "min_period_ns" not in t:
        return out
    scaled = t["min_period_ns"] * GPUS["pascal_60sm"]["node_nm"] / NODE_NM
    out["fmax_mhz_scaled_16nm"] = round(1000.0 / scaled, 1)
    for name, target in pascal_clock_targets_180nm().items():
        out[f"target_period_ns_180nm_{name}"] = round(target, 3)
        out[f"slack_ns_180nm_{name}"] = round(target - t["min_period_ns"], 3)
        out[f"slack_ns_180nm_gtx480_{name}"] = t.get("slack_ns_180nm_700MHz" if name == "nominal" else
                                                     "slack_ns_180nm_805MHz")
    return out


def params_cell(b):
    return ", ".join(f"{k}={v}" for k, v in b["parameters"].items())


def equivalence_cell(e):
    """The check's status, with what it proved and in how long (a timeout's time too)."""
    eq = e["status"]
    if "classes" in e:  # register correspondence by name, proven by ABC's iprove
        return (f"{eq} (register correspondence by name, ABC iprove: {e['result']}, {e['flip_flops']} flip-flops "
                f"in {e['classes']} classes, {e['seconds']:.0f} s)")
    if "result" in e:  # ABC's dprove
        latches = f", {e['aig']['latches']} latches" if "aig" in e else ""
        return f"{eq} (ABC dprove: {e['result']}{latches}, {e['seconds']:.0f} s)"
    if "equiv_cells" in e or e["status"] == "timeout":
        eq += " (" + (f"{e['proven']}/{e['equiv_cells']} $equiv proven, " if "equiv_cells" in e else "")
        eq += f"{e['seconds']:.0f} s"
        if e.get("parameters"):
            eq += ", at " + ", ".join(f"{k}={v}" for k, v in e["parameters"].items())
        eq += ")"
    return eq


def critical_path_cells(t):
    """worst path | stages | register-to-register path | its min period: one table's cells."""
    w, r = t["worst"], t["reg2reg"]
    return (f"{w.get('startpoint', '?')} -> {w.get('endpoint', '?')}, arrival {w.get('arrival_ns', 0):.3f} ns | "
            f"{w.get('stages', '?')} | {r.get('startpoint', '?').split(' ')[0]} -> "
            f"{r.get('endpoint', '?').split(' ')[0]} | {t.get('reg2reg_min_period_ns', float('nan')):.2f}")


def transistors_cell(s):
    tr = s.get("transistors_generic_estimate")
    return f"{tr}" + (" + flip-flops" if s.get("transistors_estimate_excludes_flops") else "") if tr else "?"


def markdown_pascal(report):
    g = GPUS["pascal_60sm"]
    tg = pascal_clock_targets_180nm()
    lines = [
        "# RTL synthesis, timing and equivalence at the Pascal config's size",
        "",
        f"Generated by `scripts/rtl/synth.py --gpu pascal_60sm` on {report['generated']} "
        f"({report['tools']['yosys']}, {report['tools']['opensta']}, "
        f"OSU 0.18 um standard cells `{Path(report['liberty']).name}`). The blocks whose parameters follow "
        "the SM count and the warps per SM, at `configs/gpu/pascal_60sm.json`'s (60 SMs, 64 warps per SM, "
        f"{g['mhz']:.0f} MHz): the parameter sets the platform runs there (`rtl/rtl.cmake`). The flow, the "
        "cells and the equivalence check are [rtl_report.md](rtl_report.md)'s, but for the proofs of the 60-SM "
        "rows (`vote_arbiter`: a one-step induction over all $equiv cells at once, `equiv_induct -seq 1`; "
        "`stagger_unit`: register correspondence by name, its induction step one combinational proof by ABC: see "
        "their notes); only the clock differs.",
        "",
        f"| block | parameters | scope | cells | flip-flops | area (um^2, 0.18 um) | share of one GP102 SM | "
        f"critical path (ns) | {g['mhz']:.0f} / {g['boost_mhz']:.0f} MHz scaled to 0.18 um (ns) | slack (ns) | "
        f"Fmax 0.18 um (MHz) | Fmax scaled to 16 nm (MHz) | slack at the GTX480 rows' 700 / 805 MHz (ns) | "
        "equivalence |",
        "|---|---|---|---:|---:|---:|---:|---:|---|---|---:|---:|---|---|",
    ]
    for name, b in report["blocks"].items():
        s, t, e = b["synthesis"], b["timing"], b.get("equivalence", {"status": "skipped"})
        p = t.get("pascal", {})
        params = params_cell(b)
        eq = equivalence_cell(e)
        lines.append(
            f"| `{ALL_BLOCKS[name].get('top', name)}` | {params} | {b['scope']} | {s['cells']} | {s['flip_flops']} | "
            f"{s['area_um2']:.0f} | {b['area_share_of_sm_percent']:.4f} % | {t.get('min_period_ns', float('nan')):.2f} | "
            f"{p.get('target_period_ns_180nm_nominal', float('nan')):.2f} / "
            f"{p.get('target_period_ns_180nm_boost', float('nan')):.2f} | "
            f"{p.get('slack_ns_180nm_nominal', float('nan')):+.2f} / {p.get('slack_ns_180nm_boost', float('nan')):+.2f} | "
            f"{t.get('fmax_mhz', float('nan')):.0f} | {p.get('fmax_mhz_scaled_16nm', float('nan')):.0f} | "
            f"{t.get('slack_ns_180nm_700MHz', float('nan')):+.2f} / {t.get('slack_ns_180nm_805MHz', float('nan')):+.2f} | "
            f"{eq} |")
    lines += ["", "| block | worst path (setup) | stages | register-to-register path | "
              "register-to-register min period (ns) | transistors (Yosys `stat -tech cmos`, generic gates) |",
              "|---|---|---:|---|---:|---:|"]
    for name, b in report["blocks"].items():
        t = b["timing"]
        lines.append(f"| `{ALL_BLOCKS[name].get('top', name)}` | {critical_path_cells(t)} | "
                     f"{transistors_cell(b['synthesis'])} |")
    lines.append("")
    for name, b in report["blocks"].items():
        if b.get("path_note"):
            lines.append(f"- `{ALL_BLOCKS[name].get('top', name)}`: {b['path_note']}")
    lines += [
        "",
        "## Clock and area basis",
        "",
        f"- Clock targets: the Pascal config's SM clock {g['mhz']:.0f} MHz and its `high` DVFS level "
        f"{g['boost_mhz']:.2f} MHz (+15 %), GP102's {g['node_nm']:.0f} nm scaled to 0.18 um by the feature size "
        f"(x {NODE_NM / g['node_nm']:.2f}, the report's first-order constant-field rule; a 16 nm FinFET "
        f"library departs from it further than 40 nm does): {tg['nominal']:.2f} ns and {tg['boost']:.2f} ns. "
        "Those targets are looser than the GTX480 rows' (6.43 / 5.59 ns: 700 MHz at 40 nm is a slower clock "
        "per feature size than 1417 MHz at 16 nm), so the table also gives each block's slack against the "
        "GTX480 rows' targets, the stricter test.",
        f"- Share of one SM: GP102's die, {PASCAL_DIE_MM2:.0f} mm^2 at 16 nm, over its {PASCAL_SMS} SMs "
        f"({PASCAL_DIE_MM2 / PASCAL_SMS:.1f} mm^2), x (180/16)^2 = {pascal_sm_area_um2_scaled() / 1e6:.0f} mm^2 "
        "at 0.18 um; a lower bound for the same reasons as in rtl_report.md.",
        "- Synthesis, timing (relaxed analysis clock, ideal clock and reset nets) and equivalence: as in "
        "[rtl_report.md](rtl_report.md#how-the-numbers-are-made).",
        "",
        "Work files: `build/rtl_synth/<block>_<size>/`. Machine-readable: `build/rtl_report_pascal.json`.",
        "",
    ]
    return "\n".join(lines)


def markdown(report):
    a = report["assumptions"]
    lines = [
        "# RTL synthesis, timing and equivalence report",
        "",
        f"Generated by `scripts/rtl/synth.py` on {report['generated']} "
        f"({report['tools']['yosys']}, {report['tools']['opensta']}, "
        f"OSU 0.18 um standard cells `{Path(report['liberty']).name}`).",
        "",
        "| block | parameters | scope | cells | flip-flops | area (um^2, 0.18 um) | share of one SM | "
        "critical path (ns) | SM clock scaled to 0.18 um: 700 / 805 MHz (ns) | slack (ns) | "
        "Fmax 0.18 um (MHz) | Fmax scaled to 40 nm (MHz) | meets 700 / 805 MHz | equivalence |",
        "|---|---|---|---:|---:|---:|---:|---:|---|---|---:|---:|---|---|",
    ]
    for name, b in report["blocks"].items():
        s, t, e = b["synthesis"], b["timing"], b.get("equivalence", {"status": "skipped"})
        params = params_cell(b)
        meets = ("yes" if t.get("meets_700MHz_scaled_40nm") else "no") + " / " + \
                ("yes" if t.get("meets_805MHz_scaled_40nm") else "no")
        eq = equivalence_cell(e)
        lines.append(
            f"| `{name}` | {params} | {b['scope']} | {s['cells']} | {s['flip_flops']} | {s['area_um2']:.0f} | "
            f"{b['area_share_of_sm_percent']:.4f} % | {t.get('min_period_ns', float('nan')):.2f} | "
            f"{t.get('target_period_ns_180nm_700MHz', float('nan')):.2f} / "
            f"{t.get('target_period_ns_180nm_805MHz', float('nan')):.2f} | "
            f"{t.get('slack_ns_180nm_700MHz', float('nan')):+.2f} / {t.get('slack_ns_180nm_805MHz', float('nan')):+.2f} | "
            f"{t.get('fmax_mhz', float('nan')):.0f} | {t.get('fmax_mhz_scaled_40nm', float('nan')):.0f} | "
            f"{meets} | {eq} |")
    lines += ["", "## Critical paths", "",
              "| block | worst path (setup) | stages | register-to-register path | "
              "register-to-register min period (ns) | reset recovery slack (ns): ideal reset net / "
              f"one {INPUT_DRIVER} into every flip-flop | "
              "transistors (Yosys `stat -tech cmos`, generic gates) |",
              "|---|---|---:|---|---:|---:|---:|"]
    for name, b in report["blocks"].items():
        t = b["timing"]
        lines.append(
            f"| `{name}` | {critical_path_cells(t)} | "
            f"{t['reset_recovery'].get('slack_ns', float('nan')):.2f} / "
            f"{t['reset_recovery_unbuffered'].get('slack_ns', float('nan')):.2f} (at {t['analysis_period_ns']} ns) | "
            f"{transistors_cell(b['synthesis'])} |")
    lines.append("")
    for name, b in report["blocks"].items():
        if b.get("path_note"):
            lines.append(f"- `{name}`: {b['path_note']}")
    lines += [
        "",
        "## How the numbers are made",
        "",
        f"- Synthesis: Yosys `synth -flatten` (the 8-bit popcount leaf `popcount8` kept as a hierarchy "
        f"boundary: it gives the equivalence check cut points), `dfflibmap`, then ABC with a delay-targeted "
        f"script (`&nf -D {ABC_TARGET_PS}`, `buffer -p`, `upsize`, `dnsize`) onto the 32 OSU 0.18 um cells. "
        f"Area = sum of Liberty cell areas (no wiring, no placement utilisation). All flip-flops have an "
        f"asynchronous active-low reset, so they map to `DFFSR` (176 um^2 each).",
        f"- Timing: OpenSTA on the mapped netlist, ideal clock, inputs driven by `{INPUT_DRIVER}` with no "
        f"external delay (so input-to-register paths count in full), outputs loaded with "
        f"{OUTPUT_LOAD_PF * 1000:.0f} fF, no wire load. Critical path = period - worst setup slack at a relaxed "
        f"{report['blocks'][next(iter(report['blocks']))]['timing']['analysis_period_ns']} ns analysis clock "
        f"(= arrival + setup); Fmax = 1 / critical path.",
        f"- Reset: `rst_ni` is timed as an ideal net, as the clock is: both reach every flip-flop, and both are "
        f"distributed by a buffer tree built after placement, which this flow does not do. Driven by one "
        f"`{INPUT_DRIVER}` straight into every `DFFSR`'s R pin (about 9.4 fF each), the net's delay and slew grow "
        f"with the flip-flop count, and so does the flip-flop's recovery time (it rises with the slew); that "
        f"second figure is the cost of leaving the reset unbuffered, not a path of the design "
        f"(`stagger_unit`'s 389 flip-flops: about 3.7 pF, 8.6 ns of ramp plus a 2.7 ns recovery time).",
        f"- Scaling to the GTX480's 40 nm: delays scale linearly with the feature size "
        f"(x {a['delay_scale_to_40nm']:.3f}, first-order constant-field scaling; real 40 nm libraries differ), "
        f"areas with its square. An SM is taken as the Fermi GF100 die divided by its SMs: "
        f"{FERMI_DIE_MM2:.0f} mm^2 / {FERMI_SMS} = {FERMI_DIE_MM2 / FERMI_SMS:.1f} mm^2 at 40 nm, "
        f"x (180/40)^2 = {a['sm_area_mm2_scaled_180nm']:.0f} mm^2 at 0.18 um. That over-states the SM "
        f"(the die also holds L2, memory controllers, I/O), so the shares are lower bounds; "
        f"halve the SM and they double.",
        f"- Clock targets: the GTX480 SM clock {SM_CLOCK_MHZ:.0f} MHz, {SM_CLOCK_BOOST_MHZ:.0f} MHz boosted (+15 %). "
        f"Those are 40 nm figures; at 0.18 um the same design would run slower by the feature-size ratio, so the "
        f"report judges each block against the periods scaled by {NODE_NM / FERMI_NODE_NM:.1f}: "
        f"{clock_targets_180nm()['700MHz']:.2f} ns ({SM_CLOCK_MHZ * FERMI_NODE_NM / NODE_NM:.0f} MHz) and "
        f"{clock_targets_180nm()['805MHz']:.2f} ns ({SM_CLOCK_BOOST_MHZ * FERMI_NODE_NM / NODE_NM:.0f} MHz) "
        f"(the same test as Fmax scaled to 40 nm >= 700 / 805 MHz). Slack = scaled period - critical path. "
        f"Judging against {1000.0 / SM_CLOCK_MHZ:.2f} ns at 0.18 um would ask 0.18 um cells for 40 nm speed. "
        f"The ABC delay target ({ABC_TARGET_PS} ps) only steers the mapper.",
        "- Equivalence: Yosys `equiv_make` between the elaborated RTL (`proc; flatten`) and the mapped netlist "
        "read back with the Liberty cell functions, `async2sync`, `equiv_simple`, `equiv_induct`, "
        "`equiv_status -assert`; a row marked register correspondence (`stagger_unit`) instead on a Yosys "
        "miter of the RTL and the netlist, every flip-flop initially 0: the flip-flops paired by name, and "
        "`yosys-abc` `iprove` proves that paired states equal give next states and outputs equal (so, by "
        "induction, the outputs are equal in every cycle of every input sequence, the reset included; "
        "[rtl.md](rtl.md#area-and-timing)).",
        "",
        "Work files (Yosys/OpenSTA scripts, logs, netlists): `build/rtl_synth/<block>/`. "
        "Machine-readable: `build/rtl_report.json`. The blocks at the Pascal config's size (60 SMs, 64 warps "
        "per SM): [rtl_report_pascal.md](rtl_report_pascal.md) (`--gpu pascal_60sm`).",
        "",
    ]
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--gpu", choices=list(GPUS), default="gtx480",
                    help="gtx480: the report's rows (docs/rtl_report.md); pascal_60sm: the blocks at the Pascal "
                         "config's size, judged against its clock (docs/rtl_report_pascal.md)")
    ap.add_argument("--blocks", nargs="+", default=None, choices=list(ALL_BLOCKS),
                    help="default: every row of --gpu")
    ap.add_argument("--build-dir", default=str(REPO / "build"))
    ap.add_argument("--liberty", help="OSU 0.18 um Liberty file (default: cached/fetched)")
    ap.add_argument("--period-ns", type=float, default=10.0, help="analysis clock period (relaxed)")
    ap.add_argument("--no-equiv", action="store_true", help="skip the equivalence check")
    ap.add_argument("--equiv-timeout", type=float, default=3600.0, help="seconds per block")
    ap.add_argument("--equiv-method", choices=list(EQUIV_METHODS),
                    help="the proof for every block, instead of each block's \"equiv_method\" (default yosys: "
                         "equiv_make and the block's equiv_proof; abc_dprove: ABC's sequential equivalence "
                         "on a miter, see ABC_DPROVE; abc_regcorr: register correspondence by name, proven "
                         "combinationally by ABC, see ABC_REGCORR)")
    ap.add_argument("--equiv-netlist", metavar="VERILOG",
                    help="prove this netlist against the RTL instead of the block's own net_keep.v (e.g. one "
                         "with a planted difference, to see the proof fail)")
    ap.add_argument("--json", default=None, help="default: <build-dir>/rtl_report.json")
    ap.add_argument("--markdown", default=None, help="default: docs/rtl_report.md (docs/rtl_report_pascal.md)")
    ap.add_argument("--render-only", action="store_true", help="only rewrite the Markdown from the JSON")
    ap.add_argument("--check", metavar="COMMITTED",
                    help="then fail (exit 1, with a diff) unless the Markdown equals COMMITTED "
                         "(e.g. docs/rtl_report.md) but for the date and the equivalence checks' seconds")
    args = ap.parse_args()
    pascal = args.gpu == "pascal_60sm"
    if args.blocks is None:
        args.blocks = list(GPUS[args.gpu]["blocks"])
    build = Path(args.build_dir).resolve()  # the Yosys scripts run in the work dirs and name files under it
    report_name = "rtl_report_pascal" if pascal else "rtl_report"
    if args.markdown is None:
        args.markdown = str(REPO / "docs" / f"{report_name}.md")
    render = markdown_pascal if pascal else markdown
    json_path = Path(args.json) if args.json else build / f"{report_name}.json"
    if args.render_only:
        Path(args.markdown).write_text(render(json.loads(json_path.read_text())))
        log(f"wrote {args.markdown} from {json_path}")
        return 0

    uses_abc = not args.no_equiv and any(
        (args.equiv_method or ALL_BLOCKS[b].get("equiv_method", "yosys")) != "yosys" for b in args.blocks)
    for tool in ("yosys", "sta") + (("yosys-abc",) if uses_abc else ()):
        if not shutil.which(tool):
            sys.exit(f"{tool} not found (apt-get install yosys opensta)")
    lib = find_liberty(args).resolve()

    report = {
        "generated": datetime.datetime.now().isoformat(timespec="seconds"),
        "liberty": str(lib),
        "tools": {"yosys": tool_version(["yosys", "-V"]), "opensta": sta_version()},
        "assumptions": {
            "node_nm": NODE_NM,
            "sm_clock_mhz": SM_CLOCK_MHZ,
            "sm_clock_boost_mhz": SM_CLOCK_BOOST_MHZ,
            "sm_area_mm2_40nm": FERMI_DIE_MM2 / FERMI_SMS,
            "sm_area_basis": f"Fermi GF100 die {FERMI_DIE_MM2} mm^2 / {FERMI_SMS} SMs at 40 nm (upper bound)",
            "area_scale_to_180nm": (NODE_NM / FERMI_NODE_NM) ** 2,
            "sm_area_mm2_scaled_180nm": sm_area_um2_scaled() / 1e6,
            "delay_scale_to_40nm": FERMI_NODE_NM / NODE_NM,
            "sta_input_driver": INPUT_DRIVER,
            "sta_output_load_pf": OUTPUT_LOAD_PF,
            "abc_delay_target_ps": ABC_TARGET_PS,
            "clock_target_period_ns_180nm": clock_targets_180nm(),
        },
        "blocks": {},
    }
    for block in args.blocks:
        work = build / "rtl_synth" / block
        work.mkdir(parents=True, exist_ok=True)
        log(f"{block}: synthesis")
        syn = synthesize(block, lib, work)
        log(f"{block}: {syn['cells']} cells, {syn['flip_flops']} flip-flops, {syn['area_um2']:.0f} um^2")
        log(f"{block}: timing")
        tim = timing(block, lib, work, args.period_ns)
        log(f"{block}: critical path {tim.get('min_period_ns')} ns, Fmax {tim.get('fmax_mhz')} MHz "
            f"({tim.get('fmax_mhz_scaled_40nm')} MHz scaled to 40 nm)")
        if pascal:
            tim["pascal"] = pascal_timing(tim)
        entry = {
            "parameters": ALL_BLOCKS[block]["params"],
            "scope": ALL_BLOCKS[block]["scope"],
            "path_note": ALL_BLOCKS[block].get("path_note", ""),
            "synthesis": syn,
            "timing": tim,
            "area_share_of_sm_percent": 100.0 * syn["area_um2"] / (pascal_sm_area_um2_scaled() if pascal
                                                                   else sm_area_um2_scaled()),
            "work_dir": str(work),
        }
        if not args.no_equiv:
            log(f"{block}: equivalence (minutes)")
            entry["equivalence"] = prove(block, lib, work, args)
            log(f"{block}: equivalence {entry['equivalence']['status']} in {entry['equivalence']['seconds']} s")
        report["blocks"][block] = entry

    json_path.parent.mkdir(parents=True, exist_ok=True)
    json_path.write_text(json.dumps(report, indent=2) + "\n")
    md = Path(args.markdown)
    md.parent.mkdir(parents=True, exist_ok=True)
    md.write_text(render(report))
    log(f"wrote {json_path} and {md}")
    failed = [b for b, e in report["blocks"].items() if e.get("equivalence", {}).get("status", "pass") != "pass"]
    if failed:
        log(f"equivalence not proven for: {', '.join(failed)}")
        return 1
    return check_committed(md, Path(args.check)) if args.check else 0


def prove(block, lib, work, args):
    """The block's equivalence check at its row's size: its method ("equiv_method", default Yosys's;
    --equiv-method overrides)."""
    method = args.equiv_method or ALL_BLOCKS[block].get("equiv_method", "yosys")
    netlist = str(Path(args.equiv_netlist).resolve()) if args.equiv_netlist else "net_keep.v"
    return EQUIV_METHODS[method](block, lib, work, args.equiv_timeout, netlist=netlist)


def comparable(text):
    """The report without what changes from run to run: the date and the equivalence checks' seconds."""
    text = re.sub(r" on \d{4}-\d\d-\d\dT[\d:]+ \(", " on DATE (", text)
    return re.sub(r", \d+ s([,)])", r"\1", text)


def check_committed(made, committed):
    """0 when the report just made equals the committed one (but for comparable()); else 1 with a diff."""
    new, old = comparable(made.read_text()), comparable(committed.read_text()) if committed.exists() else ""
    if new == old:
        log(f"{committed} is up to date")
        return 0
    sys.stdout.writelines(difflib.unified_diff(old.splitlines(True), new.splitlines(True), str(committed), str(made)))
    log(f"{committed} differs from the report this build makes; regenerate it: scripts/rtl/synth.py")
    return 1


if __name__ == "__main__":
    sys.exit(main())
