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
import json
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import npy  # noqa: E402
import ptx_params  # noqa: E402
import gpgpusim_stats  # noqa: E402

REPO = os.path.dirname(os.path.dirname(HERE))
CSV_HEADER = ["program", "kernel", "launch", "gpupm_cycles", "gpgpusim_cycles", "gpupm_warp_instructions",
              "gpgpusim_warp_instructions", "gpupm_l1_hit", "gpgpusim_l1_hit", "gpupm_l2_hit", "gpgpusim_l2_hit",
              "gpupm_dram_util", "gpgpusim_dram_util", "gpupm_power_w", "gpgpusim_power_w"]
CONFIG_FILES = ["gpgpusim.config", "config_fermi_islip.icnt", "gpuwattch_gtx480.xml"]


def run_gpupm(args, out):
    """gpupm's run: report.json, the inputs and final buffers as .npy, the PTX in a private cache."""
    cache = os.path.join(out, "gpupm-cache")
    env = dict(os.environ, GPUPM_CACHE_DIR=cache)
    cmd = [args.gpupm, "run", "--gpu", args.gpu, "--workload", args.workload, "--out", os.path.join(out, "gpupm"),
           "--dump-inputs", os.path.join(out, "inputs"), "--dump-buffers", os.path.join(out, "gpupm-buffers"),
           "--quiet"]
    subprocess.run(cmd, check=True, env=env)
    ptx = glob.glob(os.path.join(cache, "ptx", "*.ptx"))
    if len(ptx) != 1:
        sys.exit(f"peer.py: expected one PTX file in {cache}/ptx, found {len(ptx)}")
    shutil.copy(ptx[0], os.path.join(out, "program.ptx"))
    with open(ptx[0]) as f:
        text = f.read()
    with open(os.path.join(out, "program.gpgpusim.ptx"), "w") as f:
        f.write(without_sections(text))
    with open(os.path.join(out, "gpupm", "report.json")) as f:
        return json.load(f)


def without_sections(ptx_text):
    """The PTX without its `.section NAME { ... }` blocks: the DWARF clang emits for the .cu line
    directives, which GPGPU-Sim's PTX grammar does not know (a syntax error after the last
    kernel). The instructions and their .loc lines are unchanged."""
    return re.sub(r"^[ \t]*\.section[^{\n]*\{[^}]*\}[ \t]*\n", "", ptx_text, flags=re.M)


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


def run_gpgpusim(args, out, exe):
    """Runs peer_host in OUT/gpgpusim with the GTX480 config; returns its log path."""
    run_dir = os.path.join(out, "gpgpusim")
    shutil.rmtree(run_dir, ignore_errors=True)  # GPGPU-Sim's power report names carry the date: one per run
    os.makedirs(run_dir)
    for name in CONFIG_FILES:
        shutil.copy(os.path.join(args.config_dir, name), run_dir)
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
    return log


def compare_buffers(workload, out):
    """{buffer: None if equal to gpupm's final contents, else a description of the difference}."""
    verdicts = {}
    for name, spec in sorted(workload["buffers"].items()):
        _, ours = npy.read(os.path.join(out, "gpupm-buffers", name + ".npy"))
        with open(os.path.join(out, "gpgpusim-buffers", name + ".bin"), "rb") as f:
            theirs = f.read()
        if ours == theirs:
            verdicts[name] = None
            continue
        a, b = npy.values(spec["type"], ours), npy.values(spec["type"], theirs)
        diff = [i for i in range(min(len(a), len(b))) if a[i] != b[i]]
        worst = max((abs(a[i] - b[i]) for i in diff), default=0)
        verdicts[name] = f"{len(diff)} of {len(a)} elements differ (largest difference {worst})"
    return verdicts


def csv_rows(program, report, launches):
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
                     ours["average_power_w"], theirs["power_w"]])
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


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--gpgpusim", required=True, help="GPGPU-Sim checkout, built (README.md)")
    p.add_argument("--workload", required=True, help="program-contract workload JSON")
    p.add_argument("--out", required=True, help="output folder")
    p.add_argument("--gpupm", default=os.path.join(REPO, "build", "gpupm"))
    p.add_argument("--gpu", default=os.path.join(REPO, "configs", "gpu", "gtx480.json"))
    p.add_argument("--config-dir", help="GPGPU-Sim config folder (default: its configs/tested-cfgs/SM2_GTX480)")
    p.add_argument("--cuda", default="/usr/local/cuda", help="CUDA toolkit (ptxas; libcudart.so.13 to link against)")
    p.add_argument("--ptx-sm", type=int, default=75, help="SM version ptxas counts registers for (CUDA 13: >= 75)")
    p.add_argument("--regs", choices=["gpupm", "ptxas"], default="gpupm",
                   help="registers per thread GPGPU-Sim's occupancy uses: gpupm's (default) or ptxas's")
    args = p.parse_args()
    args.config_dir = args.config_dir or os.path.join(args.gpgpusim, "configs", "tested-cfgs", "SM2_GTX480")
    out = os.path.abspath(args.out)
    os.makedirs(out, exist_ok=True)
    report = run_gpupm(args, out)
    workload = report["config"]["workload"]
    program = os.path.splitext(os.path.basename(args.workload))[0]
    write_plan(workload, out)
    write_regs(args, workload, out)
    log = run_gpgpusim(args, out, build_host(args, out))
    launches = gpgpusim_stats.per_launch(log, glob.glob(os.path.join(out, "gpgpusim", "gpgpusim_power_report__*.log")))
    with open(os.path.join(out, "gpgpusim.json"), "w") as f:
        json.dump(launches, f, indent=1)
    verdicts = compare_buffers(workload, out)
    with open(os.path.join(out, "gpgpusim.csv"), "w", newline="") as f:
        writer = csv.writer(f, lineterminator="\n")
        writer.writerow(CSV_HEADER)
        writer.writerows(csv_rows(program, report, launches))
    with open(os.path.join(out, "summary.txt"), "w") as f:
        f.write("\n".join(summary_lines(report, launches)) + "\n")
    print("\n".join(summary_lines(report, launches)))
    for name, verdict in verdicts.items():
        print(f"buffer {name}: {'equal' if verdict is None else verdict}")
    return 0 if all(v is None for v in verdicts.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
