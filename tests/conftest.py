import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


@pytest.fixture(scope="module")
def web():
    """A Meeple web server on a free port for the tests of one module (tests/webserver.py), stopped after."""
    from tests.webserver import Running

    running = Running()
    yield running
    running.stop()


def pytest_addoption(parser):
    parser.addoption("--long", action="store_true", default=False,
                     help="Run the fuzz and property tests with thousands of examples instead of a few hundred "
                          "(same as MEEPLE_LONG=1).")


def pytest_configure(config):
    if config.getoption("--long"):
        os.environ["MEEPLE_LONG"] = "1"  # read by support.examples() when the tests are collected


def pytest_terminal_summary(terminalreporter):
    """After a --long run, what the fuzzed cases did (the tests keep counters named OUTCOMES)."""
    if os.environ.get("MEEPLE_LONG") != "1":
        return
    seen = set()
    for name, module in list(sys.modules.items()):
        counts = getattr(module, "OUTCOMES", None)
        if counts is None or id(counts) in seen or not name.startswith(("test_", "tests.")):
            continue
        seen.add(id(counts))
        if counts:
            total = sum(counts.values())
            parts = ", ".join(f"{k}: {v}" for k, v in sorted(counts.items()))
            terminalreporter.write_line(f"{name}: {total} cases ({parts})")
