"""Turn Lark's parse errors into located problems in plain words.

Lark knows the token it choked on and the terminals it would have accepted. Authors need more: where
the mistake really is (an unclosed bracket lines before the token that revealed it; a block that
needs indenting), and what was expected in words ("an expression", "`:`"), not terminal names.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from meeple.errors import Problem, Span
from meeple.language.walk import children

if TYPE_CHECKING:  # lark is imported by the parser; the loader imports this module for its limits
    from lark.exceptions import UnexpectedInput

Origin = Callable[[int, int, int, int], Span]
MAX_NESTING = 100  # AST levels; the evaluator and the checker recurse, real scripts stay below 30
MAX_BRACKETS = 50  # brackets inside brackets; real scripts use fewer than 6
# Parsing runs at some 15,000 tokens (50,000 characters of real code) a second: these bound the
# time a file can take to a few seconds. The bundled rulesets' longest script has under 3,000
# characters, and all the scripts of one under 20,000.
MAX_SCRIPT = 20_000
MAX_SCRIPTS = 100_000

_WORDS = {"NAME": "a name", "NUMBER": "a number", "STRING": "a string", "_NL": "the end of the line",
          "_INDENT": "an indented block", "_DEDENT": "the end of the block", "$END": "the end of the text",
          "AUGOP": "`+=` or `-=`", "COMP_OP": "a comparison", "ADD_OP": "`+` or `-`", "MUL_OP": "`*`, `//` or `%`"}
# Groups of terminals that read better as one word when several of them are expected.
_GROUPS = [
    ("an expression", {"LPAR", "LSQB", "LBRACE", "MINUS", "NAME", "NUMBER", "STRING", "TRUE", "FALSE", "NONE",
                       "NOT"}),
    ("a statement", {"BREAK", "CHOOSE", "CONTINUE", "END_GAME", "FOR", "IF", "PASS", "PHASE", "REPEAT",
                     "RETURN", "SIMULTANEOUS", "TRIGGER", "WHILE"}),
    ("an operator", {"ADD_OP", "MUL_OP", "COMP_OP", "AND", "OR", "DOT", "IF", "AUGOP", "EQUAL", "LSQB"}),
]
_CLOSERS = {"(": ")", "[": "]", "{": "}"}
_CHAR_HINTS = {"&": "write `and`", "|": "write `or`", "!": "write `not`, or `!=` to compare",
               ";": "write one statement per line", "`": "strings use \"double\" or 'single' quotes",
               "@": None, "$": None, "?": "for a choice between two values write `a if test else b`"}


def expected_words(names: set[str], describe: Callable[[str], str]) -> str:
    names = set(names)
    words: list[str] = []
    for word, group in _GROUPS:
        hit = names & group
        if len(hit) >= 3:
            words.append(word)
            names -= group
    words += sorted({_WORDS.get(n) or describe(n) for n in names})
    if len(words) > 6:
        words = words[:6] + ["..."]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def syntax_problem(e: UnexpectedInput, text: str, origin: Origin, describe: Callable[[str], str],
                   keywords: set[str]) -> Problem:
    from lark.exceptions import UnexpectedCharacters, UnexpectedEOF

    lines = text.split("\n")
    if isinstance(e.line, int) and isinstance(e.column, int):
        line, col = max(e.line, 1), max(e.column, 1)
    else:  # lark before 1.2 gives the blocks closed by the end of the text no position: place them there
        line, col = _end(lines)

    def at(ln: int, c: int, code: str, message: str, hint: str | None) -> Problem:
        return Problem(code, message, origin(ln, c, ln, c), hint=hint)

    if isinstance(e, UnexpectedCharacters):
        ch = lines[line - 1][col - 1] if line <= len(lines) and col <= len(lines[line - 1]) else "?"
        if ch in "\"'":
            return at(line, col, "P001", "this string is not closed on its line",
                      f"close it with {ch}; a string cannot continue on the next line")
        if ch == "." and lines[line - 1][col:col + 1].isdigit():
            return at(line, col, "P001", "the language has whole numbers only", "use `//` to divide")
        return at(line, col, "P001", f"unexpected character `{ch}`",
                  _CHAR_HINTS.get(ch, None) or f"`{ch}` is not part of the language")
    accepts = set(getattr(e, "accepts", None) or getattr(e, "expected", None) or ())
    if isinstance(e, UnexpectedEOF):
        ln, c = _end(lines)
        return at(ln, c, "P001", "the text ends too early", f"expected {expected_words(accepts, describe)}")
    tok: Any = getattr(e, "token", None)
    kind = getattr(tok, "type", "")
    unclosed = _unclosed(text, line, col)
    habit = _python_habit(lines, tok, line, unclosed)
    if habit is not None:
        return at(*habit)
    if unclosed is not None and _CLOSERS[unclosed[0]] in {describe(a).strip("`") for a in accepts}:
        ch, ln, c = unclosed
        return at(ln, c, "P001", f"this `{ch}` is never closed",
                  f"close it with `{_CLOSERS[ch]}` before line {line}" if line > ln else
                  f"close it with `{_CLOSERS[ch]}`")
    if kind == "_NL" or kind == "$END":
        ln = min(tok.line or line, len(lines)) if kind == "_NL" else _end(lines)[0]
        while ln > 1 and not _code(lines[ln - 1]):
            ln -= 1
        line, col = ln, len(_code(lines[ln - 1]).rstrip()) + 1
        if "COLON" in accepts and len(accepts) <= 3:
            return at(line, col, "P001", "missing `:` at the end of this line",
                      "a line that opens a block (`if`, `for`, `while`, `repeat`, `choose`, `option`) ends with `:`")
    if kind in ("_INDENT", "_DEDENT"):
        line, col = _next_code_line(lines, (tok.line or line))
        if kind == "_INDENT":
            return at(line, col, "P003", "this line is indented, but no block starts here",
                      "only the lines after one ending in `:` are indented")
    if "OPTION" in accepts and accepts <= {"OPTION", "OPTIONS", "_NL", "_DEDENT"} and kind not in ("_NL", "$END"):
        return at(tok.line or line, tok.column or col, "P001", "a `choose` block lists only its options",
                  "write `option \"label\":` with the statements indented under it, or `options HOOK from ...`")
    if "_INDENT" in accepts and kind != "_INDENT":
        line, col = (tok.line or line, tok.column or col) if kind not in ("_NL", "$END") else (line, col)
        return at(line, col, "P003", "expected an indented block after the line ending in `:`",
                  "indent the lines of the block, for example by 4 spaces")
    first = _code(lines[line - 1]).split(":")[0].split() if line <= len(lines) else []
    if first and first[0] in ("else", "elif"):
        c = len(lines[line - 1]) - len(lines[line - 1].lstrip()) + 1
        return at(line, c, "P001", f"`{first[0]}` without an `if` before it",
                  f"`{first[0]}` follows the block of an `if`, at the same indentation as the `if`")
    if kind == "NUMBER" and col > 2 and lines[line - 1][col - 2:col - 1] == "." and \
            lines[line - 1][col - 3:col - 2].isdigit():
        return at(line, col - 1, "P001", "the language has whole numbers only", "use `//` to divide")
    what = {"$END": "end of text", "_NL": "end of line", "_DEDENT": "end of block"}.get(kind) or (
        f"keyword `{tok}`" if str(tok) in keywords else f"`{tok}`")
    hint: str | None = f"expected {expected_words(accepts, describe)}" if accepts else None
    if str(tok) == "=" and "EQUAL" not in accepts:
        hint = "to compare, write `==`; `=` only assigns, at the start of a line"
    return at(line, col, "P001", f"unexpected {what}", hint)


_CHAIN = ("<", "<=", ">", ">=", "==", "!=")


def _python_habit(lines: list[str], tok: Any, line: int,
                  unclosed: tuple[str, int, int] | None) -> tuple[int, int, str, str, str] | None:
    """Python written where Meeple differs: (line, col, code, message, hint) naming the Meeple way."""
    if tok is None or not getattr(tok, "line", None):
        return None
    ln, c, word = tok.line, tok.column, str(tok)
    src = _code(lines[ln - 1]) if ln <= len(lines) else ""
    first = src.split()[0] if src.split() else ""
    ind = len(src) - len(src.lstrip()) + 1
    if first == "def":
        return (ln, ind, "P001", "`def` is Python: a Meeple script cannot define functions",
                "declare a procedure in YAML under `procedures:` (`NAME: {params: [...], do: |...}`)")
    after = src[ind - 1 + len(first):]
    second = ind + len(first) + len(after) - len(after.lstrip())  # the column of the word after the first
    if first in ("option", "options") and c == second and word not in ("=", "+=", "-="):
        return (ln, ind, "P001", f"`{first}` belongs inside a `choose` block",
                f"indent it under `choose PLAYER \"prompt\":`; {first} lines list what the player may pick")
    if word.startswith(("'", '"')) and c >= 2 and src[c - 2:c - 1] in "fF" and (c < 3 or not (
            src[c - 3].isalnum() or src[c - 3] == "_")):
        return (ln, c - 1, "P001", "f-strings are Python: every Meeple string interpolates",
                f"drop the `{src[c - 2]}`: \"Buy {{c.name}}\" puts the name in the text")
    if word == "is":
        return (ln, c, "P001", "`is` is Python: Meeple compares with `==`",
                "write `x == none` for `x is None`, and `!=` for `is not`")
    if word == "," and unclosed is not None and unclosed[0] == "(":
        return (unclosed[1], unclosed[2], "P001", "the language has no tuples",
                "use a list, `[1, 0]`, for several values; `(` only groups one expression")
    if word == "for" and unclosed is not None and _FOR.search(_since(lines, unclosed, ln, c)):
        return (ln, c, "P001", "a comprehension takes one `for`: Python's nested `for ... for ...` is not Meeple",
                "loop over one list, `[y for y in flatten([x.stack for x in xs])]`, or use `for` statements")
    if word in _CHAIN and any(op in src[:c - 1] for op in _CHAIN):
        return (ln, c, "P001", "comparisons do not chain in Meeple", "write `0 <= i and i < 9`")
    return None


_FOR = re.compile(r"\bfor\b")


def _since(lines: list[str], bracket: tuple[str, int, int], ln: int, c: int) -> str:
    """The code from just after an open bracket up to (ln, c), comments left out."""
    _, bl, bc = bracket
    if bl == ln:
        return _code(lines[ln - 1])[bc:c - 1]
    return "\n".join([_code(lines[bl - 1])[bc:], *map(_code, lines[bl:ln - 1]), _code(lines[ln - 1])[:c - 1]])


def _code(s: str) -> str:
    """A line without its comment (a `#` outside strings starts one)."""
    quote = None
    for i, ch in enumerate(s):
        if quote:
            if ch == quote:
                quote = None
        elif ch in "\"'":
            quote = ch
        elif ch == "#":
            return s[:i]
    return s


def _end(lines: list[str]) -> tuple[int, int]:
    ln = len(lines)
    while ln > 1 and not _code(lines[ln - 1]).strip():
        ln -= 1
    return ln, len(_code(lines[ln - 1]).rstrip()) + 1


def _next_code_line(lines: list[str], after: int) -> tuple[int, int]:
    for i in range(after, len(lines)):
        s = _code(lines[i])
        if s.strip():
            return i + 1, len(s) - len(s.lstrip()) + 1
    return _end(lines)


def _unclosed(text: str, line: int, col: int) -> tuple[str, int, int] | None:
    """The innermost bracket still open at (line, col), skipping strings and comments."""
    stack: list[tuple[str, int, int]] = []
    for ln, s in enumerate(text.split("\n")[:line], 1):
        quote = None
        for c, ch in enumerate(s, 1):
            if ln == line and c >= col:
                break
            if quote:
                quote = None if ch == quote else quote
            elif ch in "\"'":
                quote = ch
            elif ch == "#":
                break
            elif ch in _CLOSERS:
                stack.append((ch, ln, c))
            elif ch in ")]}" and stack:
                stack.pop()
    return stack[-1] if stack else None


def dedent_problem(text: str, origin: Origin) -> Problem:
    """Lark's indenter does not say where a dedent went wrong; find the line ourselves."""
    levels = [0]
    depth = 0
    lines = text.split("\n")
    for ln, raw in enumerate(lines, 1):
        s = _code(raw).expandtabs(8)
        if depth == 0 and s.strip():
            ind = len(s) - len(s.lstrip())
            if ind > levels[-1]:
                levels.append(ind)
            open_levels = list(levels)
            while ind < levels[-1]:
                levels.pop()
            if ind != levels[-1]:
                c = len(raw) - len(raw.lstrip()) + 1
                cols = [str(origin(ln, x + 1, ln, x + 1).col) for x in open_levels]  # in the file
                shown = cols[0] if len(cols) == 1 else ", ".join(cols[:-1]) + " or " + cols[-1]
                return Problem("P003", "this line's indentation does not match any block above it",
                               origin(ln, c, ln, c), hint=f"line it up with the block it belongs to: "
                               f"start it at column {shown}")
        for ch in s:
            depth += 1 if ch in "([{" else -1 if ch in ")]}" else 0
        depth = max(depth, 0)
    return Problem("P003", "this text's indentation does not match its blocks", origin(1, 1, 1, 1))


