"""What a ruleset's generated module is made of (module.py): its nodes, numbered in a fixed order (the
generated code names a node by its index), the names some scope may bind, the blocks that can be frames
on the machine's stack, and the expressions evaluated on their own (`E_<k>`)."""

from __future__ import annotations

from typing import Any

from meeple.language import ast as A
from meeple.language.model import Ruleset
from meeple.language.walk import walk
from meeple.runtime.render import subnodes


def number_nodes(rs: Ruleset) -> list[Any]:
    """Every node of every script, in a fixed order: generated code names nodes by their index here."""
    seen: set[int] = set()
    out: list[Any] = []
    for _, root in rs.scripts():
        for n in walk(root):
            if id(n) not in seen:
                seen.add(id(n))
                out.append(n)
    return out


def bound_names(nodes: list[Any], rs: Ruleset) -> set[str]:
    """Every name that some scope may hold: a dict-scope read of any other name is a global read."""
    names = {"self", "owner"}
    for p in rs.procedures.values():
        names.update(p.params)
    for n in nodes:
        t = type(n)
        if t in (A.Assign, A.AugAssign) and type(n.target) is A.Name:
            if n.target.name not in rs.game_counters:  # that writes the counter, unless bound otherwise
                names.add(n.target.name)
        elif t in (A.For, A.OptionFor, A.Simultaneous, A.Comp):
            names.add(n.var)
    return names


def suspends(b: A.Block, susp: set[int]) -> bool:
    """Whether a statement of block `b` may wait for a decision (`susp`: the ruleset's such statements)."""
    return any(id(s) in susp for s in b.body)


def framed_blocks(rs: Ruleset, nodes: list[Any], susp: set[int], py_phases: set[str]) -> list[A.Block]:
    """Blocks that can be a frame on the machine's stack: each gets segments."""
    todo: list[A.Block] = [b for b in (rs.setup, rs.flow, rs.final) if b is not None]
    todo += [b for name, b in rs.phases.items() if name not in py_phases]
    todo += [p.body for name, p in rs.procedures.items() if name in rs.suspending_procs]
    todo += [b for c in rs.components for b in c.on.values() if suspends(b, susp)]
    for n in nodes:
        if type(n) is A.Option:
            todo.append(n.body)
    out, seen = [], set()
    while todo:
        b = todo.pop(0)
        if id(b) in seen:
            continue
        seen.add(id(b))
        out.append(b)
        s: Any
        for s in b.body:
            if id(s) not in susp:
                continue
            t = type(s)
            if t is A.If:
                todo += [x for x in (s.then, s.orelse) if x is not None]
            elif t in (A.For, A.While, A.Repeat):
                todo.append(s.body)
            elif t is A.Block:
                todo.append(s)
    return out


def expression_roots(rs: Ruleset, nodes: list[Any], susp: set[int]) -> list[tuple[Any, Any, frozenset[str]]]:
    """Expressions the machine, decisions and results evaluate through `ev.eval`, each with the key of
    what is certainly in its scope (codegen/flow.py) and the option variables bound on top."""
    none: frozenset[str] = frozenset()
    # Scoring, tie-breaks and the bots' heuristic are read for each player `p` (Game.scores).
    player = frozenset({"p"})
    out: list[tuple[Any, Any, frozenset[str]]] = [(x, None, player) for x in (rs.score, rs.greedy, rs.value,
                                                                         *rs.features, *rs.tiebreak)
                                                  if x is not None]
    for n in nodes:
        t = type(n)
        if t is A.Choose:
            out += [(x, id(n), none) for x in (n.player, n.prompt) if x is not None]
        elif t is A.Option:
            out.append((n.label, id(n), frozenset(f.var for f in n.fors)))
        elif t is A.Simultaneous:
            out.append((n.players, id(n), none))
        elif id(n) in susp:
            if t in (A.If, A.While):
                out.append((n.test, id(n), none))
            elif t is A.For:
                out.append((n.iter, id(n), none))
            elif t is A.Repeat:
                out.append((n.count, id(n), none))
            elif t is A.Trigger:
                out.append((n.target, id(n), none))
            elif t in (A.ExprStmt, A.Assign):
                call = n.expr if t is A.ExprStmt else n.value
                if type(call) is A.Call:
                    out += [(a, id(n), none) for a in call.args]
    # Text a seat reads (render.py): every hole of a log line, a label or a prompt, and every
    # sub-expression of a hole, which narrated games evaluate on its own to find what it mentions.
    for n in nodes:
        t = type(n)
        text = n.args[0] if t is A.Call and n.func == "log" and n.args else \
            n.label if t is A.Option else n.prompt if t is A.Choose else None
        if text is not None:
            out += [(x, None, none) for x in _text_parts(rs, text)]
    # A kind's status, rendered the same way for each of its components in every view (views.py), with
    # the component's `self` and `owner` bound: views are what the web and information states send.
    handler = frozenset({"self", "owner"})
    for kind in rs.kinds.values():
        if kind.status is not None:
            out += [(x, None, handler) for x in _text_parts(rs, kind.status)]
    return out


def _text_parts(rs: Ruleset, text: Any) -> list[Any]:
    """Every hole of a text (an interpolated string, or one expression) and every sub-expression of each."""
    holes = [p for p in text.parts if type(p) is not str] if type(text) is A.Interp else [text]
    return [x for h in holes for x in subnodes(rs, h)]
