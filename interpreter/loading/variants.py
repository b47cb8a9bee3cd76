"""Resolve a ruleset file into layers: its `extends` chain merged into one ruleset, plus libraries.

A variant (a house rule) is a small file that names its base with `extends:` and states only what
differs; docs/variants.md is the user's reference. This module finds the files (the chain of bases, the
imported libraries) and refuses loops and files outside the allowed folders; `merge` merges them.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Sequence
from pathlib import Path

from meeple.errors import MeepleError, Problem, RulesetError
from meeple.loading.files import (
    OUTSIDE_HINT,
    OutsideError,
    allowed_roots,
    display_path,
    find_reference,
    load_document,
    read_reference,
)
from meeple.loading.merge import Layers, apply_variant, fail, to_id_space, to_list_space, validate_merged
from meeple.loading.yamlsrc import MAX_BYTES, Document, load_yaml_file


def resolve_layers(path: Path, read: Callable[[Path], Document] = load_document, *,
                   allow: Sequence[str | os.PathLike] = ()) -> Layers:
    """The files a ruleset is made of, merged. `read` loads one document (the checker passes one that
    also reports the scripts' syntax errors of a file that fails its schema check). `extends:` and
    `import:` read only bundled files and files under the folder of `path` or of a folder in `allow`."""
    roots = allowed_roots(Path(path), tuple(Path(a) for a in allow))
    chain = _chain(Path(path), read, roots)
    root = chain[0]
    if "library" in root.data and len(chain) > 1:
        raise fail("V002", f"`{root.path}` is a library of procedures, not a game: a variant extends a game",
                    chain[1].span(("extends",)))
    layers = Layers(chain, {})
    layers.data = to_id_space(root, layers.origin)
    for doc in chain[1:]:
        apply_variant(layers, doc)
    to_list_space(layers)
    if len(chain) > 1:
        validate_merged(layers)
    _imports(layers, read, roots)
    return layers


def _chain(path: Path, read: Callable[[Path], Document], roots: tuple[Path, ...]) -> list[Document]:
    """[base, variant, variant of the variant, ...], following `extends:` from the file asked for."""
    docs = [read(path)]
    seen = [path.resolve()]
    while "extends" in docs[0].data:
        doc = docs[0]
        name = str(doc.data["extends"])
        try:
            base = find_reference(name, Path(doc.path), roots)
        except OutsideError as e:
            raise fail("V001", f"cannot extend `{name}`: {e}", doc.span(("extends",)), OUTSIDE_HINT) from None
        except (FileNotFoundError, OSError):
            raise fail("V001", f"no ruleset `{name}` to extend", doc.span(("extends",)),
                        "give a bundled ruleset's name or a path relative to this file") from None
        if base.resolve() in seen:
            loop = " -> ".join(p.name for p in seen) + f" -> {base.name}"
            raise fail("V003", f"the variants extend each other in a circle: {loop}", doc.span(("extends",)),
                        "one of them must extend a game")
        seen.append(base.resolve())
        docs.insert(0, _read_named(read, base, doc, ("extends",), name, "V001"))
    return docs


MAX_IMPORT_DEPTH = 64  # libraries importing libraries this deep are refused (a chain of files, not a loop)


def _imports(layers: Layers, read: Callable[[Path], Document], roots: tuple[Path, ...]) -> None:
    """Libraries imported by any layer, the base's first, with the libraries they import in turn: each
    library once, after the libraries it imports (so that its own procedures win, as a ruleset's own
    win over its libraries'). A path is relative to the file naming it."""
    layer_files = {str(Path(d.path).resolve()) for d in layers.docs}
    done: set[str] = set()
    for doc in layers.docs:
        _import_from(doc, [(str(Path(doc.path).resolve()), Path(doc.path))], layers, read, roots, layer_files, done)


def _import_from(doc: Document, trail: list[tuple[str, Path]], layers: Layers, read: Callable[[Path], Document],
                 roots: tuple[Path, ...], layer_files: set[str], done: set[str]) -> None:
    """The imports of `doc`, reached through the files of `trail` (the layer first, `doc` last)."""
    for i, name in enumerate(doc.data.get("import") or []):
        at = ("import", i)
        try:
            lib_path = find_reference(str(name), Path(doc.path), roots, library=True)
        except OutsideError as e:
            raise fail("I001", f"cannot import `{name}`: {e}", doc.span(at), OUTSIDE_HINT) from None
        except (FileNotFoundError, OSError):
            raise fail("I001", f"no library named `{name}`", doc.span(at),
                        "bundled libraries live in rulesets/lib/") from None
        key = str(lib_path.resolve())
        keys = [k for k, _ in trail]
        if key in keys and len(trail) > 1:
            loop = " -> ".join(p.name for _, p in trail[keys.index(key):]) + f" -> {lib_path.name}"
            raise fail("I002", f"the libraries import each other in a circle: {loop}", doc.span(at),
                        "one of them must stop importing the other (a library's procedures may call "
                        "those of a library it imports, not the other way round as well)")
        if key in layer_files:
            raise fail("I002", f"`{name}` is this ruleset itself (or the game it changes): a file cannot "
                                "import itself", doc.span(at))
        if key in done:
            continue
        if len(trail) > MAX_IMPORT_DEPTH:
            raise fail("I001", f"cannot import `{name}`: libraries import each other more than "
                                f"{MAX_IMPORT_DEPTH} deep here", doc.span(at))
        lib = _read_named(read, lib_path, doc, at, str(name), "I001")
        _import_from(lib, trail + [(key, lib_path)], layers, read, roots, layer_files, done)
        done.add(key)
        layers.libraries.append((lib, lib.data))


_RULESET = re.compile(rb"^meeple[ \t]*:", re.MULTILINE)  # the key every ruleset and library starts with


def _read_named(read: Callable[[Path], Document], path: Path, by: Document, at: tuple, name: str,
                code: str) -> Document:
    """`read_reference`, except that a ruleset with a YAML error of its own is not called "not a Meeple
    ruleset file": its own errors are reported, after one at the line that names it."""
    try:
        return read_reference(read, path, by, at, name, code)
    except RulesetError as e:
        refused = len(e.problems) == 1 and e.problems[0].code == code and e.problems[0].span == by.span(at)
        own = _own_errors(path) if refused else None
        if not own:
            raise
        shown = display_path(path)
        raise RulesetError([Problem(code, f"`{name}` is a ruleset with errors of its own, so it cannot be used "
                                          "until they are fixed", by.span(at),
                                    hint=f"its first error is at {own[0].span or shown}; `meeple validate {shown}` "
                                         "lists them"), *own]) from None


def _own_errors(path: Path) -> list[Problem]:
    """The YAML errors of a file that reads as a ruleset (it has a `meeple:` line), or none."""
    try:
        with open(path, "rb") as fh:
            if not _RULESET.search(fh.read(MAX_BYTES)):
                return []
        load_yaml_file(display_path(path))
    except RulesetError as e:
        return e.problems
    except (OSError, MeepleError):  # unreadable, or no ruleset at all (empty, binary): the refusal stands
        return []
    return []
