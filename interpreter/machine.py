"""The frame machine: runs statements that may wait for a player's decision.

A game must be plain data at every decision point, so the interpreter cannot keep its place in
Python's call stack. Statements that may suspend (a `choose`, or anything containing one) run as
explicit frames on `GameState.stack`; all other statements run directly in evaluator.py. A frame is
a small list `[kind, node, scope, ...]`, cheap to copy and easy to serialise.
"""

from __future__ import annotations

from typing import Any

from . import ast as A
from .errors import Problem, RuntimeRuleError
from .evaluator import BreakSig, ContinueSig, EndGameSig, Evaluator, ReturnSig, type_name
from .state import Comp, GameState, Player, copy_value, decode, encode

BLOCK, FOR, WHILE, REPEAT, CALL, CHOOSE, SIMUL, TRIGGER = range(8)
LOOPS = (FOR, WHILE, REPEAT)
FINAL_PHASE = "(final scoring)"


def run(ev: Evaluator) -> None:
    """Run until a decision is pending or the game is over."""
    st = ev.st
    stack = st.stack
    suspends = ev.rs.suspends
    execute = ev.exec
    while True:
        if not stack:
            if st.pending is None and not st.over:
                _finish(ev)
                if stack:
                    continue
            return
        f = stack[-1]
        k = f[0]
        try:
            if k == BLOCK:
                # Run direct statements in a tight loop; leave it only to start a suspending one.
                body = f[1].body
                scope = f[2]
                n = len(body)
                i = f[3]
                while i < n:
                    s = body[i]
                    i += 1
                    f[3] = i
                    if id(s) in suspends:
                        push(ev, s, scope)
                        break
                    execute(s, scope)
                else:
                    stack.pop()
            elif k == FOR:
                items, i = f[3], f[4]
                if i >= len(items):
                    stack.pop()
                    continue
                f[2][f[1].var] = items[i]
                f[4] = i + 1
                stack.append([BLOCK, f[1].body, f[2], 0])
            elif k == CHOOSE or k == SIMUL:
                if st.pending is None:
                    open_decision(ev, f)
                return
            elif k == WHILE:
                if ev.eval(f[1].test, f[2]):
                    st.steps += 1
                    stack.append([BLOCK, f[1].body, f[2], 0])
                else:
                    stack.pop()
            elif k == REPEAT:
                if f[3] > 0:
                    f[3] -= 1
                    stack.append([BLOCK, f[1].body, f[2], 0])
                else:
                    stack.pop()
            elif k == CALL:
                stack.pop()
                if type(f[1]) is A.Assign:
                    ev.assign(f[1].target, None, f[2])
            elif k == TRIGGER:
                comps, i = f[3], f[4]
                if i >= len(comps):
                    stack.pop()
                    continue
                f[4] = i + 1
                c = comps[i]
                stack.append([CALL, None, None])
                stack.append([BLOCK, ev.rs.components[c].on[f[1].event], ev.handler_scope(c), 0])
        except BreakSig:
            _unwind_loop(stack, keep=False)
        except ContinueSig:
            _unwind_loop(stack, keep=True)
        except ReturnSig as r:
            while stack and stack[-1][0] != CALL:
                stack.pop()
            if stack:
                f = stack.pop()
                if type(f[1]) is A.Assign:
                    ev.assign(f[1].target, r.value, f[2])
        except EndGameSig:
            stack.clear()
            st.pending = None
            _finish(ev)


def _unwind_loop(stack: list, keep: bool) -> None:
    while stack and stack[-1][0] not in LOOPS:
        stack.pop()
    if stack and not keep:
        stack.pop()


def _finish(ev: Evaluator) -> None:
    st = ev.st
    if ev.rs.final is not None and st.phase != FINAL_PHASE:
        st.phase = FINAL_PHASE
        st.stack.append([BLOCK, ev.rs.final, {}, 0])
    else:
        st.over = True


def push(ev: Evaluator, s: Any, scope: dict) -> None:
    """Start a statement that may suspend, as frames."""
    st = ev.st
    stack = st.stack
    st.steps += 1
    if st.coverage is not None:
        nid = ev.rs.node_ids.get(id(s))
        if nid is not None:
            st.coverage[nid] = st.coverage.get(nid, 0) + 1
    t = type(s)
    if t is A.Choose:
        stack.append([CHOOSE, s, scope])
    elif t is A.Block:
        stack.append([BLOCK, s, scope, 0])
    elif t is A.If:
        branch = s.then if ev.eval(s.test, scope) else s.orelse
        if branch is not None:
            stack.append([BLOCK, branch, scope, 0])
    elif t is A.For:
        items = list(ev.iterate(ev.eval(s.iter, scope), s.iter))
        stack.append([FOR, s, scope, items, 0])
    elif t is A.While:
        stack.append([WHILE, s, scope])
    elif t is A.Repeat:
        n = ev.eval(s.count, scope)
        if type(n) is not int:
            raise ev.fail(s.count, f"`repeat` needs a number, not {type_name(n)}")
        stack.append([REPEAT, s, scope, n])
    elif t is A.Phase:
        st.phase = s.name
        stack.append([BLOCK, ev.rs.phases[s.name], {}, 0])
    elif t is A.Trigger:
        comps = [c for c, _ in ev.handlers(s.event, ev.eval(s.target, scope), s)]
        stack.append([TRIGGER, s, scope, comps, 0])
    elif t is A.ExprStmt or t is A.Assign:
        call = s.expr if t is A.ExprStmt else s.value
        proc = ev.rs.procedures[call.func]
        if len(call.args) != len(proc.params):
            raise ev.fail(call, f"`{call.func}` takes {len(proc.params)} arguments, not {len(call.args)}")
        inner = {p: ev.eval(a, scope) for p, a in zip(proc.params, call.args)}
        stack.append([CALL, s, scope])
        stack.append([BLOCK, proc.body, inner, 0])
    elif t is A.Simultaneous:
        stack.append([SIMUL, s, scope])
    else:  # pragma: no cover - the checker only marks the kinds above
        raise ev.fail(s, f"internal: cannot suspend in {t.__name__}")


