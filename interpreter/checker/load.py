"""Load a ruleset: YAML -> schema check -> variants and imports -> parse every snippet -> check -> Ruleset.

Each stage collects all the problems it can find before giving up, so that one `meeple validate`
run reports every mistake. Names of bundled rulesets resolve to files under `rulesets/`.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from meeple.checker.analyze import analyze
from meeple.errors import Problem, RulesetError, Span
from meeple.language.build import Builder, build
from meeple.language.model import Ruleset
from meeple.language.scriptcache import ScriptCache
from meeple.language.syntax import script_syntax
from meeple.loading.files import find_ruleset, load_document, problem_position
from meeple.loading.variants import resolve_layers


def read_document(path: Path) -> Any:
    """One schema-checked document; when it fails, its scripts' syntax errors are reported too."""
    return load_document(path, more=script_syntax)


def load_ruleset(name_or_path: str | os.PathLike, *, check: bool = True,
                 factory: Callable[..., Ruleset] = Ruleset, allow: Sequence[str | os.PathLike] = ()) -> Ruleset:
    """Load, validate and analyse a ruleset (or variant) by bundled name or path. `allow`: folders besides
    the ruleset's own that its `extends:` and `import:` may read."""
    path = find_ruleset(str(name_or_path))
    layers = resolve_layers(path, read_document, allow=allow)  # [base doc, ..., this doc]; merged data with per-key origin docs
    files = [(d.path, d.text) for d in layers.docs] + [(d.path, d.text) for d, _ in layers.libraries]
    b = Builder(ScriptCache.for_files(files))
    for d in layers.docs:
        b.sources[d.path] = d.text
    rs = build(b, layers, factory)
    b.cache.save()  # the scripts that parsed, even if others did not or the checks below fail
    broken = bool(b.problems.errors)
    if (broken or layers.errors) and not check:
        raise RulesetError(layers.errors + b.problems.items)

    def locate(ypath: tuple, key: bool = False) -> Span | None:
        doc = layers.where(ypath)
        return doc.span(ypath, key=key) if doc is not None else None

    # Even when some scripts did not parse, check the others, so one run reports every problem
    # (`partial`: names of the broken scripts still count as defined; no warnings).
    problems = analyze(rs, partial=broken, locate=locate) if check else []
    rs_problems = _once(b.problems.items + problems + layers.errors + layers.warnings
                        + _schema_comment(layers.docs[-1].path, layers.docs[-1].text))
    if any(p.severity == "error" for p in rs_problems):
        raise RulesetError(sorted(rs_problems, key=problem_position))
    rs.warnings = [p for p in rs_problems if p.severity == "warning"]
    return rs


_SCHEMA_COMMENT = re.compile(r"#\s*yaml-language-server:\s*\$schema=(\S+)")


def _schema_comment(path: str, text: str) -> list[Problem]:
    """W013: an editor's schema comment that points at no file (a variant copied to another folder
    keeps `../schema/meeple.schema.json`): the editor then checks nothing, silently."""
    for i, line in enumerate(text.split("\n")[:5], 1):
        m = _SCHEMA_COMMENT.match(line)
        if m is None:
            continue
        target = m.group(1)
        if "://" in target or (Path(path).parent / target).is_file():
            return []
        return [Problem("W013", f"the schema comment points at `{target}`, which does not exist from here",
                        Span(path, i, m.start(1) + 1, i, m.end(1)), "warning",
                        "point it at a schema file (`meeple schema > meeple.schema.json`); "
                        "`meeple new variant` writes a comment that works")]
    return []


def _once(problems: list) -> list:
    """Each mistake once: items that share a script through a YAML anchor (`<<: *shared`) each
    parse and check their own copy of it, so the same problem would be reported at the anchor
    once per item; and a variant's value of another kind than the base's (W016, which names the
    base's value) is not also reported as an odd one out among the kind's items (W017)."""
    def at(p: Problem) -> tuple | None:
        return (p.span.file, p.span.line, p.span.col) if p.span is not None else None

    changed = {at(p) for p in problems if p.code == "W016"}
    seen: set[tuple] = set()
    out = []
    for p in problems:
        key = (p.code, p.message, at(p))
        if key not in seen and not (p.code == "W017" and at(p) in changed):
            seen.add(key)
            out.append(p)
    return out
