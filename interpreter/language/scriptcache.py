"""Parsed scripts kept on disk, so that loading the same files again skips Lark (and never imports it).

One entry per load: the key hashes this package's own sources (grammar, parser, transformer, AST), the
Python and lark versions, and the path and text of every file the load read (the ruleset, the files it
`extends:`, its libraries). Same files, same merge, same positions: so the cached AST of each script,
spans included, is the one the parser would build. The entry maps (kind, file, YAML path) to the
script's text (checked again on use) and its AST; only scripts that parsed are kept.

An entry is `<key>.ast` under `scripts/` in the cache folder (loading/cache.py): a header, a SHA-256
of the payload and the payload, a pickle whose only callables are the AST's classes and `Span` (the
reader refuses anything else). A damaged entry is ignored and written again; an unwritable folder is
skipped. The folder keeps the most recently used entries only (an edited ruleset is a new key).
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import io
import operator
import os
import pickle
import sys
from collections.abc import Sequence
from importlib.util import find_spec
from pathlib import Path
from typing import Any

from meeple.errors import Span
from meeple.language import ast as A
from meeple.loading.cache import cache_dir, prune, write_atomic

MAGIC = b"meeple-scripts-1\n"
KEEP = 200  # entries: a few dozen rulesets and variants under edit, some MB in all
Key = tuple[str, str, str, tuple]  # (kind, type of the document, its file, the YAML path of the script)

_CLASSES: dict[str, type] = {c.__name__: c for c in vars(A).values()
                             if isinstance(c, type) and c.__module__ == A.__name__ and dataclasses.is_dataclass(c)}
_CLASSES["Span"] = Span


@functools.cache
def parser_version() -> str:
    """Whatever decides the AST of a text: this package's sources and grammar, errors.py (Span), the
    Python version and lark's version (read from its files: importing lark is what a hit saves)."""
    h = hashlib.sha256(sys.implementation.cache_tag.encode())
    here = Path(__file__).resolve().parent
    for f in sorted([*here.glob("*.py"), *here.glob("*.lark"), here.parent / "errors.py"]):
        h.update(f.name.encode() + b"\0" + f.read_bytes())
    spec = find_spec("lark")
    if spec is not None and spec.origin:
        h.update(Path(spec.origin).read_bytes())  # lark/__init__.py holds its __version__
    return h.hexdigest()


def _reducer(cls: type) -> Any:
    names = tuple(f.name for f in dataclasses.fields(cls))
    if len(names) == 1:
        return lambda obj: (cls, (getattr(obj, names[0]),))
    fields = operator.attrgetter(*names)  # the fields as a tuple, without a Python loop per node
    return lambda obj: (cls, fields(obj))


@functools.cache
def _dispatch() -> dict[type, Any]:
    # Each node is pickled as a call of its class with its fields: the default pickling of frozen
    # slotted dataclasses runs a Python __setstate__ per object, several times slower to read.
    return {cls: _reducer(cls) for cls in _CLASSES.values()}


class _Reader(pickle.Unpickler):
    def find_class(self, module: str, name: str) -> Any:
        cls = _CLASSES.get(name)
        if cls is None or cls.__module__ != module:
            raise pickle.UnpicklingError(f"not a node of the AST: {module}.{name}")
        return cls


class ScriptCache:
    """The parsed scripts of one load. `ScriptCache()` keeps nothing (a disabled cache)."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path
        self.entries: dict[Key, tuple[str, Any]] = {}
        self.added = 0
        if path is not None:
            self.entries = _read(path)

    @classmethod
    def for_files(cls, files: Sequence[tuple[str, str]]) -> ScriptCache:
        """The cache of a load that read `files`, as (path, text) pairs."""
        h = hashlib.sha256(parser_version().encode())
        for path, text in files:
            h.update(path.encode("utf-8", "surrogatepass") + b"\0" + text.encode("utf-8", "surrogatepass") + b"\0")
        return cls(cache_dir() / "scripts" / f"{h.hexdigest()[:32]}.ast")

    def get(self, key: Key, text: str) -> Any:
        """The cached AST of the script `text` at `key`, or None."""
        hit = self.entries.get(key)
        return hit[1] if hit is not None and hit[0] == text else None

    def put(self, key: Key, text: str, tree: Any) -> None:
        if self.path is not None:
            self.added += self.entries.get(key, ("",))[0] != text  # a script parsed again is nothing new
            self.entries[key] = (text, tree)

    def save(self) -> None:
        """Write the entry if this load parsed anything new (silently not, if the folder is read-only)."""
        if self.path is None or not self.added:
            return
        buf = io.BytesIO()
        pickler = pickle.Pickler(buf, protocol=pickle.HIGHEST_PROTOCOL)
        pickler.dispatch_table = _dispatch()
        try:
            pickler.dump(self.entries)
        except RecursionError:  # scripts nest at most ~100 levels (parse_errors.MAX_NESTING); never in practice
            return
        payload = buf.getvalue()
        if write_atomic(self.path, MAGIC + hashlib.sha256(payload).digest() + payload):
            self.added = 0
            prune(self.path.parent, ".ast", KEEP)


def _read(path: Path) -> dict[Key, tuple[str, Any]]:
    try:
        raw = path.read_bytes()
    except OSError:
        return {}
    head, digest, payload = raw[:len(MAGIC)], raw[len(MAGIC):len(MAGIC) + 32], raw[len(MAGIC) + 32:]
    if head != MAGIC or hashlib.sha256(payload).digest() != digest:
        return {}  # damaged (or from another version of the format): parsed again and rewritten
    try:
        entries = _Reader(io.BytesIO(payload)).load()
    except Exception:  # noqa: BLE001 - a file that passed its checksum but not unpickling is still only a miss
        return {}
    if not isinstance(entries, dict):
        return {}
    try:
        os.utime(path)  # recently used: pruning keeps it
    except OSError:
        pass
    return entries
