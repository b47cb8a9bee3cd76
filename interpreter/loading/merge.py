"""Merging a variant over its base, with every merged value remembering the file it came from.

The merge works in "id space": component items are held in mappings keyed by item id (as variants write
them) and only turned back into lists at the end, so that an item is addressed by id however the base
orders its list. Errors must point into the file that caused them, so every merged path remembers which
document supplied it and under which path inside that document (`Layers.origin`); `Layers.where(path)`
hands the loader a `Source` that reads like that document. docs/variants.md is the user's reference.
"""

from __future__ import annotations

import copy
import difflib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from meeple.errors import Problem, RulesetError, Span
from meeple.loading.mergenotes import changed_kind, new_step, skipped, still_named, value_kind
from meeple.loading.schema import validate_document
from meeple.loading.yamlsrc import Document

ITEMS = "items"
WHOLE = {"procedures"}  # sections whose entries a variant replaces whole instead of merging into
NOT_MERGED = {"meeple", "extends", "remove"}
DATA = {"constants", "components", "counters"}  # sections of data, where a value's kind matters to the rules


@dataclass
class Layers:
    docs: list[Document]  # base first, the file asked for last
    data: dict[str, Any]  # the merged data
    origin: dict[tuple, tuple[Document, tuple]] = field(default_factory=dict)  # path -> (doc, path in doc)
    libraries: list[tuple[Document, dict]] = field(default_factory=list)
    warnings: list[Problem] = field(default_factory=list)  # merges that are legal but look mistaken
    errors: list[Problem] = field(default_factory=list)  # parts that cannot merge: left out, all reported

    def owner(self, path: tuple) -> tuple[Document, tuple]:
        """The document that supplied the value at `path` and the same place as a path in that document
        (the longest recorded prefix wins: an item may come from the base and its count from a variant)."""
        path = tuple(path)
        for i in range(len(path), -1, -1):
            found = self.origin.get(path[:i])
            if found is not None:
                return found[0], found[1] + path[i:]
        return self.docs[-1], path

    def where(self, path: tuple) -> Source:
        """The document that defines the value at `path`, as a `Source`."""
        return Source(self, tuple(path))


class Source:
    """Reads like the Document that supplied a merged path: `.path`, `.text`, `.data` (the merged data,
    so merged paths index it), `.span` and `.locate`. Span and locate look the owner up again for the
    exact path asked, since the loader reuses one Source for an item and all of its handlers."""

    __slots__ = ("data", "doc", "layers", "path", "text")

    def __init__(self, layers: Layers, path: tuple) -> None:
        self.layers, self.data = layers, layers.data
        self.doc = layers.owner(path)[0]
        self.path, self.text = self.doc.path, self.doc.text

    def span(self, path: tuple, *, key: bool = False) -> Span | None:
        doc, inner = self.layers.owner(path)
        return doc.span(inner, key=key)

    def locate(self, path: tuple, line: int, col: int, end_line: int | None = None,
               end_col: int | None = None) -> Span:
        doc, inner = self.layers.owner(path)
        return doc.locate(inner, line, col, end_line, end_col)

    def locator(self, path: tuple) -> Callable[..., Span]:
        doc, inner = self.layers.owner(path)
        return doc.locator(inner)


def fail(code: str, message: str, span: Span | None, hint: str | None = None) -> RulesetError:
    return RulesetError(Problem(code, message, span, hint=hint))


# ------------------------------------------------------------------ id space and back
def to_id_space(root: Document, origin: dict) -> dict:
    """A deep copy of the base data with each kind's item list, and the events, as mappings by name."""
    data = copy.deepcopy(root.data)
    origin[()] = (root, ())
    if isinstance(data.get("events"), list):
        data["events"] = dict.fromkeys(data["events"])
        origin.update({("events", e): (root, ("events", i)) for i, e in enumerate(data["events"])})
    for kind, kd in (data.get("components") or {}).items():
        if not isinstance(kd, dict) or not isinstance(kd.get(ITEMS), list):
            continue
        by_id: dict[str, Any] = {}
        for i, item in enumerate(kd[ITEMS]):
            key = str(item.get("id")) if isinstance(item, dict) and "id" in item else f"#{i}"
            if key in by_id:  # a duplicate id is the checker's to report; keep both items meanwhile
                key = f"{key}#{i}"
            by_id[key] = item
            origin[("components", kind, ITEMS, key)] = (root, ("components", kind, ITEMS, i))
        kd[ITEMS] = by_id
    return data


