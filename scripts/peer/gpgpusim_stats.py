"""Per-launch figures from GPGPU-Sim's output (stdout log and GPUWattch power report).

GPGPU-Sim prints a statistics block when each kernel ends. gpu_sim_cycle,
gpu_sim_insn and the power figures are per kernel; the warp-instruction count,
the cache breakdowns and the DRAM counters are cumulative since start, so a
launch's values are the difference from the previous block. Definitions,
chosen to match gpupm's report (sc_model/report/metrics.cc):
- cycles: gpu_sim_cycle, core (SM) clock cycles of the kernel;
- warp instructions: gpgpu_n_tot_w_icount (warp instructions issued);
- L1 hit rate: L1D read accesses (global and local loads) that hit; a hit on a
  line still being filled (HIT_RESERVED) is a miss, as gpupm counts an MSHR merge;
- L2 hit rate: the same over the L2's data accesses (global and local reads and
  writes; instruction and constant fetches left out, as gpupm's L2 sees none).
  The GTX480 L2 is sectored (128 B lines of four 32 B sectors): GPGPU-Sim counts
  sector accesses, a line present without the sector being a SECTOR_MISS;
- DRAM utilisation: data-bus busy command cycles (BL / data_command_freq_ratio
  per read, L2 atomic, write or L2 write-back burst) over command cycles, summed
  over channels: GPGPU-Sim's bw_util. A burst moves a 64 B atom (BL 8 x 4 B x 2
  chips) however much of it a 32 B sector request uses;
- power: GPUWattch's kernel_avg_power and its components. In this version the
  total is the components' sum: dynamic power per unit, IDLE_COREP (idle SMs)
  and CONST_DYNAMICP (the regression's constant term); no leakage term is added.
"""
import re

_KV = re.compile(r"^\s*([A-Za-z_][\w\[\]]*)\s*=\s*(-?[0-9.eE+-]+|nan|-nan|inf)\s*$")
_BREAKDOWN = re.compile(r"^\s*(Total_core_cache_stats_breakdown|L2_cache_stats_breakdown)\[(\w+)\]\[(\w+)\]\s*=\s*(\d+)")
_DRAM = re.compile(r"n_cmd=(\d+) .* n_rd=(\d+) n_rd_L2_A=(\d+) n_write=(\d+) n_wr_bk=(\d+)")
_LAUNCH = re.compile(r"^PEER_LAUNCH (\d+) (\S+)")
_POWER_KV = re.compile(r"^(kernel_avg_power|gpu_avg_\w+),?\s*=\s*(\S+)")

L1_READ_TYPES = ("GLOBAL_ACC_R", "LOCAL_ACC_R")
L2_DATA_TYPES = ("GLOBAL_ACC_R", "LOCAL_ACC_R", "GLOBAL_ACC_W", "LOCAL_ACC_W")
COUNTED = ("HIT", "HIT_RESERVED", "MISS", "SECTOR_MISS")
# GPUWattch components (gpgpu_sim_wrapper.cc) by where they are spent.
SM_DYNAMIC = ("IBP", "ICP", "DCP", "TCP", "CCP", "SHRDP", "RFP", "SPP", "SFUP", "FPUP", "SCHEDP", "PIPEP")
MEM_DYNAMIC = ("L2CP", "MCP", "NOCP", "DRAMP")
CONSTANT = ("IDLE_COREP", "CONST_DYNAMICP")
DRAM_BUS_CYCLES_PER_ACCESS = 2  # GTX480 config: burst length 8, data_command_freq_ratio 4


def _blocks(log_path):
    """[(launch number, kernel, [lines])]: the lines each PEER_LAUNCH marker is followed by."""
    blocks = []
    with open(log_path, errors="replace") as f:
        for line in f:
            m = _LAUNCH.match(line)
            if m:
                blocks.append((int(m.group(1)), m.group(2), []))
            elif blocks:
                blocks[-1][2].append(line)
    return blocks


