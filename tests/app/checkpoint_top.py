#!/usr/bin/env python3
"""Prints the highest particle centre (y, m) of a checkpoint (.plab; the layout is in
sim/io/checkpoint.h): for window tests that check where particles went."""
import struct
import sys


def main(path):
    with open(path, "rb") as f:
        data = f.read()
    at = 0

    def take(fmt):
        nonlocal at
        values = struct.unpack_from("<" + fmt, data, at)
        at += struct.calcsize("<" + fmt)
        return values

    def text():
        nonlocal at
        (size,) = take("I")
        at += size

    if data[:8] != b"PLABCKPT":
        sys.exit(f"{path}: not a checkpoint")
    at = 8
    take("II")  # version, flags
    for _ in range(4):  # model, preset, scene file, label
        text()
    (params,) = take("I")
    for _ in range(params):
        text()
        take("d")
    (variants,) = take("I")
    for _ in range(variants):
        text()
        text()
    take("6f")  # the domain
    take("Qd")  # steps, time
    (count,) = take("Q")
    ys = [take("4f")[1] for _ in range(count)]
    print(f"{max(ys):.6f}" if ys else "none")


if __name__ == "__main__":
    main(sys.argv[1])
