#!/usr/bin/env python3
"""Checks that a PNG screenshot is not blank, with the standard library only (no PIL): decodes an 8-bit
RGB/RGBA PNG, then requires the expected size, enough non-white pixels and enough coloured (chart line)
pixels. Usage: png_not_blank.py FILE WIDTH HEIGHT"""
import struct
import sys
import zlib


def decode(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, idat, width, height, depth, ctype = 8, b"", 0, 0, 0, 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, ctype = struct.unpack(">IIBB", body[:10])
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    if depth != 8 or ctype not in (2, 6):
        raise ValueError(f"unsupported PNG (bit depth {depth}, colour type {ctype})")
    bpp = 3 if ctype == 2 else 4
    raw, stride = zlib.decompress(idat), width * bpp
    rows, prev = [], bytearray(stride)
    for y in range(height):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], (prev[i - bpp] if i >= bpp else 0)
            if f == 1: line[i] = (line[i] + a) & 255
            elif f == 2: line[i] = (line[i] + b) & 255
            elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(line)
        prev = line
    return width, height, bpp, rows


def main():
    path, want_w, want_h = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    width, height, bpp, rows = decode(path)
    if (width, height) != (want_w, want_h):
        print(f"size {width}x{height}, expected {want_w}x{want_h}")
        return 1
    non_white = coloured = 0
    colours = set()
    for line in rows[::2]:  # every other row is plenty and halves the time
        for i in range(0, len(line), bpp * 2):
            r, g, b = line[i], line[i + 1], line[i + 2]
            if r < 240 or g < 240 or b < 240:
                non_white += 1
            if max(r, g, b) - min(r, g, b) > 80:
                coloured += 1
            colours.add((r >> 4, g >> 4, b >> 4))
    sampled = (height // 2) * (width // 2)
    print(f"{width}x{height}: {100.0 * non_white / sampled:.1f}% non-white, {coloured} coloured samples, "
          f"{len(colours)} colours")
    return 0 if non_white > 0.02 * sampled and coloured > 500 and len(colours) > 20 else 1


if __name__ == "__main__":
    sys.exit(main())
