"""A property test of the Python argument layer: every argument of every call, given values of
every awkward kind (bools, NaN, infinities, huge and negative integers, numpy scalars and arrays,
empty and odd strings, containers, arbitrary objects), either works or raises particle_lab.Error,
TypeError or OverflowError with a message that names the argument's value or type -- never any
other exception, never a crash, never an empty or '<NULL>' message -- and a refused call leaves
the simulation as it was. The draws are seeded, so a failure repeats."""
import decimal
import fractions
import math
import random

import numpy as np
import pytest


class Opaque:
    def __repr__(self):
        return "Opaque()"


def awkward_values():
    return [
        True, False, None, 0, -1, 1, 7, 2**31, 2**63, 2**64, -2**63 - 1, 1.5, -0.0,
        float("nan"), float("inf"), -float("inf"), 1e308, 5e-324,
        "", " ", "1", "nan", "inf", "-1", "1e999", "\x00", "é", "classic", "cuda", "cpu",
        "/nonexistent/file", [], [1], (1,), {}, {"a": 1}, Opaque(), b"1", 1 + 1j,
        decimal.Decimal("1.5"), decimal.Decimal("NaN"), fractions.Fraction(1, 3),
        np.float32("nan"), np.float64(2.5), np.int64(3), np.int64(-5), np.uint64(2**64 - 1),
        np.bool_(True), np.array(1.0), np.array([1.0, 2.0]), np.array([]), np.array("x"),
    ]




def expect_works_or_refuses(pl, call, what):
    try:
        call()
    except (pl.Error, TypeError, OverflowError) as e:
        message = str(e)
        assert message.strip(), f"{what}: an empty message"
        assert "<NULL>" not in message, f"{what}: {message}"
        assert "\x00" not in message and message.count("'") % 2 == 0, \
            f"{what}: a message cut short or holding a NUL: {message!r}"
        return False
    return True


def small_whole(v):
    """Whether v is a whole number a call would take and then run for long."""
    if isinstance(v, (bool, np.bool_)):
        return False
    if isinstance(v, (int, np.integer)):
        return int(v) > 10
    return False


@pytest.fixture(scope="module")
def sim(pl):
    return pl.Simulation(preset="classic", particles=64, backend="cpu")


@pytest.mark.parametrize("seed", range(4))
def test_every_call_works_or_refuses_cleanly(pl, sim, seed):
    rng = random.Random(seed)
    values = awkward_values()
    params = ["dt", "spring", "substeps", "gravity_y", "sprung"]
    for _ in range(60):
        v = rng.choice(values)
        before = sim.params
        steps_before = sim.steps
        kind = rng.randrange(8)
        if kind == 0:
            name = rng.choice(params)
            ok = expect_works_or_refuses(pl, lambda: sim.set(name, v), f"set({name!r}, {v!r})")
            if not ok:
                assert sim.params == before, f"set({name!r}, {v!r}) changed the parameters"
            sim.set("dt", before["dt"])  # what a valid draw changed, back
            sim.set("spring", before["spring"])
            sim.set("substeps", before["substeps"])
            sim.set("gravity_y", before["gravity_y"])
        elif kind == 1:
            if small_whole(v):
                continue
            ok = expect_works_or_refuses(pl, lambda: sim.step(v), f"step({v!r})")
            if not ok:
                assert sim.steps == steps_before
        elif kind == 2:
            arg = rng.choice(["steps", "warmup", "flow_time", "window"])
            if arg in ("steps", "warmup") and small_whole(v):
                continue
            kwargs = dict(steps=1, warmup=0, window="start", flow_time=0.01)
            kwargs[arg] = v
            expect_works_or_refuses(pl, lambda: sim.bench(**kwargs), f"bench({arg}={v!r})")
        elif kind == 3:
            arg = rng.choice(["preset", "scene", "particles", "backend"])
            if arg == "particles" and small_whole(v) and int(v) > 4096:
                continue
            kwargs = dict(particles=64, backend="cpu")
            if arg != "scene":
                kwargs["preset"] = "classic"
            kwargs[arg] = v
            expect_works_or_refuses(pl, lambda: pl.Simulation(**kwargs), f"Simulation({arg}={v!r})")
        elif kind == 4:
            expect_works_or_refuses(pl, lambda: sim.body_spin(v), f"body_spin({v!r})")
        elif kind == 5:
            expect_works_or_refuses(pl, lambda: sim.set_body_spin(0, v), f"set_body_spin(0, {v!r})")
        elif kind == 6:
            ok = expect_works_or_refuses(pl, lambda: sim.load(v), f"load({v!r})")
            assert not ok, f"load({v!r}) took a value that names no checkpoint"
            assert sim.params == before and sim.steps == steps_before
        else:
            kwargs = {rng.choice(params): v}
            expect_works_or_refuses(pl, lambda: pl.Simulation(preset="classic", particles=64,
                                                              backend="cpu", **kwargs),
                                    f"Simulation(**{kwargs!r})")
        stats = sim.stats()
        assert stats["non_finite"] == 0
        assert math.isfinite(sim.time)
