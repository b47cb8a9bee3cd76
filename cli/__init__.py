"""The `meeple` command line: validate, simulate, bench, play and test rulesets."""

from __future__ import annotations

try:
    from importlib.metadata import PackageNotFoundError, version

    __version__ = version("meeple")
except PackageNotFoundError:  # running from a checkout that is not installed
    __version__ = "0.1.0"
