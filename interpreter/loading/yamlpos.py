"""Where each character of a string scalar sits in the YAML file.

Checkers report problems inside scripts (strings) by their position in the string; `Document.locate`
turns that into a file position. PyYAML only marks where a scalar starts and ends, so we redo its
folding of line breaks, indentation, quotes and escapes, and keep the reconstruction only when it
reproduces the loaded value exactly; otherwise we fall back to an approximation.

When PyYAML fails, `syntax_clue` looks at the scalars just before the failure for the usual cause
found far from where PyYAML noticed it: a quote never closed, or a `|` text not indented under its key.
"""

from __future__ import annotations

import re
from typing import Any, Protocol

import yaml

_ESCAPES = yaml.scanner.Scanner.ESCAPE_REPLACEMENTS
_ESCAPE_CODES = yaml.scanner.Scanner.ESCAPE_CODES

Pos = tuple[int, int]  # 0-based file (line, column)


class Scalar(Protocol):
    """The parts of a loaded scalar node we need; a protocol so yamlsrc can import this module."""

    start: Any  # yaml Mark
    end: Any
    value: Any  # the loaded str
    style: str | None


def line_starts(value: str) -> list[int]:
    """The index in `value` where each of its lines starts, plus one past the end."""
    starts = [0]
    for text in value.split("\n"):
        starts.append(starts[-1] + len(text) + 1)
    return starts


def locate(node: Scalar, src: list[str], where: list[Pos] | None, line: int, col: int,
           end_line: int | None = None, end_col: int | None = None,
           starts: list[int] | None = None) -> tuple[Pos, Pos]:
    """0-based file positions of the first and last character of a 1-based range in the scalar.

    `where` is `positions(node, src)` and `starts` is `line_starts(node.value)`, passed in so callers
    can cache them per node (a script's every AST node is located). The end follows lark:
    `end_line`/`end_col` is just after the last character."""
    if starts is None:
        starts = line_starts(node.value)
    lines = len(starts) - 1

    def index(ln: int, c: int) -> int:
        ln = min(max(ln, 1), lines)
        return min(starts[ln - 1] + max(c, 1) - 1, len(node.value))

    def at(idx: int) -> Pos:
        if where is not None:
            return where[min(idx, len(where) - 1)]
        ln = max(n for n in range(lines) if starts[n] <= idx)
        return _approx(node, src, ln + 1, idx - starts[ln] + 1)

    first = index(line, col)
    last = first
    if end_line is not None and end_col is not None:
        last = max(first, index(end_line, end_col) - 1)
        while last > first and node.value[last] == "\n":  # end on the last visible character
            last -= 1
    return at(first), at(last)


def positions(node: Scalar, src: list[str]) -> list[tuple[int, int]] | None:
    """0-based file (line, col) of every char of the scalar plus one past its end, or None when
    our reconstruction of YAML's folding does not reproduce the value (then we approximate)."""
    if node.style == "|":
        vlines = node.value.split("\n")
        first = next((i for i, s in enumerate(vlines) if s), None)
        base = node.start.line + 1
        if first is None:
            return [(base + i, 0) for i in range(len(node.value) + 1)]
        if base + first >= len(src) or not src[base + first].endswith(vlines[first]):
            return None
        indent = len(src[base + first]) - len(vlines[first])
        out: list[tuple[int, int]] = []
        for i, s in enumerate(vlines):
            if s and (base + i >= len(src) or src[base + i][indent:] != s):
                return None
            out.extend((base + i, indent + j) for j in range(len(s) + 1))
        return out
    if node.style == ">":
        # the indentation is not in the node (an explicit `>2` is relative to the parent), so try
        # each candidate; only the right one reproduces the value
        lines = src[node.start.line + 1:node.end.line + 1]
        deepest = max((len(s) - len(s.lstrip(" ")) for s in lines), default=0)
        for indent in range(deepest, -1, -1):
            found = _verified(node, _fold_block(node, src, indent))
            if found is not None:
                return found
        return None
    return _verified(node, _fold_flow(node, src))


def _verified(node: Scalar, chars: list[tuple[str, tuple[int, int]]]) -> list[tuple[int, int]] | None:
    text = "".join(c for c, _ in chars)
    if not node.value.startswith(text) or node.value[len(text):].strip("\n"):
        return None
    last = chars[-1][1] if chars else (node.start.line, node.start.column)
    tail = (last[0], last[1] + 1)  # chomped line breaks and the end sit just after the text
    return [p for _, p in chars] + [tail] * (len(node.value) - len(text) + 1)


def _fold_flow(node: Scalar, src: list[str]) -> list[tuple[str, tuple[int, int]]]:
    out: list[tuple[str, tuple[int, int]]] = []
    quoted = 1 if node.style in ("'", '"') else 0
    sl, sc, el, ec = node.start.line, node.start.column + quoted, node.end.line, node.end.column - quoted
    empties, joined = 0, False
    for ln in range(sl, el + 1):
        begin = sc if ln == sl else len(src[ln]) - len(src[ln].lstrip(" \t"))
        text = src[ln][begin:ec if ln == el else None]
        if ln != el:
            text = text.rstrip(" \t")
        if ln not in (sl, el) and not text:
            empties += 1
            continue
        if ln != sl and not joined:
            prev = out[-1][1] if out else (sl, sc)
            out.extend((c, prev) for c in ("\n" * empties or " "))
        empties, joined = 0, False
        if node.style == '"' and text.endswith("\\") and (len(text) - len(text.rstrip("\\"))) % 2:
            text, joined = text[:-1], True  # an escaped line break joins without a space
        i = 0
        while i < len(text):
            step = 1
            if node.style == '"' and text[i] == "\\":
                code = text[i + 1:i + 2]
                step = 2 + _ESCAPE_CODES.get(code, 0)
                try:
                    char = _ESCAPES[code] if code in _ESCAPES else chr(int(text[i + 2:i + step], 16))
                except ValueError:
                    char = "\0"  # cannot happen in a scalar PyYAML accepted; verification catches it
            elif node.style == "'" and text[i:i + 2] == "''":
                step, char = 2, "'"
            else:
                char = text[i]
            out.extend((c, (ln, begin + i)) for c in char)
            i += step
    return out


