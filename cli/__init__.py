"""The `meeple` command line: validate, simulate, bench, play and test rulesets."""

from __future__ import annotations


def __getattr__(name: str) -> str:
    # The installed version, looked up on first use: importlib.metadata costs tens of milliseconds,
    # and `meeple --version` asks click, which looks it up itself.
    if name != "__version__":
        raise AttributeError(f"module 'meeple.cli' has no attribute {name!r}")
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("meeple")
    except PackageNotFoundError:  # running from a checkout that is not installed
        return "0.1.0"
