"""Checkpoints from Python (sim/io/checkpoint.h): continuing from a saved state is bit for bit the
run that did not stop, and a refused file changes nothing."""
import numpy as np
import pytest


def same_bits(a, b):
    return a.shape == b.shape and np.array_equal(a.view(np.uint32), b.view(np.uint32))


@pytest.mark.parametrize("preset", ["granular", "water"])
def test_continuing_from_a_checkpoint_equals_not_stopping(pl, tmp_path, preset):
    path = tmp_path / "state.plab"
    sim = pl.Simulation(preset=preset, particles=2000, backend="cpu")
    sim.step(15)
    sim.save(str(path))
    t_saved, steps_saved = sim.time, sim.steps
    sim.step(15)

    other = pl.Simulation(preset="classic", particles=100, backend="cpu")
    other.load(str(path))
    assert other.model == sim.model and other.particles == sim.particles
    assert other.time == t_saved and other.steps == steps_saved
    assert other.params == sim.params
    other.step(15)
    assert same_bits(other.positions(), sim.positions())
    assert same_bits(other.velocities(), sim.velocities())
    other.step(3)
    other.reset()  # back to the loaded checkpoint
    assert other.steps == steps_saved
    other.step(15)
    assert same_bits(other.positions(), sim.positions())


def test_a_refused_file_changes_nothing(pl, tmp_path):
    sim = pl.Simulation(preset="classic", particles=500, backend="cpu")
    sim.step(3)
    path = tmp_path / "state.plab"
    sim.save(str(path))
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0xFF
    bad = tmp_path / "bad.plab"
    bad.write_bytes(bytes(data))
    before = sim.positions()
    with pytest.raises(pl.Error, match="bad.plab"):
        sim.load(str(bad))
    with pytest.raises(pl.Error, match="missing.plab"):
        sim.load(str(tmp_path / "missing.plab"))
    assert sim.steps == 3 and same_bits(sim.positions(), before)


def test_load_continues_a_double_state_checkpoint_in_double_as_the_cli_does(pl, tmp_path, run_app):
    # A double-state checkpoint written by the program, continued 15 steps by the program and
    # by Python: the same bits only if Python keeps the checkpoint's double state (continuing in
    # float drifts in the last bits within a few steps), and its save holds the double arrays.
    start, by_cli, by_python, float_run = (tmp_path / f"{n}.plab" for n in
                                           ("start", "cli", "python", "float"))
    common = ["bench", "--backend", "cpu", "--preset", "granular", "--particles", "2000",
              "--window", "start"]
    run_app(*common, "--double", "--steps", "10", "--warmup", "0", "--save", start)
    run_app("bench", "--backend", "cpu", "--load", start, "--steps", "15", "--save", by_cli)
    run_app(*common, "--steps", "10", "--warmup", "0", "--save", float_run)

    sim = pl.Simulation(preset="classic", particles=100, backend="cpu")
    sim.load(str(start))
    sim.step(15)
    sim.save(str(by_python))
    # The double arrays (2000 particles x 64 bytes) are there; the run's labels differ by a few
    # bytes between the program and Python.
    assert abs(by_python.stat().st_size - by_cli.stat().st_size) < 1000
    assert by_python.stat().st_size - float_run.stat().st_size > 2000 * 64 - 1000

    cli = pl.Simulation(preset="classic", particles=100, backend="cpu")
    cli.load(str(by_cli))
    assert sim.steps == cli.steps == 25
    assert same_bits(sim.positions(), cli.positions())
    assert same_bits(sim.velocities(), cli.velocities())
