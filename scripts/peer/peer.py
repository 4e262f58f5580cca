#!/usr/bin/env python3
"""Peer harness (issue 27): one program-contract workload on gpupm and on GPGPU-Sim.

gpupm runs the workload (dumping its inputs, final buffers and the PTX it
executed); peer_host.cc then runs the same PTX with the same buffers and
launches on GPGPU-Sim's libcudart with its GTX480 config and power model; the
per-launch figures of both go into rows of the CSV contract of
docs/validation/gpgpusim.csv. A measurement tool only: nothing in gpupm's build
or tests uses it. README.md says how to build GPGPU-Sim for it.
"""
import argparse
import csv
import glob
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.dirname(HERE))  # scripts/: suite.py's check_schemas
import buffer_check  # noqa: E402
import npy  # noqa: E402
import ptx_params  # noqa: E402
import gpgpusim_stats  # noqa: E402

REPO = os.path.dirname(os.path.dirname(HERE))
CSV_HEADER = ["program", "kernel", "launch", "gpupm_cycles", "gpgpusim_cycles", "gpupm_warp_instructions",
              "gpgpusim_warp_instructions", "gpupm_l1_hit", "gpgpusim_l1_hit", "gpupm_l2_hit", "gpgpusim_l2_hit",
              "gpupm_dram_util", "gpgpusim_dram_util", "gpupm_power_w", "gpgpusim_power_w"]
CONFIG_FILES = ["gpgpusim.config", "config_fermi_islip.icnt", "gpuwattch_gtx480.xml"]
# GPUWattch's leakage (W) by the md5 of its XML: McPAT computes it once from the XML, and GPGPU-Sim 4.0 prints it
# ("Total Leakage") only with -power_per_cycle_dump 1 but never adds it to kernel_avg_power (README.md, Power).
# SM2_GTX480's gpuwattch_gtx480.xml, measured on fma_loop: subthreshold 35.6 W + gate 10.8 W.
GPUWATTCH_LEAKAGE_W = {"84f194ec45314574d8eee65acdfe8324": 46.4}
# GPGPU-Sim's -gpgpu_clock_domains <core>:<interconnect>:<L2>:<DRAM> (MHz). The SM scale moves the
# core domain and the memory scale the DRAM's; the interconnect and L2 go with the clock gpupm's config
# gives them (gpu.memory.l2_clock): "memory" (at l2_clock_ratio) with the DRAM, "core" with the SM.
# GPGPU-Sim counts the L2's ROP delay and its DRAM latency queue in core cycles (l2cache.cc:
# gpu_sim_cycle), so only "core" matches it whole (README.md, "Clock factors").


def gpupm_clock_sets(params, sm_scale, mem_scale):
    """gpupm --set arguments multiplying the MHz of every V/F level of the SM and memory domains:
    the nominal level (what a run without a policy holds) moves by the factor, the volts and
    everything else stay, and the levels stay ascending as gpupm requires."""
    sets = []
    for domain, scale in (("sm", sm_scale), ("mem", mem_scale)):
        if scale == 1.0:
            continue
        i = 0
        while f"gpu.dvfs.{domain}.levels[{i}].mhz" in params:
            mhz = params[f"gpu.dvfs.{domain}.levels[{i}].mhz"]
            sets += ["--set", f"gpu.dvfs.{domain}.levels[{i}].mhz={mhz * scale:.6g}"]
            i += 1
    return sets


def _option(text, name):
    """(match, [comma-separated numbers]) of a `-name a,b,...` line of gpgpusim.config."""
    m = re.search(r"^(\s*-" + name + r"\s+)(\S+)", text, re.M)
    if not m:
        sys.exit(f"peer.py: gpgpusim.config has no -{name} line")
    return m, [float(x) for x in re.split(r"[:,]", m.group(2))]


def _replace(text, m, values, separator):
    return text[:m.start()] + m.group(1) + separator.join(f"{x:.6g}" for x in values) + text[m.end():]


