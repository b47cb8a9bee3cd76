"""Load a ruleset: YAML -> schema check -> variants and imports -> parse every snippet -> check -> Ruleset.

Each stage collects all the problems it can find before giving up, so that one `meeple validate`
run reports every mistake. Names of bundled rulesets resolve to files under `rulesets/`.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from meeple.checker.analyze import analyze
from meeple.errors import RulesetError, Span
from meeple.language.build import Builder, build
from meeple.language.model import Ruleset
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
    b = Builder()
    for d in layers.docs:
        b.sources[d.path] = d.text
    rs = build(b, layers, factory)
    broken = bool(b.problems.errors)
    if broken and not check:
        raise RulesetError(b.problems.items)

    def locate(ypath: tuple, key: bool = False) -> Span | None:
        doc = layers.where(ypath)
        return doc.span(ypath, key=key) if doc is not None else None

    # Even when some scripts did not parse, check the others, so one run reports every problem
    # (`partial`: names of the broken scripts still count as defined; no warnings).
    problems = analyze(rs, partial=broken, locate=locate) if check else []
    rs_problems = b.problems.items + problems
    if any(p.severity == "error" for p in rs_problems):
        raise RulesetError(sorted(rs_problems, key=problem_position))
    rs.warnings = [p for p in rs_problems if p.severity == "warning"]
    return rs
