#!/usr/bin/env python3
"""Export frames: run a scene and write its particles every few milliseconds of simulated time
as NumPy .npz files (positions, velocities and, for a liquid, density and pressure, with the
time), ready for any plotting or analysis tool. `particle-lab bench --export` writes VTK for
ParaView instead.

    PYTHONPATH=build/python python3 examples/export_frames.py --scene dam_break --out frames
"""
import argparse
import pathlib

import numpy as np

import particle_lab as pl

parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("--scene", default="dam_break", help="a name from particle_lab.scenes()")
parser.add_argument("--particles", type=int, default=None, help="default: the scene's count")
parser.add_argument("--backend", default="auto", choices=["auto", "cpu", "cuda"])
parser.add_argument("--every", type=float, default=0.01, help="simulated seconds between frames")
parser.add_argument("--frames", type=int, default=20)
parser.add_argument("--out", default="frames")
args = parser.parse_args()

sim = pl.Simulation(scene=args.scene, particles=args.particles, backend=args.backend)
out = pathlib.Path(args.out)
out.mkdir(parents=True, exist_ok=True)
steps = max(1, round(args.every / sim.params["dt"]))  # whole steps of dt between frames
print(f"{sim}: a frame every {steps} steps ({steps * sim.params['dt']:.4g} s) into {out}/")

for k in range(args.frames):
    if k > 0:
        sim.step(steps)
    arrays = sim.arrays()  # one download: positions, velocities (density, pressure)
    np.savez_compressed(out / f"frame_{k:04d}.npz", time=sim.time, **arrays)
    speed = np.linalg.norm(arrays["velocities"], axis=1)
    print(f"  frame {k:4d}  t = {sim.time:.4f} s  max speed {speed.max():.3f} m/s")
print(f"wrote {args.frames} frames; read one with np.load('{out}/frame_0000.npz')")