def shfl_latency_fitted(text):
    """The config with shfl's latency cut to what the SP pipeline holds. With no INT units
    (-gpgpu_num_int_units 0, Fermi) GPGPU-Sim 4.0 issues integer ops, shfl included, to the SP
    unit, whose pipeline is fp_latency[1] stages deep (shader.cc: max_sp_latency), but gives shfl
    int_latency[5] (32 in SM2_GTX480) and starts it at stage latency - initiation interval: past
    the pipeline's end, a null pointer dereferenced (segfault) on the first shfl. The longest
    latency that fits is depth + interval - 1 (16 here). Fermi has no shfl; the config's 32 is
    not a GTX480 figure."""
    if re.search(r"^\s*-gpgpu_num_int_units\s+[1-9]", text, re.M):
        return text
    m_fp, fp = _option(text, "ptx_opcode_latency_fp")
    m_lat, latency = _option(text, "ptx_opcode_latency_int")
    _, interval = _option(text, "ptx_opcode_initiation_int")
    fits = fp[1] + interval[5] - 1
    if latency[5] <= fits:
        return text
    return _replace(text, m_lat, latency[:5] + [fits] + latency[6:], ",")


def gpgpusim_clock_domains(text, sm_scale, mem_scale, l2_follows_sm):
    """The run's -gpgpu_clock_domains (MHz): core x sm_scale, DRAM x mem_scale, interconnect and L2
    with the SM when l2_follows_sm, else with the DRAM."""
    _, (core, icnt, l2, dram) = _option(text, "gpgpu_clock_domains")
    l2_scale = sm_scale if l2_follows_sm else mem_scale
    return [float(f"{x:.6g}") for x in (core * sm_scale, icnt * l2_scale, l2 * l2_scale, dram * mem_scale)]


def gpgpusim_config(text, sm_scale, mem_scale, power, l2_follows_sm):
    """gpgpusim.config's text for the run: its clock domains scaled, shfl's latency fitted to
    the pipeline, GPUWattch off unless power; (text, the clock domains in MHz)."""
    m, _ = _option(text, "gpgpu_clock_domains")
    domains = gpgpusim_clock_domains(text, sm_scale, mem_scale, l2_follows_sm)
    text = shfl_latency_fitted(_replace(text, m, domains, ":"))
    if not power:
        m, _ = _option(text, "power_simulation_enabled")
        text = _replace(text, m, [0], "")
    return text, domains


def gpu_params(gpupm, gpu):
    """The GPU config's settings as gpupm reads them (a config based on another merged over it), by path:
    `gpupm params --json`, so this script never reads a config itself."""
    out = subprocess.run([gpupm, "params", "--gpu", gpu, "--json"], check=True, capture_output=True, text=True).stdout
    return {p["path"]: p["value"] for p in json.loads(out)["parameters"]}


