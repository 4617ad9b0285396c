#!/usr/bin/env python3
"""Dam break: run the water preset (a column a wide and 2a high at one end of a tank 5a long),
track the surge front along the floor and plot it against Martin & Moyce's measurements in their
dimensionless form, Z = x/a against T = t*sqrt(2g/a).

    PYTHONPATH=build/python python3 examples/dam_break_front.py --particles 20000 --backend cpu
"""
import argparse

import numpy as np

import particle_lab as pl

parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("--particles", type=int, default=20000)
parser.add_argument("--backend", default="auto", choices=["auto", "cpu", "cuda"])
parser.add_argument("--duration", type=float, default=0.4, help="simulated seconds")
parser.add_argument("--out", default="dam_break_front.png")
args = parser.parse_args()

sim = pl.Simulation(preset="water", particles=args.particles, backend=args.backend)
print(sim)
x0 = sim.positions()
wall = sim.domain[0][0]        # the tank's left wall, where the column stands
a = x0[:, 0].max() - wall      # the column's width (m)
g = -sim.params["gravity_y"]   # m/s²
r = sim.params["radius"]       # half the particle spacing (m)
floor = sim.domain[0][1]

times, fronts = [], []
steps_per_sample = max(1, round(0.005 / sim.params["dt"]))  # a sample every 5 ms
while sim.time < args.duration:
    sim.step(steps_per_sample)
    x = sim.positions()
    # The front as docs/validation.md measures it: the furthest liquid in the two lowest
    # particle layers, plus half a spacing.
    low = x[x[:, 1] < floor + 4 * r]
    fronts.append(low[:, 0].max() + r - wall if len(low) else np.nan)
    times.append(sim.time)

T = np.array(times) * np.sqrt(2 * g / a)
Z = np.array(fronts) / a
print(f"column width a = {a:.3f} m; front at T = {T[-1]:.2f}: Z = {Z[-1]:.2f}")

import matplotlib  # noqa: E402  (after the run: the simulation needs no display)

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

# The measurements `particle-lab validate dam-break` compares with (sim/validation/sph_validation.cpp).
mm_T, mm_Z = zip(*pl.martin_moyce_points())
plt.plot(T, Z, label=f"particle_lab, {sim.particles} particles ({sim.backend})")
plt.plot(mm_T, mm_Z, "o", label="Martin & Moyce (1952)")
plt.xlabel("T = t sqrt(2g/a)")
plt.ylabel("Z = front / a")
plt.legend()
plt.savefig(args.out, dpi=120)
print("wrote", args.out)
