"""Decisions: the options a menu offers, their labels and keys, and running the chosen one.

`open_decision` turns the `choose` (or `simultaneous`) frame on top of the stack into the pending
decision: for each deciding player, the list of legal options as plain data `[item index, bound values,
component or -1, clause index]`. Labels and keys are built only when asked for, so bots that pick by
index never pay for them. `resolve` runs the chosen options once every decider has chosen.
"""

from __future__ import annotations

from typing import Any

from meeple.errors import Problem, RuntimeRuleError
from meeple.language import ast as A
from meeple.runtime.data import Comp, Player
from meeple.runtime.evaluator import BreakSig, ContinueSig, EndGameSig, Evaluator, ReturnSig, type_name
from meeple.runtime.frames import BLOCK, CALL, CHOOSE, SIMUL
from meeple.runtime.render import parts, render
from meeple.runtime.visibility import as_seen_now


def _menu(ev: Evaluator, choose: A.Choose, scope: dict) -> list[list]:
    """All legal options of a menu for the player in `scope`: [item index, values, component, clause]."""
    generated = ev.menus.get(id(choose))
    if generated is not None:
        return generated(ev, scope)
    out: list[list] = []
    for i, item in enumerate(choose.items):
        if isinstance(item, A.Option):
            for vals in _enumerate(ev, item, scope):
                out.append([i, vals, -1, 0])
        else:
            src = ev.eval(item.source, scope)
            comps = ev.iterate(src, item.source) if type(src) is not Comp else [src]
            for c in list(comps):
                clauses = ev.rs.components[c].options.get(item.event, ())
                for j, clause in enumerate(clauses):
                    cscope = ev.handler_scope(c)
                    for vals in _enumerate(ev, clause, cscope):
                        out.append([i, vals, int(c), j])
    return out


_MISSING = object()


def _enumerate(ev: Evaluator, clause: A.Option, scope: dict) -> list[list]:
    fors = clause.fors
    if not fors:
        return [[]] if clause.guard is None or ev.eval(clause.guard, scope) else []
    saved = [scope.get(f.var, _MISSING) for f in fors]
    out: list[list] = []
    if len(fors) == 1:  # the common case, without the recursion
        f0, guard, ev_ = fors[0], clause.guard, ev.eval
        var = f0.var
        try:
            items = list(ev.iterate(ev_(f0.iter, scope), f0.iter))
            ev.spend(len(items), f0.iter)  # menus count against the step budget like loops
            for x in items:
                if guard is not None:
                    scope[var] = x
                    if not ev_(guard, scope):
                        continue
                out.append([x])
        finally:
            if saved[0] is _MISSING:
                scope.pop(var, None)
            else:
                scope[var] = saved[0]
        return out

    def rec(i: int, vals: list) -> None:
        if i == len(fors):
            if clause.guard is None or ev.eval(clause.guard, scope):
                out.append(vals)
            return
        f = fors[i]
        items = list(ev.iterate(ev.eval(f.iter, scope), f.iter))
        ev.spend(len(items), f.iter)
        for x in items:
            scope[f.var] = x
            rec(i + 1, vals + [x])

    try:
        rec(0, [])
    finally:
        for f, old in zip(fors, saved):
            if old is _MISSING:
                scope.pop(f.var, None)
            else:
                scope[f.var] = old
    return out


def not_a_player(ev: Evaluator, node: Any, p: Any) -> RuntimeRuleError:
    return ev.fail(node, f"`choose` needs a player, not {type_name(p)}")


def _gave_nothing(o: Any) -> str:
    """Why one clause of an empty menu offered nothing."""
    if not isinstance(o, A.Option):
        return "no component added an option"
    if not o.fors:
        return "its `when` was false"
    return "its `for` gave nothing, or its `when` ruled out all it gave" if o.guard else "its `for` gave nothing"


def no_option(node: Any, seat: int) -> RuntimeRuleError:
    # Which clause gave nothing, by line: a designer's variant most often empties a menu through a guard
    # (more players or cards than the base's `when` allows for) rather than by writing it empty.
    why = [f"line {o.span.line}: {_gave_nothing(o)}" for o in getattr(node, "items", ())]
    return RuntimeRuleError(Problem(
        "R002", f"P{seat + 1} must choose but has no legal option", node.span,
        hint=("; ".join(why) + ". " if why else "") + "Add an option that is always allowed, such as "
             "`option \"Pass\": pass`, or decide before the `choose` whether there is a choice to make"))


def open_decision(ev: Evaluator, f: list) -> None:
    node, scope = f[1], f[2]
    if f[0] == CHOOSE:
        p = ev.eval(node.player, scope)
        if type(p) is not Player:
            raise not_a_player(ev, node.player, p)
        seat = int(p)
        if ev.st.lazy:  # a look-ahead's menu, worked out if someone asks (build_menu)
            ev.st.pending = {"players": [seat], "options": None, "chosen": {}}
            return
        opts = _options(ev, node, scope)
        if opts:  # the common case, without the loops below
            ev.st.pending = {"players": [seat], "options": {seat: opts}, "chosen": {}}
            return
        deciders = [seat]
        options = {seat: opts}
    else:
        players = ev.iterate(ev.eval(node.players, scope), node.players)
        deciders, options = [], {}
        for p in players:
            if type(p) is not Player:
                raise ev.fail(node.players, f"`simultaneous` needs players, not {type_name(p)}")
            if int(p) in options:  # found by QA: one decision of two, and the game stuck waiting on it
                raise ev.fail(node.players, f"`simultaneous` lists P{int(p) + 1} twice: each player decides once",
                              hint="list each player once, e.g. with distinct(...)")
            scope[node.var] = p
            deciders.append(int(p))
            options[int(p)] = _menu(ev, node.choose, scope)
        if not deciders:
            return  # nobody decides: the machine goes on past the statement
    for p in deciders:
        if not options[p]:
            raise no_option(node, p)
    ev.st.pending = {"players": deciders, "options": options, "chosen": {}}