def _counters(lines):
    """The kernel's statistics block: scalars, cache breakdowns, DRAM counters per channel."""
    scalars, breakdown, dram = {}, {}, []
    for line in lines:
        m = _BREAKDOWN.match(line)
        if m:
            breakdown[(m.group(1), m.group(2), m.group(3))] = int(m.group(4))
            continue
        m = _DRAM.search(line)
        if m:
            dram.append(tuple(int(g) for g in m.groups()))
            continue
        m = _KV.match(line)
        if m:
            scalars[m.group(1)] = m.group(2)
    return scalars, breakdown, dram


def _hit_rate(now, before, cache, types):
    def total(counts, outcome):
        return sum(v for (c, t, o), v in counts.items() if c == cache and o == outcome and (types is None or t in types))
    got = {o: total(now, o) - total(before, o) for o in COUNTED}
    accesses = sum(got.values())
    return (got["HIT"] / accesses if accesses else 0.0), got


def _power_blocks(power_paths):
    blocks = []
    for path in power_paths:
        with open(path, errors="replace") as f:
            current = None
            for line in f:
                if line.startswith("Kernel Average Power Data"):
                    current = {}
                    blocks.append(current)
                elif line.startswith("Kernel Maximum Power Data"):
                    current = None
                elif current is not None:
                    m = _POWER_KV.match(line)
                    if m:
                        current[m.group(1).replace("gpu_avg_", "")] = float(m.group(2))
    return blocks


def per_launch(log_path, power_paths):
    """One dict per launch, in launch order."""
    launches = []
    before_breakdown, before_dram, before_warps = {}, None, 0
    power = _power_blocks(power_paths)
    for index, (number, kernel, lines) in enumerate(_blocks(log_path)):
        scalars, breakdown, dram = _counters(lines)
        if "gpu_sim_cycle" not in scalars:
            raise ValueError(f"{log_path}: launch {number} ({kernel}) has no statistics block")
        warps = int(scalars["gpgpu_n_tot_w_icount"])
        l1_hit, l1_counts = _hit_rate(breakdown, before_breakdown, "Total_core_cache_stats_breakdown", L1_READ_TYPES)
        l2_hit, l2_counts = _hit_rate(breakdown, before_breakdown, "L2_cache_stats_breakdown", L2_DATA_TYPES)
        prev = before_dram or [(0,) * 5] * len(dram)
        cmd = sum(d[0] - p[0] for d, p in zip(dram, prev))
        accesses = sum(sum(d[1:]) - sum(p[1:]) for d, p in zip(dram, prev))  # reads, L2 atomics, writes, write-backs
        p = power[index] if index < len(power) else {}
        launches.append({
            "launch": number, "kernel": kernel,
            "cycles": int(scalars["gpu_sim_cycle"]),
            "thread_instructions": int(scalars["gpu_sim_insn"]),
            "warp_instructions": warps - before_warps,
            "l1_hit": l1_hit, "l1_read_outcomes": l1_counts,
            "l2_hit": l2_hit, "l2_outcomes": l2_counts,
            "dram_util": DRAM_BUS_CYCLES_PER_ACCESS * accesses / cmd if cmd else 0.0,
            "dram_accesses": accesses,
            "power_w": p.get("kernel_avg_power"),
            "power_split_w": {
                "sm_dynamic": sum(p.get(k, 0.0) for k in SM_DYNAMIC),
                "mem_dynamic": sum(p.get(k, 0.0) for k in MEM_DYNAMIC),
                "constant_and_idle": sum(p.get(k, 0.0) for k in CONSTANT),
            },
            "power_components_w": {k: v for k, v in p.items() if k in SM_DYNAMIC + MEM_DYNAMIC + CONSTANT},
            "power_counters": {k: v for k, v in p.items() if k not in SM_DYNAMIC + MEM_DYNAMIC + CONSTANT + ("kernel_avg_power",)},
        })
        before_breakdown, before_dram, before_warps = breakdown, dram, warps
    return launches
