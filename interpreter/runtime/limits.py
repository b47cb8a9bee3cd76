"""The engine's budgets, and the safety net that turns any Python failure into a located rules error.

A ruleset that validates must either play or stop with a located `RuntimeRuleError`: it can never
hang the engine, exhaust its memory or crash it with a Python exception. The budgets below bound
work (statements between two decisions), depth (procedure calls and suspended frames) and size
(lists, strings, ranges and numbers). Anything that still slips through as a Python exception is
caught where the game API calls into the rules and reported at the script line that was running.
"""

from __future__ import annotations

import types
import weakref
from typing import Any

from meeple.errors import MeepleError, Problem, RuntimeRuleError, Span
from meeple.loading.numbers import MAX_NUMBER

MAX_STEPS = 2_000_000  # statements (and loop passes, calls, decisions opened) between two decisions
MAX_DEPTH = 150  # nested procedure calls, triggers and phases run directly
MAX_FRAMES = 1_000  # frames of statements that may wait for a decision (each suspended call adds a few)
MAX_ITEMS = 1_000_000  # elements of a list, a map or a range; characters of a string
MAX_NESTING = 64  # lists and maps inside lists and maps
MAX_INT = MAX_NUMBER  # 2**53 - 1: numbers stay exact in JSON everywhere (and far from Python's 4,300-digit limit)


class CodeNodes:
    """The script node each generated function runs, by its code object (codegen/cache.py adds them as
    it binds a module): a failure inside one is located there without the function keeping the node in
    a local at every call. By identity, not equality: code objects compare equal by content, and two
    loads of one ruleset, or two files of the same text, make equal ones. An entry goes with its code
    object, which goes with its ruleset."""

    def __init__(self) -> None:
        self._by_id: dict[int, tuple[weakref.ref, Any]] = {}

    def add(self, code: types.CodeType, node: Any) -> None:
        key = id(code)

        def gone(ref: weakref.ref, key: int = key) -> None:
            if self._by_id.get(key, (None,))[0] is ref:  # not a newer code object at the same address
                del self._by_id[key]
        self._by_id[key] = (weakref.ref(code, gone), node)

    def get(self, code: types.CodeType) -> Any:
        entry = self._by_id.get(id(code))
        return entry[1] if entry is not None and entry[0]() is code else None


CODE_NODES = CodeNodes()

STEPS_MESSAGE = "the rules ran more than 2,000,000 statements without a decision: a loop that never ends?"
DEPTH_MESSAGE = f"procedures nested more than {MAX_DEPTH} deep: a procedure that calls itself without end?"


class Budget:
    """The evaluators' budget keeping (mixed into evaluator.Evaluator, which has `st`, `limit`, `depth` and
    `fail`): work that is not a statement, and procedure depth."""

    st: Any
    limit: int
    depth: int

    def fail(self, node: Any, message: str, hint: str | None = None) -> RuntimeRuleError:
        raise NotImplementedError  # pragma: no cover - ValueOps.fail comes first in the evaluator's bases

    def spend(self, steps: int, node: Any) -> None:
        """Count work that is not a statement (loop passes, comprehensions, menus) against the budget."""
        st = self.st
        st.steps += steps
        if st.steps > self.limit:
            raise self.fail(node, STEPS_MESSAGE)

    def enter(self, node: Any) -> None:
        """One procedure call deeper; the caller decrements `depth` when the call returns."""
        self.depth += 1
        if self.depth > MAX_DEPTH:
            self.depth -= 1
            raise self.fail(node, DEPTH_MESSAGE)


def tree_size(v: Any, memo: dict[int, int], open_: set[int], depth: int = 0) -> int:
    """How many items `v` holds counting every nested list and map as often as it appears (what a copy or
    a save writes out), or MAX_ITEMS + 1 once it is over the limit, nested too deeply, or holds itself.
    Lists shared inside `v` are measured once (`memo`), so `x = [x, x]` costs one step per level."""
    key = id(v)
    if key in memo:
        return memo[key]
    if key in open_ or depth > MAX_NESTING:
        return MAX_ITEMS + 1
    open_.add(key)
    total = 1
    for x in (v if type(v) is list else v.values()):
        tx = type(x)
        total += tree_size(x, memo, open_, depth + 1) if tx is list or tx is dict else 1
        if total > MAX_ITEMS:
            break
    open_.discard(key)
    memo[key] = total
    return total


def number_message(n: Any) -> str:
    return f"a number beyond ±{MAX_INT:,} (the engine's limit)"


def size_message(what: str, n: int) -> str:
    return f"{what} of {n:,} items, more than the engine's limit of {MAX_ITEMS:,}"


def _node_span(frame: types.FrameType) -> Span | None:
    """The span of an AST node that this Python frame was working on (an argument, local or closure cell
    of either evaluator; else, in a generated function, the node it runs: CODE_NODES), if any."""
    try:
        values = list(frame.f_locals.values())
    except Exception:  # noqa: BLE001 - a frame we cannot inspect has nothing to tell
        return None
    for v in [*values, CODE_NODES.get(frame.f_code)]:
        span = getattr(v, "span", None) if type(v).__module__ == "meeple.language.ast" else None
        if isinstance(span, Span):
            return span
    return None


def located(e: BaseException) -> MeepleError:
    """A Python exception raised while running the rules, as a rules error located at the innermost
    script node on the failing Python stack (which is the statement or expression that failed)."""
    if isinstance(e, MeepleError):
        return e
    spans = []
    tb = e.__traceback__
    while tb is not None:
        spans.append(tb.tb_frame)
        tb = tb.tb_next
    span = None
    for frame in reversed(spans):
        span = _node_span(frame)
        if span is not None:
            break
    if isinstance(e, RecursionError):
        msg = DEPTH_MESSAGE
    elif isinstance(e, MemoryError):
        msg = "the rules ran out of memory: a list, string or number grew too large"
    else:
        detail = str(e)[:200]
        msg = f"the rules did something impossible here ({detail})" if detail else \
            "the rules did something impossible here"
    return RuntimeRuleError(Problem("R003", msg, span))
