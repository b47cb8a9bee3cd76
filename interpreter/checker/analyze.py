"""Static analysis of a loaded ruleset: which statements may suspend, and every problem in one run.

`analyze` runs after parsing. It gives every statement a stable id (saves refer to frames by id),
computes the set of statements that may wait for a decision (the frame machine runs those; the
rest run directly), and reports problems: errors for what cannot run, warnings for what never will.
The problem codes are listed in docs/language.md §10.

The work is split: `scriptcheck`/`exprcheck` walk one script (names, types, control flow), `decls`
builds the tables of what scripts can name, `usage` checks definitions and what is never used, and
`suspension` numbers the statements and finds those that may wait for a decision.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from meeple.checker import typesys as ty
from meeple.checker.datacheck import play_problems
from meeple.checker.decls import Decls, did_you_mean
from meeple.checker.exprcheck import RootInfo
from meeple.checker.layout import layout_warnings
from meeple.checker.scriptcheck import Script
from meeple.checker.suspension import _number_nodes, _suspending_recursion, _suspension
from meeple.checker.typesys import T
from meeple.checker.usage import definition_problems, usage_warnings
from meeple.errors import Problem, Problems, Span
from meeple.language import ast as A
from meeple.language.builtins import SIGNATURES
from meeple.language.model import Ruleset
from meeple.language.walk import children, walk

__all__ = ["analyze", "did_you_mean"]

MAX_PASSES = 5  # type inference repeats until types settle; real rulesets need 2
Locate = Callable[..., "Span | None"]  # (yaml path, key=False) -> where that value is in the files


def analyze(rs: Ruleset, extra_names: Iterable[str] = (), *, partial: bool = False,
            locate: Locate | None = None) -> list[Problem]:
    """Number the nodes, find what suspends, and return every problem, sorted by position.

    `partial`: some scripts failed to parse, so names they define are taken from the raw data and
    warnings (which would be wrong about the missing scripts) are left out. `locate(path, key=False)`
    finds a YAML value (or its key) for problems about definitions; without it they use coarser spans.
    """
    _number_nodes(rs)
    _suspension(rs)
    problems = Checker(rs, set(extra_names), partial, locate).run() + _suspending_recursion(rs) + play_problems(rs)
    # A warning located in another file (the base game of a variant) is that file's own business:
    # it shows when that file is validated, and must not fail `validate --strict` of the variant.
    problems = [p for p in problems if p.severity == "error" or p.span is None or p.span.file == rs.path]
    return sorted(problems, key=lambda p: _position(p, rs.path))


def _position(p: Problem, main: str) -> tuple:
    s = p.span
    if s is None:
        return (2, "", 0, 0)
    return (0 if s.file == main else 1, s.file, s.line, s.col)


class Checker(Decls):
    """Runs every script's check until inferred types settle; then definitions and usage."""

    def __init__(self, rs: Ruleset, extra: set[str], partial: bool = False, locate: Locate | None = None) -> None:
        super().__init__(rs, extra, partial)
        self.partial = partial
        self.locate: Locate = locate or (lambda path, key=False: None)
        self._root_names: dict[int, tuple[set[str], set[str], dict[int, set[str]]]] = {}
        self.prev_envs: dict[int, dict[str, T]] = {}
        self.prev_obs: dict[tuple, T] = {}
        self.prev_returns: dict[str, T] = {}
        self._start_pass()

    def _start_pass(self) -> None:
        self.problems = Problems()
        self.envs: dict[int, dict[str, T]] = {}
        self.obs: dict[tuple, T] = {}  # counter key -> join of the types assigned to it
        self.returns: dict[str, T] = {}  # procedure -> join of the types it returns
        self.refs: dict[int, Any] = {}
        self.stmt_calls: set[int] = set()  # calls that are whole statements (may suspend)
        self.used_names: set[str] = set()
        self.used_attrs: set[str] = set()
        self.used_procs: set[str] = set()
        self.used_kinds: set[str] = set()
        self.dynamic_components = False  # `components(x)` with a computed x: any kind may be used
        self.triggered: set[str] = set()
        self.offered: set[str] = set()
        self.readonly_assigns: list[tuple[str, Span, str]] = []

    def run(self) -> list[Problem]:
        roots = self.roots()
        for i in range(MAX_PASSES):
            self._start_pass()
            for info in roots:
                Script(self, info).run()
            now = (self.envs, self.obs, self.returns)
            if now == (self.prev_envs, self.prev_obs, self.prev_returns):
                break
            if i == MAX_PASSES - 2:  # not settling (a recursive procedure?): widen what still changes
                _widen(self.envs, self.prev_envs)
                _widen(self.obs, self.prev_obs)
                _widen(self.returns, self.prev_returns)
            self.prev_envs, self.prev_obs, self.prev_returns = now
        definition_problems(self)
        if not self.partial:
            usage_warnings(self, roots)
            layout_warnings(self)
        return self.problems.items

    # ------------------------------------------------------------ the scripts
    def roots(self) -> list[RootInfo]:
        rs = self.rs
        out: list[RootInfo] = []
        if rs.setup is not None:
            out.append(RootInfo(rs.setup, "`setup`", {}))
        out += [RootInfo(b, f"the phase `{n}`", {}) for n, b in rs.phases.items()]
        if rs.flow is not None:
            out.append(RootInfo(rs.flow, "`flow`", {}))
        if rs.final is not None:
            out.append(RootInfo(rs.final, "`scoring.final`", {}))
        player = {"p": ty.PLAYER}
        if rs.score is not None:
            out.append(RootInfo(rs.score, "`scoring.score`", player))
        out += [RootInfo(t, "`scoring.tiebreak`", player) for t in rs.tiebreak]
        if rs.greedy is not None:
            out.append(RootInfo(rs.greedy, "`agents.greedy`", player))
        if rs.value is not None:
            out.append(RootInfo(rs.value, "`agents.value`", player))
        out += [RootInfo(f, "`agents.features`", player) for f in rs.features]
        out += [RootInfo(k.status, f"the `status` of `{k.name}`", {"self": ty.comp_of(k.name), "owner": ty.PLAYER})
                for k in rs.kinds.values() if k.status is not None]
        # procedures first, callees before callers, so that most return types are known when used
        out = [RootInfo(rs.procedures[n].body, f"the procedure `{n}`",
                        {x: ty.ANY for x in rs.procedures[n].params}, True, n) for n in _callees_first(rs)] + out
        seen: set[int] = set()
        for c in rs.components:
            here = {"self": ty.comp_of(c.kind), "owner": ty.PLAYER}
            for ev, b in c.on.items():
                if id(b) not in seen:
                    seen.add(id(b))
                    out.append(RootInfo(b, f"the `{ev}` handler of `{c.item}`", here, True))
            for ev, opts in c.options.items():
                for o in opts:
                    if id(o) not in seen:
                        seen.add(id(o))
                        out.append(RootInfo(o, f"the `{ev}` options of `{c.item}`", here, True))
        return out

    def root_names(self, info: RootInfo) -> tuple[set[str], set[str], dict[int, set[str]]]:
        """The local variables of a script, those that wrongly reuse a read-only global name, and
        the names each loop assigns (a name assigned later in a loop may be read earlier in it)."""
        key = id(info.node)
        if key in self._root_names:
            return self._root_names[key]
        bound = set(info.implicit)
        assigned: set[str] = set()
        loop_binds: dict[int, set[str]] = {}
        stack: list[tuple[Any, tuple]] = [(info.node, ())]
        while stack:
            n, loops = stack.pop()
            t = type(n)
            name = None
            if t is A.Assign and type(n.target) is A.Name:
                name = n.target.name
                assigned.add(name)
            elif t in (A.For, A.OptionFor, A.Simultaneous):
                name = n.var
                bound.add(name)
            if name is not None:
                for lp in loops:
                    loop_binds[lp].add(name)
            if t in (A.For, A.While, A.Repeat):
                loop_binds[id(n)] = {n.var} if t is A.For else set()
                loops = loops + (id(n),)
            stack.extend((c, loops) for c in children(n))
        counters = set(self.rs.game_counters)
        local = bound | {n for n in assigned if n not in counters}
        bad = {n for n in assigned if n in self.readonly and n not in bound}
        self._root_names[key] = (local, bad, loop_binds)
        return self._root_names[key]

    # ------------------------------------------------------------ inferred types
    def entry_type(self, e: tuple[str, Any]) -> T:
        v = e[1]
        return self.counter_type(v) if isinstance(v, tuple) else v

    def global_type(self, name: str) -> T:
        return self.entry_type(self.globals[name])

    def counter_type(self, key: tuple) -> T:
        t = ty.join(self.counter_init.get(key), ty.join(self.prev_obs.get(key), self.obs.get(key)))
        return t or ty.ANY

    def observe_counter(self, key: tuple, t: T) -> None:
        self.obs[key] = ty.join(self.obs.get(key), t) or ty.ANY

    def proc_return(self, name: str) -> T:
        return ty.join(self.prev_returns.get(name), self.returns.get(name)) or ty.ANY

    def observe_return(self, name: str, t: T) -> None:
        self.returns[name] = ty.join(self.returns.get(name), t) or ty.ANY


def _callees_first(rs: Ruleset) -> list[str]:
    """Procedures in post-order of the call graph (iterative: a file may chain many procedures)."""
    calls = {name: [n.func for n in walk(p.body) if type(n) is A.Call and n.func in rs.procedures
                    and n.func not in SIGNATURES] for name, p in rs.procedures.items()}
    order: list[str] = []
    seen: set[str] = set()
    for start in rs.procedures:
        if start in seen:
            continue
        seen.add(start)
        stack = [(start, iter(calls[start]))]
        while stack:
            name, it = stack[-1]
            nxt = next((c for c in it if c not in seen), None)
            if nxt is None:
                stack.pop()
                order.append(name)
            else:
                seen.add(nxt)
                stack.append((nxt, iter(calls[nxt])))
    return order


def _widen(now: dict, before: dict) -> None:
    for k, v in now.items():
        if isinstance(v, dict):
            _widen(v, before.get(k, {}))
        elif before.get(k) != v:
            now[k] = ty.ANY
