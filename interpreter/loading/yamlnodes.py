"""YAML events to plain data, by our own loop: nodes with their marks, then values.

We walk PyYAML's event stream ourselves instead of `yaml.compose`/`yaml.load`: the stock composer is
recursive (deep files raise RecursionError), silently keeps the last of duplicate keys, and the
constructor builds alias bombs in memory before anyone can count them. Here depth, size and alias
expansion are counted as they are built.

Scalars resolve by the YAML 1.2 core schema, not PyYAML's YAML 1.1 one: otherwise the key `on:`
(used for event handlers) would load as `True`, `no` as `False` and `1:30` as 90. Mapping keys are
always kept as their source text, since JSON (and the schema) only knows string keys.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any

import yaml
from meeple.errors import MeepleError, Problem, RulesetError, Span, UsageError
from yaml.events import AliasEvent, MappingStartEvent, ScalarEvent, SequenceStartEvent, StreamEndEvent

MAX_DEPTH = 64
MAX_NODES = 100_000  # values built, aliases expanded: a real ruleset is far below this

_Y = "tag:yaml.org,2002:"
_NULL = {"", "~", "null", "Null", "NULL"}
_BOOL = {"true": True, "True": True, "TRUE": True, "false": False, "False": False, "FALSE": False}
_INT = re.compile(r"[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+")
_FLOAT = re.compile(r"[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?"
                    r"|[-+]?\.(inf|Inf|INF)|\.(nan|NaN|NAN)")


# A file that is not a ruleset at all (empty, not a mapping, binary) is a usage error (exit 2), not an
# invalid ruleset (exit 1): the user gave the wrong file.
_NOT_A_RULESET = {"Y002", "Y007"}


def fail(code: str, message: str, span: Span | None = None, hint: str | None = None) -> MeepleError:
    cls = UsageError if code in _NOT_A_RULESET and "control character" not in message else RulesetError
    return cls(Problem(code, message, span, hint=hint))


@dataclass(slots=True, eq=False)
class Node:
    kind: str  # "scalar", "seq" or "map"
    tag: str  # short: str, int, float, bool, null, merge, seq, map
    start: Any  # yaml Mark
    end: Any
    value: Any  # scalar: source str; seq: [Node]; map: [key, value, key, value, ...]
    style: str | None = None
    done: bool = True


class Loader(yaml.SafeLoader):
    """Only its reader, scanner and parser are used: we compose and construct ourselves."""


def mark_span(path: str, mark: Any) -> Span:
    return Span(path, mark.line + 1, mark.column + 1, mark.line + 1, mark.column + 1)


def _short(tag: str) -> str:
    return "!!" + tag[len(_Y):] if tag.startswith(_Y) else tag


def _tag(ev: Any, path: str) -> str:
    if isinstance(ev, ScalarEvent):
        if ev.tag is None and ev.style is None:
            v = ev.value
            return ("null" if v in _NULL else "bool" if v in _BOOL else "int" if _INT.fullmatch(v)
                    else "float" if _FLOAT.fullmatch(v) else "merge" if v == "<<" else "str")
        allowed: tuple[str, ...] = ("str", "int", "float", "bool", "null")
    else:
        allowed = ("seq",) if isinstance(ev, SequenceStartEvent) else ("map",)
    if ev.tag in (None, "!"):
        return allowed[0]
    if ev.tag.startswith(_Y) and ev.tag[len(_Y):] in allowed:
        return ev.tag[len(_Y):]
    raise fail("Y008", f"the tag `{_short(ev.tag)}` is not allowed here",
                mark_span(path, ev.start_mark), "a ruleset holds plain data only; remove the tag")


def compose(loader: Loader, path: str) -> Node | None:
    """Build the node graph without recursion, refusing depth and size beyond the limits."""
    loader.get_event()  # stream start
    if loader.check_event(StreamEndEvent):
        return None
    loader.get_event()  # document start
    anchors: dict[str, Node] = {}
    stack: list[Node] = []
    root: Node | None = None
    count = 0
    while root is None or stack:
        ev = loader.get_event()
        if isinstance(ev, AliasEvent):
            found = anchors.get(ev.anchor or "")
            if found is None:
                raise fail("Y001", f"the alias `*{ev.anchor}` refers to no anchor `&{ev.anchor}` above it",
                            mark_span(path, ev.start_mark))
            if not found.done:
                raise fail("Y006", f"the alias `*{ev.anchor}` is inside its own anchor",
                            mark_span(path, ev.start_mark), "a value cannot contain itself")
            node = found
        elif isinstance(ev, ScalarEvent):
            node = Node("scalar", _tag(ev, path), ev.start_mark, ev.end_mark, ev.value, ev.style)
        elif isinstance(ev, (SequenceStartEvent, MappingStartEvent)):
            kind = "seq" if isinstance(ev, SequenceStartEvent) else "map"
            node = Node(kind, _tag(ev, path), ev.start_mark, ev.end_mark, [], None, False)
        else:  # the end of a collection
            done = stack.pop()
            done.end, done.done = ev.end_mark, True
            continue
        count += 1
        if count > MAX_NODES:
            raise fail("Y006", f"the file has too many values (more than {MAX_NODES:,})",
                        mark_span(path, ev.start_mark))
        if not isinstance(ev, AliasEvent) and ev.anchor:
            anchors[ev.anchor] = node
        if stack:
            stack[-1].value.append(node)
        else:
            root = node
        if not node.done:
            stack.append(node)
            if len(stack) > MAX_DEPTH:
                raise fail("Y005", f"the file is nested too deeply (more than {MAX_DEPTH} levels)",
                            mark_span(path, ev.start_mark))
    loader.get_event()  # document end
    if not loader.check_event(StreamEndEvent):
        raise fail("Y001", "the file holds more than one YAML document",
                    mark_span(path, loader.peek_event().start_mark),
                    "a ruleset is one document: remove the second `---`")
    return root


def _text(v: str, node: Node, path: str) -> str:
    """A string must be text: an escape such as "\\ud800" makes half a character, which no file, terminal or
    JSON save can hold."""
    try:
        v.encode("utf-8")
    except UnicodeEncodeError as e:
        raise fail("Y001", f"this string holds an escaped lone surrogate (\\u{ord(v[e.start]):04x}), which is "
                            "not a character", mark_span(path, node.start),
                    "escape whole characters (a surrogate pair, or \\U0001F600)") from None
    return v


def _scalar(node: Node, path: str) -> Any:
    v, tag = node.value, node.tag
    try:
        if tag == "null" and v in _NULL:
            return None
        if tag == "bool" and v in _BOOL:
            return _BOOL[v]
        if tag == "int":
            return int(v, 0) if v[:2] in ("0o", "0x") else int(v)  # base 0 would refuse "012"
        if tag == "float":
            low = v.lower()
            return math.nan if low == ".nan" else float(low.replace(".inf", "inf"))
        if tag in ("str", "merge"):
            return _text(v, node, path)
    except ValueError:
        pass
    shown = v if len(v) <= 40 else v[:37] + "..."
    raise fail("Y001", f"`{shown}` cannot be read as {'an' if tag == 'int' else 'a'} {tag}",
                mark_span(path, node.start))


class Builder:
    """Turns nodes into plain data, copying aliases so the data is a tree, and indexes positions."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.index: dict[tuple, tuple[Node | None, Node]] = {}
        self.count = 0
        self.merged = 0
        self.duplicates: list[Problem] = []

    def build(self, node: Node, at: tuple, key: Node | None, depth: int) -> Any:
        self.count += 1
        if self.count > MAX_NODES:
            raise fail("Y006", f"aliases expand to too many values (more than {MAX_NODES:,})",
                        mark_span(self.path, node.start), "is this a \"billion laughs\" file?")
        if depth > MAX_DEPTH:
            raise fail("Y005", f"the file is nested too deeply (more than {MAX_DEPTH} levels, "
                        "counting aliases)", mark_span(self.path, node.start))
        self.index[at] = (key, node)
        if node.kind == "scalar":
            return _scalar(node, self.path)
        if node.kind == "seq":
            return [self.build(child, at + (i,), None, depth + 1) for i, child in enumerate(node.value)]
        out: dict[str, Any] = {}
        first: dict[str, Node] = {}
        for knode, vnode, merged in self._pairs(node, 0):
            if knode.kind != "scalar":
                raise fail("Y001", "a key must be a plain name, not a list or mapping",
                            mark_span(self.path, knode.start))
            name = _text(knode.value, knode, self.path)
            if name in first:
                if merged:
                    continue  # keys written out beat keys merged in with `<<`
                # keep the first and go on, so that one run reports every duplicate
                self.duplicates.append(Problem(
                    "Y003", f"the key `{name}` appears twice in the same mapping",
                    mark_span(self.path, knode.start), hint=f"first defined at line {first[name].start.line + 1}"))
                continue
            first[name] = knode
            out[name] = self.build(vnode, at + (name,), knode, depth + 1)
        return out

    def _pairs(self, node: Node, level: int) -> list[tuple[Node, Node, bool]]:
        items = node.value
        own = [(k, v, level > 0) for k, v in zip(items[::2], items[1::2]) if k.tag != "merge"]
        for k, v in zip(items[::2], items[1::2]):
            if k.tag != "merge":
                continue
            sources = v.value if v.kind == "seq" else [v]
            for src in sources:
                if src.kind != "map":
                    raise fail("Y001", "`<<` can only merge mappings", mark_span(self.path, src.start))
                if level > MAX_DEPTH:
                    raise fail("Y005", "merges `<<` are nested too deeply", mark_span(self.path, src.start))
                own += [(a, b, True) for a, b, _ in self._pairs(src, level + 1)]
                self.merged += len(own)  # merges of merges multiply too, before duplicates drop out
                if self.merged > MAX_NODES:
                    raise fail("Y006", f"merges `<<` expand to too many keys (more than {MAX_NODES:,})",
                                mark_span(self.path, src.start))
        return own
