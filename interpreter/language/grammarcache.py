"""The grammar's LALR parser, built once per machine and kept in Meeple's cache folder.

Building the parser (analysing the grammar, computing the LALR tables) takes about 0.1 s, as long as
parsing every script of a large ruleset; a process that finds it in the cache loads it in under 10 ms.
The entry is `<cache>/grammar/<key>.lark`, keyed by a hash of the grammar, the parser's options and the
lark and Python versions (so an edited grammar or an upgrade is a new entry). It holds a header, a
SHA-256 of the payload, and the payload: lark's own serialisation of the parser (`Lark.save`), a pickle
of plain lists, dicts and strings, read by an unpickler that refuses every global but lark's `Token` (so
a planted file cannot run code). An entry that is missing, damaged or foreign is built again and
replaced; a folder that cannot be written is skipped; neither ever fails a load
(tests/test_grammarcache.py).
"""

from __future__ import annotations

import hashlib
import io
import os
import pickle
import sys
from pathlib import Path
from typing import Any

import lark
from lark import Lark
from meeple.loading.cache import cache_dir, prune, write_atomic

MAGIC = b"meeple-grammar 1\n"
KEEP = 8  # entries kept: several checkouts or versions of Meeple may share the folder


def parser(grammar: str, postlex: Any, **options: Any) -> Lark:
    """`Lark(grammar, postlex=postlex, **options)`, from the cache when it holds it. Every option must be
    plain data: they are part of the key."""
    key = hashlib.sha256(repr((grammar, sorted(options.items()), type(postlex).__qualname__, lark.__version__,
                               sys.version)).encode("utf-8")).hexdigest()[:32]
    path = cache_dir() / "grammar" / f"{key}.lark"
    found = _read(path, postlex)
    if found is not None:
        try:
            os.utime(path)  # recently used, so that pruning keeps it
        except OSError:
            pass
        return found
    built = Lark(grammar, postlex=postlex, **options)
    _write(path, built)
    return built


class _PlainData(pickle.Unpickler):
    def find_class(self, module: str, name: str) -> Any:
        # lark before 1.2 saves some names as Tokens: a str subclass whose unpickling only builds a
        # string, so admitting it runs no code. Refused, every entry was built again on lark 1.1.
        if (module, name) == ("lark.lexer", "Token"):
            return lark.lexer.Token
        raise pickle.UnpicklingError(f"a grammar cache entry names {module}.{name}")


def _read(path: Path, postlex: Any) -> Lark | None:
    try:
        with open(path, "rb") as fh:
            raw = fh.read()
    except OSError:
        return None
    digest, payload = raw[len(MAGIC):len(MAGIC) + 32], raw[len(MAGIC) + 32:]
    if not raw.startswith(MAGIC) or hashlib.sha256(payload).digest() != digest:
        return None
    try:
        saved = _PlainData(io.BytesIO(payload)).load()
        return Lark._load_from_dict(saved["data"], saved["memo"], postlex=postlex)
    except Exception:  # noqa: BLE001 - whatever a foreign entry or another lark makes of it: build anew
        return None


def _write(path: Path, built: Lark) -> None:
    buf = io.BytesIO()
    try:
        built.save(buf, exclude_options=("postlex",))  # the postlex is code: passed in again on loading
    except Exception:  # noqa: BLE001 - a lark that cannot save: no cache, each process builds
        return
    payload = buf.getvalue()
    if write_atomic(path, MAGIC + hashlib.sha256(payload).digest() + payload):
        prune(path.parent, ".lark", KEEP)
