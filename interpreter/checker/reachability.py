"""What can be seen never to run, without running it: an option that is never offered, and a statement
that never reaches the one after it (so that code after it is dead).
"""

from __future__ import annotations

from typing import Any

from meeple.language import ast as A
from meeple.language.walk import children

LOOPS = (A.For, A.While, A.Repeat)


def impossible(o: A.Option) -> bool:
    """An option that can be seen to never be offered: `when false`, or a `for` over nothing."""
    if o.guard is not None and type(o.guard) is A.Const and o.guard.value in (False, None):
        return True
    for f in o.fors:
        it: Any = f.iter
        if type(it) is A.ListLit and not it.items:
            return True
        if type(it) is A.Call and it.func == "between" and len(it.args) == 2:
            lo: Any
            hi: Any
            lo, hi = it.args
            if type(lo) is A.Num and type(hi) is A.Num and lo.value > hi.value:
                return True
    return False


def leaves(s: Any) -> bool:
    """True if running s never reaches the statement after it (in the same block)."""
    t = type(s)
    if t in (A.Return, A.Break, A.Continue, A.EndGame):
        return True
    if t is A.ExprStmt:
        return type(s.expr) is A.Call and s.expr.func == "fail"
    if t is A.Block:
        return any(leaves(x) for x in s.body)
    if t is A.If:
        return s.orelse is not None and leaves(s.then) and leaves(s.orelse)
    if t is A.While:
        return type(s.test) is A.Const and s.test.value is True and not _breaks(s.body)
    return False


def _breaks(n: Any) -> bool:
    """Whether a `break` leaves this loop body (not one of its inner loops)."""
    for c in children(n):
        if type(c) is A.Break:
            return True
        if not isinstance(c, LOOPS) and _breaks(c):
            return True
    return False
