#!/usr/bin/env python3
"""Row locality of GPGPU-Sim's DRAM traffic, from a peer trace.

Reads the file GPGPUSIM_PEER_TRACE names (written by GPGPU-Sim built with
patches/gpgpu-sim-4.0-peer-trace.patch): its `Q` lines (a request enters a
channel's input queue, which its FR-FCFS scheduler takes in whole every DRAM
cycle: cycle, channel, bank, row, is_write, address) and
`S` lines (the scheduler hands a request to its bank: cycle, channel, bank, row,
is_write, row_hit). Prints, for comparing with gpupm, whose DRAM queues whole
lines where GPGPU-Sim queues 32 B sectors:
- row hits per sector (GPGPU-Sim's Row_Buffer_Locality) and row misses per line
  read (gpupm's 1 - dram_row_hit_rate is per line command);
- sector requests served per activation;
- at each line read's arrival (its first sector), the lines already waiting
  in its channel and in its row: how ordered the stream reaching the DRAM is.
A line read is counted at its sector 0 (a read without it is not counted), and
the row misses per line read include the writes' (few: write-backs).

Usage: dram_trace.py TRACE
"""
import collections
import sys

SECTOR_BITS = 5  # 32 B sectors
SECTORS_PER_LINE = 4  # 128 B lines


def summarise(trace):
    """The figures of the trace's lines (an iterable of text lines); None when it has no DRAM request."""
    waiting_row = collections.Counter()  # read sectors queued per (channel, bank, row)
    waiting_channel = collections.Counter()
    reads = writes = line_reads = 0
    same_row_at_arrival = channel_at_arrival = 0.0
    served = misses = 0  # every activation is a row miss: sectors per activation = served / misses
    for text in trace:
        f = text.split()
        if not f:
            continue
        if f[0] == "Q":
            channel, bank, row, write, addr = (int(x) for x in f[2:7])
            if write:
                writes += 1
                continue
            reads += 1
            key = (channel, bank, row)
            if (addr >> SECTOR_BITS) % SECTORS_PER_LINE == 0:
                line_reads += 1
                same_row_at_arrival += waiting_row[key] / SECTORS_PER_LINE
                channel_at_arrival += waiting_channel[channel] / SECTORS_PER_LINE
            waiting_row[key] += 1
            waiting_channel[channel] += 1
        elif f[0] == "S":
            channel, bank, row, write, hit = (int(x) for x in f[2:7])
            served += 1
            if not write:
                waiting_row[(channel, bank, row)] -= 1
                waiting_channel[channel] -= 1
            misses += not hit
    if not served or not line_reads:
        return None
    return {"reads": reads, "writes": writes, "line_reads": line_reads,
            "row_hits_per_sector": 1 - misses / served, "misses_per_line_read": misses / line_reads,
            "sectors_per_activation": served / misses if misses else float(served),
            "lines_waiting_in_channel": channel_at_arrival / line_reads,
            "lines_waiting_in_row": same_row_at_arrival / line_reads}


def main(path):
    with open(path) as trace:
        s = summarise(trace)
    if s is None:
        sys.exit(f"dram_trace.py: {path}: no DRAM request traced (Q and S lines)")
    print(f"sector requests: {s['reads']} reads, {s['writes']} writes; line reads (first sector): {s['line_reads']}")
    print(f"row hits per sector {s['row_hits_per_sector']:.3f}; "
          f"row misses per line read {s['misses_per_line_read']:.3f}")
    print(f"sectors served per activation: mean {s['sectors_per_activation']:.1f}")
    print(f"at a line read's arrival: lines waiting in its channel {s['lines_waiting_in_channel']:.2f}, "
          f"in its row {s['lines_waiting_in_row']:.2f}")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
