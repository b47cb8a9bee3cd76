"""Parse Meeple snippets (scripts, expressions, option clauses) into AST nodes.

One LALR parser is built once per process. Every snippet comes from a string scalar in a YAML
file; the caller passes an `origin` function that maps a position inside the snippet to a `Span`
inside the file, so every node's span points into the YAML file.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from lark import Lark
from lark.exceptions import LarkError, UnexpectedInput, VisitError
from lark.indenter import DedentError, Indenter
from meeple.errors import Problem, RulesetError, Span
from meeple.language import ast as A
from meeple.language import grammarcache
from meeple.language import parse_errors as PE
from meeple.language.literals import Origin
from meeple.language.transform import Build


class _Indenter(Indenter):
    NL_type = "_NL"
    OPEN_PAREN_types = ["LPAR", "LSQB", "LBRACE"]  # noqa: RUF012 - lark's Indenter API
    CLOSE_PAREN_types = ["RPAR", "RSQB", "RBRACE"]  # noqa: RUF012
    INDENT_type = "_INDENT"
    DEDENT_type = "_DEDENT"
    tab_len = 8


@lru_cache(maxsize=1)
def _lark() -> Lark:
    grammar = (Path(__file__).with_name("grammar.lark")).read_text(encoding="utf-8")
    return grammarcache.parser(grammar, _Indenter(), parser="lalr", start=["start", "expression", "options"],
                               propagate_positions=True, maybe_placeholders=False)


KEYWORDS = {"if", "elif", "else", "for", "in", "while", "repeat", "choose", "option", "options", "when",
            "from", "simultaneous", "pass", "break", "continue", "return", "end_game", "phase", "trigger",
            "on", "and", "or", "not", "true", "false", "none"}

_WORDS = {"NAME": "a name", "NUMBER": "a number", "STRING": "a string", "_NL": "end of line",
          "_INDENT": "an indented block", "_DEDENT": "the end of a block", "$END": "the end of the text",
          "AUGOP": "`+=` or `-=`", "COMP_OP": "a comparison", "ADD_OP": "`+` or `-`", "MUL_OP": "`*`, `//` or `%`"}


def _describe(term: str) -> str:
    if term in _WORDS:
        return _WORDS[term]
    try:
        pattern = _lark().get_terminal(term).pattern
        if pattern.type == "str":
            return f"`{pattern.value}`"
    except KeyError:
        pass
    return term.lower()


def _parse(text: str, start: str, origin: Origin):
    if not text.endswith("\n"):
        text += "\n"
    deep = _tab_indent(text, origin) or PE.deep_brackets(text, origin)
    if deep is not None:
        raise RulesetError(deep)
    try:
        tree = _lark().parse(text, start=start)
    except UnexpectedInput as e:
        raise RulesetError(_syntax_problem(e, text, origin)) from None
    except DedentError:  # the indenter does not say where: parse_errors finds the line
        raise RulesetError(PE.dedent_problem(text, origin)) from None
    except LarkError as e:
        raise RulesetError(Problem("P001", str(e).splitlines()[0], origin(1, 1, 1, 1))) from None
    except RecursionError:
        raise RulesetError(PE.nesting_problem(text, origin)) from None
    try:
        out = Build(origin, parse_expr).transform(tree)
    except VisitError as e:  # a problem in a string's `{...}` hole, raised inside the transformer
        if isinstance(e.orig_exc, RulesetError):
            raise e.orig_exc from None
        if isinstance(e.orig_exc, RecursionError):
            raise RulesetError(PE.nesting_problem(text, origin, tree)) from None
        raise
    except RecursionError:
        raise RulesetError(PE.nesting_problem(text, origin, tree)) from None
    PE.check_nesting(out)
    return out


def _tab_indent(text: str, origin: Origin) -> Problem | None:
    """A tab in the indentation of a line of code. The indenter would count it as 8 columns, which no
    editor shows alike: blocks would silently end or start where the author does not see them."""
    for ln, line in enumerate(text.split("\n"), 1):
        code = line.lstrip(" \t")
        tab = line.find("\t", 0, len(line) - len(code))
        if tab >= 0 and code and not code.startswith("#"):
            return Problem("P003", "scripts are indented with spaces, not tabs", origin(ln, tab + 1, ln, tab + 1),
                           hint="replace the tab with spaces")
    return None


def _syntax_problem(e: UnexpectedInput, text: str, origin: Origin) -> Problem:
    return PE.syntax_problem(e, text, origin, _describe, KEYWORDS)


def parse_script(text: str, origin: Origin) -> A.Block:
    return _parse(text, "start", origin)


def parse_expr(text: str, origin: Origin) -> A.Expr:
    if not text.strip():
        raise RulesetError(Problem("P004", "an expression is empty", origin(1, 1, 1, 1)))
    return _parse(text, "expression", origin)


def parse_options(text: str, origin: Origin) -> tuple[A.Option, ...]:
    return _parse(text, "options", origin)


def plain_origin(file: str = "<text>", line0: int = 0, col0: int = 0) -> Origin:
    """An origin for text that is a file of its own (or a test string): offsets only."""

    def o(line: int, col: int, end_line: int, end_col: int) -> Span:
        return Span(file, line + line0, col + (col0 if line == 1 else 0), end_line + line0,
                    end_col + (col0 if end_line == 1 else 0))
    return o


IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
