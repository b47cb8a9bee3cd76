"""Where the bundled data lives: the source checkout, or the installed data packages."""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def data_dir(folder: str, package: str) -> Path | None:
    """`ROOT/folder` in a checkout; else the folder of the installed data package (no __init__.py)."""
    here = ROOT / folder
    if here.is_dir():
        return here
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations)))
