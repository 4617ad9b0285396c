#!/usr/bin/env python3
"""DEM from Python: drive Particle Lab's DEM core (granular preset) and time it against a plain
Numba kernel of the same step, the one a Python/Numba GPU-tutorial reader would write first:
a uniform grid by sorting, a 27-cell neighbour loop with the same spring-dashpot-shear contact
(sim/physics/dem_contact.h), gravity, semi-implicit Euler and walls. Without Numba it says so and shows
the core's timing only.

    PYTHONPATH=build/python python3 examples/dem_vs_numba.py --particles 20000 --backend cpu
"""
import argparse
import time

import numpy as np

import particle_lab as pl

parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("--particles", type=int, default=20000)
parser.add_argument("--backend", default="auto", choices=["auto", "cpu", "cuda"])
parser.add_argument("--steps", type=int, default=200)
args = parser.parse_args()

sim = pl.Simulation(preset="granular", particles=args.particles, backend=args.backend)
p = sim.params
(lo, hi) = (np.array(sim.domain[0], np.float32), np.array(sim.domain[1], np.float32))
x0, v0 = sim.positions(), sim.velocities()
print(sim)

# The core: wall clock around the steps (step() returns when the device is done), then the
# device timers of `particle-lab bench` for the stages.
sim.step(5)  # warm-up
t0 = time.perf_counter()
sim.step(args.steps)
core_ms = (time.perf_counter() - t0) * 1e3 / args.steps
stages = sim.bench(steps=args.steps, warmup=5, window="start")["median_ms"]
print(f"particle_lab ({sim.backend}): {core_ms:.3f} ms/step wall clock; device-timed stages "
      + ", ".join(f"{k} {v:.3f}" for k, v in stages.items()) + " ms")

try:
    from numba import njit, prange
except ImportError:
    print("numba is missing (Debian: apt install python3-numba): only the core's timing shown")
    raise SystemExit(0)


@njit(parallel=True, fastmath=True)
def numba_step(pos, vel, lo, hi, cell, dims, r, m, k, c, s, g, dt, bdamp, gdamp, col):
    n = pos.shape[0]
    # Grid: each particle's cell, particles sorted by cell, each cell's first index.
    ijk = np.empty((n, 3), np.int64)
    key = np.empty(n, np.int64)
    for i in prange(n):
        for d in range(3):
            ijk[i, d] = min(max(int((pos[i, d] - lo[d]) / cell), 0), dims[d] - 1)
        key[i] = (ijk[i, 2] * dims[1] + ijk[i, 1]) * dims[0] + ijk[i, 0]
    order = np.argsort(key)
    start = np.searchsorted(key[order], np.arange(dims[0] * dims[1] * dims[2] + 1))
    new_vel = np.empty_like(vel)
    for a in prange(n):
        f = np.zeros(3, np.float32)
        for dz in range(-1, 2):
            for dy in range(-1, 2):
                for dx in range(-1, 2):
                    i, j, l = ijk[a, 0] + dx, ijk[a, 1] + dy, ijk[a, 2] + dz
                    if i < 0 or j < 0 or l < 0 or i >= dims[0] or j >= dims[1] or l >= dims[2]:
                        continue
                    cid = (l * dims[1] + j) * dims[0] + i
                    for t in range(start[cid], start[cid + 1]):
                        b = order[t]
                        if b != a:
                            f += contact(pos[a], vel[a], pos[b], vel[b], r + r, k, c, s)
        if col[3] > 0:  # the collider: a sphere at rest, same contact law
            f += contact(pos[a], vel[a], col[:3], np.zeros(3, np.float32), r + col[3], k, c, s)
        new_vel[a] = vel[a] + (f / m + g) * dt
    for a in prange(n):  # global damping, drift, walls
        vel[a] = new_vel[a] * gdamp
        pos[a] += vel[a] * dt
        for d in range(3):
            if pos[a, d] > hi[d] - r:
                pos[a, d] = hi[d] - r
                vel[a, d] *= bdamp
            if pos[a, d] < lo[d] + r:
                pos[a, d] = lo[d] + r
                vel[a, d] *= bdamp


@njit(fastmath=True)
def contact(pa, va, pb, vb, reach, k, c, s):
    rel = pb - pa
    dist = np.sqrt((rel * rel).sum())
    if dist >= reach or dist == 0:
        return np.zeros(3, np.float32)
    nrm = rel / dist
    rv = vb - va
    tangential = rv - (rv * nrm).sum() * nrm
    return -k * (reach - dist) * nrm + c * rv + s * tangential


f32 = np.float32
cell = f32(2 * p["radius"])
dims = np.ceil((hi - lo) / cell).astype(np.int64)
g = np.array([p["gravity_x"], p["gravity_y"], p["gravity_z"]], np.float32)
col = np.array([p["collider_x"], p["collider_y"], p["collider_z"], p["collider_radius"]], f32)
consts = (f32(p["radius"]), f32(p["mass"]), f32(p["spring"]), f32(p["damping"]),
          f32(p["shear"]), g, f32(p["dt"]), f32(p["boundary_damping"]),
          f32(p["global_damping"]), col)
pos, vel = x0.copy(), v0.copy()
numba_step(pos, vel, lo, hi, cell, dims, *consts)  # compiles
numba_step(pos, vel, lo, hi, cell, dims, *consts)
t0 = time.perf_counter()
for _ in range(args.steps):
    numba_step(pos, vel, lo, hi, cell, dims, *consts)
numba_ms = (time.perf_counter() - t0) * 1e3 / args.steps
print(f"plain Numba (CPU, parallel): {numba_ms:.3f} ms/step wall clock")
print(f"particle_lab is {numba_ms / core_ms:.1f}x the speed of the Numba step")

# Both ran the same physics from the same start: after the same number of steps the pile's
# mean height agrees (particle order and rounding differ, so individual particles do not).
sim.reset()
sim.step(args.steps + 2)
pos, vel = x0.copy(), v0.copy()
for _ in range(args.steps + 2):
    numba_step(pos, vel, lo, hi, cell, dims, *consts)
print(f"mean height after {args.steps + 2} steps: particle_lab {sim.positions()[:, 1].mean():.5f}"
      f" m, Numba {pos[:, 1].mean():.5f} m")
