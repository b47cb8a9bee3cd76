"""Rules coverage: which parts of a ruleset never ran in a set of simulated games.

A game made with `rs.new_game(..., coverage=True)` counts, in `game.state.coverage`, how often each
statement ran and each option clause was chosen, keyed by the stable node ids of `rs.nodes`. This
module adds those counts over many games and maps them back to what a designer reads in the YAML:
phases and their steps, card effects (`on:` handlers and `options:`), events and option clauses.
A card effect that never fires in a thousand games is usually a bug in the ruleset.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from meeple.errors import Span
from meeple.language import ast as A
from meeple.language.walk import walk
from meeple.runtime.rules import Ruleset

# What a unit is, in the order the report lists them.
# Procedures are left out on purpose: bots never build labels or evaluate `agents.greedy` on the real
# game, so a procedure used only there would always look dead.
KINDS = ("phase", "step", "effect", "event", "option")


@dataclass
class Unit:
    kind: str  # one of KINDS
    name: str  # "PHASE", "PHASE.STEP", "ITEM on EVENT", "ITEM option LABEL", "EVENT", or an option's label
    count: int  # times it ran (for options: times chosen), summed over the games
    span: Span | None

    @property
    def where(self) -> str:
        return f"{self.span.file}:{self.span.line}" if self.span else "?"

    def to_json(self) -> dict:
        return {"kind": self.kind, "name": self.name, "count": self.count,
                "file": self.span.file if self.span else None, "line": self.span.line if self.span else None}


@dataclass
class CoverageReport:
    ruleset: str
    games: int
    units: list[Unit] = field(default_factory=list)

    @property
    def never(self) -> list[Unit]:
        return [u for u in self.units if u.count == 0]

    procedures: dict[str, int] = field(default_factory=dict)  # name -> times its body started

    def to_json(self) -> dict:
        return {"ruleset": self.ruleset, "games": self.games, "units": len(self.units),
                "never_ran": [u.to_json() for u in self.never],
                "counts": {f"{u.kind} {u.name}": u.count for u in self.units},
                "procedure_calls": dict(self.procedures)}


def merge_counts(states: Iterable[Any]) -> tuple[dict[int, int], int]:
    """Sum coverage counts over games. Accepts Games, GameStates or plain {node id: count} dicts."""
    total: dict[int, int] = {}
    games = 0
    for s in states:
        cov = getattr(getattr(s, "state", s), "coverage", s)
        if cov is None:
            continue
        games += 1
        for k, v in cov.items():
            k = int(k)
            total[k] = total.get(k, 0) + v
    return total, games


def coverage_report(rs: Ruleset, games_states: Iterable[Any]) -> CoverageReport:
    """What ran how often in these games (each made with `coverage=True`)."""
    counts, games = merge_counts(games_states)
    return report_from_counts(rs, counts, games)


def report_from_counts(rs: Ruleset, counts: dict[int, int], games: int) -> CoverageReport:
    ids = rs.node_ids

    def ran(root: Any) -> int:
        # A block ran as often as its first statement; a whole walk also covers blocks whose first
        # statement is not numbered (cannot happen today, but costs nothing to be safe about).
        best = 0
        for n in walk(root):
            i = ids.get(id(n))
            if i is not None and counts.get(i, 0) > best:
                best = counts[i]
        return best

    def first_count(block: A.Block) -> int:
        i = ids.get(id(block.body[0])) if block.body else None
        return counts.get(i, 0) if i is not None else ran(block)

    out: list[Unit] = []
    for name, block in rs.phases.items():
        out.append(Unit("phase", name, first_count(block), rs.spans.get(("phase", name)) or block.span))
        for step, sblock in rs.phase_steps.get(name, {}).items():
            out.append(Unit("step", f"{name}.{step}", first_count(sblock), sblock.span))
    seen: set[int] = set()
    options: set[int] = set()
    for c in rs.components:
        for ev, block in c.on.items():
            if id(block) not in seen:
                seen.add(id(block))
                who = c.item if _own(rs, c, "on", ev) else f"{c.kind} (every item)"
                out.append(Unit("effect", f"{who} on {ev}", first_count(block), block.span))
        for ev, clauses in c.options.items():
            for o in clauses:
                if id(o) not in seen:
                    seen.add(id(o))
                    options.add(id(o))
                    who = c.item if _own(rs, c, "options", ev) else f"{c.kind} (every item)"
                    out.append(Unit("effect", f"{who} option {_label(rs, o)}", counts.get(ids.get(id(o), -1), 0),
                                    o.span))
    fired = _events_fired(rs, counts)
    for ev, span in rs.events.items():
        out.append(Unit("event", ev, fired.get(ev, 0), span))
    for n in rs.nodes:  # option clauses outside card effects: menus in phases, procedures, setup
        if type(n) is A.Option and id(n) not in options:
            out.append(Unit("option", _label(rs, n), counts.get(ids[id(n)], 0), n.span))
    # Procedures are not units (see KINDS), but how often one ran is still worth telling, for
    # instance for a procedure a variant replaced.
    procs = {name: first_count(p.body) for name, p in rs.procedures.items()}
    return CoverageReport(rs.name, games, out, procs)


def _own(rs: Ruleset, c: Any, section: str, ev: str) -> bool:
    """True when the item itself defines this hook (not its kind for every item)."""
    item = next((i for i in (rs.raw.get("components") or {}).get(c.kind, {}).get("items") or []
                 if str(i.get("id", c.kind)) == c.item), None)
    return item is not None and ev in (item.get(section) or {})


def _events_fired(rs: Ruleset, counts: dict[int, int]) -> dict[str, int]:
    """An event fired as often as the `trigger` (or `options ... from`) statements naming it ran."""
    fired: dict[str, int] = {}
    for n in rs.nodes:
        if type(n) is A.Trigger:
            fired[n.event] = fired.get(n.event, 0) + counts.get(rs.node_ids[id(n)], 0)
    for n in rs.nodes:  # menus run as a whole: an `options E from` counts when its menu statement ran
        if type(n) is A.Choose:
            for item in n.items:
                if type(item) is A.OptionsFrom:
                    fired[item.event] = fired.get(item.event, 0) + counts.get(rs.node_ids[id(n)], 0)
    return fired


def _label(rs: Ruleset, o: A.Option) -> str:
    """An option's label as written, holes and all: "Sell {g} to the {self.name}"."""
    lab = o.label
    if type(lab) is A.Str:
        return f'"{lab.value}"'
    if type(lab) is A.Interp:
        return '"' + "".join(p if isinstance(p, str) else "{" + _source(rs, p.span) + "}" for p in lab.parts) + '"'
    return _source(rs, lab.span)


def _source(rs: Ruleset, span: Span) -> str:
    lines = rs.sources.get(span.file, "").split("\n")
    if span.line != span.end_line or not 0 < span.line <= len(lines):
        return "..."
    return lines[span.line - 1][span.col - 1:span.end_col] or "..."


def render_text(rep: CoverageReport, limit: int = 200) -> str:
    """The units that never ran, grouped by kind, each with file:line."""
    never = rep.never
    lines = [(f"coverage of {rep.ruleset} over {rep.games} game{'s' if rep.games != 1 else ''}: "
              f"{len(rep.units) - len(never)} of {len(rep.units)} effects, events, phases, steps and options "
              "ran")]
    if not never:
        lines.append("  everything ran at least once")
    width = max((len(u.where) for u in never), default=0)
    shown = 0
    for kind in KINDS:
        for u in never:
            if u.kind == kind and shown < limit:
                lines.append(f"  {u.where.ljust(width)}  never ran: {kind} {u.name}")
                shown += 1
    if len(never) > shown:
        lines.append(f"  ... and {len(never) - shown} more (see --format json)")
    return "\n".join(lines)
