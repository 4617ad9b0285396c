#!/usr/bin/env python3
"""Writes a boulder as a closed binary STL file: a sphere of triangles (an icosahedron whose
faces are cut into four `levels` times) with its radius varied smoothly by direction, so it
looks like a rounded stone rather than a ball. Closed and welded, wound facing out: a body
that SPH can meet (the liquid's side is known) as well as DEM.

    scripts/make_boulder.py OUT.stl [--radius R] [--levels N] [--roughness F]

Triangles: 20 × 4^levels; the shipped boulder (assets/meshes/boulder.stl) is the default,
1,280 triangles of radius 1 (scale it in the scene file).
"""
import argparse
import math
import sys

from make_funnel import write_stl


def icosphere(levels):
    t = (1 + math.sqrt(5)) / 2
    verts = [(-1, t, 0), (1, t, 0), (-1, -t, 0), (1, -t, 0), (0, -1, t), (0, 1, t),
             (0, -1, -t), (0, 1, -t), (t, 0, -1), (t, 0, 1), (-t, 0, -1), (-t, 0, 1)]
    verts = [unit(v) for v in verts]
    tris = [(0, 11, 5), (0, 5, 1), (0, 1, 7), (0, 7, 10), (0, 10, 11), (1, 5, 9), (5, 11, 4),
            (11, 10, 2), (10, 7, 6), (7, 1, 8), (3, 9, 4), (3, 4, 2), (3, 2, 6), (3, 6, 8),
            (3, 8, 9), (4, 9, 5), (2, 4, 11), (6, 2, 10), (8, 6, 7), (9, 8, 1)]
    for _ in range(levels):
        middle = {}

        def mid(i, j):
            key = (min(i, j), max(i, j))
            if key not in middle:
                a, b = verts[i], verts[j]
                verts.append(unit(((a[0] + b[0]) / 2, (a[1] + b[1]) / 2, (a[2] + b[2]) / 2)))
                middle[key] = len(verts) - 1
            return middle[key]

        split = []
        for a, b, c in tris:
            ab, bc, ca = mid(a, b), mid(b, c), mid(c, a)
            split += [(a, ab, ca), (b, bc, ab), (c, ca, bc), (ab, bc, ca)]
        tris = split
    return verts, tris


def unit(v):
    n = math.sqrt(v[0] ** 2 + v[1] ** 2 + v[2] ** 2)
    return (v[0] / n, v[1] / n, v[2] / n)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("out")
    p.add_argument("--radius", type=float, default=1.0)
    p.add_argument("--levels", type=int, default=3)
    p.add_argument("--roughness", type=float, default=0.12)
    a = p.parse_args()
    if not (a.radius > 0 and 0 <= a.roughness < 0.5 and 0 <= a.levels <= 7):
        sys.exit("make_boulder.py: need radius > 0, roughness in [0, 0.5), levels in 0..7")
    verts, tris = icosphere(a.levels)
    # A few low harmonics of the direction: smooth bumps, the same on every run.
    shaped = []
    for x, y, z in verts:
        bump = (math.sin(2.1 * x + 0.3) * math.cos(1.7 * y) + 0.6 * math.sin(3.3 * z - 1.2 * x)
                - 0.35 * y * y)
        r = a.radius * (1 + a.roughness * bump / 1.6)
        shaped.append((r * x, r * y, r * z))
    write_stl(a.out, shaped, tris, b"particle-lab boulder")
    print(f"{a.out}: {len(tris)} triangles, {len(shaped)} vertices")


if __name__ == "__main__":
    main()
