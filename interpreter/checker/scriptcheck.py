"""Check one script (a root of the ruleset): names, control flow and statements, walked in source order.

Expressions are typed by `exprcheck.Exprs`, which this class extends. The walk runs in the order the
script executes (a value before the name it is assigned to), so that "used before it is assigned" can
be told from "assigned later in a loop". Types of locals are flow-insensitive: the join of everything
assigned to the name anywhere in the script; `Checker` repeats the walk until they settle.
"""

from __future__ import annotations

from typing import Any

from meeple.checker import typesys as ty
from meeple.checker.exprcheck import Exprs, RootInfo
from meeple.checker.reachability import impossible, leaves
from meeple.checker.typesys import T
from meeple.language import ast as A


class Script(Exprs):
    def __init__(self, ck: Any, info: RootInfo) -> None:
        super().__init__(ck, info)
        self.loops: list[Any] = []  # enclosing loops, innermost last
        self.simul: Any = None  # the `simultaneous` whose option bodies we are in
        self.simul_depth = 0  # how many loops enclose that `simultaneous`

    def run(self) -> None:
        root = self.info.node
        if type(root) is A.Option:
            self.option(root)
        elif type(root) is A.Block:
            self.block(root)
        else:
            self.expr(root)

    # ------------------------------------------------------------ statements
    def block(self, b: A.Block) -> None:
        dead: bool | None = False  # None: reported already
        for s in b.body:
            if dead:
                self.add("W007", "this code can never run: the statement before it always leaves this block",
                         s.span, severity="warning", hint="remove it, or move it before that statement")
                dead = None  # one warning per block
            self.stmt(s)
            if dead is False and leaves(s):
                dead = True

    def stmt(self, s: Any) -> None:
        t = type(s)
        if t is A.Block:
            self.block(s)
        elif t is A.Assign:
            self.ck.stmt_calls.add(id(s.value))
            self.assign(s.target, self.expr(s.value), s)
        elif t is A.AugAssign:
            self.augassign(s)
        elif t is A.ExprStmt:
            self.ck.stmt_calls.add(id(s.expr))
            self.expr(s.expr)
        elif t is A.If:
            self.expr(s.test)
            self.block(s.then)
            if s.orelse is not None:
                self.block(s.orelse)
        elif t is A.For:
            item = self.iterable(self.expr(s.iter), s.iter, "`for` loops over")
            self.bind(s.var, item)
            self.loop(s)
        elif t is A.While:
            self.expr(s.test)
            self.loop(s)
        elif t is A.Repeat:
            n = self.expr(s.count)
            if n.k not in ("num", "any"):
                self.add("C014", f"`repeat` needs a number of times, not {n}", s.count.span,
                         hint="to loop over items, write `for x in ...:`" if n.k in ("list", "zone") else None)
            self.loop(s)
        elif t in (A.Break, A.Continue):
            self.leave_loop(s)
        elif t is A.Return:
            self.ret(s)
        elif t is A.EndGame:
            if self.simul is not None:
                self.add("C021", "the options of `simultaneous` cannot end the game", s.span,
                         hint="record the choice, and end the game after the `simultaneous` block")
        elif t is A.Phase:
            self.refs.phases.add(s.name)
            if self.simul is not None and s.name in self.ck.ending_phases:
                self.add("C021", "the options of `simultaneous` cannot end the game", s.span,
                         hint=f"the phase `{s.name}` may run `end_game`")
            if s.name not in self.ck.phase_names:
                self.add("C005", f"there is no phase `{s.name}`", s.span,
                         hint=self.ck.did_you_mean(s.name, self.ck.phase_names))
        elif t is A.Trigger:
            self.trigger(s)
        elif t is A.Choose:
            self.choose(s)
        elif t is A.Simultaneous:
            self.simultaneous(s)

    def loop(self, s: Any) -> None:
        self.loops.append(s)
        self.block(s.body)
        self.loops.pop()

    def leave_loop(self, s: Any) -> None:
        word = "break" if type(s) is A.Break else "continue"
        if not self.loops:
            self.add("C009", f"`{word}` outside a loop", s.span,
                     hint="`break` and `continue` work inside `for`, `while` and `repeat` in the same script")
        elif self.simul is not None and len(self.loops) == self.simul_depth:
            self.add("C009", f"`{word}` cannot leave the options of `simultaneous`", s.span,
                     hint="record the choice, and leave the loop after the `simultaneous` block")

    def ret(self, s: A.Return) -> None:
        value = self.expr(s.value) if s.value is not None else ty.NONE
        if not self.info.returns:
            self.add("C018", f"`return` outside a procedure or handler (in {self.info.what})", s.span,
                     hint="to stop the game write `end_game`; to leave a loop write `break`")
        elif self.info.proc is not None:
            self.ck.observe_return(self.info.proc, value)

    def handlers_of(self, event: str, span: A.Span, source: A.Expr, needs: str) -> None:
        """`trigger EVENT on X` and `options from X`: a declared event, and components to find it on."""
        if event not in self.rs.events:
            self.add("C006", f"`{event}` is not a declared event", span,
                     hint=self.ck.did_you_mean(event, self.rs.events) or "declare it under `events:`")
        t = self.expr(source)
        if t.k not in ("comp", "list", "zone", "any"):
            self.add("C014", f"{needs} {t}", source.span)

    def trigger(self, s: A.Trigger) -> None:
        self.refs.events.add(s.event)
        self.ck.triggered.add(s.event)
        self.handlers_of(s.event, s.span, s.target, "`trigger` runs the handlers of components, not of")
        if self.simul is not None and s.event in self.ck.ending_events:
            self.add("C021", "the options of `simultaneous` cannot end the game", s.span,
                     hint=f"a handler of `{s.event}` may run `end_game`")

    # ------------------------------------------------------------ assignment
    def assign(self, target: Any, value: T, s: Any) -> None:
        t = type(target)
        if t is A.Name:
            self.assign_name(target, value)
        elif t is A.Attr:
            self.assign_attr(self.expr(target.obj), target, value, known=False)
        elif t is A.Index:
            self.assign_index(self.expr(target.obj), self.expr(target.index), target)
        else:
            self.expr(target)
            self.add("C010", "cannot assign to this: assign to a name, a counter or a map entry", target.span)

    def assign_name(self, target: A.Name, value: T) -> None:
        name = target.name
        if name in self.scoped:
            self.scoped[name] = ty.join(self.scoped[name], value) or ty.ANY
            return
        if name in self.bad_assign:
            # an error if the global is read anywhere (the author expects it to change), else only a
            # warning that the local variable hides it: decided once every script has been read
            self.ck.readonly_assigns.append((name, target.span, self.info.what))
        if name in self.locals:
            self.bind(name, value)
        elif name in self.rs.game_counters:
            self.ck.observe_counter(("g", name), value)
            self.ck.used_names.add(name)

    def assign_attr(self, obj: T, target: A.Attr, value: T, known: bool) -> None:
        """`obj.name = value`: only counters can be set. `known`: the attribute was already checked."""
        name = target.name
        self.ck.used_attrs.add(name)
        keys = self.counter_keys(obj, name)
        if keys:
            for key in keys:
                self.ck.observe_counter(key, value)
            return
        what = self.attr_what(obj, name)
        if what is None:
            if not known:
                self.attr_type(obj, target)  # reports the unknown attribute
            return
        hint = ("move components with `move(...)`" if what in ("zone", "slot")
                else "attributes are fixed data; declare a counter under the kind's `counters:`"
                if what == "attribute" else None)
        self.add("C019", f"cannot assign to `{name}`: it is {_article(what)}, not a counter", target.span,
                 hint=hint)

    def assign_index(self, obj: T, key: T, target: A.Index) -> None:
        if obj.k not in ("map", "list", "any"):
            self.add("C014", f"cannot set an entry of {obj}", target.obj.span,
                     hint="entries can be set in maps (`m[k] = v`) and lists (`xs[i] = v`)")
        elif obj.k == "list" and key.k not in ("num", "any"):
            self.add("C011", f"a list index must be a number, not {key}", target.index.span)

    def augassign(self, s: A.AugAssign) -> None:
        tg: Any = s.target
        tt = type(tg)
        if tt is A.Attr:
            obj = self.expr(tg.obj)
            cur = self.attr_type(obj, tg)
        elif tt is A.Index:
            obj, key = self.expr(tg.obj), self.expr(tg.index)
            cur = self.index_type(obj, key, tg)
        else:
            cur = self.expr(tg)
        d = self.expr(s.value)
        # as the evaluator: numbers (not booleans) on both sides, or `+=` onto a list
        if cur.k == "any":
            result = ty.ANY
        elif cur.k == "list" and s.op == "+":
            result = ty.list_of(ty.join(cur.elem, d.elem if d.k == "list" else d))
        elif cur.k == "num" and d.k in ("num", "any"):
            result = ty.NUM
        else:
            hint = "to put components in a zone, use `move(...)`" if cur.k == "zone" else None
            self.add("C011", f"`{s.op}=` needs numbers (or a list on the left of `+=`), not {cur} and {d}",
                     s.span, hint=hint)
            result = cur  # not `any`: a mistake must not widen the target's type and hide itself
        if tt is A.Name:
            self.assign_name(tg, result)
        elif tt is A.Attr:
            self.assign_attr(obj, tg, result, known=True)
        elif tt is A.Index:
            self.assign_index(obj, key, tg)
        else:
            self.add("C010", "cannot assign to this: assign to a name, a counter or a map entry", tg.span)

    # ------------------------------------------------------------ decisions
    def choose(self, s: A.Choose) -> None:
        who = self.expr(s.player)
        if who.k not in ("player", "any"):
            self.add("C014", f"`choose` needs the player who decides, not {who}", s.player.span)
        if s.prompt is not None:
            self.expr(s.prompt)
        for item in s.items:
            if isinstance(item, A.Option):
                self.option(item)
            else:
                self.options_from(item)
        if all(type(i) is A.Option and impossible(i) for i in s.items):
            self.add("C017", "this menu can never offer an option: every option is impossible", s.span,
                     hint="add an option that is always possible, like `option \"Pass\": pass`")

    def option(self, o: A.Option) -> None:
        for f in o.fors:
            item = self.iterable(self.expr(f.iter), f.iter, "`option ... for` loops over")
            self.bind(f.var, item)
        if o.guard is not None:
            self.expr(o.guard)
        self.expr(o.label)
        self.block(o.body)

    def options_from(self, item: A.OptionsFrom) -> None:
        self.refs.hooks.add(item.event)
        self.ck.offered.add(item.event)
        self.handlers_of(item.event, item.span, item.source, "`options ... from` needs components, not")

    def simultaneous(self, s: A.Simultaneous) -> None:
        who = self.expr(s.players)
        item = self.iterable(who, s.players, "`simultaneous` loops over")
        if item.k not in ("player", "any"):
            self.add("C014", f"`simultaneous` needs a list of players, not {who}", s.players.span)
        self.bind(s.var, ty.PLAYER)
        for it in s.choose.items:
            body = it.body if type(it) is A.Option else None
            if body is not None and (id(body) in self.rs.suspends or any(id(x) in self.rs.suspends
                                                                         for x in body.body)):
                self.add("C008", "the options of `simultaneous` cannot ask for further decisions", it.span,
                         hint="record the choice and act on it after the block")
        outer = self.simul, self.simul_depth
        self.simul, self.simul_depth = s, len(self.loops)
        self.choose(s.choose)
        self.simul, self.simul_depth = outer


def _article(what: str) -> str:
    return f"an {what}" if what[0] in "aeiou" else f"a {what}"