def params_digest(params):
    """A digest of every setting of a GPU config as gpupm resolves it (gpu_params): a config edited under the
    same name gives another digest, so a record made before the edit is known as another gpupm side."""
    text = json.dumps(params, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def run_gpupm(args, out):
    """gpupm's run: report.json, the inputs and final buffers as .npy, the PTX in a private cache."""
    cache = os.path.join(out, "gpupm-cache")
    env = dict(os.environ, GPUPM_CACHE_DIR=cache)
    cmd = [args.gpupm, "run", "--gpu", args.gpu, "--workload", args.workload, "--out", os.path.join(out, "gpupm"),
           "--dump-inputs", os.path.join(out, "inputs"), "--dump-buffers", os.path.join(out, "gpupm-buffers"),
           "--quiet"] + gpupm_clock_sets(args.gpu_params, args.sm_clock_scale, args.mem_clock_scale)
    for setting in args.gpupm_set:
        cmd += ["--set", setting]
    subprocess.run(cmd, check=True, env=env, stdout=subprocess.DEVNULL)
    ptx = glob.glob(os.path.join(cache, "ptx", "*.ptx"))
    if len(ptx) != 1:
        sys.exit(f"peer.py: expected one PTX file in {cache}/ptx, found {len(ptx)}")
    shutil.copy(ptx[0], os.path.join(out, "program.ptx"))
    with open(ptx[0]) as f:
        text = f.read()
    with open(os.path.join(out, "program.gpgpusim.ptx"), "w") as f:
        f.write(for_gpgpusim(text))
    with open(os.path.join(out, "gpupm", "report.json")) as f:
        return json.load(f)


def without_file_names(ptx_text):
    """The PTX without its `.file N "path"` directives: they name the checkout the .cu was
    compiled in (a second checkout of the same commit emits the same instructions)."""
    return re.sub(r'^[ \t]*\.file[ \t][^\n]*\n', "", ptx_text, flags=re.M)


def without_sections(ptx_text):
    """The PTX without its `.section NAME { ... }` blocks: the DWARF clang emits for the .cu line
    directives, which GPGPU-Sim's PTX grammar does not know (a syntax error after the last
    kernel). The instructions and their .loc lines are unchanged."""
    return re.sub(r"^[ \t]*\.section[^{\n]*\{[^}]*\}[ \t]*\n", "", ptx_text, flags=re.M)


# An integer literal of PTX (decimal or hex, optional U), not part of a name, register or number.
_INT_LITERAL = re.compile(r"(?<![\w.$%])(-?(?:0[xX][0-9a-fA-F]+|\d+))U?(?![\w.])")
# An instruction on 64-bit integers (its type suffix).
_WIDE_INSTRUCTION = re.compile(r"^[ \t]*(?:@!?%\w+[ \t]+)?[a-z][\w.]*\.[bsu]64\b")


def with_wide_immediates_as_bits(ptx_text):
    """GPGPU-Sim's PTX lexer reads an integer literal into a C int (atoi, or sscanf %x; cuda-sim/ptx.l), and a
    64-bit instruction sign-extends it: a literal outside [-2^31, 2^31) in such an instruction comes out wrong
    (`and.b64 %rd1, %rd2, -4294967296` masks with 0). Such literals are written as the 0d literal of the same 64
    bits, which the lexer reads exactly and the instruction uses as raw bits (ptx_reg_t is a union)."""
    def literal(match):
        value = int(match.group(1), 0)
        if -2**31 <= value < 2**31:
            return match.group(0)
        if not -2**63 <= value < 2**64:
            sys.exit(f"peer.py: integer literal {match.group(0)} does not fit in 64 bits")
        return f"0d{value % 2**64:016X}"

    lines = ptx_text.split("\n")
    for i, line in enumerate(lines):
        if _WIDE_INSTRUCTION.match(line):
            code, sep, comment = line.partition("//")
            lines[i] = _INT_LITERAL.sub(literal, code) + sep + comment
    return "\n".join(lines)


def for_gpgpusim(ptx_text):
    """gpupm's PTX as GPGPU-Sim's parser takes it (the same instructions)."""
    return with_wide_immediates_as_bits(without_sections(ptx_text))


def write_plan(workload, out):
    """The host program's plan: buffers (name order, as gpupm allocates), kernels, launches."""
    with open(os.path.join(out, "program.ptx")) as f:
        params = ptx_params.entry_params(f.read())
    buffers = workload["buffers"]
    lines = []
    os.makedirs(os.path.join(out, "host-inputs"), exist_ok=True)
    for name in sorted(buffers):
        _, data = npy.read(os.path.join(out, "inputs", name + ".npy"))
        path = os.path.join(out, "host-inputs", name + ".bin")
        with open(path, "wb") as f:
            f.write(data)
        lines.append(f"buffer {name} {len(data)} {path}")
    kernels = sorted({launch["kernel"] for launch in workload["launches"]})
    for index, name in enumerate(kernels):
        lines.append(f"kernel {index} {name}")
    for launch in workload["launches"]:
        lines += launch_lines(launch, kernels.index(launch["kernel"]), params[launch["kernel"]], buffers)
    os.makedirs(os.path.join(out, "gpgpusim-buffers"), exist_ok=True)
    lines.append(f"output {os.path.join(out, 'gpgpusim-buffers')}")
    with open(os.path.join(out, "plan.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")


def launch_lines(launch, kernel_index, types, buffers):
    grid = (list(launch["grid"]) + [1, 1])[:3]
    block = (list(launch["block"]) + [1, 1])[:3]
    watch = launch.get("while_nonzero")
    watch_fields = f"{watch['buffer']} {buffers[watch['buffer']]['type']} {watch['max']}" if watch else "- - 0"
    args = launch.get("args", [])
    if len(args) != len(types):
        sys.exit(f"peer.py: {launch['kernel']} takes {len(types)} parameters, the workload passes {len(args)}")
    lines = [f"launch {kernel_index} {' '.join(map(str, grid))} {' '.join(map(str, block))} "
             f"{launch.get('shared_bytes', 0)} {launch.get('repeat', 1)} {watch_fields} {len(args)}"]
    for value, ptx_type in zip(args, types):
        if isinstance(value, str):
            lines.append(f"arg buffer {value}")
        else:
            lines.append(f"arg bytes {ptx_params.param_bytes(ptx_type, value).hex()}")
    return lines


def write_regs(args, workload, out):
    """regs.txt: registers per thread of each kernel as gpupm counts them for occupancy (the
    launch's regs_per_thread, else gpupm's PTX estimate), for the ptxas shim."""
    listing = subprocess.run([args.gpupm, "ptx", os.path.join(out, "program.ptx")], check=True,
                             stdout=subprocess.PIPE, text=True).stdout
    regs, kernel = {}, None
    for line in listing.splitlines():
        m = re.match(r"^(\w+)\(", line)
        if m:
            kernel = m.group(1)
        m = re.search(r"(\d+) registers/thread", line)
        if m and kernel:
            regs[kernel] = int(m.group(1))
    for launch in workload["launches"]:
        if "regs_per_thread" in launch:
            regs[launch["kernel"]] = launch["regs_per_thread"]
    with open(os.path.join(out, "regs.txt"), "w") as f:
        f.writelines(f"{k} {v}\n" for k, v in sorted(regs.items()))


def build_host(args, out):
    """peer_host linked against the CUDA toolkit's libcudart.so.13 (for its soname and symbol
    versions only): at run time LD_LIBRARY_PATH puts GPGPU-Sim's libcudart.so.13 in its place."""
    exe = os.path.join(out, "peer_host")
    subprocess.run(["g++", "-std=c++17", "-O2", os.path.join(HERE, "peer_host.cc"), "-o", exe,
                    "-L" + os.path.join(args.cuda, "lib64"), "-lcudart"], check=True)
    return exe


def gpgpusim_lib_dir(root):
    found = sorted(glob.glob(os.path.join(root, "lib", "*", "*", "release", "libcudart.so.13")))
    if not found:
        sys.exit(f"peer.py: no lib/*/*/release/libcudart.so.13 under {root}: build GPGPU-Sim first (README.md)")
    return os.path.dirname(found[0])


def gtx480_config_dir(args):
    return os.path.join(args.gpgpusim, "configs", "tested-cfgs", "SM2_GTX480")


def run_gpgpusim(args, out, exe):
    """Runs peer_host in OUT/gpgpusim with the GTX480 config (clock domains scaled);
    returns (its log path, the clock domains in MHz)."""
    run_dir = os.path.join(out, "gpgpusim")
    shutil.rmtree(run_dir, ignore_errors=True)  # GPGPU-Sim's power report names carry the date: one per run
    os.makedirs(run_dir)
    for name in CONFIG_FILES[1:]:  # a file the folder lacks (a variant's power model): SM2_GTX480's
        own = os.path.join(args.config_dir, name)
        shutil.copy(own if os.path.exists(own) else os.path.join(gtx480_config_dir(args), name), run_dir)
    with open(os.path.join(args.config_dir, CONFIG_FILES[0])) as f:
        config, domains = gpgpusim_config(f.read(), args.sm_clock_scale, args.mem_clock_scale, not args.no_power,
                                          args.l2_follows_sm)
    with open(os.path.join(run_dir, CONFIG_FILES[0]), "w") as f:
        f.write(config)
    # A CUDA_INSTALL_PATH of two tools: the cuobjdump shim and the toolkit's ptxas.
    shim = os.path.join(out, "cuda-shim", "bin")
    os.makedirs(shim, exist_ok=True)
    for name in ("cuobjdump", "ptxas"):
        target = os.path.join(HERE, "shim", name)
        link = os.path.join(shim, name)
        if os.path.lexists(link):
            os.remove(link)
        os.symlink(target, link)
    lib = gpgpusim_lib_dir(args.gpgpusim)
    env = dict(os.environ, CUDA_INSTALL_PATH=os.path.dirname(shim), PTXAS_CUDA_INSTALL_PATH=os.path.dirname(shim),
               LD_LIBRARY_PATH=lib + ":" + os.environ.get("LD_LIBRARY_PATH", ""), GPGPUSIM_ROOT=args.gpgpusim,
               PEER_PTX=os.path.join(out, "program.gpgpusim.ptx"), PEER_PTX_SM=str(args.ptx_sm),
               PEER_REAL_PTXAS=os.path.join(args.cuda, "bin", "ptxas"),
               # What setup_environment exports for CUDA >= 6: without it GPGPU-Sim also
               # expects cuobjdump's pre-6.0 listing and aborts finding none.
               CUOBJDUMP_SIM_FILE="jj")
    if args.regs == "gpupm":
        env["PEER_REGS"] = os.path.join(out, "regs.txt")
    log = os.path.join(out, "gpgpusim.log")
    with open(log, "w") as f:
        result = subprocess.run([exe, os.path.join(out, "plan.txt")], cwd=run_dir, env=env, stdout=f,
                                stderr=subprocess.STDOUT)
    if result.returncode != 0:
        sys.exit(f"peer.py: GPGPU-Sim run failed (exit {result.returncode}); see {log}")
    return log, domains


def compare_buffers(workload, out):
    """{buffer: buffer_check's verdict on gpupm's and GPGPU-Sim's final contents}."""
    verdicts = {}
    for name, spec in sorted(workload["buffers"].items()):
        _, ours = npy.read(os.path.join(out, "gpupm-buffers", name + ".npy"))
        with open(os.path.join(out, "gpgpusim-buffers", name + ".bin"), "rb") as f:
            theirs = f.read()
        verdicts[name] = buffer_check.compare(spec["type"], ours, theirs)
    return verdicts


def gpuwattch_leakage_w(args):
    """GPUWattch's leakage for the power model the run used (GPUWATTCH_LEAKAGE_W), None if not known."""
    own = os.path.join(args.config_dir, CONFIG_FILES[2])
    xml = own if os.path.exists(own) else os.path.join(gtx480_config_dir(args), CONFIG_FILES[2])
    with open(xml, "rb") as f:
        return GPUWATTCH_LEAKAGE_W.get(hashlib.md5(f.read()).hexdigest())


def total_power_w(kernel_avg_power, leakage):
    """GPUWattch's average power with its leakage, as gpupm's average_power_w counts static power ("" if unknown)."""
    return "" if kernel_avg_power is None or leakage is None else kernel_avg_power + leakage


def csv_rows(program, report, launches, leakage):
    rows = []
    ours_list = report["kernels"]
    if len(ours_list) != len(launches):
        sys.exit(f"peer.py: gpupm ran {len(ours_list)} launches, GPGPU-Sim {len(launches)}")
    for ours, theirs in zip(ours_list, launches):
        if ours["kernel"] != theirs["kernel"]:
            sys.exit(f"peer.py: launch order differs: {ours['kernel']} vs {theirs['kernel']}")
        rows.append([program, ours["kernel"], ours["launch"], ours["cycles"]["sm"], theirs["cycles"],
                     ours["instructions"], theirs["warp_instructions"], ours["l1_hit_rate"], theirs["l1_hit"],
                     ours["l2_hit_rate"], theirs["l2_hit"], ours["dram_bandwidth_utilisation"], theirs["dram_util"],
                     ours["average_power_w"], total_power_w(theirs["power_w"], leakage)])
    return rows


def gpupm_power_split(kernel):
    """gpupm's average power of a launch in GPUWattch's three groups (W): SM dynamic; memory
    dynamic (L2, interconnect, controllers, DRAM); static and constant (leakage, DRAM standby,
    the constant term), beside GPUWattch's constant + idle-SM power."""
    t = kernel["sim_time_s"]
    e = kernel["energy_j"]["by_component"]
    return {"sm_dynamic": e["sm_dynamic"] / t, "mem_dynamic": (e["mem_dynamic"] + e["dram_dynamic"]) / t,
            "static_and_constant": (e["sm_leakage"] + e["mem_leakage"] + e["dram_standby"] + e["constant"]) / t}


def summary_lines(report, launches):
    """One line per launch: cycles, IPC (warp instructions per SM cycle, GPU-wide) and the power
    split of both simulators, gpupm first."""
    lines = ["launch                 cycles (gpupm/GPGPU-Sim)   IPC          power W: SM dyn | mem dyn | static+const"]
    for ours, theirs in zip(report["kernels"], launches):
        split = gpupm_power_split(ours)
        g = theirs["power_split_w"]
        lines.append(
            f"{ours['kernel'][:16]:16s}#{ours['launch']:<3d} {ours['cycles']['sm']:9d} {theirs['cycles']:9d} "
            f"{ours['instructions'] / ours['cycles']['sm']:6.2f} {theirs['warp_instructions'] / theirs['cycles']:6.2f}   "
            f"{split['sm_dynamic']:5.1f}/{g['sm_dynamic']:5.1f} | {split['mem_dynamic']:5.1f}/{g['mem_dynamic']:5.1f} | "
            f"{split['static_and_constant']:5.1f}/{g['constant_and_idle']:5.1f}")
    return lines


BULKY = ("inputs", "host-inputs", "gpupm-buffers", "gpgpusim-buffers", "gpupm-cache")


def timed(function, *args):
    """(function(*args), wall seconds, CPU seconds of the child processes it waited for)."""
    start, before = time.monotonic(), os.times()
    value = function(*args)
    after = os.times()
    cpu = after.children_user + after.children_system - before.children_user - before.children_system
    return value, round(time.monotonic() - start, 1), round(cpu, 1)


def result_record(args, program, report, launches, verdicts, domains, seconds):
    """OUT/result.json: what the suite driver reads back (rows, buffer verdicts, kernel time on
    both simulators for the clock speed-ups, wall seconds)."""
    return {
        "program": program, "workload": os.path.relpath(os.path.abspath(args.workload), REPO),
        "sm_clock_scale": args.sm_clock_scale, "mem_clock_scale": args.mem_clock_scale,
        "status": "ok" if all(v["match"] != "differs" for v in verdicts.values()) else "buffers differ",
        "buffers": verdicts, "rows": csv_rows(program, report, launches, gpuwattch_leakage_w(args)),
        "gpupm_kernel_s": sum(k["sim_time_s"] for k in report["kernels"]),
        "gpgpusim_cycles": sum(launch["cycles"] for launch in launches), "gpgpusim_core_mhz": domains[0],
        "gpgpusim_clock_domains": domains,
        "gpgpusim_kernel_s": sum(launch["cycles"] for launch in launches) / (domains[0] * 1e6),
        "wall_s": seconds,
    }


def file_text(path):
    with open(path) as f:
        return f.read()


def earlier_gpgpusim_side(parser, args, out):
    """What --reuse-gpgpusim keeps of the earlier run in OUT: GPGPU-Sim's per-launch figures, the
    earlier result record and the PTX GPGPU-Sim ran. Exit 2 unless that run is there, finished and
    at the same clock scales and GPGPU-Sim clock domains."""
    paths = {name: os.path.join(out, name) for name in ("gpgpusim.json", "result.json", "program.ptx")}
    missing = [name for name, path in paths.items() if not os.path.exists(path)]
    if missing:
        parser.error(f"--reuse-gpgpusim: {out} has no earlier run ({', '.join(missing)} missing)")
    with open(paths["result.json"]) as f:
        record = json.load(f)
    with open(paths["gpgpusim.json"]) as f:
        launches = json.load(f)
    for name in ("sm_clock_scale", "mem_clock_scale"):
        if record.get(name) != getattr(args, name):
            parser.error(f"--reuse-gpgpusim: the earlier run had {name} {record.get(name)}, "
                         f"not {getattr(args, name)}")
    config = file_text(os.path.join(args.config_dir, CONFIG_FILES[0]))
    domains = gpgpusim_clock_domains(config, args.sm_clock_scale, args.mem_clock_scale, args.l2_follows_sm)
    # A record made before the domains were recorded ran the interconnect and L2 with the DRAM.
    earlier_domains = record.get("gpgpusim_clock_domains") or gpgpusim_clock_domains(
        config, args.sm_clock_scale, args.mem_clock_scale, False)
    if earlier_domains != domains:
        parser.error(f"--reuse-gpgpusim: the earlier run's GPGPU-Sim clock domains were {earlier_domains} MHz, "
                     f"this run's are {domains} (gpu.memory.l2_clock moves the interconnect and L2); run both again")
    return {"launches": launches, "record": record, "ptx": file_text(paths["program.ptx"]), "domains": domains}


def new_gpgpusim_side(args, workload, out):
    """Runs the workload on GPGPU-Sim: (its per-launch figures, the buffer verdicts, core MHz,
    wall and CPU seconds)."""
    write_plan(workload, out)
    write_regs(args, workload, out)
    exe = build_host(args, out)
    (log, domains), seconds, cpu = timed(run_gpgpusim, args, out, exe)
    launches = gpgpusim_stats.per_launch(log, glob.glob(os.path.join(out, "gpgpusim", "gpgpusim_power_report__*.log")))
    with open(os.path.join(out, "gpgpusim.json"), "w") as f:
        json.dump(launches, f, indent=1)
    return launches, compare_buffers(workload, out), domains, seconds, cpu


def kept_gpgpusim_side(earlier, workload, out):
    """new_gpgpusim_side's figures from the earlier run in OUT (--reuse-gpgpusim), once gpupm has run
    again: it must have run the PTX GPGPU-Sim ran (else the earlier PTX is put back and it exits)."""
    if without_file_names(file_text(os.path.join(out, "program.ptx"))) != without_file_names(earlier["ptx"]):
        with open(os.path.join(out, "program.ptx"), "w") as f:
            f.write(earlier["ptx"])
        with open(os.path.join(out, "program.gpgpusim.ptx"), "w") as f:
            f.write(for_gpgpusim(earlier["ptx"]))
        sys.exit("peer.py: --reuse-gpgpusim: gpupm now runs other PTX than GPGPU-Sim ran; run both again")
    before = earlier["record"]
    # GPGPU-Sim's final buffers are deleted by --clean: compare again only if they are still there.
    if os.path.isdir(os.path.join(out, "gpgpusim-buffers")):
        verdicts = compare_buffers(workload, out)
    else:
        verdicts = before["buffers"]
    return (earlier["launches"], verdicts, earlier["domains"], before["wall_s"]["gpgpusim"],
            before.get("cpu_s", {}).get("gpgpusim"))


def check_toolkit(parser, cuda):
    """Exit 2 before anything runs unless the NVIDIA toolkit this harness (and only it) uses is at CUDA."""
    needed = [os.path.join(cuda, "bin", "ptxas"), os.path.join(cuda, "lib64", "libcudart.so")]
    missing = [f for f in needed if not os.path.exists(f)]
    if missing:
        parser.error(f"--cuda {cuda}: missing {', '.join(missing)}; this measurement harness needs an NVIDIA CUDA "
                     "toolkit (not a Debian package; gpupm's build and tests never use one)")


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--gpgpusim", required=True, help="GPGPU-Sim checkout, built (README.md)")
    p.add_argument("--workload", required=True, help="program-contract workload JSON")
    p.add_argument("--out", required=True, help="output folder")
    p.add_argument("--program", help="the program's name in the rows (default: the workload file's stem)")
    p.add_argument("--gpupm", default=os.path.join(REPO, "build", "gpupm"))
    p.add_argument("--gpu", default=os.path.join(REPO, "configs", "gpu", "gtx480.json"))
    p.add_argument("--config-dir", help="GPGPU-Sim config folder (default: its configs/tested-cfgs/SM2_GTX480; the "
                   "icnt and power files it lacks are taken from there), e.g. scripts/peer/configs/hd7970_like")
    p.add_argument("--cuda", default="/usr/local/cuda", help="CUDA toolkit (ptxas; libcudart.so.13 to link against)")
    p.add_argument("--ptx-sm", type=int, default=75, help="SM version ptxas counts registers for (CUDA 13: >= 75)")
    p.add_argument("--regs", choices=["gpupm", "ptxas"], default="gpupm",
                   help="registers per thread GPGPU-Sim's occupancy uses: gpupm's (default) or ptxas's")
    p.add_argument("--sm-clock-scale", type=float, default=1.0,
                   help="SM clock factor on both: gpupm's SM V/F levels' MHz, GPGPU-Sim's core clock domain (and "
                        "its interconnect and L2 domains when gpupm's gpu.memory.l2_clock is \"core\")")
    p.add_argument("--mem-clock-scale", type=float, default=1.0,
                   help="memory clock factor on both: gpupm's memory V/F levels' MHz, GPGPU-Sim's DRAM clock "
                        "domain (and its interconnect and L2 domains when gpu.memory.l2_clock is \"memory\")")
    p.add_argument("--no-power", action="store_true",
                   help="GPGPU-Sim without its power model (GPUWattch), for runs whose power is not used")
    p.add_argument("--clean", action="store_true",
                   help="delete the buffer dumps and PTX cache at the end (kept when buffers differ)")
    p.add_argument("--gpupm-set", action="append", default=[], metavar="KEY=VALUE",
                   help="a gpupm --set for this run (repeatable), e.g. gpu.sm.l1_sets=32 for GPGPU-Sim's 16 KB L1; "
                        "recorded in result.json")
    p.add_argument("--reuse-gpgpusim", action="store_true",
                   help="run gpupm only and keep GPGPU-Sim's side of the earlier run in OUT (its per-launch "
                        "figures, buffer verdicts and seconds): to re-measure gpupm after a change to its "
                        "timing model; refused if the earlier run's clock scales, GPGPU-Sim clock domains or the PTX differ")
    args = p.parse_args()
    for name in ("sm_clock_scale", "mem_clock_scale"):
        if not 0.1 <= getattr(args, name) <= 10:
            p.error(f"--{name.replace('_', '-')} must be in [0.1, 10]")
    check_toolkit(p, args.cuda)
    args.config_dir = args.config_dir or gtx480_config_dir(args)
    out = os.path.abspath(args.out)
    # Read once, before gpupm runs: the config may be edited while GPGPU-Sim runs for hours.
    args.gpu_params = gpu_params(args.gpupm, args.gpu)
    args.l2_follows_sm = args.gpu_params.get("gpu.memory.l2_clock") == "core"
    earlier = earlier_gpgpusim_side(p, args, out) if args.reuse_gpgpusim else None
    os.makedirs(out, exist_ok=True)
    report, gpupm_s, gpupm_cpu = timed(run_gpupm, args, out)
    workload = report["config"]["workload"]
    program = args.program or os.path.splitext(os.path.basename(args.workload))[0]
    side = kept_gpgpusim_side(earlier, workload, out) if earlier else new_gpgpusim_side(args, workload, out)
    launches, verdicts, domains, gpgpusim_s, gpgpusim_cpu = side
    record = result_record(args, program, report, launches, verdicts, domains,
                           {"gpupm": gpupm_s, "gpgpusim": gpgpusim_s})
    record["cpu_s"] = {"gpupm": gpupm_cpu, "gpgpusim": gpgpusim_cpu}
    record["gpupm_build"] = report["gpupm"]["build_id"]
    record["gpupm_sets"] = args.gpupm_set
    record["gpupm_gpu"] = report["config"]["gpu"]["name"]
    record["gpupm_gpu_digest"] = params_digest(args.gpu_params)
    with open(os.path.join(out, "gpgpusim.csv"), "w", newline="") as f:
        writer = csv.writer(f, lineterminator="\n")
        writer.writerow(CSV_HEADER)
        writer.writerows(record["rows"])
    with open(os.path.join(out, "summary.txt"), "w") as f:
        f.write("\n".join(summary_lines(report, launches)) + "\n")
    with open(os.path.join(out, "result.json"), "w") as f:
        json.dump(record, f, indent=1)
    if args.clean and record["status"] == "ok":  # a difference keeps its buffers to look at
        for name in BULKY:
            shutil.rmtree(os.path.join(out, name), ignore_errors=True)
    print("\n".join(summary_lines(report, launches)))
    for name, verdict in verdicts.items():
        print(buffer_check.describe(name, verdict))
    print(f"wall seconds: gpupm {gpupm_s}, GPGPU-Sim {gpgpusim_s}; CPU seconds: gpupm {gpupm_cpu}, "
          f"GPGPU-Sim {gpgpusim_cpu}")
    return 0 if record["status"] == "ok" else 1


if __name__ == "__main__":
    sys.exit(main())
