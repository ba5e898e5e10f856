# compare_results.py — what the tests that run one job two ways share:
# whether two results (latent-cli's --json) agree, and small .npy files.
#
# SPDX-License-Identifier: GPL-3.0-or-later

import math
import struct
import zlib

# What differs between runs that agree: times, and what depends on them.
TIMES = frozenset({"timings", "device", "history_ms", "elapsed_ms"})


def agree(a, b, rel_tol, abs_tol, ignored=TIMES, path=""):
    """Where results A and B differ beyond the tolerances, or None; keys
    in IGNORED are not compared."""
    if isinstance(a, dict) and isinstance(b, dict):
        if set(a) - ignored != set(b) - ignored:
            return f"{path}: keys {sorted((set(a) ^ set(b)) - ignored)}"
        for key in sorted(set(a) - ignored):
            found = agree(a[key], b[key], rel_tol, abs_tol, ignored, f"{path}/{key}")
            if found:
                return found
        return None
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return f"{path}: {len(a)} against {len(b)} items"
        for i, (x, y) in enumerate(zip(a, b)):
            found = agree(x, y, rel_tol, abs_tol, ignored, f"{path}[{i}]")
            if found:
                return found
        return None
    if isinstance(a, float) and isinstance(b, (int, float)):
        if not math.isclose(a, b, rel_tol=rel_tol, abs_tol=abs_tol):
            return f"{path}: {a!r} against {b!r}"
        return None
    return None if a == b else f"{path}: {a!r} against {b!r}"


def write_npy(path, rows, dtype="<f4"):
    """A version 1.0 .npy file of ROWS (a list of equal lists of floats, or
    of ints) as DTYPE: '<f4', '<i4' or '>f8'."""
    shape = (len(rows), len(rows[0])) if isinstance(rows[0], list) else (len(rows),)
    header = "{'descr': '%s', 'fortran_order': False, 'shape': (%s), }" % (
        dtype, ", ".join(str(s) for s in shape) + ("," if len(shape) == 1 else ""))
    header += " " * (63 - (10 + len(header)) % 64) + "\n"
    flat = [v for row in rows for v in row] if isinstance(rows[0], list) else rows
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode())
        f.write(struct.pack("%s%d%s" % (dtype[0], len(flat), {"f4": "f", "i4": "i", "f8": "d"}[dtype[1:]]), *flat))


def png_pixels(path):
    """(width, height, rows of bytes) of an 8-bit RGB or RGBA PNG, as Cairo
    writes them: the rows unfiltered."""
    with open(path, "rb") as f:
        data = f.read()
    pos, idat = 8, b""
    while pos + 12 <= len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    assert depth == 8 and colour in (2, 6), f"{path}: depth {depth}, colour type {colour}"
    bpp = 3 if colour == 2 else 4
    raw, stride, rows, prior = zlib.decompress(idat), width * bpp, [], bytearray(width * bpp)
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prior[i], prior[i - bpp] if i >= bpp else 0
            if kind == 1:
                line[i] = (line[i] + a) & 255
            elif kind == 2:
                line[i] = (line[i] + b) & 255
            elif kind == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prior = line
    return width, height, rows
