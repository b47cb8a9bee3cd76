"""Safe, bounded YAML loading that remembers where every value came from.

We walk PyYAML's event stream with our own loop instead of `yaml.compose`/`yaml.load`: the stock
composer is recursive (deep files raise RecursionError), silently keeps the last of duplicate keys,
and the constructor builds alias bombs in memory before anyone can count them.

Scalars resolve by the YAML 1.2 core schema, not PyYAML's YAML 1.1 one: otherwise the key `on:`
(used for event handlers) would load as `True`, `no` as `False` and `1:30` as 90. Mapping keys are
always kept as their source text, since JSON (and the schema) only knows string keys.

Positions inside string scalars (for problems in scripts) are worked out in `yamlpos`.
"""

from __future__ import annotations

import math
import os
import re
from dataclasses import dataclass, field
from typing import Any

import yaml
from meeple.errors import MeepleError, Problem, RulesetError, Span, UsageError
from meeple.loading import yamlpos
from yaml.events import AliasEvent, MappingStartEvent, ScalarEvent, SequenceStartEvent, StreamEndEvent

MAX_BYTES = 2 * 1024 * 1024
MAX_DEPTH = 64
MAX_NODES = 100_000  # values built, aliases expanded: a real ruleset is far below this

_Y = "tag:yaml.org,2002:"
_LINE_BREAK = re.compile(r"\r\n|[\r\n\x85\u2028\u2029]")  # exactly the breaks PyYAML counts
_NULL = {"", "~", "null", "Null", "NULL"}
_BOOL = {"true": True, "True": True, "TRUE": True, "false": False, "False": False, "FALSE": False}
_INT = re.compile(r"[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+")
_FLOAT = re.compile(r"[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?"
                    r"|[-+]?\.(inf|Inf|INF)|\.(nan|NaN|NAN)")


def split_lines(text: str) -> list[str]:
    """Split like YAML counts lines, so line numbers agree with PyYAML's marks."""
    return _LINE_BREAK.split(text)


# A file that is not a ruleset at all (empty, not a mapping, binary) is a usage error (exit 2), not an
# invalid ruleset (exit 1): the user gave the wrong file.
_NOT_A_RULESET = {"Y002", "Y007"}


def _fail(code: str, message: str, span: Span | None = None, hint: str | None = None) -> MeepleError:
    cls = UsageError if code in _NOT_A_RULESET and "control character" not in message else RulesetError
    return cls(Problem(code, message, span, hint=hint))


def _start(path: str) -> Span:
    """For problems with the whole file: its first character, so every problem has a location."""
    return Span(path, 1, 1, 1, 1)


def _nul_span(path: str, text: str | bytes) -> Span:
    raw = text.encode("utf-8", "replace") if isinstance(text, str) else text
    at = raw.index(b"\0")
    line = raw.count(b"\n", 0, at) + 1
    col = len(raw[raw.rfind(b"\n", 0, at) + 1:at].decode("utf-8", "replace")) + 1
    return Span(path, line, col, line, col)


@dataclass(slots=True, eq=False)
class _Node:
    kind: str  # "scalar", "seq" or "map"
    tag: str  # short: str, int, float, bool, null, merge, seq, map
    start: Any  # yaml Mark
    end: Any
    value: Any  # scalar: source str; seq: [_Node]; map: [key, value, key, value, ...]
    style: str | None = None
    done: bool = True


@dataclass
class Document:
    path: str
    text: str
    data: Any
    _index: dict[tuple, tuple[_Node | None, _Node]] = field(default_factory=dict, repr=False)
    _lines: list[str] = field(default_factory=list, repr=False)
    _maps: dict[int, list[tuple[int, int]] | None] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        self._lines = split_lines(self.text)

    def line_text(self, line: int) -> str:
        return self._lines[line - 1] if 1 <= line <= len(self._lines) else ""

    def span(self, path: tuple, *, key: bool = False) -> Span | None:
        path = tuple(path)
        for n in range(len(path), -1, -1):
            entry = self._index.get(path[:n])
            if entry is None:
                continue
            knode, vnode = entry
            empty = vnode.kind == "scalar" and vnode.style is None and vnode.start.index == vnode.end.index
            # an ancestor or an empty value is best shown by its key
            if knode is not None and (key or n < len(path) or empty):
                return self._node_span(knode)
            return self._node_span(vnode)
        return None

    def _node_span(self, node: _Node) -> Span:
        sl, sc, el, ec = node.start.line, node.start.column, node.end.line, node.end.column
        if el > sl and not self._lines[el][:ec].strip():
            # block collections and block scalars end where the next token starts: pull the end
            # back to the last line that has content of this node
            el -= 1
            while el > sl and (not self._lines[el].strip() or self._lines[el].lstrip().startswith("#")):
                el -= 1
            ec = len(self._lines[el].rstrip())
        if (el, ec) <= (sl, sc):
            return Span(self.path, sl + 1, sc + 1, sl + 1, sc + 1)
        return Span(self.path, sl + 1, sc + 1, el + 1, ec)

    def locate(self, path: tuple, line: int, col: int, end_line: int | None = None,
               end_col: int | None = None) -> Span:
        """Map a 1-based position inside the string at `path` to the file.

        The end follows lark (`end_line`, `end_column`): the position just after the last character.
        The returned Span's end is inclusive, like every Span."""
        entry = self._index.get(tuple(path))
        if entry is None or entry[1].kind != "scalar" or not isinstance(entry[1].value, str):
            return self.span(tuple(path)) or Span(self.path, 1, 1, 1, 1)
        node = entry[1]
        if id(node) not in self._maps:  # checkers may locate many references in one script
            self._maps[id(node)] = yamlpos.positions(node, self._lines)
        (sl, sc), (el, ec) = yamlpos.locate(node, self._lines, self._maps[id(node)], line, col,
                                            end_line, end_col)
        return Span(self.path, sl + 1, sc + 1, el + 1, ec + 1)


