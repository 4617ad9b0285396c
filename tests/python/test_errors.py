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
    with pytest.raises(pl.Error, match=r"particles must be a whole number in \[1, 2147483647\], not 0"):
        pl.Simulation(preset="classic", particles=0, backend="cpu")
    with pytest.raises(pl.Error, match="not both"):
        pl.Simulation(preset="water", scene="dam_break", backend="cpu")
    with pytest.raises(pl.Error, match="no shipped scene of that name.*dam_break"):
        pl.Simulation(scene="nonesuch", backend="cpu")
    with pytest.raises(pl.Error, match="device views need the CUDA backend"):
        pl.Simulation(preset="classic", particles=64, backend="cpu").device_positions()


@pytest.mark.parametrize("kwargs,message", [
    (dict(particles=True), r"particles must be a whole number in \[1, 2147483647\]; True is a bool"),
    (dict(particles=64.0), r"particles must be a whole number in \[1, 2147483647\], not 64\.0"),
    (dict(particles="64"), r"particles must be a whole number .*, not '64' \(str\)"),
    (dict(preset=""), r"preset is empty; give one of classic, granular, water"),
    (dict(scene=""), r"scene is empty; give the name of a shipped scene"),
    (dict(spring=True), r"spring: True is a bool, not a number"),
])
def test_booleans_are_no_numbers_and_empty_names_no_preset(pl, kwargs, message):
    kwargs.setdefault("particles", 64)
    with pytest.raises(pl.Error, match=message):
        pl.Simulation(backend="cpu", **kwargs)


def test_step_set_and_bench_refuse_booleans_and_state_their_limits(pl):
    np = pytest.importorskip("numpy")
    sim = pl.Simulation(preset="classic", particles=64, backend="cpu")
    before = sim.params
    with pytest.raises(pl.Error, match=r"step: n must be a whole number in \[0, \d+\]; True is a bool"):
        sim.step(True)
    with pytest.raises(pl.Error, match=r"step: n must be a whole number .*, not 1\.5"):
        sim.step(1.5)
    assert sim.steps == 0
    with pytest.raises(pl.Error, match=r"dt: True is a bool, not a number"):
        sim.set("dt", True)
    with pytest.raises(pl.Error, match=r"dt: True \(numpy\.bool_?\) is a bool, not a number"):
        sim.set("dt", np.True_)
    with pytest.raises(pl.Error, match=r"spring: an array of shape \(2,\) is not one number"):
        sim.set("spring", np.array([1.0, 2.0]))
    with pytest.raises(pl.Error, match=r"spring: a value of type 'object' is not a number"):
        sim.set("spring", object())
    assert sim.params == before
    # A 0-d array and a numpy scalar are the number they hold.
    sim.set("spring", np.array(0.75))
    assert sim.params["spring"] == pytest.approx(0.75)
    sim.step(np.int64(2))
    assert sim.steps == 2
    assert pl.Simulation(preset="classic", particles=np.array(32), backend="cpu").particles == 32
    with pytest.raises(pl.Error, match=r"flow_time must be a number in \[1e-06, 1e\+06\] s of "
                                       r"simulated time, not 1e\+09"):
        sim.bench(window="flow", flow_time=1e9)
    with pytest.raises(pl.Error, match=r"flow_time must be a number in .*, not nan"):
        sim.bench(window="flow", flow_time=float("nan"))
    with pytest.raises(pl.Error, match=r"steps must be a whole number in \[1, 1000000\]; True is a bool"):
        sim.bench(steps=True)
