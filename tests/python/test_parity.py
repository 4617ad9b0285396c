"""Stepping from Python equals stepping in C++, bit for bit, on the CPU backend: the module's
arrays after k steps against the frames the particle-lab program exports (`bench --export`,
VTK legacy binary: the floats' own bits) for the same request. The two routes share the run
recipe and the simulator, nothing of the Python layer."""
import re

import numpy as np
import pytest


def read_vtk(path):
    """Positions, velocities (N, 3) and the SPH density (N,) or None, as float32."""
    data = path.read_bytes()
    n = int(re.search(rb"\nPOINTS (\d+) float\n", data).group(1))

    def block(header, width):
        start = data.index(header) + len(header)
        return np.frombuffer(data, dtype=">f4", count=n * width, offset=start).astype(np.float32)

    pos = block(b"\nPOINTS %d float\n" % n, 3).reshape(n, 3)
    vel = block(b"VECTORS velocity float\n", 3).reshape(n, 3)
    density = block(b"\ndensity 1 %d float\n" % n, 1) if b"\ndensity 1 " in data else None
    return pos, vel, density


def same_bits(a, b):
    return a.shape == b.shape and np.array_equal(a.view(np.uint32), b.view(np.uint32))


@pytest.mark.parametrize("preset,particles", [("classic", 4096), ("granular", 3000),
                                              ("water", 3000)])
def test_python_steps_equal_the_program_bit_for_bit(pl, run_app, tmp_path, preset, particles):
    sim = pl.Simulation(preset=preset, particles=particles, backend="cpu")
    # dt as the program writes it (the shortest text of the float), a frame every 7 steps.
    dt = float(repr(np.float32(sim.params["dt"])))
    every, frames = 7, 3
    out = tmp_path / "frames"
    run_app("bench", "--backend", "cpu", "--preset", preset, "--particles", particles,
            "--export", out, "--export-every", repr(every * dt), "--duration",
            repr(frames * every * dt))
    moved = False
    for k in range(frames + 1):
        if k > 0:
            sim.step(every)
        pos, vel, density = read_vtk(out / f"frame_{k:06d}.vtk")
        assert same_bits(sim.positions(), pos), f"positions differ at frame {k}"
        assert same_bits(sim.velocities(), vel), f"velocities differ at frame {k}"
        if sim.model == "sph":
            assert same_bits(sim.density(), density), f"densities differ at frame {k}"
        moved = moved or not np.array_equal(pos, read_vtk(out / "frame_000000.vtk")[0])
    assert moved  # the frames compared are not the start over again


def test_parameters_from_python_equal_set_on_the_command_line(pl, run_app, tmp_path):
    sim = pl.Simulation(preset="classic", particles=2048, backend="cpu", spring="0.7",
                        gravity_y="-0.001")
    out = tmp_path / "frames"
    run_app("bench", "--backend", "cpu", "--preset", "classic", "--particles", 2048,
            "--set", "spring=0.7", "--set", "gravity_y=-0.001", "--export", out,
            "--export-every", "5", "--duration", "5")
    sim.step(10)
    pos, vel, _ = read_vtk(out / "frame_000001.vtk")
    assert same_bits(sim.positions(), pos) and same_bits(sim.velocities(), vel)
