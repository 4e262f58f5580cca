"""Kernel parameter types of a PTX module (.entry NAME( .param .TYPE NAME, ... ))."""
import re
import struct

_ENTRY = re.compile(r"\.entry\s+([A-Za-z_$][\w$]*)\s*\((.*?)\)", re.S)
_PARAM = re.compile(r"\.param\s+\.(\w+)\s+(?:\.ptr\s+\.\w+\s+(?:\.align\s+\d+\s+)?)?[\w$]+(\[\d+\])?")
_WIDTH = {"8": 1, "16": 2, "32": 4, "64": 8}


def entry_params(ptx_text):
    """{entry name: [PTX type of each parameter, e.g. 'u64', 'f32']}."""
    entries = {}
    for match in _ENTRY.finditer(ptx_text):
        params = []
        for p in _PARAM.finditer(match.group(2)):
            if p.group(2):
                raise ValueError(f"{match.group(1)}: array parameter .param .{p.group(1)} ...{p.group(2)} is not a scalar")
            params.append(p.group(1))
        entries[match.group(1)] = params
    return entries


def param_bytes(ptx_type, value):
    """The bytes a scalar argument takes as a parameter of ptx_type (integers in two's complement)."""
    width = _WIDTH[re.sub(r"\D", "", ptx_type)]
    if ptx_type.startswith("f"):
        return struct.pack("<f" if width == 4 else "<d", float(value))
    return (int(value) & ((1 << (8 * width)) - 1)).to_bytes(width, "little")
