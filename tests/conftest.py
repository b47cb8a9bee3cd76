import os
import shutil
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


CHROMIUM = os.environ.get("MEEPLE_CHROMIUM", "/usr/bin/chromium")  # Debian's; Playwright downloads none
BROWSER_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync"]
WAIT = 30_000  # ms: generous, since the machine may be loaded; nothing here measures speed


@pytest.fixture(scope="module")
def browser():
    """Headless Chromium for the page tests of one module; skipped without Playwright or Chromium."""
    sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright is not installed: pip install playwright")
    if not (Path(CHROMIUM).exists() or shutil.which(CHROMIUM)):
        pytest.skip(f"no Chromium at {CHROMIUM}: install Debian's package (apt-get install chromium) "
                    "to run the browser tests")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=BROWSER_ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser):
    """A fresh page in a laptop's window."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    pg = context.new_page()
    pg.set_default_timeout(WAIT)
    yield pg
    context.close()


def pytest_addoption(parser):
    parser.addoption("--long", action="store_true", default=False,
                     help="Run the fuzz and property tests with thousands of examples instead of a few hundred "
                          "(same as MEEPLE_LONG=1).")


def pytest_configure(config):
    if config.getoption("--long"):
        os.environ["MEEPLE_LONG"] = "1"  # read by support.examples() when the tests are collected
        # One process, so that the summary below can read what the fuzzed cases did: pytest-xdist's
        # workers would keep the counters. Its own pytest_configure runs after this one and starts none.
        if getattr(config.option, "numprocesses", None):
            config.option.numprocesses, config.option.dist, config.option.tx = 0, "no", []


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
