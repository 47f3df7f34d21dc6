"""Decoding the files GIMP exports in the tests: binary PGM/PPM and 8-bit gray(+alpha) PNG.
Values come back as floats in [0, 1], one list per channel."""
import struct
import zlib


def _pnm_tokens(data, count):
    tokens, pos = [], 2
    while len(tokens) < count:
        while data[pos:pos + 1].isspace():
            pos += 1
        if data[pos:pos + 1] == b"#":
            pos = data.index(b"\n", pos)
            continue
        end = pos
        while not data[end:end + 1].isspace():
            end += 1
        tokens.append(int(data[pos:end]))
        pos = end
    return tokens, pos + 1


def read_pnm(path):
    """Returns (width, height, channels) where channels is a list of per-channel value lists."""
    data = open(path, "rb").read()
    magic = data[:2]
    if magic not in (b"P5", b"P6"):
        raise ValueError("%s: not a binary PGM/PPM" % path)
    (width, height, maxval), pos = _pnm_tokens(data, 3)
    n = 1 if magic == b"P5" else 3
    wide = maxval > 255
    count = width * height * n
    raw = struct.unpack(">%dH" % count, data[pos:pos + 2 * count]) if wide else data[pos:pos + count]
    values = [v / maxval for v in raw]
    return width, height, [values[c::n] for c in range(n)]


def read_png(path):
    """8-bit gray or gray+alpha, non-interlaced PNG (what GIMP exports for GRAYA u8)."""
    data = open(path, "rb").read()
    pos, idat, header = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    width, height, depth, colour, _, _, interlace = header
    channels = {0: 1, 4: 2}[colour]
    if depth != 8 or interlace:
        raise ValueError("%s: only 8-bit non-interlaced gray PNG is read" % path)
    raw, stride = zlib.decompress(idat), width * channels
    rows, prev = [], bytearray(stride)
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - channels] if i >= channels else 0
            b, c = prev[i], prev[i - channels] if i >= channels else 0
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
        rows.append(line)
        prev = line
    flat = b"".join(bytes(r) for r in rows)
    return width, height, [[v / 255 for v in flat[c::channels]] for c in range(channels)]
