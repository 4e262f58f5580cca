"""Minimal .npy 1.0 reading and writing (little-endian, C order), without numpy."""
import ast
import struct

DTYPES = {"u8": "|u1", "s32": "<i4", "u32": "<u4", "s64": "<i8", "u64": "<u8", "f32": "<f4", "f64": "<f8"}
ITEM_BYTES = {"u8": 1, "s32": 4, "u32": 4, "s64": 8, "u64": 8, "f32": 4, "f64": 8}
STRUCT_CODES = {"u8": "B", "s32": "i", "u32": "I", "s64": "q", "u64": "Q", "f32": "f", "f64": "d"}


def read(path):
    """(header dict, data bytes) of a .npy file."""
    with open(path, "rb") as f:
        blob = f.read()
    if blob[:6] != b"\x93NUMPY":
        raise ValueError(f"{path}: not a .npy file")
    major = blob[6]
    if major == 1:
        (length,) = struct.unpack("<H", blob[8:10])
        start = 10
    else:
        (length,) = struct.unpack("<I", blob[8:12])
        start = 12
    header = ast.literal_eval(blob[start:start + length].decode("latin1"))
    return header, blob[start + length:]


def write(path, type_name, data):
    """Writes raw little-endian elements of type_name as a 1-D .npy 1.0 file."""
    count = len(data) // ITEM_BYTES[type_name]
    header = "{'descr': '%s', 'fortran_order': False, 'shape': (%d,), }" % (DTYPES[type_name], count)
    pad = 64 - (10 + len(header) + 1) % 64
    header = header + " " * (pad % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode("latin1") + data)


def values(type_name, data):
    """The elements of raw little-endian data as Python numbers."""
    code = STRUCT_CODES[type_name]
    return struct.unpack("<%d%s" % (len(data) // ITEM_BYTES[type_name], code), data)