def _fold_block(node: Scalar, src: list[str], indent: int) -> list[tuple[str, tuple[int, int]]]:
    out: list[tuple[str, tuple[int, int]]] = []
    last = min(node.end.line + (1 if node.end.column else 0), len(src))  # the end mark is past the text
    prev_normal: bool | None = None
    empties = 0
    for ln in range(node.start.line + 1, last):
        text = src[ln][indent:]
        if not text:  # spaces beyond the indentation are content ("more indented"), not empty
            empties += 1
            continue
        normal = not text[:1].isspace()
        if prev_normal is None:
            sep = "\n" * empties
        elif prev_normal and normal:
            sep = "\n" * empties or " "
        else:
            sep = "\n" * (empties + 1)
        prev = out[-1][1] if out else (ln, indent)
        out.extend((c, prev) for c in sep)
        out.extend((c, (ln, indent + j)) for j, c in enumerate(text))
        prev_normal, empties = normal, 0
    return out


def _approx(node: Scalar, src: list[str], line: int, col: int) -> tuple[int, int]:
    if node.style in ("|", ">"):
        ln = min(node.start.line + line, max(node.end.line, node.start.line + 1), len(src) - 1)
        return ln, len(src[ln]) - len(src[ln].lstrip(" ")) + col - 1
    ln = min(node.start.line + line - 1, node.end.line)
    if ln == node.start.line:
        return ln, node.start.column + (1 if node.style else 0) + col - 1
    return ln, len(src[ln]) - len(src[ln].lstrip(" \t")) + col - 1


# A source line that reads as YAML structure (`key:`, `- item`), not as prose inside a quoted text.
_STRUCTURE = re.compile(r"\s*(- |[A-Za-z_][\w.-]*:(\s|$))")


def _tokens_before(text: str, index: int) -> list[Any]:
    """PyYAML's tokens of `text` that start before `index` (where it failed), as far as it scans."""
    scanner = yaml.SafeLoader(text)
    out: list[Any] = []
    try:
        while scanner.check_token():
            token = scanner.get_token()
            if token.start_mark.index >= index:
                break
            out.append(token)
    except yaml.YAMLError:  # the scanner fails where the parse did, or before: keep what it queued
        out += [t for t in scanner.tokens if t.start_mark.index < index]
    finally:
        scanner.dispose()
    return out


def syntax_clue(text: str, src: list[str], mark: Any) -> tuple[Pos, Pos, str, str] | None:
    """For a syntax error at `mark`: the likely real mistake just before it, as the 0-based first and
    last position to point at, a message and a hint; or None."""
    tokens = _tokens_before(text, mark.index)
    tail = [t for t in tokens if not isinstance(t, yaml.BlockEndToken)][-3:]
    for tok in reversed(tail):
        sl, el = tok.start_mark.line, tok.end_mark.line
        if isinstance(tok, yaml.ScalarToken) and tok.style in ("'", '"') and el > sl and \
                any(_STRUCTURE.match(line) for line in src[sl + 1:el + 1]):
            quote, col = tok.style, tok.start_mark.column
            message = (f"this quoted text is not closed on its line: it runs on to the next `{quote}`, at line "
                       f"{el + 1}, column {tok.end_mark.column}, and swallows the lines in between")
            hint = f"a closing `{quote}` is probably missing on line {sl + 1}; a text over several lines needs `|`"
            return (sl, col), (sl, max(col, len(src[sl].rstrip()) - 1)), message, hint
    return _block_clue(tokens, src, mark)


def _block_clue(tokens: list[Any], src: list[str], mark: Any) -> tuple[Pos, Pos, str, str] | None:
    """An empty `|` (or `>`) text just before the error, whose lines are not indented under its key."""
    first = max(len(tokens) - 8, 0)
    blocks = [i for i, t in enumerate(tokens[first:], first)
              if isinstance(t, yaml.ScalarToken) and t.style in ("|", ">") and not t.value.strip()]
    if not blocks or blocks[-1] < 2 or not isinstance(tokens[blocks[-1] - 1], yaml.ValueToken):
        return None
    block, key = tokens[blocks[-1]], tokens[blocks[-1] - 2]
    if not isinstance(key, yaml.ScalarToken):
        return None
    for ln in range(block.start_mark.line + 1, min(mark.line + 1, len(src))):
        line = src[ln]
        if line.strip() and not line.lstrip().startswith("#"):
            indent = len(line) - len(line.lstrip(" "))
            if indent > key.start_mark.column:
                return None
            message = (f"this line is not indented deeper than `{key.value}:` (line {key.start_mark.line + 1}), "
                       f"so it is not part of its `{block.style}` text")
            hint = f"the lines of a `{block.style}` text must be indented deeper than its key"
            return (ln, indent), (ln, len(line.rstrip()) - 1), message, hint
    return None
