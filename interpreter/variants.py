"""Resolve a ruleset file into layers: its `extends` chain, merged, plus imported libraries.

A plain ruleset is one layer. (Variant merging is filled in by the variants issue.)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import Problem, RulesetError
from .yamlsrc import Document


@dataclass
class Layers:
    docs: list[Document]  # base first, the file asked for last
    data: dict[str, Any]  # the merged data
    origin: dict[tuple, Document] = field(default_factory=dict)  # path -> the document that set it
    libraries: list[tuple[Document, dict]] = field(default_factory=list)

    def where(self, path: tuple) -> Document:
        """The document that defines the value at `path` (longest recorded prefix wins)."""
        for i in range(len(path), 0, -1):
            d = self.origin.get(path[:i])
            if d is not None:
                return d
        return self.docs[-1]


def resolve_layers(path: Path) -> Layers:
    from .loader import display_path, find_library, load_document

    doc = load_document(path)
    if "extends" in doc.data:
        raise RulesetError(Problem("V001", "variant files are not supported yet", doc.span(("extends",), key=True)))
    layers = Layers([doc], doc.data)
    _imports(layers, doc, path, find_library, load_document, display_path)
    return layers


def _imports(layers: Layers, doc: Document, path: Path, find_library, load_document, display_path) -> None:
    seen: set[str] = set()
    for i, name in enumerate(doc.data.get("import") or []):
        try:
            lib_path = find_library(name, path)
        except FileNotFoundError:
            raise RulesetError(Problem("I001", f"no library named `{name}`", doc.span(("import", i)),
                                       hint="bundled libraries live in rulesets/lib/")) from None
        key = str(lib_path.resolve())
        if key in seen:
            continue
        seen.add(key)
        lib = load_document(lib_path)
        layers.libraries.append((lib, lib.data))