def deep_brackets(text: str, origin: Origin) -> Problem | None:
    """Brackets nested beyond any real script's need, found before parsing (deep trees are slow to
    build and overflow the parser's recursion)."""
    depth = 0
    for ln, s in enumerate(text.split("\n"), 1):
        for c, ch in enumerate(s, 1):
            depth += 1 if ch in "([{" else -1 if ch in ")]}" else 0
            if depth > MAX_BRACKETS:
                return Problem("P005", f"brackets are nested too deeply here (more than {MAX_BRACKETS} levels)",
                               origin(ln, c, ln, c), hint="split it up with variables or procedures")
    return None


def nesting_problem(text: str, origin: Origin, tree: Any = None) -> Problem:
    """For parse trees too deep to build: point at the first bracket nested that deep, else at the first
    node of the parse `tree` that deep (a long run of `-` or `not`, found by QA at the script's start)."""
    deep = deep_brackets(text, origin) or (_deep_node(tree, origin) if tree is not None else None)
    return deep or _too_deep(origin(1, 1, 1, 1))


def _deep_node(tree: Any, origin: Origin) -> Problem | None:
    """The first node, in the text's order, deeper than MAX_NESTING in a lark tree, walked without
    recursion (recursing is what failed)."""
    stack = [(tree, 1)]
    while stack:
        t, d = stack.pop()
        meta = getattr(t, "meta", None)
        if d > MAX_NESTING and meta is not None and not meta.empty:
            return _too_deep(origin(meta.line, meta.column, meta.end_line, meta.end_column))
        stack.extend((c, d + 1) for c in reversed(getattr(t, "children", ())))
    return None


def _too_deep(span: Span) -> Problem:
    return Problem("P005", f"this is nested too deeply (more than {MAX_NESTING} levels)", span,
                   hint="split it up with variables or procedures")


def check_nesting(root: Any) -> None:
    """Refuse ASTs deeper than MAX_NESTING (long `a + b + ...` chains nest too), iteratively."""
    from meeple.errors import RulesetError

    stack = [(n, 1) for n in root] if isinstance(root, tuple) else [(root, 1)]
    while stack:
        n, d = stack.pop()
        if d > MAX_NESTING:
            raise RulesetError(_too_deep(n.span))
        stack.extend((c, d + 1) for c in children(n))
