"""AST of the Meeple language.

Nodes are frozen, slotted dataclasses built by the parser's Transformer. Every node carries the
`Span` of its source inside the YAML file (not inside the snippet), so that any later stage can
report a located error. Nodes compare by identity (eq=False): the evaluator and the checker keep
side tables keyed by node.
"""

from __future__ import annotations

from dataclasses import dataclass

from meeple.errors import Span


# ------------------------------------------------------------------ expressions
@dataclass(frozen=True, slots=True, eq=False)
class Num:
    span: Span
    value: int


@dataclass(frozen=True, slots=True, eq=False)
class Str:
    span: Span
    value: str


@dataclass(frozen=True, slots=True, eq=False)
class Interp:
    """A string with `{expr}` holes: parts are plain strings and expressions, in order."""

    span: Span
    parts: tuple[str | Expr, ...]


@dataclass(frozen=True, slots=True, eq=False)
class Const:
    """true, false and none."""

    span: Span
    value: object


@dataclass(frozen=True, slots=True, eq=False)
class Name:
    span: Span
    name: str


@dataclass(frozen=True, slots=True, eq=False)
class Attr:
    span: Span
    obj: Expr
    name: str


@dataclass(frozen=True, slots=True, eq=False)
class Index:
    span: Span
    obj: Expr
    index: Expr


@dataclass(frozen=True, slots=True, eq=False)
class Call:
    span: Span
    func: str
    args: tuple[Expr, ...]


@dataclass(frozen=True, slots=True, eq=False)
class ListLit:
    span: Span
    items: tuple[Expr, ...]


@dataclass(frozen=True, slots=True, eq=False)
class MapLit:
    span: Span
    pairs: tuple[tuple[Expr, Expr], ...]


@dataclass(frozen=True, slots=True, eq=False)
class Comp:
    """`[expr for var in iter if cond]`, or the same as the sole argument of a call."""

    span: Span
    expr: Expr
    var: str
    iter: Expr
    cond: Expr | None


@dataclass(frozen=True, slots=True, eq=False)
class BinOp:
    span: Span
    op: str
    left: Expr
    right: Expr


@dataclass(frozen=True, slots=True, eq=False)
class Neg:
    span: Span
    operand: Expr


@dataclass(frozen=True, slots=True, eq=False)
class Not:
    span: Span
    operand: Expr


@dataclass(frozen=True, slots=True, eq=False)
class BoolOp:
    """`and` / `or`, short-circuit."""

    span: Span
    op: str
    left: Expr
    right: Expr


@dataclass(frozen=True, slots=True, eq=False)
class Compare:
    span: Span
    op: str
    left: Expr
    right: Expr


@dataclass(frozen=True, slots=True, eq=False)
class CondExpr:
    span: Span
    then: Expr
    test: Expr
    orelse: Expr


Expr = (Num | Str | Interp | Const | Name | Attr | Index | Call | ListLit | MapLit | Comp | BinOp |
        Neg | Not | BoolOp | Compare | CondExpr)


# ------------------------------------------------------------------ statements
@dataclass(frozen=True, slots=True, eq=False)
class Block:
    span: Span
    body: tuple[Stmt, ...]


@dataclass(frozen=True, slots=True, eq=False)
class Assign:
    span: Span
    target: Expr
    value: Expr


@dataclass(frozen=True, slots=True, eq=False)
class AugAssign:
    span: Span
    target: Expr
    op: str
    value: Expr


@dataclass(frozen=True, slots=True, eq=False)
class ExprStmt:
    span: Span
    expr: Expr


@dataclass(frozen=True, slots=True, eq=False)
class If:
    span: Span
    test: Expr
    then: Block
    orelse: Block | None


@dataclass(frozen=True, slots=True, eq=False)
class For:
    span: Span
    var: str
    iter: Expr
    body: Block


@dataclass(frozen=True, slots=True, eq=False)
class While:
    span: Span
    test: Expr
    body: Block


@dataclass(frozen=True, slots=True, eq=False)
class Repeat:
    span: Span
    count: Expr
    body: Block


@dataclass(frozen=True, slots=True, eq=False)
class Pass:
    span: Span


@dataclass(frozen=True, slots=True, eq=False)
class Break:
    span: Span


@dataclass(frozen=True, slots=True, eq=False)
class Continue:
    span: Span


@dataclass(frozen=True, slots=True, eq=False)
class Return:
    span: Span
    value: Expr | None


@dataclass(frozen=True, slots=True, eq=False)
class EndGame:
    span: Span


@dataclass(frozen=True, slots=True, eq=False)
class Phase:
    span: Span
    name: str


@dataclass(frozen=True, slots=True, eq=False)
class Trigger:
    span: Span
    event: str
    target: Expr


@dataclass(frozen=True, slots=True, eq=False)
class OptionFor:
    span: Span
    var: str
    iter: Expr


@dataclass(frozen=True, slots=True, eq=False)
class Option:
    """One clause of a menu: a label, optional `for` generators, an optional `when` guard, a body."""

    span: Span
    label: Expr
    fors: tuple[OptionFor, ...]
    guard: Expr | None
    body: Block


@dataclass(frozen=True, slots=True, eq=False)
class OptionsFrom:
    """Options that the components in `source` add to this menu under the hook `event`."""

    span: Span
    event: str
    source: Expr


@dataclass(frozen=True, slots=True, eq=False)
class Choose:
    span: Span
    player: Expr
    prompt: Expr | None
    items: tuple[Option | OptionsFrom, ...]


@dataclass(frozen=True, slots=True, eq=False)
class Simultaneous:
    """Several players choose at once (sealed bids); bodies run in seat order once all have chosen."""

    span: Span
    var: str
    players: Expr
    choose: Choose


Stmt = (Assign | AugAssign | ExprStmt | If | For | While | Repeat | Pass | Break | Continue | Return |
        EndGame | Phase | Trigger | Choose | Simultaneous | Block)
