"""A ruleset compiled to one Python module: what is generated, the source text, and binding it.

Generated, per ruleset (names are the AST node's index in a deterministic walk of the ruleset):

* `PR_<proc>(ev, args...)`, `PH_<phase>(ev)`, `HB_<k>(ev, self, owner)`: procedures, phases and
  handlers that never wait for a decision, as plain Python functions with Python locals.
* `SG_<k>_<i>(ev, F)`: the statements of block k from index i up to its next statement that may
  wait for a decision, which it then starts as the frame machine would (codegen/resume.py). The frame
  machine (machine.py) keeps its frames as they were (`[BLOCK, block, scope, index]`), so saves and
  copies do not change: the frames are the resumption points, and each stretch between two of them is
  one straight Python function. `SG_<k>_0(ev, S)`: a block that never waits, run directly.
* `MN_<k>(ev, S)`: the legal options of menu k, without labels; `OC_<k>(ev, c, out, i, j)`: the
  options one component adds to a menu; `E_<k>(ev, S)`: expressions the machine evaluates (labels,
  tests of loops that are frames, scores).
"""

from __future__ import annotations

import re
from typing import Any

from meeple.language import ast as A
from meeple.language.model import Ruleset
from meeple.language.walk import walk
from meeple.runtime.codegen.flatvars import flat_variables
from meeple.runtime.codegen.flow import Definite
from meeple.runtime.codegen.fn import Fn, snapshot
from meeple.runtime.codegen.kinds import Flatness
from meeple.runtime.codegen.resume import ResumeEmitter
from meeple.runtime.codegen.roots import bound_names, expression_roots, framed_blocks, number_nodes, suspends
from meeple.runtime.library import REGISTRY

_CT = re.compile(r"\bCT\b")


