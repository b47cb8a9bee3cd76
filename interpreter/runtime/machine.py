"""The frame machine: runs statements that may wait for a player's decision.

A game must be plain data at every decision point, so the interpreter cannot keep its place in
Python's call stack. Statements that may suspend (a `choose`, or anything containing one) run as
explicit frames on `GameState.stack`; all other statements run directly in evaluator.py. A frame is
a small list `[kind, node, scope, ...]`, cheap to copy and easy to serialise.
"""

from __future__ import annotations

from typing import Any

from meeple.language import ast as A
from meeple.runtime.decisions import label, open_decision, option_scope, resolve
from meeple.runtime.evaluator import BreakSig, ContinueSig, EndGameSig, Evaluator, ReturnSig
from meeple.runtime.frames import (
    BLOCK,
    CALL,
    CHOOSE,
    FOR,
    LOOPS,
    REPEAT,
    SIMUL,
    TRIGGER,
    WHILE,
    copy_frames,
    frames_from_json,
    frames_to_json,
)
from meeple.runtime.limits import DEPTH_MESSAGE, MAX_FRAMES
from meeple.runtime.printing import repeat_problem
from meeple.runtime.state import assert_state

# Callers (game.py, views.py, state.py, tests) use these names through this module.
__all__ = ["BLOCK", "CHOOSE", "FINAL_PHASE", "SIMUL", "assert_state", "copy_frames", "frames_from_json",
           "frames_to_json", "label", "option_scope", "push", "resolve", "resume", "run"]

FINAL_PHASE = "(final scoring)"


_SIGNALS = (BreakSig, ContinueSig, ReturnSig, EndGameSig)  # control flow that leaves frames (_signal)


def run(ev: Evaluator, direct: tuple | None = None) -> None:
    """Run until a decision is pending or the game is over. `direct`, from `resolve`: a chosen option's
    body that never waits for a decision, as (generated function, scope), or a generated resolver of the
    whole choice, as (function, choose frame, option) (codegen/resume.py); run first as the body's frame
    would be (a `break` or `return` in it unwinds the frames below alike)."""
    st = ev.st
    stack = st.stack
    if direct is not None:
        try:
            if len(direct) == 2:
                direct[0](ev, direct[1])
            elif direct[0](ev, direct[1], direct[2]):
                return  # a generated option's body, and what follows it, opened the next decision
        except _SIGNALS as e:
            _signal(ev, e)
    segments = ev.segments  # generated stretches of blocks, called directly (codegen/); empty for the reference
    steppers = ev.steppers
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
                block = f[1]
                fns = steppers.get(id(block))
                if fns is not None:
                    # Generated code: the stretch from this index runs, then starts the statement it
                    # stops at itself (pushing the same frames push() would), or pops the frame.
                    step = fns.get(f[3])
                    if step is not None:
                        ev.hops = 0
                        if step(ev, f):
                            return  # a decision is open
                        continue
                # Run direct statements in one go (generated code, or the reference loop); leave the
                # frame only to start a statement that may suspend.
                body = block.body
                n = len(body)
                i = f[3]
                if i < n:
                    seg = segments.get(id(block))
                    fn = seg.get(i) if seg is not None else None
                    i = fn(ev, f[2]) if fn is not None else ev.run_direct(block, i, f[2])
                if i < n:
                    f[3] = i + 1
                    push(ev, body[i], f[2])
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
                    if st.pending is None:  # `simultaneous` over no player: nothing to wait for (found by QA:
                        stack.pop()  # a decision of nobody, and `simulate` waited for ever)
                        continue
                return
            elif k == WHILE:
                if ev.eval(f[1].test, f[2]):
                    ev.spend(1, f[1])
                    stack.append([BLOCK, f[1].body, f[2], 0])
                else:
                    stack.pop()
            elif k == REPEAT:
                if f[3] > 0:
                    ev.spend(1, f[1])
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
                ev.spend(1, f[1])
                stack.append([CALL, None, None])
                stack.append([BLOCK, ev.rs.components[c].on[f[1].event], ev.handler_scope(c), 0])
        except _SIGNALS as e:
            _signal(ev, e)


def resume(ev: Evaluator, opt: list | None = None) -> None:
    """Every decider has chosen: run the chosen options and on until the next decision (`run` after
    `resolve`). A choice with a generated resolver (codegen/resume.py) is handed to it directly. `opt`,
    when the caller has it at hand: the option chosen, if the decision is a `choose` (one decider)."""
    st = ev.st
    stack = st.stack
    f = stack[-1]
    rv = ev.resolvers.get(id(f[1])) if f[0] == CHOOSE else None
    if rv is None:
        run(ev, resolve(ev))
        return
    if opt is None:
        pending = st.pending
        p = pending["players"][0]
        opt = pending["options"][p][pending["chosen"][p]]
    fn: Any = rv[opt[0]] if type(rv) is tuple else rv  # one resolver per option (codegen/resume.py)
    stack.pop()
    st.pending = None
    ev.hops = 0
    try:
        if fn(ev, f, opt):
            return  # the next decision is open
    except _SIGNALS as e:
        _signal(ev, e)
    if not stack and st.pending is None and not st.over:  # the end of the flow: `run`'s first pass, inlined
        _finish(ev)
        if not stack:
            return
    run(ev)


def _signal(ev: Evaluator, e: Exception) -> None:
    """Control flow that leaves frames: unwind the stack to the loop, the call or the end of the game."""
    stack = ev.st.stack
    if isinstance(e, BreakSig):
        _unwind_loop(stack, keep=False)
    elif isinstance(e, ContinueSig):
        _unwind_loop(stack, keep=True)
    elif isinstance(e, ReturnSig):
        while stack and stack[-1][0] != CALL:
            stack.pop()
        if stack:
            f = stack.pop()
            if type(f[1]) is A.Assign:
                ev.assign(f[1].target, e.value, f[2])
    else:
        stack.clear()
        ev.st.pending = None
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
    # Suspending statements count against the budget like any other, and frames cannot pile up without end.
    st.steps += 1
    if st.steps > ev.limit:
        ev.spend(0, s)
    if len(stack) > MAX_FRAMES:
        raise ev.fail(s, DEPTH_MESSAGE)
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
        ev.spend(len(items), s)
        stack.append([FOR, s, scope, items, 0])
    elif t is A.While:
        stack.append([WHILE, s, scope])
    elif t is A.Repeat:
        n = ev.eval(s.count, scope)
        if (wrong := repeat_problem(n)) is not None:
            raise ev.fail(s.count, wrong)
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
