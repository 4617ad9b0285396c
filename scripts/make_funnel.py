#!/usr/bin/env python3
"""Writes a funnel as a binary STL file: an open cone frustum (no caps) whose narrow end
continues into a short straight spout, centred on the y axis, wide end up.

    scripts/make_funnel.py OUT.stl [--top-radius R] [--bottom-radius r] [--height H]
                                   [--spout L] [--segments N] [--rings M]

Lengths in metres, with the narrow end of the cone at y = 0 (the spout hangs below it).
Triangles: 2 × segments × (rings + spout rings); the shipped funnel
(assets/meshes/funnel.stl) is the default, and the benchmark's 100k-triangle funnel is
`--segments 1024 --rings 45` with its spout. The surface is welded: neighbouring triangles
share their corners exactly, as a mesh tool would write them.
"""
import argparse
import math
import struct
import sys


def funnel_rings(top_radius, bottom_radius, height, spout, rings):
    """(radius, y) of each ring of vertices, from the spout's lower end up to the rim."""
    out = []
    if spout > 0:
        spout_rings = max(1, round(rings * spout / height))
        for k in range(spout_rings):
            out.append((bottom_radius, -spout + spout * k / spout_rings))
    for k in range(rings + 1):
        t = k / rings
        out.append((bottom_radius + (top_radius - bottom_radius) * t, height * t))
    return out


def write_stl(path, vertices, triangles, header=b"particle-lab funnel"):
    with open(path, "wb") as f:
        f.write(header.ljust(80, b" "))
        f.write(struct.pack("<I", len(triangles)))
        for tri in triangles:
            f.write(struct.pack("<3f", 0.0, 0.0, 0.0))  # readers compute the normal
            for i in tri:
                f.write(struct.pack("<3f", *vertices[i]))
            f.write(struct.pack("<H", 0))


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("out")
    p.add_argument("--top-radius", type=float, default=0.2)
    p.add_argument("--bottom-radius", type=float, default=0.03)
    p.add_argument("--height", type=float, default=0.2)
    p.add_argument("--spout", type=float, default=0.04)
    p.add_argument("--segments", type=int, default=96)
    p.add_argument("--rings", type=int, default=8)
    a = p.parse_args()
    if not (a.top_radius > a.bottom_radius > 0 and a.height > 0 and a.spout >= 0):
        sys.exit("make_funnel.py: need top radius > bottom radius > 0, height > 0, spout >= 0")
    if a.segments < 3 or a.rings < 1:
        sys.exit("make_funnel.py: need at least 3 segments and 1 ring")
    rings = funnel_rings(a.top_radius, a.bottom_radius, a.height, a.spout, a.rings)
    n = a.segments
    vertices = []
    for radius, y in rings:
        for s in range(n):
            phi = 2 * math.pi * s / n
            vertices.append((radius * math.cos(phi), y, radius * math.sin(phi)))
    triangles = []
    for k in range(len(rings) - 1):
        for s in range(n):
            a0, a1 = k * n + s, k * n + (s + 1) % n
            b0, b1 = a0 + n, a1 + n
            # Counter-clockwise seen from outside the cone (normals point away from the axis).
            triangles.append((a0, b1, a1))
            triangles.append((a0, b0, b1))
    write_stl(a.out, vertices, triangles)
    print(f"{a.out}: {len(triangles)} triangles, {len(vertices)} vertices")


if __name__ == "__main__":
    main()