# ------------------------------------------------------------------ decisions
def _menu(ev: Evaluator, choose: A.Choose, scope: dict) -> list[list]:
    """All legal options of a menu for the player in `scope`: [item index, values, component, clause]."""
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
            for x in list(ev.iterate(ev_(f0.iter, scope), f0.iter)):
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
        for x in list(ev.iterate(ev.eval(f.iter, scope), f.iter)):
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


def open_decision(ev: Evaluator, f: list) -> None:
    node, scope = f[1], f[2]
    if f[0] == CHOOSE:
        p = ev.eval(node.player, scope)
        if type(p) is not Player:
            raise ev.fail(node.player, f"`choose` needs a player, not {type_name(p)}")
        deciders = [int(p)]
        options = {int(p): _menu(ev, node, scope)}
    else:
        players = ev.iterate(ev.eval(node.players, scope), node.players)
        deciders, options = [], {}
        for p in players:
            if type(p) is not Player:
                raise ev.fail(node.players, f"`simultaneous` needs players, not {type_name(p)}")
            scope[node.var] = p
            deciders.append(int(p))
            options[int(p)] = _menu(ev, node.choose, scope)
    for p in deciders:
        if not options[p]:
            raise RuntimeRuleError(Problem(
                "R002", f"P{p + 1} must choose but has no legal option", node.span,
                hint="add an option that is always allowed, such as `option \"Pass\": pass`"))
    ev.st.pending = {"players": deciders, "options": options, "chosen": {}}


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
    saved = dict(frame[2]) if opt[2] < 0 else None
    clause, scope = option_scope(ev, frame, opt, player)
    try:
        v = ev.eval(clause.label, scope)
    finally:
        if saved is not None:
            frame[2].clear()
            frame[2].update(saved)
    from .evaluator import show

    return v if type(v) is str else show(v, ev.rs)


def key(opt: list) -> str:
    head = f"{opt[0]}" if opt[2] < 0 else f"{opt[0]}#{opt[2]}.{opt[3]}"
    if not opt[1]:
        return head
    return head + ":" + ",".join(_kv(v) for v in opt[1])


def _kv(v: Any) -> str:
    t = type(v)
    if t is Player:
        return f"P{int(v) + 1}"
    if t is Comp:
        return f"#{int(v)}"
    if t is list:
        return "[" + ",".join(_kv(x) for x in v) + "]"
    return repr(v) if t is str else str(v)


def resolve(ev: Evaluator) -> None:
    """All players have chosen: pop the decision frame and start the chosen bodies."""
    st = ev.st
    pending = st.pending
    f = st.stack.pop()
    st.pending = None
    if f[0] == CHOOSE:
        p = pending["players"][0]
        opt = pending["options"][p][pending["chosen"][p]]
        clause, scope = option_scope(ev, f, opt, p)
        _count(ev, clause)
        if opt[2] >= 0:
            st.stack.append([CALL, None, None])
        st.stack.append([BLOCK, clause.body, scope, 0])
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


def _count(ev: Evaluator, clause: A.Option) -> None:
    cov = ev.st.coverage
    if cov is not None:
        nid = ev.rs.node_ids.get(id(clause))
        if nid is not None:
            cov[nid] = cov.get(nid, 0) + 1


# ------------------------------------------------------------------ copy and serialise frames
def copy_frames(stack: list) -> list:
    scopes: dict[int, dict] = {}
    out = []
    for f in stack:
        g = f[:]
        sc = f[2]
        if sc is not None:
            new = scopes.get(id(sc))
            if new is None:
                new = scopes[id(sc)] = {k: copy_value(v) for k, v in sc.items()}
            g[2] = new
        out.append(g)
    return out


def frames_to_json(stack: list, node_ids: dict[int, int]) -> dict:
    scopes: dict[int, int] = {}
    scope_list: list = []
    frames = []
    for f in stack:
        sc = f[2]
        ref = None
        if sc is not None:
            ref = scopes.get(id(sc))
            if ref is None:
                ref = scopes[id(sc)] = len(scope_list)
                scope_list.append({k: encode(v) for k, v in sc.items()})
        node = None if f[1] is None else node_ids[id(f[1])]
        frames.append([f[0], node, ref] + [encode(x) for x in f[3:]])
    return {"frames": frames, "scopes": scope_list}


def frames_from_json(data: dict, nodes: list) -> list:
    scopes = [{k: decode(v) for k, v in sc.items()} for sc in data["scopes"]]
    stack = []
    for fr in data["frames"]:
        kind, node, ref = fr[0], fr[1], fr[2]
        if kind not in range(8):
            raise ValueError(f"unknown frame kind {kind}")
        stack.append([kind, None if node is None else nodes[node], None if ref is None else scopes[ref]]
                     + [decode(x) for x in fr[3:]])
    return stack


def assert_state(st: GameState) -> None:
    """Cheap consistency checks used by tests and by loading saves."""
    for key, zone in st.zones.items():
        for c in zone:
            if st.loc.get(c) != key:
                raise ValueError(f"component #{c} is in zone {key} but its location says {st.loc.get(c)}")
