"""Generated modules: built once per ruleset content, kept on disk, bound to a loaded ruleset.

The key is a hash of the ruleset's merged data and source texts, the generator's version and the
Python version. The source is written as `<key>.py` (readable, and named in profiles and tracebacks)
and its compiled code as `<key>.code`, so a second process pays neither generation nor compilation.
The folder is `$MEEPLE_CACHE_DIR`, else `$XDG_CACHE_HOME/meeple`, else `~/.cache/meeple` (loading/cache.py);
a cache that cannot be written is skipped silently (the module is then built in memory each time).
"""

from __future__ import annotations

import functools
import hashlib
import json
import marshal
import os
import sys
import types
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from meeple.errors import Problem, RuntimeRuleError, Span
from meeple.language.model import Ruleset
from meeple.loading.cache import cache_dir, files_digest, prune, write_atomic
from meeple.runtime.codegen import resume, support, tables
from meeple.runtime.codegen.module import Builder
from meeple.runtime.codegen.roots import number_nodes
from meeple.runtime.data import Comp, Zone
from meeple.runtime.library import REGISTRY
from meeple.runtime.limits import CODE_NODES

# Modules kept, the most recently used: every edit of a ruleset writes a new one (0.1-0.5 MB with its
# code), and a designer's or a test suite's edits would otherwise pile up without end (found in review:
# 12,000 modules, 1.5 GB, where the parsed scripts beside them were pruned).
KEEP = 100


@functools.cache
def generator_version() -> str:
    """The generator's own source is part of the key: a changed generator never reuses old modules.
    Computed on first use, so that commands which never play (validate) do not pay for it."""
    here = Path(__file__).resolve().parent
    # prefix.py decides where a setup's seedless opening ends, which the generated stretches follow,
    # render.py which sub-expressions of a log line's holes are compiled (`subnodes`), and the checker's
    # suspension.py which statements run as frames (found in review: it was not part of the key)
    checker = here.parent.parent / "checker" / "suspension.py"
    return files_digest([*sorted(here.glob("*.py")), here.parent / "prefix.py", here.parent / "render.py", checker],
                        here.parent.parent)


@dataclass
class Generated:
    """A ruleset's generated functions, looked up by `id()` of the AST node they stand for."""

    exprs: dict[int, Any]
    segments: dict[int, dict[int, Any]]
    steps: dict[int, dict[int, Any]]
    resolvers: dict[int, Any]
    menus: dict[int, Any]
    blocks: dict[int, Any]
    openings: dict[int, Any]
    source_path: str | None


def content_key(rs: Ruleset) -> str:
    h = hashlib.sha256()
    h.update(f"{generator_version()}|{sys.implementation.cache_tag}|{rs.name}|".encode())
    h.update(json.dumps(rs.raw, sort_keys=True, default=str).encode())
    for name in sorted(rs.sources):
        h.update(name.encode() + b"\0" + rs.sources[name].encode() + b"\0")
    return h.hexdigest()[:24]


def _code(rs: Ruleset) -> tuple[Any, str | None]:
    key = content_key(rs)
    folder = cache_dir()
    src_path, code_path = folder / f"{key}.py", folder / f"{key}.code"
    try:
        raw = code_path.read_bytes()
        # A SHA-256 of the payload first, as the grammar and script caches keep (found by QA: a damaged
        # file can still unmarshal, to something `exec` refuses with a traceback, or to other code).
        if hashlib.sha256(payload := raw[32:]).digest() == raw[:32]:
            code = marshal.loads(payload)
            if type(code) is types.CodeType:
                for used in (code_path, src_path):
                    try:
                        os.utime(used)  # recently used, so that pruning keeps it
                    except OSError:
                        pass
                return code, str(src_path)
    except (OSError, ValueError, EOFError, TypeError):
        pass
    source = Builder(rs).source()
    # The readable module first: kept even when it does not compile, for the bug report R004 asks for.
    filename = str(src_path) if write_atomic(src_path, source.encode("utf-8")) else None
    try:
        code = compile(source, str(src_path), "exec")
    except SyntaxError as e:  # the generator's bug, never the ruleset's: said so, not as a traceback
        raise RuntimeRuleError(Problem(
            "R004", f"the compiled engine wrote code Python cannot run for this ruleset ({e.msg}, at line "
            f"{e.lineno} of {filename or 'the generated module'}): a bug in Meeple, not in the ruleset",
            Span(rs.path or rs.name, 1, 1), hint="MEEPLE_EVALUATOR=reference runs the ruleset with the reference "
            "evaluator meanwhile; please report the ruleset")) from None
    if filename is not None:
        payload = marshal.dumps(code)
        if write_atomic(code_path, hashlib.sha256(payload).digest() + payload):
            prune(folder, ".code", KEEP)
            prune(folder, ".py", KEEP)
    return code, filename


def generated(rs: Ruleset) -> Generated:
    """The generated functions of a ruleset, built (or read from the cache) on first use."""
    cache = rs.derived()
    g = cache.get("generated")
    if g is None:
        g = cache["generated"] = _bind(rs)
    return g


def _bind(rs: Ruleset) -> Generated:
    code, path = _code(rs)
    nodes = number_nodes(rs)
    env: dict[str, Any] = dict(support.HELPERS)
    env.update(resume.HELPERS)
    env.update(N=nodes, SH=tables.shower(rs), CP=[Comp(i) for i in range(len(rs.components))], OPTS={}, h_handlers=tables.handlers_of)
    exec(code, env)  # noqa: S102 - our own generated code, from the ruleset's AST, never from input text
    for var, (prefix, name) in env["SHARED"]:
        if prefix == "AT":
            env[var] = tables.attr_reader(rs, name)
        elif prefix == "CK":
            env[var] = tables.counter_keyer(rs, name)
        elif prefix == "R":
            env[var] = REGISTRY[name].fn
        elif prefix == "D":
            env[var] = REGISTRY[name].direct
        elif prefix == "K":
            env[var] = rs.constants[name]
        elif prefix == "ZN":
            env[var] = Zone(name)
        else:
            env[var] = tables.attr_table(rs, prefix, name)
    t = env["TABLES"]
    for fn, k in t.pop("AT").items():
        CODE_NODES.add(fn.__code__, nodes[k])

    def by_id(d: dict[int, Any]) -> dict[int, Any]:
        return {id(nodes[k]): v for k, v in d.items()}
    env["HT"] = tables.handler_tables(rs, by_id(t["HB"]))
    clauses = by_id(t["OC"])
    events = set(rs.events) | {ev for c in rs.components for ev in c.options}
    env["OPTS"].update({ev: [tuple(clauses[id(o)] for o in c.options.get(ev, ())) for c in rs.components]
                        for ev in events})
    return Generated(by_id(t["E"]), by_id(t["SEG"]), by_id(t["STEP"]), by_id(t["RES"]), by_id(t["MENU"]), by_id(t["BLK"]),
                     by_id(t["OPEN"]), path)