def _options(ev: Evaluator, node: A.Choose, scope: dict) -> list:
    """The options of a `choose`: its generated menu where there is one, else the reference's."""
    menu = ev.menus.get(id(node))
    return menu(ev, scope) if menu is not None else _menu(ev, node, scope)


def build_menu(ev: Evaluator) -> None:
    """The options of a `choose` that a lazy game opened without them, worked out now from its CHOOSE
    frame (the top one): nothing has changed since it opened, so they are the options it would have had."""
    st = ev.st
    f = st.stack[-1]
    node, scope = f[1], f[2]
    seat = st.pending["players"][0]
    opts = _options(ev, node, scope)
    if not opts:
        raise no_option(node, seat)
    st.pending["options"] = {seat: opts}


def option_node(ev: Evaluator, choose: A.Choose, opt: list) -> A.Option:
    item = choose.items[opt[0]]
    if type(item) is A.Option:
        return item
    return ev.rs.components[opt[2]].options[item.event][opt[3]]


def option_scope(ev: Evaluator, frame: list, opt: list, player: int) -> tuple[A.Option, dict]:
    """The clause of an option and the scope its label and body run in (with its values bound)."""
    node = frame[1]
    choose = node if frame[0] == CHOOSE else node.choose
    clause = option_node(ev, choose, opt)
    if opt[2] >= 0:
        scope = ev.handler_scope(opt[2])
    else:
        scope = frame[2]
        if frame[0] == SIMUL:
            scope[node.var] = Player(player)
    for f, v in zip(clause.fors, opt[1]):
        scope[f.var] = v
    return clause, scope


def label(ev: Evaluator, frame: list, opt: list, player: int) -> str:
    """The option's label as `player`, who decides, reads it: a hole that mentions what the decider cannot
    see reads as a placeholder, as in the other seats' text (found by QA: "Total is {sum(x.value for x in
    player(0).hand)}" told P2 the total of P1's hidden hand)."""
    saved = dict(frame[2]) if opt[2] < 0 else None
    clause, scope = option_scope(ev, frame, opt, player)
    try:
        with as_seen_now(ev):
            return render(parts(ev, clause.label, scope), player)
    finally:
        if saved is not None:
            frame[2].clear()
            frame[2].update(saved)


def resolve(ev: Evaluator) -> tuple | None:
    """All players have chosen: pop the decision frame and start the chosen bodies. A chosen body that
    never waits for a decision and has a generated function is not pushed as a frame: it is returned, as
    (function, scope), for `machine.run` to run first; so is a generated resolver of the whole choice, as
    (function, frame, option)."""
    st = ev.st
    pending = st.pending
    f = st.stack.pop()
    st.pending = None
    if f[0] == CHOOSE:
        p = pending["players"][0]
        opt = pending["options"][p][pending["chosen"][p]]
        rv = ev.resolvers.get(id(f[1]))
        if rv is not None:  # generated: binds, runs the body and goes on (codegen/resume.py)
            return (rv[opt[0]] if type(rv) is tuple else rv), f, opt
        clause = f[1].items[opt[0]]
        if opt[2] < 0 and type(clause) is A.Option:  # `option_scope` inlined: every decision comes here
            scope = f[2]
            for fo, v in zip(clause.fors, opt[1]):
                scope[fo.var] = v
            if st.coverage is not None:
                _count(ev, clause)
            direct = ev.blocks.get(id(clause.body))
            if direct is not None:
                return direct, scope
            st.stack.append([BLOCK, clause.body, scope, 0])
            return None
        clause, scope = option_scope(ev, f, opt, p)
        _count(ev, clause)
        st.stack.append([CALL, None, None])
        st.stack.append([BLOCK, clause.body, scope, 0])
        return None
    else:
        # Sealed choices: every body runs now, in seat order; the checker guarantees they cannot suspend.
        for p in pending["players"]:
            opt = pending["options"][p][pending["chosen"][p]]
            clause, scope = option_scope(ev, f, opt, p)
            _count(ev, clause)
            try:
                ev.exec_block(clause.body, scope)
            except ReturnSig:
                pass
            except (BreakSig, ContinueSig, EndGameSig):
                # The checker refuses these (C009, C021); a ruleset loaded without checks still gets a
                # located error rather than a traceback.
                raise ev.fail(clause, "the options of `simultaneous` cannot break, continue or end the game")
    return None


def start_added_option(ev: Evaluator, f: list, opt: list) -> None:
    """A chosen option that a component adds (`options ... from`), its CHOOSE frame `f` already popped
    (a generated resolver, codegen/resume.py): its body pushed as `resolve` pushes it, for the machine."""
    clause, scope = option_scope(ev, f, opt, -1)
    _count(ev, clause)
    ev.st.stack.append([CALL, None, None])
    ev.st.stack.append([BLOCK, clause.body, scope, 0])


def _count(ev: Evaluator, clause: A.Option) -> None:
    cov = ev.st.coverage
    if cov is not None:
        nid = ev.rs.node_ids.get(id(clause))
        if nid is not None:
            cov[nid] = cov.get(nid, 0) + 1


