"""Fixtures of the particle_lab tests: the module (built, on PYTHONPATH), the particle-lab binary
the module is compared with, and the `gpu` marker. CTest runs these (tests/python/CMakeLists.txt)
with PYTHONPATH at the built module and PLAB_APP_BINARY at the program."""
import os
import shutil
import subprocess
import tempfile

import pytest

_OWN_BASETEMP = pytest.StashKey[str]()


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config):
    config.addinivalue_line("markers", "gpu: needs a CUDA device (skipped without one)")
    # tmp_path folders go into a fresh folder of this run, removed when it ends (pytest itself
    # would keep the last three runs' in $TMPDIR/pytest-of-<user>). A given --basetemp is kept.
    if not config.option.basetemp:
        config.option.basetemp = tempfile.mkdtemp(prefix="plab_pytest_")
        config.stash[_OWN_BASETEMP] = config.option.basetemp


def pytest_unconfigure(config):
    own = config.stash.get(_OWN_BASETEMP, None)
    if own:
        shutil.rmtree(own, ignore_errors=True)


def pytest_sessionfinish(session, exitstatus):
    # CTest's gpu run: a run where every test was skipped (no device) reports skipped, not passed.
    code = os.environ.get("PLAB_ALL_SKIPPED_EXIT")
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    if not code or reporter is None or exitstatus != 0:
        return
    stats = reporter.stats
    if stats.get("skipped") and not stats.get("passed") and not stats.get("failed"):
        session.exitstatus = int(code)


@pytest.fixture(scope="session")
def pl():
    import particle_lab

    return particle_lab


@pytest.fixture(scope="session")
def app_binary():
    path = os.environ.get("PLAB_APP_BINARY", "")
    if not path or not os.access(path, os.X_OK):
        pytest.fail("PLAB_APP_BINARY must name the built particle-lab program (CTest sets it)")
    return path


@pytest.fixture(scope="session")
def run_app(app_binary):
    """Runs particle-lab with the arguments; returns the CompletedProcess (text)."""

    def run(*args, check=True):
        result = subprocess.run([app_binary, *map(str, args)], capture_output=True, text=True,
                                timeout=300)
        if check and result.returncode != 0:
            raise AssertionError(f"particle-lab {' '.join(map(str, args))} exited "
                                 f"{result.returncode}:\n{result.stdout}\n{result.stderr}")
        return result

    return run
