"""The module's surface: the tables, the arrays' shapes and dtypes, time, set and reset."""
import numpy as np
import pytest


def test_tables_list_presets_scenes_and_parameters(pl):
    assert [p["name"] for p in pl.presets()] == ["classic", "granular", "water", "glass-beads",
                                                 "sand-like"]
    assert {p["name"]: p["model"] for p in pl.presets()}["water"] == "sph"
    scenes = {s["name"]: s for s in pl.scenes()}
    assert {"classic", "dam_break", "mixer"} <= set(scenes)
    assert scenes["dam_break"]["model"] == "sph" and scenes["dam_break"]["path"].endswith(".json")
    params = {p["name"]: p for p in pl.parameters()}
    spring = params["spring"]
    assert spring["unit"] == "N/m" and spring["min"] < spring["max"]
    assert spring["models"] == ["dem"] and spring["defaults"]["classic"] == pytest.approx(0.5)
    assert params["substeps"]["kind"] == "int"
    assert params["radius"]["needs_reset"]


@pytest.mark.parametrize("preset,model", [("classic", "dem"), ("water", "sph")])
def test_arrays_have_documented_shapes_and_dtypes(pl, preset, model):
    sim = pl.Simulation(preset=preset, particles=1000, backend="cpu")
    n = sim.particles
    assert sim.model == model and sim.backend == "cpu" and n > 0
    sim.step(3)
    for name in ("positions", "velocities"):
        a = getattr(sim, name)()
        assert a.shape == (n, 3) and a.dtype == np.float32 and a.flags.c_contiguous
        assert np.isfinite(a).all()
    arrays = sim.arrays()
    np.testing.assert_array_equal(arrays["positions"], sim.positions())
    if model == "sph":
        for name in ("density", "pressure"):
            a = getattr(sim, name)()
            assert a.shape == (n,) and a.dtype == np.float32
            np.testing.assert_array_equal(arrays[name], a)
        assert 900 < float(np.median(sim.density())) < 1100  # kg/m³ of water
    else:
        assert "density" not in arrays
        with pytest.raises(pl.Error, match="density exists for SPH liquids only"):
            sim.density()


def test_time_counts_steps_of_dt(pl):
    sim = pl.Simulation(preset="classic", particles=512, backend="cpu")
    assert sim.time == 0 and sim.steps == 0
    sim.step(4)
    assert sim.steps == 4 and sim.time == pytest.approx(4 * 0.5)
    sim.step(0)
    assert sim.steps == 4


def test_keyword_parameters_and_set_change_the_run(pl):
    sim = pl.Simulation(preset="classic", particles=512, backend="cpu", spring=0.25,
                        gravity_y=-0.001)
    assert sim.params["spring"] == pytest.approx(0.25)
    sim.set("damping", 0.04)
    assert sim.params["damping"] == pytest.approx(0.04)
    assert sim.pending_reset == []
    sim.set("radius", 0.02)  # needs a reset: kept until reset()
    assert sim.pending_reset == ["radius"]
    sim.step(2)
    sim.reset()
    assert sim.time == 0 and sim.pending_reset == []
    assert sim.params["radius"] == pytest.approx(0.02)
    assert sim.params["damping"] == pytest.approx(0.04)


def test_gravity_moves_particles_down(pl):
    sim = pl.Simulation(preset="granular", particles=2000, backend="cpu")
    y0 = sim.positions()[:, 1].mean()
    sim.step(50)
    assert sim.positions()[:, 1].mean() < y0
    assert (sim.velocities()[:, 1] < 0).any()


def test_scene_by_name_and_by_path(pl):
    by_name = pl.Simulation(scene="dam_break", particles=2000, backend="cpu")
    path = {s["name"]: s["path"] for s in pl.scenes()}["dam_break"]
    by_path = pl.Simulation(scene=path, particles=2000, backend="cpu")
    assert by_name.model == "sph" and "dam_break" in by_name.label
    np.testing.assert_array_equal(by_name.positions(), by_path.positions())


def test_bench_returns_stage_timings(pl):
    sim = pl.Simulation(preset="classic", particles=4096, backend="cpu")
    sim.step(2)
    before = sim.positions()
    r = sim.bench(steps=20, warmup=2, window="start")
    assert r["valid"] and r["backend"] == "cpu" and r["particles"] == 4096 and r["steps"] == 20
    assert set(r["median_ms"]) == {"grid", "reorder", "forces", "integrate", "step"}
    assert r["median_ms"]["step"] > 0 and r["step_ms"] > 0 and r["steps_per_second"] > 0
    assert r["p10_ms"]["step"] <= r["median_ms"]["step"] <= r["p90_ms"]["step"]
    np.testing.assert_array_equal(sim.positions(), before)  # the run itself is untouched


def test_a_drum_turns_at_the_spin_it_is_given(pl):
    """The drum scene's cylinder spins at the file's 6 rev/min; set_body_spin changes it, and
    refusals name the body."""
    sim = pl.Simulation(scene="drum", backend="cpu")
    assert sim.bodies == ["geometry[0] (cylinder)"]
    assert sim.body_spin(0) == pytest.approx(6.0)
    sim.set_body_spin(0, -12)
    assert sim.body_spin(0) == pytest.approx(-12.0)
    sim.step(2)
    assert np.isfinite(sim.positions()).all()
    with pytest.raises(ValueError, match="rpm must be a number"):
        sim.set_body_spin(0, float("nan"))
    with pytest.raises(ValueError, match="no body 3"):
        sim.set_body_spin(3, 1.0)
    assert sim.body_spin(0) == pytest.approx(-12.0)


def test_a_scene_with_bodies_runs_against_them(pl, tmp_path):
    """The chute's slab holds the beads: after they land on it none is below its top face."""
    sim = pl.Simulation(scene="chute", backend="cpu")
    sim.step(300)  # 300 × 20 substeps (0.34 s): the beads land on the slab and slide
    x = sim.positions()
    assert np.isfinite(x).all()
    # The slab's upper face: y = 0.2 + (x - 0.05) tan 30° + 0.005 / cos 30°, over its length.
    on_slab = (x[:, 0] > -0.2) & (x[:, 0] < 0.3)
    top = 0.2 + (x[on_slab, 0] - 0.05) * np.tan(np.radians(30)) + 0.005 / np.cos(np.radians(30))
    assert on_slab.sum() > 100
    assert (x[on_slab, 1] > top).all(), "a bead passed through the chute"
    # A checkpoint keeps the slab: the loaded run holds the beads the same way.
    sim.save(str(tmp_path / "chute.plab"))
    loaded = pl.Simulation(preset="classic", particles=100, backend="cpu")
    loaded.load(str(tmp_path / "chute.plab"))
    loaded.step(50)
    y = loaded.positions()
    on_slab = (y[:, 0] > -0.2) & (y[:, 0] < 0.3)
    top = 0.2 + (y[on_slab, 0] - 0.05) * np.tan(np.radians(30)) + 0.005 / np.cos(np.radians(30))
    assert (y[on_slab, 1] > top).all()
