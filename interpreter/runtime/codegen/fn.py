"""The Python function being generated (`Fn`), and what every emitter writes into it: operands tested
and then used (evaluated once, into a temporary), and the snapshot a loop goes over."""

from __future__ import annotations

import re


class Fn:
    """One Python function being generated: its lines, and what its variables hold."""

    def __init__(self, mode: str, loop_returns: bool) -> None:
        self.mode = mode  # "py": locals only in Python variables; "dict": also written to the scope dict S
        self.returns = loop_returns  # `return` is a Python return (procedures, handlers), not ReturnSig
        self.lines: list[str] = []
        self.depth = 1
        self.locals: set[str] = set()  # names this function holds in L_ variables
        self.definite: set[str] = set()  # names certainly assigned at this point
        self.hoist: set[str] = set()  # dict mode: names read from S at entry (S.get: they may be missing)
        self.entry: frozenset[str] = frozenset()  # dict mode: names certainly in S at entry (codegen/flow.py)
        self.need: set[str] = set()  # ... of which these are read: `L_x = S[x]` at entry
        self.comp: dict[str, str] = {}  # comprehension and option variables in scope -> Python name
        self.flat: set[str] = set()  # ... of those, the Python names that hold flat values (kinds.py)
        self.loops = 0  # Python loops around the current statement
        self.unwind: list[str] | None = None  # a `break` outside them: lines that pop the loop (resume.py)
        self.tmp = 0
        self.in_iter = 0  # > 0 while emitting what a comprehension loops over (no `:=` allowed there)
        # True while nothing of the statement being written has been evaluated yet (OperatorEmitter.expr)
        self.lead = False

    def w(self, line: str) -> None:
        self.lines.append("    " * self.depth + line)

    def temp(self) -> str:
        self.tmp += 1
        return f"_t{self.tmp}"


def simple(code: str) -> bool:
    """A side-effect-free, cheap operand that may be written twice (a variable or a literal)."""
    return code.isidentifier() or code.lstrip("-").isdigit()


def snapshot(it: str, src: str, at: str, f: Fn, fresh: bool, still: bool = False) -> None:
    """Write `it = ` a snapshot list of `src` (what a loop goes over), as support.it makes it: a list as
    it is (lists are values that nothing changes in place), a copy of a zone's components (the zone
    itself where the loop is `still`: nothing in it can move a component), else the reference's
    iteration (a map's keys, or the error at `at`). `fresh`: certainly a new list."""
    copy = "" if still else "[:]"
    zone = zone_key(src)
    if zone is not None:
        f.w(f"{it} = st.zones[{zone}]{copy}")
        return
    f.w(f"{it} = {src}")
    if not fresh:
        k = f.temp()
        f.w(f"{it} = {it} if ({k} := type({it})) is list else st.zones[{it}.key]{copy} if {k} is Zone "
            f"else h_it(ev, {it}, {at})")


_GAME_ZONE = re.compile(r"ZN_(\w+)")


def zone_key(code: str) -> str | None:
    """The key of a game zone that `code` certainly is (a global zone name, `ZN_<name>`), as a literal."""
    m = _GAME_ZONE.fullmatch(code)
    return repr(m.group(1)) if m else None


def operand(code: str, f: Fn) -> tuple[str, str] | None:
    """An operand to test and then use: (its first use, its later uses). A simple one is written as it
    is; any other is evaluated once, at its first use, into a temporary (`:=`). None where Python allows
    no `:=` (what a comprehension loops over)."""
    if simple(code):
        return code, code
    if f.in_iter:
        return None
    t = f.temp()
    return f"({t} := {code})", t


def inline_operand(code: str, f: Fn) -> tuple[str, str] | None:
    """`operand`, for an inline form that writes temporaries of its own too (`type(x)` kept in one):
    None where Python allows no `:=` at all, even when the operand itself is simple, so that the form
    falls back to its helper there."""
    return None if f.in_iter else operand(code, f)