def to_list_space(layers: Layers) -> None:
    """Turn item and event mappings back into lists and re-key the recorded origins by list position."""
    moved: dict[tuple, int] = {}  # path of a list in the data + name -> position
    for kind, kd in (layers.data.get("components") or {}).items():
        if isinstance(kd, dict) and isinstance(kd.get(ITEMS), dict):
            moved.update({(("components", kind, ITEMS), key): i for i, key in enumerate(kd[ITEMS])})
            kd[ITEMS] = list(kd[ITEMS].values())
    if isinstance(layers.data.get("events"), dict):
        moved.update({(("events",), e): i for i, e in enumerate(layers.data["events"])})
        layers.data["events"] = list(layers.data["events"])
    fixed = {}
    for p, o in layers.origin.items():
        n = 1 if p[:1] == ("events",) else 3
        if len(p) > n and (p[:n], p[n]) in moved:
            p = p[:n] + (moved[(p[:n], p[n])],) + p[n + 1:]
        fixed[p] = o
    layers.origin = fixed


# ------------------------------------------------------------------ one variant on top of the merge so far
def apply_variant(layers: Layers, doc: Document) -> None:
    base_name = str(layers.data.get("name", ""))
    _remove(layers, doc)
    for key, value in doc.data.items():
        if key not in NOT_MERGED:
            _merge(layers, doc, (key,), value)
    if "name" not in doc.data:
        layers.data["name"] = f"{base_name} + {Path(doc.path).stem}" if base_name else Path(doc.path).stem
        _record(layers, ("name",), doc, ("extends",))
    if removed := _removed_items(doc):
        gone = removed - _item_ids(layers.data)  # not given again by this file
        layers.warnings += still_named(gone, layers.data.get("constants"), lambda path: layers.where(path).span(path))


def _removed_items(doc: Document) -> set[str]:
    return {str(x) for x in ((doc.data.get("remove") or {}).get(ITEMS) or [])}


def _item_ids(data: dict) -> set[str]:
    return {str(i) for kd in (data.get("components") or {}).values() if isinstance(kd, dict)
            for i in (kd.get(ITEMS) or {})}


def _record(layers: Layers, path: tuple, doc: Document | None, inner: tuple = ()) -> None:
    # Forget what older layers said at and below a replaced (or removed, doc=None) value: the longest
    # prefix must not find them.
    for p in [p for p in layers.origin if p[:len(path)] == path]:
        del layers.origin[p]
    if doc is not None:
        layers.origin[path] = (doc, inner)


def _merge(layers: Layers, doc: Document, path: tuple, value: Any) -> None:
    """Merge the variant's `value` at `path` into the data: mappings by key, the rest replaced."""
    parent = _at(layers.data, path[:-1])
    key = path[-1]
    old = parent.get(key)
    if len(path) == 2 and path[0] == "phases" and isinstance(value, dict) and old is not None \
            and not isinstance(old, dict):
        skipped(layers.errors, "V004", f"the phase `{key}` is one script in the base, so it has no steps to replace",
                doc.span(path, key=True),
                f"replace the whole phase (`{key}: |`), or write it as named steps in the base")
        return
    if len(path) == 3 and path[0] == "phases" and old is None and isinstance(parent, dict):
        layers.warnings += new_step(doc.span(path, key=True), path, parent)
    if len(path) == 2 and path[0] == "components" and old is None and isinstance(value, dict):
        old = parent[key] = {}  # a new kind: still merge key by key, so that its items get their ids
        _record(layers, path, doc, path)
    if len(path) == 3 and path[0] == "components" and key == ITEMS:
        _merge_items(layers, doc, path, value, old)
    elif isinstance(value, dict) and isinstance(old, dict) and not (len(path) == 2 and path[0] in WHOLE):
        for k, v in value.items():
            _merge(layers, doc, path + (k,), v)
    elif path == ("events",) and isinstance(old, (dict, type(None))) and isinstance(value, list):
        old = parent[key] = {} if old is None else old
        for i, e in enumerate(value):  # events add up; `remove: {events: [...]}` takes them away
            if e not in old:
                old[e] = None
                _record(layers, path + (e,), doc, path + (i,))
    elif path == ("import",) and isinstance(old, list) and isinstance(value, list):
        parent[key] = old + [v for v in value if v not in old]  # (libraries are read per file: _imports)
    else:
        if path[0] in DATA and value_kind(old) and value_kind(value) and value_kind(old) != value_kind(value):
            layers.warnings.append(changed_kind(doc.span(path), path, old, value))
        parent[key] = copy.deepcopy(value)
        _record(layers, path, doc, path)


