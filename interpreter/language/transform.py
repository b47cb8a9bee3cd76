"""Lark's parse tree to AST nodes (the way lark's `create_ast.py` example builds them).

Each rule of `grammar.lark` has a method here of the same name. Positions come from lark's meta and are
mapped through the snippet's `origin`, so every node's span points into the YAML file, not into the
snippet. String literals are split into text and `{expr}` holes (literals.py); a hole is parsed by the
function the parser passes in (the parser is the later module, so it hands itself down rather than being
imported).
"""

from __future__ import annotations

from collections.abc import Callable

from lark import Token, Transformer, v_args
from lark.exceptions import VisitError
from meeple.errors import Problem, RulesetError, Span
from meeple.language import ast as A
from meeple.language.literals import Origin, ParseHole, parse_string_literal
from meeple.loading.numbers import MAX_NUMBER


class Build(Transformer):
    """Parse tree -> AST. Positions come from lark's meta and are mapped through `origin`."""

    def __init__(self, origin: Origin, parse_hole: ParseHole) -> None:
        super().__init__(visit_tokens=False)  # no method is named after a token type: tokens stay as they are
        self.origin = origin
        self.parse_hole = parse_hole

    def _call_userfunc(self, tree, new_children=None):
        # lark's own builds a new `v_args` wrapper at every node (a third of the time): use _METHODS.
        found = _METHODS.get(tree.data)
        if found is None:
            return super()._call_userfunc(tree, new_children)
        (fn, with_meta), children = found, new_children if new_children is not None else tree.children
        try:
            return fn(self, tree.meta, children) if with_meta else fn(self, children)
        except Exception as e:  # as lark does (Build raises no GrammarError): the caller unwraps VisitError
            raise VisitError(tree.data, tree, e) from e

    def sp(self, meta) -> Span:
        return self.origin(meta.line, meta.column, meta.end_line, meta.end_column)

    def tsp(self, tok: Token) -> Span:
        line, col = tok.line or 1, tok.column or 1
        return self.origin(line, col, tok.end_line or line, tok.end_column or col)

    # -- entry points
    @v_args(meta=True)
    def start(self, meta, stmts):
        span = self.sp(meta) if not meta.empty else self.origin(1, 1, 1, 1)
        return A.Block(span, tuple(stmts))

    def expression(self, items):
        return items[0]

    def options(self, items):
        return tuple(items)

    # -- statements
    @v_args(meta=True)
    def expr_stmt(self, meta, items):
        return A.ExprStmt(self.sp(meta), items[0])

    @v_args(meta=True)
    def assign(self, meta, items):
        return A.Assign(self.sp(meta), items[0], items[1])

    @v_args(meta=True)
    def augassign(self, meta, items):
        return A.AugAssign(self.sp(meta), items[0], str(items[1])[0], items[2])

    @v_args(meta=True)
    def pass_stmt(self, meta, _):
        return A.Pass(self.sp(meta))

    @v_args(meta=True)
    def break_stmt(self, meta, _):
        return A.Break(self.sp(meta))

    @v_args(meta=True)
    def continue_stmt(self, meta, _):
        return A.Continue(self.sp(meta))

    @v_args(meta=True)
    def return_stmt(self, meta, items):
        return A.Return(self.sp(meta), items[0] if items else None)

    @v_args(meta=True)
    def end_stmt(self, meta, _):
        return A.EndGame(self.sp(meta))

    @v_args(meta=True)
    def phase_stmt(self, meta, items):
        return A.Phase(self.sp(meta), str(items[0]))

    @v_args(meta=True)
    def trigger_stmt(self, meta, items):
        return A.Trigger(self.sp(meta), str(items[0]), items[1])

    @v_args(meta=True)
    def suite(self, meta, stmts):
        return A.Block(self.sp(meta), tuple(stmts))

    @v_args(meta=True)
    def if_stmt(self, meta, items):
        test, then, *rest = items
        orelse = None
        # elif chains become nested ifs in the else branch, built from the back.
        if rest and isinstance(rest[-1], tuple) and rest[-1][0] == "else":
            orelse = rest.pop()[1]
        for _, etest, ebody, emeta in reversed(rest):
            node = A.If(self.sp(emeta), etest, ebody, orelse)
            orelse = A.Block(node.span, (node,))
        return A.If(self.sp(meta), test, then, orelse)

    @v_args(meta=True)
    def elif_clause(self, meta, items):
        return ("elif", items[0], items[1], meta)

    def else_clause(self, items):
        return ("else", items[0])

    @v_args(meta=True)
    def for_stmt(self, meta, items):
        return A.For(self.sp(meta), str(items[0]), items[1], items[2])

    @v_args(meta=True)
    def while_stmt(self, meta, items):
        return A.While(self.sp(meta), items[0], items[1])

    @v_args(meta=True)
    def repeat_stmt(self, meta, items):
        return A.Repeat(self.sp(meta), items[0], items[1])

    @v_args(meta=True)
    def choose_stmt(self, meta, items):
        player, *rest = items
        prompt = None
        if rest and isinstance(rest[0], Token):
            prompt = self._string(rest.pop(0))
        return A.Choose(self.sp(meta), player, prompt, tuple(rest))

    @v_args(meta=True)
    def option_clause(self, meta, items):
        label, *rest = items
        body = rest.pop()
        guard = rest.pop()[1] if rest and isinstance(rest[-1], tuple) else None
        return A.Option(self.sp(meta), label, tuple(rest), guard, body)

    @v_args(meta=True)
    def option_for(self, meta, items):
        return A.OptionFor(self.sp(meta), str(items[0]), items[1])

    def guard(self, items):
        return ("when", items[0])

    @v_args(meta=True)
    def options_from(self, meta, items):
        return A.OptionsFrom(self.sp(meta), str(items[0]), items[1])

    @v_args(meta=True)
    def simultaneous_stmt(self, meta, items):
        return A.Simultaneous(self.sp(meta), str(items[0]), items[1], items[2])

    # -- expressions
    @v_args(meta=True)
    def cond_expr(self, meta, items):
        return A.CondExpr(self.sp(meta), items[0], items[1], items[2])

    @v_args(meta=True)
    def or_expr(self, meta, items):
        return self._fold_bool(meta, "or", items)

    @v_args(meta=True)
    def and_expr(self, meta, items):
        return self._fold_bool(meta, "and", items)

    def _fold_bool(self, meta, op, items):
        out = items[0]
        for x in items[1:]:
            out = A.BoolOp(_join(out.span, x.span), op, out, x)
        return out

    @v_args(meta=True)
    def not_expr(self, meta, items):
        return A.Not(self.sp(meta), items[0])

    @v_args(meta=True)
    def compare(self, meta, items):
        if len(items) == 1:
            return items[0]
        op = " ".join(str(items[1]).split())
        return A.Compare(self.sp(meta), op, items[0], items[2])

    @v_args(meta=True)
    def binop(self, meta, items):
        out = items[0]
        for i in range(1, len(items), 2):
            out = A.BinOp(_join(out.span, items[i + 1].span), str(items[i]), out, items[i + 1])
        return out

    @v_args(meta=True)
    def neg(self, meta, items):
        return A.Neg(self.sp(meta), items[0])

    @v_args(meta=True)
    def attr(self, meta, items):
        return A.Attr(self.sp(meta), items[0], str(items[1]))

    @v_args(meta=True)
    def index(self, meta, items):
        return A.Index(self.sp(meta), items[0], items[1])

    @v_args(meta=True)
    def call(self, meta, items):
        return A.Call(self.sp(meta), str(items[0]), tuple(items[1:]))

    @v_args(meta=True)
    def gen_call(self, meta, items):
        return A.Call(self.sp(meta), str(items[0]), (items[1],))

    @v_args(meta=True)
    def comp_body(self, meta, items):
        cond = items[3] if len(items) > 3 else None
        return A.Comp(self.sp(meta), items[0], str(items[1]), items[2], cond)

    def list_comp(self, items):
        return items[0]

    @v_args(meta=True)
    def list_lit(self, meta, items):
        return A.ListLit(self.sp(meta), tuple(items))

    @v_args(meta=True)
    def map_lit(self, meta, items):
        return A.MapLit(self.sp(meta), tuple(items))

    def pair(self, items):
        return (items[0], items[1])

    def number(self, items):
        tok = items[0]
        # Length first: Python refuses to read numbers of more than 4,300 digits at all.
        if len(tok) > len(str(MAX_NUMBER)) or int(tok) > MAX_NUMBER:
            shown = tok if len(tok) <= 24 else tok[:20] + "..."
            raise RulesetError(Problem("P007", f"the number {shown} is too large (the limit is {MAX_NUMBER:,})",
                                       self.tsp(tok)))
        return A.Num(self.tsp(tok), int(tok))

    def string(self, items):
        return self._string(items[0])

    def true(self, items):
        return A.Const(self.tsp(items[0]), True)

    def false(self, items):
        return A.Const(self.tsp(items[0]), False)

    def none(self, items):
        return A.Const(self.tsp(items[0]), None)

    @v_args(meta=True)
    def name(self, meta, items):
        return A.Name(self.tsp(items[0]), str(items[0]))

    def _string(self, tok: Token) -> A.Str | A.Interp:
        return parse_string_literal(str(tok), self.tsp(tok), self._hole_origin(tok), self.parse_hole)

    def _hole_origin(self, tok: Token) -> Callable[[int], Origin]:
        def at(offset: int) -> Origin:
            # A hole `{...}` inside a one-line string: its inner line 1 starts at the token column + offset.
            def o(line: int, col: int, end_line: int, end_col: int) -> Span:
                tline, tcol = tok.line or 1, tok.column or 1
                return self.origin(tline, tcol + offset + col - 1, tline, tcol + offset + end_col - 1)
            return o
        return at


def _join(a: Span, b: Span) -> Span:
    """The span from the start of a to the end of b (for left-folded operator chains)."""
    return Span(a.file, a.line, a.col, b.end_line, b.end_col)


def _methods(cls: type) -> dict[str, tuple[Callable, bool]]:
    """Rule name -> (plain function, whether it takes lark's meta), for every method of `cls`."""
    meta_wrapper = v_args(meta=True)(_methods).visit_wrapper  # type: ignore[attr-defined]
    out = {}
    for name, attr in vars(cls).items():
        if name.startswith("_"):
            continue
        wrapper = getattr(attr, "visit_wrapper", None)
        if wrapper is None and callable(attr):
            out[name] = (attr, False)
        elif wrapper is meta_wrapper:
            out[name] = (attr.base_func, True)
    return out


_METHODS = _methods(Build)