# ---- composing and building ---------------------------------------------------------------

class _Loader(yaml.SafeLoader):
    """Only its reader, scanner and parser are used: we compose and construct ourselves."""


def _mark_span(path: str, mark: Any) -> Span:
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
    raise _fail("Y008", f"the tag `{_short(ev.tag)}` is not allowed here",
                _mark_span(path, ev.start_mark), "a ruleset holds plain data only; remove the tag")


def _compose(loader: _Loader, path: str) -> _Node | None:
    """Build the node graph without recursion, refusing depth and size beyond the limits."""
    loader.get_event()  # stream start
    if loader.check_event(StreamEndEvent):
        return None
    loader.get_event()  # document start
    anchors: dict[str, _Node] = {}
    stack: list[_Node] = []
    root: _Node | None = None
    count = 0
    while root is None or stack:
        ev = loader.get_event()
        if isinstance(ev, AliasEvent):
            found = anchors.get(ev.anchor or "")
            if found is None:
                raise _fail("Y001", f"the alias `*{ev.anchor}` refers to no anchor `&{ev.anchor}` above it",
                            _mark_span(path, ev.start_mark))
            if not found.done:
                raise _fail("Y006", f"the alias `*{ev.anchor}` is inside its own anchor",
                            _mark_span(path, ev.start_mark), "a value cannot contain itself")
            node = found
        elif isinstance(ev, ScalarEvent):
            node = _Node("scalar", _tag(ev, path), ev.start_mark, ev.end_mark, ev.value, ev.style)
        elif isinstance(ev, (SequenceStartEvent, MappingStartEvent)):
            kind = "seq" if isinstance(ev, SequenceStartEvent) else "map"
            node = _Node(kind, _tag(ev, path), ev.start_mark, ev.end_mark, [], None, False)
        else:  # the end of a collection
            done = stack.pop()
            done.end, done.done = ev.end_mark, True
            continue
        count += 1
        if count > MAX_NODES:
            raise _fail("Y006", f"the file has too many values (more than {MAX_NODES:,})",
                        _mark_span(path, ev.start_mark))
        if not isinstance(ev, AliasEvent) and ev.anchor:
            anchors[ev.anchor] = node
        if stack:
            stack[-1].value.append(node)
        else:
            root = node
        if not node.done:
            stack.append(node)
            if len(stack) > MAX_DEPTH:
                raise _fail("Y005", f"the file is nested too deeply (more than {MAX_DEPTH} levels)",
                            _mark_span(path, ev.start_mark))
    loader.get_event()  # document end
    if not loader.check_event(StreamEndEvent):
        raise _fail("Y001", "the file holds more than one YAML document",
                    _mark_span(path, loader.peek_event().start_mark),
                    "a ruleset is one document: remove the second `---`")
    return root


def _text(v: str, node: _Node, path: str) -> str:
    """A string must be text: an escape such as "\\ud800" makes half a character, which no file, terminal or
    JSON save can hold."""
    try:
        v.encode("utf-8")
    except UnicodeEncodeError as e:
        raise _fail("Y001", f"this string holds an escaped lone surrogate (\\u{ord(v[e.start]):04x}), which is "
                            "not a character", _mark_span(path, node.start),
                    "escape whole characters (a surrogate pair, or \\U0001F600)") from None
    return v


