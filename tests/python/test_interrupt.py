"""The long calls answer Ctrl-C and SIGTERM: step(10**9) and bench() stop between steps with
KeyboardInterrupt, keep the steps they ran, and the simulation goes on working after."""
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time

import pytest


def send_soon(sig, after=0.3):
    timer = threading.Timer(after, lambda: os.kill(os.getpid(), sig))
    timer.start()
    return timer


def test_ctrl_c_stops_a_long_step_between_steps(pl):
    sim = pl.Simulation(preset="classic", particles=512, backend="cpu")
    send_soon(signal.SIGINT)
    start = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        sim.step(10**9)
    assert time.monotonic() - start < 10
    ran = sim.steps
    assert 0 < ran < 10**9
    assert sim.stats()["non_finite"] == 0
    sim.step(3)  # the simulation still works, and Python's own handler is back
    assert sim.steps == ran + 3
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_ctrl_c_stops_a_bench(pl):
    sim = pl.Simulation(preset="classic", particles=512, backend="cpu")
    send_soon(signal.SIGINT)
    start = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        sim.bench(steps=10**6, warmup=0, window="start")
    assert time.monotonic() - start < 10


def test_sigterm_ends_a_long_step_as_python_would(tmp_path):
    # Python's own SIGTERM action (the default: the process ends by the signal) applies.
    script = textwrap.dedent("""
        import os, signal, threading, particle_lab
        sim = particle_lab.Simulation(preset="classic", particles=512, backend="cpu")
        threading.Timer(0.3, lambda: os.kill(os.getpid(), signal.SIGTERM)).start()
        sim.step(10**9)
        print("returned")
    """)
    r = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                       timeout=60, env=os.environ.copy())
    assert r.returncode == -signal.SIGTERM, r.stdout + r.stderr
    assert "returned" not in r.stdout
