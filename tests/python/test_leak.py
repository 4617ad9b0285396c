"""No leak: 10,000 create/step/destroy cycles leave the resident memory where it was after the
first 1,000 (an allocation of the simulator's size kept per cycle would add tens of MiB). The
cycles run in a child interpreter on one OpenMP thread: a fresh process measures only them, and
one thread keeps 10,000 short runs quick on a busy machine."""
import json
import os
import subprocess
import sys

CYCLES = r"""
import gc, json, sys
import particle_lab as pl

def rss_kib():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])

def cycle(n):
    for _ in range(n):
        sim = pl.Simulation(preset="water", particles=256, backend="cpu")
        sim.step(1)
        sim.positions()
        del sim

cycle(1000)  # allocator pools and caches settle
gc.collect()
before = rss_kib()
cycle(9000)
gc.collect()
print(json.dumps({"before": before, "after": rss_kib()}))
"""


def test_ten_thousand_cycles_do_not_grow_memory():
    env = dict(os.environ, OMP_NUM_THREADS="1")
    out = subprocess.run([sys.executable, "-c", CYCLES], env=env, capture_output=True,
                         text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    rss = json.loads(out.stdout.strip().splitlines()[-1])
    grown = rss["after"] - rss["before"]
    # 256 particles are 8 KiB of state alone: kept per cycle that is 70 MiB over 9,000 cycles.
    assert grown < 4096, f"resident memory grew by {grown} KiB over 9,000 cycles ({rss})"