def _scalar(node: _Node, path: str) -> Any:
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
    raise _fail("Y001", f"`{shown}` cannot be read as {'an' if tag == 'int' else 'a'} {tag}",
                _mark_span(path, node.start))


class _Builder:
    """Turns nodes into plain data, copying aliases so the data is a tree, and indexes positions."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.index: dict[tuple, tuple[_Node | None, _Node]] = {}
        self.count = 0
        self.merged = 0
        self.duplicates: list[Problem] = []

    def build(self, node: _Node, at: tuple, key: _Node | None, depth: int) -> Any:
        self.count += 1
        if self.count > MAX_NODES:
            raise _fail("Y006", f"aliases expand to too many values (more than {MAX_NODES:,})",
                        _mark_span(self.path, node.start), "is this a \"billion laughs\" file?")
        if depth > MAX_DEPTH:
            raise _fail("Y005", f"the file is nested too deeply (more than {MAX_DEPTH} levels, "
                        "counting aliases)", _mark_span(self.path, node.start))
        self.index[at] = (key, node)
        if node.kind == "scalar":
            return _scalar(node, self.path)
        if node.kind == "seq":
            return [self.build(child, at + (i,), None, depth + 1) for i, child in enumerate(node.value)]
        out: dict[str, Any] = {}
        first: dict[str, _Node] = {}
        for knode, vnode, merged in self._pairs(node, 0):
            if knode.kind != "scalar":
                raise _fail("Y001", "a key must be a plain name, not a list or mapping",
                            _mark_span(self.path, knode.start))
            name = _text(knode.value, knode, self.path)
            if name in first:
                if merged:
                    continue  # keys written out beat keys merged in with `<<`
                # keep the first and go on, so that one run reports every duplicate
                self.duplicates.append(Problem(
                    "Y003", f"the key `{name}` appears twice in the same mapping",
                    _mark_span(self.path, knode.start), hint=f"first defined at line {first[name].start.line + 1}"))
                continue
            first[name] = knode
            out[name] = self.build(vnode, at + (name,), knode, depth + 1)
        return out

    def _pairs(self, node: _Node, level: int) -> list[tuple[_Node, _Node, bool]]:
        items = node.value
        own = [(k, v, level > 0) for k, v in zip(items[::2], items[1::2]) if k.tag != "merge"]
        for k, v in zip(items[::2], items[1::2]):
            if k.tag != "merge":
                continue
            sources = v.value if v.kind == "seq" else [v]
            for src in sources:
                if src.kind != "map":
                    raise _fail("Y001", "`<<` can only merge mappings", _mark_span(self.path, src.start))
                if level > MAX_DEPTH:
                    raise _fail("Y005", "merges `<<` are nested too deeply", _mark_span(self.path, src.start))
                own += [(a, b, True) for a, b, _ in self._pairs(src, level + 1)]
                self.merged += len(own)  # merges of merges multiply too, before duplicates drop out
                if self.merged > MAX_NODES:
                    raise _fail("Y006", f"merges `<<` expand to too many keys (more than {MAX_NODES:,})",
                                _mark_span(self.path, src.start))
        return own


def load_yaml_text(text: str | bytes, path: str) -> Document:
    if len(text) > MAX_BYTES or (isinstance(text, str) and len(text.encode("utf-8", "replace")) > MAX_BYTES):
        raise _fail("Y004", f"`{path}` is too large ({len(text) / 2**20:.1f} MB; the limit is 2 MB)",
                    _start(path))
    if isinstance(text, bytes):
        if b"\0" in text and not text.startswith((b"\xff\xfe", b"\xfe\xff")):
            raise _fail("Y007", f"`{path}` looks like a binary file (it contains NUL bytes), not YAML text",
                        _nul_span(path, text))
        raw = text
        try:
            text = raw.decode("utf-16" if raw.startswith((b"\xff\xfe", b"\xfe\xff")) else "utf-8-sig")
        except UnicodeDecodeError as exc:
            line = raw.count(b"\n", 0, exc.start) + 1
            col = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
            raise _fail("Y007", f"the file is not valid UTF-8 text (byte 0x{raw[exc.start]:02x})",
                        Span(path, line, col, line, col), "save the file as UTF-8") from None
    if "\0" in text:
        raise _fail("Y007", f"`{path}` looks like a binary file (it contains NUL bytes), not YAML text",
                    _nul_span(path, text))
    text = text.removeprefix("\ufeff")
    try:
        root = _compose(_Loader(text), path)
    except yaml.reader.ReaderError as exc:
        line = text.count("\n", 0, exc.position) + 1
        col = exc.position - (text.rfind("\n", 0, exc.position) + 1) + 1
        raise _fail("Y007", f"the file contains a control character (#x{exc.character:04x}) "
                    "that YAML does not allow",
                    Span(path, line, col, line, col), "is this a binary file?") from None
    except yaml.MarkedYAMLError as exc:
        raise _syntax_error(exc, path) from None
    except RecursionError:  # cannot happen with the iterative composer; kept as a last guard
        raise _fail("Y005", "the file is nested too deeply", _start(path)) from None
    if root is None or (root.kind == "scalar" and root.tag == "null"):
        # Not a ruleset, but still an invalid input file (exit 1), not a usage error: the file was read.
        raise _fail("Y002", "not a ruleset: the file is empty (or holds only comments)", _start(path),
                    "a ruleset is a YAML mapping of keys that starts with `meeple: 1`")
    if root.kind != "map":
        what = "a list" if root.kind == "seq" else "a single value"
        raise _fail("Y002", f"not a ruleset: the file holds {what}, not a mapping of keys",
                    _mark_span(path, root.start), "write `key: value` lines, starting with `meeple: 1`")
    builder = _Builder(path)
    data = builder.build(root, (), None, 1)
    if builder.duplicates:
        raise RulesetError(builder.duplicates)
    return Document(path, text, data, builder.index)


def load_yaml_file(path: str | os.PathLike) -> Document:
    name = os.fspath(path)
    try:
        if os.path.isdir(name):
            raise UsageError(Problem("IO01", f"`{name}` is a directory, not a file"))
        size = os.path.getsize(name)
        if size > MAX_BYTES:
            raise _fail("Y004", f"`{name}` is too large ({size / 2**20:.1f} MB; the limit is 2 MB)",
                        _start(name))
        with open(name, "rb") as fh:
            raw = fh.read(MAX_BYTES + 1)  # bounded even if the size lied (a device or a growing file)
    except FileNotFoundError:
        raise UsageError(Problem("IO01", f"no such file: `{name}`")) from None
    except PermissionError:
        raise UsageError(Problem("IO01", f"cannot read `{name}`: permission denied")) from None
    except OSError as exc:
        raise UsageError(Problem("IO01", f"cannot read `{name}`: {exc.strerror or exc}")) from None
    return load_yaml_text(raw, name)


# PyYAML's problem texts, reworded; the first group of a pattern can be used as {0}
_SYNTAX: list[tuple[str, str, str | None]] = [
    (r"mapping values are not allowed here", "a `key: value` is not allowed here",
     "check the indentation, or put quotes around a value that contains `: `"),
    (r"could not find expected ':'", "expected a `:` after this key", "a text over several lines needs `|`"),
    (r"found character '\\t' that cannot start any token", "a tab cannot be used to indent",
     "indent with spaces only"),
    (r"found character (.*) that cannot start any token", "a value cannot start with {0}",
     "put it in quotes"),
    (r"expected <block end>, but found", "this line does not line up with the lines above it",
     "check the indentation"),
    (r"did not find expected key", "expected a `key:` here", "check the indentation"),
    (r"did not find expected '-' indicator", "expected a `- item` here", "check the indentation"),
    (r"found unexpected end of stream", "the file ends inside a quoted text", "a closing quote is missing"),
    (r"expected ',' or '(.)', but got", "expected `,` or `{0}` here",
     "an inline list or mapping is not closed"),
    (r"found unknown escape character (.*)", "unknown escape {0} in a double-quoted text",
     "use single quotes, or write `\\\\` for a backslash"),
    (r"expected alphabetic or numeric character", "an anchor or alias needs a name of letters and digits",
     None),
]
_TOKENS = {"<block end>": "the end of the block", "<stream end>": "the end of the file",
           "<block mapping start>": "an indented key", "<scalar>": "a value", "'?'": "a key",
           "<document start>": "`---`", "<block sequence start>": "a list"}
_CONTEXT = {"mapping": "mapping", "collection": "list", "sequence": "list", "quoted": "quoted text",
            "block scalar": "block text"}


def _syntax_error(exc: yaml.MarkedYAMLError, path: str) -> MeepleError:
    problem = exc.problem or "invalid YAML"
    message, hint = problem, None
    for pattern, msg, tip in _SYNTAX:
        m = re.match(pattern, problem)
        if m:
            message, hint = msg.format(*m.groups()), tip
            break
    else:
        for token, words in _TOKENS.items():
            message = message.replace(token, words)
    thing = next((w for k, w in _CONTEXT.items() if k in (exc.context or "")), None)
    if thing and exc.context_mark is not None:
        where = f"the {thing} starts at line {exc.context_mark.line + 1}"
        hint = f"{hint} ({where})" if hint else where
    mark = exc.problem_mark or exc.context_mark
    return _fail("Y001", message, _mark_span(path, mark) if mark else _start(path), hint)