def _merge_items(layers: Layers, doc: Document, path: tuple, value: Any, old: Any) -> None:
    kind = path[1]
    # A kind the base already has items of: an id it does not have is most often a misspelling
    # (`bnous:` for `bonus:`), so adding an item must be said with `new: true`. Ids this very file
    # removes may be given again without it (that replaces the item whole).
    base_ids = set(old) if isinstance(old, dict) else set()
    removed = _removed_items(doc)
    if old is None:
        old = _at(layers.data, path[:-1])[ITEMS] = {}
    others = {i: k for k, kd in (layers.data.get("components") or {}).items() if k != kind
              for i in ((kd or {}).get(ITEMS) or {})}
    for item_id, patch in value.items():
        ipath = path + (item_id,)
        if isinstance(patch, dict) and "id" in patch and str(patch["id"]) != item_id:
            skipped(layers.errors, "V006", f"the item `{item_id}` cannot be given the id `{patch['id']}`",
                    doc.span(ipath + ("id",)), "in a variant the key is the item's id: rename the key")
            continue
        is_new = isinstance(patch, dict) and patch.get("new") is True
        if isinstance(patch, dict) and "new" in patch:
            if item_id in old:
                skipped(layers.errors, "V009", f"`{item_id}` is already an item of the base, so it cannot be `new`",
                        doc.span(ipath + ("new",), key=True), "drop `new: true` to change the base's item")
                continue
            patch = {k: v for k, v in patch.items() if k != "new"}
        if item_id in old:
            _merge(layers, doc, ipath, patch)
        elif item_id in others:
            skipped(layers.errors, "V005", f"the item `{item_id}` is a `{others[item_id]}`, not a `{kind}`",
                    doc.span(ipath, key=True), f"change it under `components.{others[item_id]}.items`")
        elif base_ids and not is_new and item_id not in removed:
            close = difflib.get_close_matches(item_id, sorted(base_ids), n=1, cutoff=0.6)
            skipped(layers.errors, "V009", f"the base has no `{kind}` item `{item_id}`", doc.span(ipath, key=True),
                    (f"did you mean `{close[0]}`? " if close else "")
                    + f"to add an item, give it `new: true`: `{item_id}: {{new: true, ...}}`")
        else:  # a new item: its id is the key it was given
            old[item_id] = {"id": item_id, **copy.deepcopy(patch)}
            _record(layers, ipath, doc, ipath)


def _at(data: Any, path: tuple) -> Any:
    for k in path:
        data = data.setdefault(k, {}) if isinstance(data, dict) else data[k]
    return data


# ------------------------------------------------------------------ remove:
def _remove(layers: Layers, doc: Document) -> None:
    """Apply the variant's `remove:` before its overrides, so removing an item and giving it again
    replaces it whole."""
    data = layers.data
    comps = data.get("components") or {}
    for section, names in (doc.data.get("remove") or {}).items():
        for i, name in enumerate(names):
            name = str(name)
            found: list[tuple] = []
            if section == ITEMS:
                found = [("components", k, ITEMS, name) for k, kd in comps.items() if name in (kd.get(ITEMS) or {})]
            elif section == "components":
                found = [("components", name)] if name in comps else []
            elif section in ("counters", "zones"):
                found = [(section, scope, name) for scope in ("game", "player")
                         if name in ((data.get(section) or {}).get(scope) or {})]
            elif section == "phases" and "." in name:
                ph, step = name.split(".", 1)
                steps = (data.get("phases") or {}).get(ph)
                found = [("phases", ph, step)] if isinstance(steps, dict) and step in steps else []
            elif name in (data.get(section) or {}):
                found = [(section, name)]
            if not found:
                skipped(layers.errors, "V007", f"there is no {_SINGULAR.get(section, section)} `{name}` to remove",
                        doc.span(("remove", section, i)), _known(data, section, name))
            for p in found:
                if p[0] == "phases" and len(p) == 3 and set(data["phases"][p[1]]) == {p[2]}:
                    skipped(layers.errors, "V008", f"removing `{name}` leaves the phase `{p[1]}` without steps",
                            doc.span(("remove", section, i)), f"remove the whole phase `{p[1]}` instead")
                    continue
                del _at(data, p[:-1])[p[-1]]
                _record(layers, p, None)


_SINGULAR = {"items": "item", "components": "component kind", "phases": "phase or step", "procedures": "procedure",
             "constants": "constant", "counters": "counter", "zones": "zone", "events": "event"}


def _known(data: dict, section: str, name: str) -> str | None:
    """A hint for a name that is not there: the closest one, else some that are."""
    sec = data.get("components" if section == ITEMS else section) or {}
    if section in (ITEMS, "counters", "zones"):
        names = [n for s in sec.values() for n in ((s.get(ITEMS) if section == ITEMS else s) or {})]
    else:
        names = list(sec) + [f"{p}.{s}" for p, v in sec.items() if section == "phases" and isinstance(v, dict)
                             for s in v]
    close = difflib.get_close_matches(name, names, n=1)
    if close:
        return f"did you mean `{close[0]}`?"
    return ("known: " + ", ".join(names[:12]) + (", ..." if len(names) > 12 else "")) if names else None


# ------------------------------------------------------------------ checks on the result
def validate_merged(layers: Layers) -> None:
    """The merged result must be a complete ruleset: validate it with the schema, locating each problem
    in the file that supplied the value."""
    problems = validate_document(Source(layers, ()))  # type: ignore[arg-type]
    if any(p.severity == "error" for p in problems):
        raise RulesetError(layers.errors + problems)
