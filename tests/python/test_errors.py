"""Errors become particle_lab.Error (a ValueError and a RuntimeError) carrying the message the
particle-lab program prints for the same input."""
import pytest

BASE = ["bench", "--particles", 64, "--steps", 1, "--warmup", 0,
        "--window", "start"]


def program_error(run_app, *args):
    if "--backend" not in args:
        args = ("--backend", "cpu", *args)
    r = run_app(*BASE, *args, check=False)
    assert r.returncode == 1, r.stdout + r.stderr
    prefix = "particle-lab: error: "
    line = r.stderr.strip().splitlines()[-1]
    assert line.startswith(prefix), r.stderr
    return line[len(prefix):]


@pytest.mark.parametrize("args,kwargs", [
    (["--set", "spring=1e9"], dict(spring="1e9")),
    (["--set", "sprung=1"], dict(sprung="1")),
    (["--set", "dt=-1"], dict(dt="-1")),
    (["--set", "substeps=2.5"], dict(substeps="2.5")),
    (["--preset", "nonesuch"], dict(preset="nonesuch")),
    (["--scene", "/nonexistent/scene.json"], dict(scene="/nonexistent/scene.json")),
])
def test_constructor_errors_carry_the_programs_message(pl, run_app, args, kwargs):
    expected = program_error(run_app, *args)
    kwargs.setdefault("particles", 64)
    with pytest.raises(pl.Error) as info:
        pl.Simulation(backend="cpu", **kwargs)
    assert str(info.value) == expected
    assert isinstance(info.value, ValueError) and isinstance(info.value, RuntimeError)


def test_set_refuses_as_the_command_line_does_and_changes_nothing(pl, run_app):
    expected = program_error(run_app, "--set", "global_damping=2")
    sim = pl.Simulation(preset="classic", particles=64, backend="cpu")
    before = sim.params
    with pytest.raises(pl.Error) as info:
        sim.set("global_damping", "2")
    assert str(info.value) == expected
    assert sim.params == before
    # A number from Python is checked the same way, named as Python writes it.
    with pytest.raises(pl.Error, match=r"global_damping.*1\.5"):
        sim.set("global_damping", 1.5)
    with pytest.raises(ValueError, match="unknown parameter|sprung"):
        sim.set("sprung", 1)


def test_bad_backend_and_counts(pl, run_app):
    expected = program_error(run_app, "--backend", "gpu")
    with pytest.raises(pl.Error) as info:
        pl.Simulation(preset="classic", particles=64, backend="gpu")
    assert str(info.value) == expected
    with pytest.raises(pl.Error, match="particles must be at least 1"):
        pl.Simulation(preset="classic", particles=0, backend="cpu")
    with pytest.raises(pl.Error, match="not both"):
        pl.Simulation(preset="water", scene="dam_break", backend="cpu")
    with pytest.raises(pl.Error, match="no shipped scene of that name.*dam_break"):
        pl.Simulation(scene="nonesuch", backend="cpu")
    with pytest.raises(pl.Error, match="device views need the CUDA backend"):
        pl.Simulation(preset="classic", particles=64, backend="cpu").device_positions()
