"""The folder where Meeple keeps what it computes once per content (parsed scripts, generated modules).

`$MEEPLE_CACHE_DIR`, else `$XDG_CACHE_HOME/meeple`, else `~/.cache/meeple`. Everything in it is keyed
by a hash of what it was computed from, so it can be deleted at any time; a cache that cannot be
written is skipped silently (the work is then redone in memory each time).
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable
from pathlib import Path


def cache_dir() -> Path:
    env = os.environ.get("MEEPLE_CACHE_DIR")
    if env:
        return Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "meeple"


def files_digest(files: Iterable[Path], root: Path) -> str:
    """A short digest of source files, each named by its path under `root` (so a file renamed or moved
    changes it too): what a cache key or a ladder journal records of the code it was made by."""
    h = hashlib.sha256()
    for f in files:
        h.update(f.relative_to(root).as_posix().encode() + b"\0" + f.read_bytes())
    return h.hexdigest()[:16]


def write_atomic(path: Path, data: bytes) -> bool:
    """Write `data` to `path` so that a reader never sees half a file (several processes may load the
    same ruleset at once); False if the folder cannot be written."""
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_bytes(data)
        os.replace(tmp, path)
    except OSError:
        try:
            tmp.unlink(missing_ok=True)
        except OSError:
            pass
        return False
    return True


def prune(folder: Path, suffix: str, keep: int) -> None:
    """Keep the `keep` most recently used files ending in `suffix` (a hit touches its file): each edit
    of a ruleset writes a new entry, and the old ones would otherwise pile up."""
    try:
        entries = [(e.stat().st_mtime, e.path) for e in os.scandir(folder) if e.name.endswith(suffix)]
    except OSError:
        return
    if len(entries) <= keep:
        return
    for _, path in sorted(entries)[:len(entries) - keep]:
        try:
            os.unlink(path)
        except OSError:  # another process pruned it first, or the folder is read-only
            pass
