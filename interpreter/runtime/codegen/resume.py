"""Generated code that does the frame machine's work (docs/performance.md, "Generated code does ...").

A block that may wait for a decision runs on the frame machine (machine.py) as a frame
`[BLOCK, block, scope, index]`. Its stretches `SG_<k>_<i>(ev, F)` take that frame: each runs the
statements from index i up to the next one that may wait, then starts that statement as
`machine.push` would (a `choose` also opens its decision; an `if`, a loop, a block, a call or a phase
pushes its frames and runs their first stretch). A block's last stretch pops its frame and, when the
frame under it is the one its place in the script implies, does the machine's next pass (the next turn
of a loop, the rest of the enclosing block). `RV_<k>(ev, F, opt)` runs a chosen option and goes on after
its `choose` (a menu of its own options only: `RV_<k>_<i>` for its option i, its body inlined when the
body never waits). Each returns True when a decision is open, else None (the machine goes on).

The frames, the step count and every error are those of the machine's own passes, so saves do not
change; a stretch that calls the next counts a hop (`ev.hops`), and past MAX_HOPS since the machine's
last pass leaves it to the machine, which keeps the Python stack shallow. `trigger` and `simultaneous`
are started by `push` itself.
"""

from __future__ import annotations

from typing import Any

from meeple.checker.suspension import shuffle_statement
from meeple.language import ast as A
from meeple.runtime.codegen.fn import Fn
from meeple.runtime.codegen.starts import StartEmitter
from meeple.runtime.decisions import no_option, not_a_player, start_added_option
from meeple.runtime.frames import BLOCK
from meeple.runtime.limits import DEPTH_MESSAGE, MAX_FRAMES
from meeple.runtime.machine import push
from meeple.runtime.prefix import seedless

MAX_HOPS = 64  # stretches called in a row by generated code before the machine takes over
HELPERS = {"h_push": push, "h_no_player": not_a_player, "h_no_option": no_option, "h_added": start_added_option,
           "MAXF": MAX_FRAMES,
           "DEPTH_MSG": DEPTH_MESSAGE, "MAXH": MAX_HOPS}


