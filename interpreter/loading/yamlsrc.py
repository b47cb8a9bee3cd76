"""Safe, bounded YAML loading that remembers where every value came from.

A file is read with limits on its size and checked for text (UTF-8 or UTF-16, no NUL bytes); its events
become plain data in `yamlnodes`; the `Document` keeps, for every path into that data, the YAML node it
came from, so that any later stage can point at a line and column. Positions inside string scalars (for
problems in scripts) are worked out in `yamlpos`. PyYAML's syntax errors are reworded here.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import yaml
from meeple.errors import MeepleError, Problem, RulesetError, Span, UsageError
from meeple.loading import yamlpos
from meeple.loading.yamlnodes import Builder, Loader, Node, compose, fail, mark_span

MAX_BYTES = 2 * 1024 * 1024
_LINE_BREAK = re.compile(r"\r\n|[\r\n\x85\u2028\u2029]")  # exactly the breaks PyYAML counts


def split_lines(text: str) -> list[str]:
    """Split like YAML counts lines, so line numbers agree with PyYAML's marks."""
    return _LINE_BREAK.split(text)


def _start(path: str) -> Span:
    """For problems with the whole file: its first character, so every problem has a location."""
    return Span(path, 1, 1, 1, 1)


def _nul_span(path: str, text: str | bytes) -> Span:
    raw = text.encode("utf-8", "replace") if isinstance(text, str) else text
    at = raw.index(b"\0")
    line = raw.count(b"\n", 0, at) + 1
    col = len(raw[raw.rfind(b"\n", 0, at) + 1:at].decode("utf-8", "replace")) + 1
    return Span(path, line, col, line, col)


@dataclass
class Document:
    path: str
    text: str
    data: Any
    _index: dict[tuple, tuple[Node | None, Node]] = field(default_factory=dict, repr=False)
    _lines: list[str] = field(default_factory=list, repr=False)
    _maps: dict[int, tuple[list[tuple[int, int]] | None, list[int]]] = field(default_factory=dict, repr=False)

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

    def _node_span(self, node: Node) -> Span:
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
        return self.locator(path)(line, col, end_line, end_col)

    def locator(self, path: tuple) -> Callable[..., Span]:
        """`locate` for the string at `path`, with its node and character positions looked up once: the
        parser locates every node of a script's AST."""
        entry = self._index.get(tuple(path))
        if entry is None or entry[1].kind != "scalar" or not isinstance(entry[1].value, str):
            span = self.span(tuple(path)) or Span(self.path, 1, 1, 1, 1)
            return lambda line, col, end_line=None, end_col=None: span
        node = entry[1]
        maps = self._maps.get(id(node))
        if maps is None:  # checkers may locate many references in one script
            maps = self._maps[id(node)] = (yamlpos.positions(node, self._lines), yamlpos.line_starts(node.value))
        where, starts, lines, file = maps[0], maps[1], self._lines, self.path

        def at(line: int, col: int, end_line: int | None = None, end_col: int | None = None) -> Span:
            (sl, sc), (el, ec) = yamlpos.locate(node, lines, where, line, col, end_line, end_col, starts)
            return Span(file, sl + 1, sc + 1, el + 1, ec + 1)
        return at

# What a file must be, named in the two errors of a file that is not a mapping of keys.
SCENARIO_GIVEN = "S007"  # a scenario file where a ruleset belongs: `meeple validate FOLDER` skips it
_EXPECTED = {
    "ruleset": ("a ruleset", "a ruleset is a YAML mapping of keys that starts with `meeple: 1`",
                "write `key: value` lines, starting with `meeple: 1`"),
    "scenario": ("a scenario file", "a scenario file is a YAML mapping with `ruleset:` and `scenarios:`",
                 "write `key: value` lines: `ruleset:`, then `scenarios:`"),
}


