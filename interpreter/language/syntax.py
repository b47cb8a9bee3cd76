"""Script budgets, and the syntax of every script in a document that failed its schema check."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from meeple.errors import Problem, RulesetError, Span
from meeple.language.parse_errors import MAX_SCRIPT, MAX_SCRIPTS

MAX_SCRIPT_COUNT = 2_000  # scripts in one load: phases, procedures, handlers, options, expressions


class ScriptBudget:
    """Counts the characters of the scripts of one load; refuses a script too long, or past the total."""

    def __init__(self) -> None:
        self.used = 0
        self.scripts = 0
        self.told = False

    def spend(self, text: str, span: Span | None) -> list[Problem] | None:
        """None if the script may be parsed, else the problems to report (the total only once)."""
        self.used += len(text)
        self.scripts += 1
        if self.scripts > MAX_SCRIPT_COUNT:
            # Each script costs a parse however short it is: thousands of one-word phases are a budget too.
            told, self.told = self.told, True
            return [] if told else [Problem("P006", f"this file has more than {MAX_SCRIPT_COUNT:,} scripts (the "
                                                    "engine's limit)", span)]
        if len(text) > MAX_SCRIPT:
            return [Problem("P006", f"this script is too long ({len(text):,} characters; the limit is "
                            f"{MAX_SCRIPT:,})", span, hint="move parts of it into procedures")]
        if self.used > MAX_SCRIPTS:
            told, self.told = self.told, True
            return [] if told else [Problem("P006", f"the scripts of this file are too long in total (the limit "
                                                    f"is {MAX_SCRIPTS:,} characters)", span)]
        return None


def script_syntax(doc: Any) -> list[Problem]:
    """The syntax errors of every script in a document that failed its schema check.

    The meaning checks need a valid document, but the scripts' syntax does not: parsing them
    anyway lets one run report a misspelt key and a missing `:` together."""
    from meeple.language.parser import parse_expr, parse_options, parse_script  # lark: only for a broken file

    data = doc.data if isinstance(doc.data, dict) else {}
    found: list[Problem] = []
    budget = ScriptBudget()

    def parse(fn: Callable, path: tuple) -> None:
        value: Any = data
        for k in path:
            value = value.get(k) if isinstance(value, dict) else (
                value[k] if isinstance(value, list) and isinstance(k, int) and k < len(value) else None)
        if isinstance(value, str):
            over = budget.spend(value, doc.span(path))
            if over is not None:
                found.extend(over)
                return
            try:
                fn(value, lambda ln, c, el, ec: doc.locate(path, ln, c, el, ec))
            except RulesetError as e:
                found.extend(e.problems)

    def mapping(value: Any) -> dict:
        return value if isinstance(value, dict) else {}

    for key in ("setup", "flow"):
        parse(parse_script, (key,))
    for name, value in mapping(data.get("phases")).items():
        for step in (mapping(value) or {None: value}):
            parse(parse_script, ("phases", name) + ((step,) if step is not None else ()))
    for name, value in mapping(data.get("procedures")).items():
        parse(parse_script, ("procedures", name) + (("do",) if isinstance(value, dict) else ()))
    scoring = mapping(data.get("scoring"))
    parse(parse_script, ("scoring", "final"))
    parse(parse_expr, ("scoring", "score"))
    for i in range(len(scoring.get("tiebreak") or []) if isinstance(scoring.get("tiebreak"), list) else 0):
        parse(parse_expr, ("scoring", "tiebreak", i))
    parse(parse_expr, ("agents", "greedy"))
    for kind, kd in mapping(data.get("components")).items():
        items = mapping(kd).get("items")
        keys = range(len(items)) if isinstance(items, list) else list(mapping(items))
        for place in [("components", kind)] + [("components", kind, "items", k) for k in keys]:
            holder: Any = data
            for k in place:
                holder = holder[k]
            for hook, fn in (("on", parse_script), ("options", parse_options)):
                for ev in mapping(mapping(holder).get(hook)):
                    parse(fn, place + (hook, ev))
    return found