class ResumeEmitter(StartEmitter):
    susp: set[int]
    table: dict[str, list[str]]
    nodes: list[Any]
    out: list[str]
    _parents: dict[int, set[tuple[int, int, int]]] | None = None
    _byid: dict[int, Any]

    # provided by the builder (module.py)
    dict_fn: Any
    function: Any
    framed_blocks: Any
    located: Any

    def parent_of(self, b: A.Block) -> tuple[Any, A.Block, int] | None:
        """The statement whose frame or block lies right under a frame of block `b` whenever it is on the
        stack, with the block that statement is in and its index there; None when `b` may be entered
        from several places, or from a call (a CALL frame lies under it then)."""
        if self._parents is None:
            self._parents = {}
            for blk in self.framed_blocks():
                for j in self._stops(blk):
                    s: Any = blk.body[j]
                    t = type(s)
                    kids = [s.then, s.orelse] if t is A.If else [s] if t is A.Block else \
                        [i.body for i in s.items if type(i) is A.Option] if t is A.Choose else \
                        [s.body] if t in (A.For, A.While, A.Repeat) else \
                        [self.rs.phases[s.name]] if t is A.Phase else []
                    for kid in kids:
                        if kid is not None:
                            self._parents.setdefault(id(kid), set()).add((id(s), id(blk), j))
            self._byid = {id(n): n for n in self.nodes}
        found = self._parents.get(id(b), set())
        if len(found) != 1:  # a procedure's body is never listed (a CALL frame lies under it)
            return None
        sid, bid, j = next(iter(found))
        return self._byid[sid], self._byid[bid], j

    def segments(self, b: A.Block) -> None:
        k = self.idx(b)
        body = b.body
        stops = self._stops(b)
        # A new game's setup frame may start after the setup's seedless opening (runtime/prefix.py).
        opening = seedless(self.rs) if b is self.rs.setup else 0
        # A game with explicit chance goes on after a shuffle of its own statement once the shuffle is
        # drawn (runtime/explicit.py), from a stretch that starts there.
        shuffled = {j + 1 for j, st in enumerate(body) if j + 1 < len(body) and shuffle_statement(st)}
        if not stops:
            # A block that never waits: one function of the scope, run directly (resolve, exec_block), or
            # as a frame's only stretch by the machine's generic path (it then pops the frame).
            entries = []
            for s in sorted({0, opening} - {len(body)} | {0} | shuffled):
                f = self.dict_fn((id(b), s))
                for st in body[s:]:
                    self.stmt(st, f)
                self.function(f"def SG_{k}_{s}(ev, S):", f, tail=f"return {len(body)}",
                              node=body[s] if body else b)
                entries.append(f"{s}: SG_{k}_{s}")
            self.table["SEG"].append(f"{k}: {{{', '.join(entries)}}}")
            self.table["BLK"].append(f"{k}: SG_{k}_0")
            self.opening(b, opening)
            return
        entries = []
        for s in sorted({0, opening} | {j + 1 for j in stops} | shuffled):
            end = next((j for j in stops if j >= s), len(body))
            f = self.dict_fn((id(b), s))
            for st in body[s:end]:
                self.stmt(st, f)
            if end < len(body):
                f.w(f"F[3] = {end + 1}")
                self.start(body[end], f)
                # Nothing was pushed (an `if` without a branch to run, a loop without a pass): go on.
                self.hop(f"SG_{k}_{end + 1}(ev, F)", f)
            else:
                f.w("_stk = st.stack")
                f.w("_stk.pop()")
                self.finish(b, f)
            self.function(f"def SG_{k}_{s}(ev, F):", f, pre=("    S = F[2]",), node=body[s] if s < end else b)
            entries.append(f"{s}: SG_{k}_{s}")
        self.table["STEP"].append(f"{k}: {{{', '.join(entries)}}}")
        self.opening(b, opening)

    def opening(self, b: A.Block, j: int) -> None:
        """`SG_<k>_open(ev, S)`: the setup's seedless opening (runtime/prefix.py), its first j statements,
        which run once per player count; it counts steps as the setup's own stretches do."""
        if j == 0:
            return
        k = self.idx(b)
        f = self.dict_fn((id(b), 0))
        for st in b.body[:j]:
            self.stmt(st, f)
        self.function(f"def SG_{k}_open(ev, S):", f, tail=f"return {j}", node=b.body[0])
        self.table["OPEN"].append(f"{k}: SG_{k}_open")

    def finish(self, b: A.Block, f: Fn) -> None:
        """After block `b` popped its frame: the machine's next passes, when the frame under it is known
        (checked at run time: the machine does them otherwise): the next turn of the loop whose body `b`
        is, or the rest of the block that the statement `b` belongs to is in."""
        par = self.parent_of(b)
        if par is None:
            return
        s, blk, j = par
        t = type(s)
        f.w("_G = _stk[-1] if _stk else None")
        if t in (A.For, A.While, A.Repeat):
            n = self.node(s)
            f.w(f"if _G is not None and _G[1] is {n}:")
            f.depth += 1
            if t is A.For:
                f.w("_it = _G[3]")
                f.w("_i = _G[4]")
                f.w("if _i < len(_it):")
                f.w(f"    _G[2][{s.var!r}] = _it[_i]")
                f.w("    _G[4] = _i + 1")
            else:
                f.w(f"if E_{self.idx(s.test)}(ev, _G[2]):" if t is A.While else "if _G[3] > 0:")
                self.step(f, n, "    ")
                if t is A.Repeat:
                    f.w("    _G[3] -= 1")
            f.w(f"    _F = [{BLOCK}, {self.node(s.body)}, _G[2], 0]")
            f.w("    _stk.append(_F)")
            f.depth += 1
            self.hop(f"SG_{self.idx(s.body)}_0(ev, _F)", f)  # the next turn (bounded by the hops)
            f.depth -= 1
            f.w("_stk.pop()")
            f.w("_G = _stk[-1] if _stk else None")
            self.chain(blk, j, f)
            f.depth -= 1
        else:
            self.chain(blk, j, f)

    def chain(self, blk: A.Block, j: int, f: Fn) -> None:
        f.w(f"if _G is not None and _G[1] is {self.node(blk)} and _G[3] == {j + 1}:")
        f.depth += 1
        self.hop(f"SG_{self.idx(blk)}_{j + 1}(ev, _G)", f)
        f.depth -= 1

    def resolver(self, ch: A.Choose) -> None:
        """`RV_<k>(ev, F, opt)`: the chosen option `opt` of the CHOOSE frame `F` (popped), as `resolve`
        and the machine would run it: its values bound in the scope, its body run (or pushed, when it
        may wait), then the rest of the block the `choose` is in. A menu of its own options only has one
        such function per option instead (`option_resolver`), registered as a tuple indexed by the
        option's number."""
        own = [(i, item) for i, item in enumerate(ch.items) if type(item) is A.Option]
        if not own:
            return  # only options that components add (`options ... from`): `decisions.resolve` runs them
        k = self.idx(ch)
        if len(own) == len(ch.items):
            # One function per option, indexed by the option's number (opt[0]): no dispatch, and a body
            # that never waits is run in it, followed by the stretch after the `choose`.
            for i, clause in own:
                self.option_resolver(ch, i, clause)
            self.table["RES"].append(f"{k}: ({''.join(f'RV_{k}_{i}, ' for i, _ in own)})")
            return
        lines = [f"# {ch.span.file}:{ch.span.line}:{ch.span.col}", f"def RV_{k}(ev, F, opt):"]
        self.located(f"RV_{k}", ch)
        # an option a component adds: its body on the stack, under a CALL frame, as `resolve` does
        lines += ["    if opt[2] >= 0:", "        return h_added(ev, F, opt)"]
        lines += ["    S = F[2]", "    _i = opt[0]"]
        item: Any
        for n, (i, item) in enumerate(own):
            lines.append(f"    {'if' if n == 0 else 'elif'} _i == {i}:")
            lines += [f"        S[{fo.var!r}] = opt[1][{j}]" for j, fo in enumerate(item.fors)]
            kb = self.idx(item.body)
            brk = self.unwind(ch, item.body) if [type(x) for x in item.body.body] == [A.Break] else None
            if self._stops(item.body):
                lines += [f"        _F = [{BLOCK}, N[{kb}], S, 0]", "        ev.st.stack.append(_F)",
                          *self.hop_lines(f"SG_{kb}_0(ev, _F)", "        ")]
            elif brk is not None:  # an option that only leaves the loop ("Finish loading": break)
                lines += ["        st = ev.st", *("        " + x for x in brk)]
            else:
                lines.append(f"        SG_{kb}_0(ev, S)")
        par = self.parent_of(item.body)
        if par is not None and par[0] is ch:
            _, blk, j = par
            lines += ["    _stk = ev.st.stack", "    _G = _stk[-1] if _stk else None",
                      f"    if _G is not None and _G[1] is {self.node(blk)} and _G[3] == {j + 1}:",
                      *self.hop_lines(f"SG_{self.idx(blk)}_{j + 1}(ev, _G)", "        ")]
        lines.append("    return None")
        self.out.append("\n".join(lines) + "\n")
        self.table["RES"].append(f"{k}: RV_{k}")

    def unwind(self, ch: A.Choose, body: A.Block) -> list[str] | None:
        """A `break` in the body of an option of `ch`, run by its resolver, when the `choose` is in the
        body of a loop that is a frame: the frames under the resolver are then the loop's body and the
        loop (checked at run time), which the `break` pops as machine._signal would, before going on
        with the rest of the block the loop is in, as the machine's next pass would. None when where
        the loop lies is not known (BreakSig then, and the machine unwinds)."""
        par = self.parent_of(body)
        if par is None or par[0] is not ch:
            return None
        blk = par[1]
        loop = self.parent_of(blk)
        if loop is None or type(loop[0]) not in (A.For, A.While, A.Repeat):
            return None
        s, pblk, pj = loop
        return ["_stk = st.stack",
                f"if len(_stk) > 1 and _stk[-1][1] is {self.node(blk)} and _stk[-2][1] is {self.node(s)}:",
                "    del _stk[-2:]",
                "    _G = _stk[-1] if _stk else None",
                f"    if _G is not None and _G[1] is {self.node(pblk)} and _G[3] == {pj + 1}:",
                *self.hop_lines(f"SG_{self.idx(pblk)}_{pj + 1}(ev, _G)", "        "),
                "    return None",
                "raise BreakSig()"]

    def option_resolver(self, ch: A.Choose, i: int, item: A.Option) -> None:
        """`RV_<k>_<i>(ev, F, opt)`: option i of menu k chosen, as `RV_<k>` would run it: its values bound
        in the scope, its body run (in this function, when it never waits; else pushed and started),
        then the rest of the block the `choose` is in."""
        k, body = self.idx(ch), item.body
        binds = tuple(f"    S[{fo.var!r}] = opt[1][{j}]" for j, fo in enumerate(item.fors))
        if self._stops(body):
            kb = self.idx(body)
            self.located(f"RV_{k}_{i}", ch)
            lines = [f"# {ch.span.file}:{ch.span.line}:{ch.span.col}", f"def RV_{k}_{i}(ev, F, opt):",
                     "    S = F[2]", *binds, f"    _F = [{BLOCK}, N[{kb}], S, 0]",
                     "    ev.st.stack.append(_F)", *self.hop_lines(f"SG_{kb}_0(ev, _F)", "    ")]
            self.out.append("\n".join(lines) + "\n")
            return
        f = self.dict_fn((id(body), 0))
        f.unwind = self.unwind(ch, body)
        for st in body.body:
            self.stmt(st, f)
        par = self.parent_of(body)
        if par is not None and par[0] is ch:
            f.w("_stk = st.stack")
            f.w("_G = _stk[-1] if _stk else None")
            self.chain(par[1], par[2], f)
        bound = [fo.var for fo in item.fors]
        f.need.difference_update(bound)  # read from `opt` (and written to the scope) instead of the scope
        f.hoist.difference_update(bound)
        binds = tuple(f"    S[{v!r}] = L_{v} = opt[1][{j}]" for j, v in enumerate(bound))
        self.function(f"def RV_{k}_{i}(ev, F, opt):", f, pre=("    S = F[2]", *binds), tail="return None",
                      node=body.body[0] if body.body else ch)