def load_yaml_text(text: str | bytes, path: str, expected: str = "ruleset") -> Document:
    """The document of a YAML text that holds a mapping of keys; `expected` ("ruleset" or "scenario")
    says what the file should be, in the error of one that holds anything else."""
    if len(text) > MAX_BYTES or (isinstance(text, str) and len(text.encode("utf-8", "replace")) > MAX_BYTES):
        raise fail("Y004", f"`{path}` is too large ({len(text) / 2**20:.1f} MB; the limit is 2 MB)",
                    _start(path))
    if isinstance(text, bytes):
        if b"\0" in text and not text.startswith((b"\xff\xfe", b"\xfe\xff")):
            raise fail("Y007", f"`{path}` looks like a binary file (it contains NUL bytes), not YAML text",
                        _nul_span(path, text))
        raw = text
        try:
            text = raw.decode("utf-16" if raw.startswith((b"\xff\xfe", b"\xfe\xff")) else "utf-8-sig")
        except UnicodeDecodeError as exc:
            line = raw.count(b"\n", 0, exc.start) + 1
            col = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
            raise fail("Y007", f"the file is not valid UTF-8 text (byte 0x{raw[exc.start]:02x})",
                        Span(path, line, col, line, col), "save the file as UTF-8") from None
    if "\0" in text:
        raise fail("Y007", f"`{path}` looks like a binary file (it contains NUL bytes), not YAML text",
                    _nul_span(path, text))
    text = text.removeprefix("\ufeff")
    try:
        root = _compose(text, path)
    except yaml.reader.ReaderError as exc:
        line = text.count("\n", 0, exc.position) + 1
        col = exc.position - (text.rfind("\n", 0, exc.position) + 1) + 1
        raise fail("Y007", f"the file contains a control character (#x{exc.character:04x}) "
                    "that YAML does not allow",
                    Span(path, line, col, line, col), "is this a binary file?") from None
    except yaml.MarkedYAMLError as exc:
        raise _syntax_error(exc, path, text) from None
    except RecursionError:  # cannot happen with the iterative composer; kept as a last guard
        raise fail("Y005", "the file is nested too deeply", _start(path)) from None
    if root is None or (root.kind == "scalar" and root.tag == "null"):
        # Not a ruleset, but still an invalid input file (exit 1), not a usage error: the file was read.
        kind, empty_hint, _ = _EXPECTED[expected]
        raise fail("Y002", f"not {kind}: the file is empty (or holds only comments)", _start(path), empty_hint)
    if root.kind != "map":
        kind, _, hint = _EXPECTED[expected]
        what = "a list" if root.kind == "seq" else "a single value"
        raise fail("Y002", f"not {kind}: the file holds {what}, not a mapping of keys",
                    mark_span(path, root.start), hint)
    builder = Builder(path)
    data = builder.build(root, (), None, 1)
    if builder.duplicates:
        raise RulesetError(builder.duplicates)
    doc = Document(path, text, data, builder.index)
    if expected == "ruleset" and isinstance(data, dict) and "scenarios" in data and "meeple" not in data:
        # Scenario files sit beside the games (rulesets/scenarios/): one named where a ruleset belongs
        # would otherwise get an "unknown key" per top-level key.
        raise RulesetError([Problem(
            SCENARIO_GIVEN, "this is a scenario file, not a ruleset (a ruleset starts with `meeple: 1`)",
            doc.span(("scenarios",), key=True), hint=f"run its scenarios with `meeple test {path}`")])
    return doc


# The node graphs of the texts composed last. `extends:` and `import:` read a file twice (once to see that
# it is a ruleset at all, then as a layer), and composing is most of the time of reading YAML. A graph
# does not depend on the file's name and nothing changes it once composed; only texts that composed
# without a problem are kept (a problem's message names the file).
_COMPOSED: dict[str, Node | None] = {}
KEEP_COMPOSED = 4


def _compose(text: str, path: str) -> Node | None:
    if text in _COMPOSED:
        root = _COMPOSED.pop(text)
    else:
        root = compose(Loader(text), path)
        while len(_COMPOSED) >= KEEP_COMPOSED:
            del _COMPOSED[next(iter(_COMPOSED))]  # the one used longest ago
    _COMPOSED[text] = root
    return root


def load_yaml_file(path: str | os.PathLike, expected: str = "ruleset") -> Document:
    name = os.fspath(path)
    try:
        if os.path.isdir(name):
            raise UsageError(Problem("IO01", f"`{name}` is a directory, not a file"))
        size = os.path.getsize(name)
        if size > MAX_BYTES:
            raise fail("Y004", f"`{name}` is too large ({size / 2**20:.1f} MB; the limit is 2 MB)",
                        _start(name))
        with open(name, "rb") as fh:
            raw = fh.read(MAX_BYTES + 1)  # bounded even if the size lied (a device or a growing file)
    except FileNotFoundError:
        raise UsageError(Problem("IO01", f"no such file: `{name}`")) from None
    except PermissionError:
        raise UsageError(Problem("IO01", f"cannot read `{name}`: permission denied")) from None
    except OSError as exc:
        raise UsageError(Problem("IO01", f"cannot read `{name}`: {exc.strerror or exc}")) from None
    return load_yaml_text(raw, name, expected)


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


def _syntax_error(exc: yaml.MarkedYAMLError, path: str, text: str) -> MeepleError:
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
    clue = yamlpos.syntax_clue(text, split_lines(text), mark) if mark is not None else None
    if clue is not None and mark is not None:  # the mistake PyYAML noticed only later: point at it, and what it saw
        (sl, sc), (el, ec), said, tip = clue
        return fail("Y001", said, Span(path, sl + 1, sc + 1, el + 1, ec + 1),
                    f"{tip} (YAML fails at line {mark.line + 1}, column {mark.column + 1}: {message})")
    return fail("Y001", message, mark_span(path, mark) if mark else _start(path), hint)