class Builder(ResumeEmitter):
    def __init__(self, rs: Ruleset) -> None:
        self.rs = rs
        self.prims = REGISTRY
        self.nodes = number_nodes(rs)
        self.index = {id(n): i for i, n in enumerate(self.nodes)}
        self.maybe_local = bound_names(self.nodes, rs)
        self.susp = rs.suspends
        self.py_phases = {p for p, b in rs.phases.items() if not self._suspends(b)}
        self.flow = Definite(rs).at
        self.flatness = Flatness(rs)
        flat_variables(self.flatness, rs, self.nodes)
        self.full_tables: dict[str, bool] = {}
        self.shared_names: dict[str, tuple[str, str]] = {}
        self.out: list[str] = []
        self.menu_lists: set[str] = set()
        self.table: dict[str, list[str]] = {"E": [], "SEG": [], "STEP": [], "RES": [], "MENU": [], "BLK": [], "HB": [], "OC": [], "OPEN": [], "AT": []}

    def idx(self, n: Any) -> int:
        return self.index[id(n)]

    def shared(self, prefix: str, name: str) -> str:
        var = f"{prefix}_{name}"
        self.shared_names[var] = (prefix, name)
        return var

    def _suspends(self, b: A.Block) -> bool:
        return suspends(b, self.susp)

    # ------------------------------------------------------------ functions
    def function(self, header: str, f: Fn, params: tuple[str, ...] = (), pre: tuple[str, ...] = (),
                 tail: str | None = None, node: Any = None, leaf: bool = False) -> None:
        # Where the script is, so that a profile of generated functions leads back to the YAML.
        span = getattr(node, "span", None)
        where = [f"# {span.file}:{span.line}:{span.col}"] if span is not None else []
        body = "\n".join([*pre, *f.lines, tail or ""])
        # the counters in a local only where they are read or written
        lines = [*where, header, "    st = ev.st", *(["    CT = st.counters"] if _CT.search(body) else []), *pre]
        if node is not None:
            self.located(header[4:header.index("(")], node)  # "def NAME(...):"
        if f.mode == "py":
            init = sorted(f.locals - set(params))
            if init:
                lines.append("    " + " = ".join(f"L_{x}" for x in init) + " = U")
        else:
            lines += [f"    L_{x} = S[{x!r}]" for x in sorted(f.need)]
            lines += [f"    L_{x} = S.get({x!r}, U)" for x in sorted(f.hoist - f.need)]
        if f.depth == 2:  # a procedure: one call deeper while its body runs (limits.py)
            lines += ["    st.steps += 1", "    if st.steps > ev.limit:", "        raise h_steps(ev, _call)",
                      # h_enter inlined (procedures are most calls): it only raises the located error
                      "    if ev.depth >= MAXD:", "        h_enter(ev, _call)", "    ev.depth += 1",
                      "    try:", *f.lines, "    finally:", "        ev.depth -= 1"]
        elif leaf:  # a procedure that calls nothing: nothing in it reads the depth, so only the check
            lines += ["    st.steps += 1", "    if st.steps > ev.limit:", "        raise h_steps(ev, _call)",
                      "    if ev.depth >= MAXD:", "        h_enter(ev, _call)", *f.lines]
        else:
            lines += f.lines
        if tail is not None:
            lines.append("    " + tail)
        self.out.append("\n".join(lines) + "\n")

    def located(self, name: str, node: Any) -> None:
        """A Python failure in the generated function `name` is reported at `node` (limits.located finds
        it by the function's code object, in limits.CODE_NODES: no local to set at every call)."""
        self.table["AT"].append(f"{name}: {self.idx(node)}")

    def py_function(self, name: str, params: tuple[str, ...], body: A.Block, call: bool = False) -> None:
        """A procedure (`call`: it gets the calling node, counts a step and a level of depth), a phase or a
        handler that never waits for a decision, as a Python function."""
        f = Fn("py", True)
        f.locals |= set(params)
        f.definite |= set(params)
        # Only procedure calls, phases and handlers go a level deeper (limits.py): a procedure that calls
        # no procedure (built-ins only evaluate their arguments) and has no `trigger` or phase in it checks
        # the depth it would reach but need not keep it.
        leaf = call and not any(type(x) in (A.Trigger, A.Phase) or (type(x) is A.Call and x.func not in self.prims)
                                for x in walk(body))
        f.depth = 2 if call and not leaf else 1
        self.block(body, f)
        args = ("ev, _call" if call else "ev") + "".join(", L_" + p for p in params)
        self.function(f"def {name}({args}):", f, params, node=body, leaf=leaf)

    def dict_fn(self, key: Any, extra: frozenset[str] = frozenset()) -> Fn:
        f = Fn("dict", False)
        f.entry = self.flow.get(key, frozenset()) | extra
        f.definite = set(f.entry)
        return f

    def expression(self, n: Any, key: Any, extra: frozenset[str]) -> None:
        k = self.idx(n)
        f = self.dict_fn(key, extra)
        code = self.lead(n, f)
        self.function(f"def E_{k}(ev, S):", f, tail=f"return {code}", node=n)
        self.table["E"].append(f"{k}: E_{k}")

    def options(self, clause: A.Option, f: Fn, row: str) -> None:
        """Append `row` (a list expression over the option variables) for every binding the guard allows."""
        depth = f.depth
        vals = []
        # Building the menu runs what its options loop over and its guard, never a body or a label: if
        # none of it can move a component, the loops go over zones' own lists (kinds.Flatness.still).
        still = all(self.flatness.still(x) for x in [*(fo.iter for fo in clause.fors), clause.guard] if x is not None)
        for fo in clause.fors:
            f.tmp += 1
            var = f"O{f.tmp}_{fo.var}"
            # support.loop inlined: a snapshot of what is looped over, its passes counted
            it, at = f.temp(), self.node(fo.iter)
            snapshot(it, self.lead(fo.iter, f), at, f, fresh=self.flatness.new_list(fo.iter), still=still)
            f.w(f"st.steps += len({it})")
            f.w("if st.steps > ev.limit:")
            f.w(f"    raise h_steps(ev, {at})")
            f.w(f"for {var} in {it}:")
            f.comp[fo.var] = var
            vals.append(var)
            f.depth += 1
        if clause.guard is not None:
            self.test_open(clause.guard, f)
        f.w(f"out.append({row.replace('VALS', '[' + ', '.join(vals) + ']')})")
        f.depth = depth
        for fo in clause.fors:
            f.comp.pop(fo.var, None)

    def menu(self, ch: A.Choose) -> None:
        k = self.idx(ch)
        f = self.dict_fn(id(ch))
        fixed = self.fixed_menu(ch)
        if fixed is not None:
            self.function(f"def MN_{k}(ev, S):", f, tail=f"return {fixed}", node=ch)
            self.table["MENU"].append(f"{k}: MN_{k}")
            return
        f.w("out = []")
        item: Any
        for i, item in enumerate(ch.items):
            if type(item) is A.Option:
                self.options(item, f, f"[{i}, VALS, -1, 0]")
            else:
                f.w(f"_src = {self.expr(item.source, f)}")
                f.w(f"_oc = OPTS[{item.event!r}]")
                f.w(f"for _c in ([_src] if type(_src) is Comp else h_it(ev, _src, {self.node(item.source)})):")
                f.w("    if _oc[_c]:  # most components add no option")
                f.w("        for _j, _fn in enumerate(_oc[_c]):")
                f.w(f"            _fn(ev, _c, out, {i}, _j)")
        self.function(f"def MN_{k}(ev, S):", f, tail="return out", node=ch)
        self.table["MENU"].append(f"{k}: MN_{k}")

    @staticmethod
    def fixed_menu(ch: A.Choose) -> str | None:
        """A menu whose options are all offered every time (no `for`, no `when`, none from components), as
        a list expression (new lists each time it runs; a stretch that opens it uses one list, FX_<k>, made
        once: resume.py); None for any other menu."""
        if not ch.items or any(type(i) is not A.Option or i.fors or i.guard is not None for i in ch.items):
            return None
        return "[" + ", ".join(f"[{i}, [], -1, 0]" for i in range(len(ch.items))) + "]"

    def component_clause(self, clause: A.Option) -> None:
        k = self.idx(clause)
        f = Fn("py", True)
        f.locals |= {"self", "owner"}
        f.definite |= {"self", "owner"}
        self.options(clause, f, "[i, VALS, int(c), j]")
        self.function(f"def OC_{k}(ev, c, out, i, j):", f, ("self", "owner"), node=clause,
                      pre=("    L_self = CP[c]", "    L_owner = ev.owner(c)"))
        self.table["OC"].append(f"{k}: OC_{k}")

    # ------------------------------------------------------------ the whole ruleset
    def framed_blocks(self) -> list[A.Block]:
        return framed_blocks(self.rs, self.nodes, self.susp, self.py_phases)

    def source(self) -> str:
        rs = self.rs
        for name, p in rs.procedures.items():
            if name not in rs.suspending_procs:
                self.py_function(f"PR_{name}", p.params, p.body, call=True)
        for name in sorted(self.py_phases):
            self.py_function(f"PH_{name}", (), rs.phases[name])
        seen: set[int] = set()
        for c in rs.components:
            for b in c.on.values():
                if id(b) not in seen and not self._suspends(b):
                    seen.add(id(b))
                    self.py_function(f"HB_{self.idx(b)}", ("self", "owner"), b)
                    self.table["HB"].append(f"{self.idx(b)}: HB_{self.idx(b)}")
            for opts in c.options.values():
                for o in opts:
                    if id(o) not in seen:
                        seen.add(id(o))
                        self.component_clause(o)
        for b in self.framed_blocks():
            self.segments(b)
        for n in self.nodes:
            if type(n) is A.Choose:
                self.menu(n)
                self.resolver(n)
        done: set[int] = set()
        for e, key, extra in expression_roots(rs, self.nodes, self.susp):
            if id(e) not in done:
                done.add(id(e))
                self.expression(e, key, extra)
        head = f"# Generated by Meeple from the ruleset {rs.name!r} ({rs.path}). Do not edit: it is a cache.\n"
        tables = "TABLES = {\n" + "".join(f"    {k!r}: {{{', '.join(v)}}},\n" for k, v in self.table.items()) + "}\n"
        shared = "SHARED = " + repr(sorted(self.shared_names.items())) + "\n"
        return head + "\n\n".join(self.out) + "\n\n" + tables + shared
