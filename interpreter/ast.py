"""AST of the Meeple language.

Nodes are frozen, slotted dataclasses built by the parser's Transformer. Every node carries the
`Span` of its source inside the YAML file (not inside the snippet), so that any later stage can
report a located error. Nodes compare by identity (eq=False): the evaluator and the checker keep
side tables keyed by node.
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import Span

node = dataclass(frozen=True, slots=True, eq=False)


# ------------------------------------------------------------------ expressions
@node
class Num:
    span: Span
    value: int


@node
class Str:
    span: Span
    value: str


@node
class Interp:
    """A string with `{expr}` holes: parts are plain strings and expressions, in order."""

    span: Span
    parts: tuple[str | Expr, ...]


@node
class Const:
    """true, false and none."""

    span: Span
    value: object


@node
class Name:
    span: Span
    name: str


@node
class Attr:
    span: Span
    obj: Expr
    name: str


@node
class Index:
    span: Span
    obj: Expr
    index: Expr


@node
class Call:
    span: Span
    func: str
    args: tuple[Expr, ...]


@node
class ListLit:
    span: Span
    items: tuple[Expr, ...]


@node
class MapLit:
    span: Span
    pairs: tuple[tuple[Expr, Expr], ...]


@node
class Comp:
    """`[expr for var in iter if cond]`, or the same as the sole argument of a call."""

    span: Span
    expr: Expr
    var: str
    iter: Expr
    cond: Expr | None


@node
class BinOp:
    span: Span
    op: str
    left: Expr
    right: Expr


@node
class Neg:
    span: Span
    operand: Expr


@node
class Not:
    span: Span
    operand: Expr


@node
class BoolOp:
    """`and` / `or`, short-circuit."""

    span: Span
    op: str
    left: Expr
    right: Expr


@node
class Compare:
    span: Span
    op: str
    left: Expr
    right: Expr


@node
class CondExpr:
    span: Span
    then: Expr
    test: Expr
    orelse: Expr


Expr = (Num | Str | Interp | Const | Name | Attr | Index | Call | ListLit | MapLit | Comp | BinOp |
        Neg | Not | BoolOp | Compare | CondExpr)


# ------------------------------------------------------------------ statements
@node
class Block:
    span: Span
    body: tuple[Stmt, ...]


@node
class Assign:
    span: Span
    target: Expr
    value: Expr


@node
class AugAssign:
    span: Span
    target: Expr
    op: str
    value: Expr


@node
class ExprStmt:
    span: Span
    expr: Expr


@node
class If:
    span: Span
    test: Expr
    then: Block
    orelse: Block | None


@node
class For:
    span: Span
    var: str
    iter: Expr
    body: Block


@node
class While:
    span: Span
    test: Expr
    body: Block


@node
class Repeat:
    span: Span
    count: Expr
    body: Block


@node
class Pass:
    span: Span


@node
class Break:
    span: Span


@node
class Continue:
    span: Span


@node
class Return:
    span: Span
    value: Expr | None


@node
class EndGame:
    span: Span


@node
class Phase:
    span: Span
    name: str


@node
class Trigger:
    span: Span
    event: str
    target: Expr


@node
class OptionFor:
    span: Span
    var: str
    iter: Expr


@node
class Option:
    """One clause of a menu: a label, optional `for` generators, an optional `when` guard, a body."""

    span: Span
    label: Expr
    fors: tuple[OptionFor, ...]
    guard: Expr | None
    body: Block


@node
class OptionsFrom:
    """Options that the components in `source` add to this menu under the hook `event`."""

    span: Span
    event: str
    source: Expr


@node
class Choose:
    span: Span
    player: Expr
    prompt: Expr | None
    items: tuple[Option | OptionsFrom, ...]


@node
class Simultaneous:
    """Several players choose at once (sealed bids); bodies run in seat order once all have chosen."""

    span: Span
    var: str
    players: Expr
    choose: Choose


Stmt = (Assign | AugAssign | ExprStmt | If | For | While | Repeat | Pass | Break | Continue | Return |
        EndGame | Phase | Trigger | Choose | Simultaneous | Block)


def children(n: object) -> list[object]:
    """Direct child nodes, for generic walks (checker, coverage, suspension analysis)."""
    out: list[object] = []
    for f in n.__slots__:  # type: ignore[attr-defined]
        if f == "span":
            continue
        v = getattr(n, f)
        if isinstance(v, tuple):
            for x in v:
                if isinstance(x, tuple):
                    out.extend(y for y in x if hasattr(y, "span"))
                elif hasattr(x, "span"):
                    out.append(x)
        elif hasattr(v, "span"):
            out.append(v)
    return out


def walk(n: object):
    """All nodes below and including n, depth first."""
    stack = [n]
    while stack:
        x = stack.pop()
        yield x
        stack.extend(reversed(children(x)))
