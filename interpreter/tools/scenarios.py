"""Rule tests as data: run scenario files (`meeple test`).

A scenario names a ruleset, a player count and a seed; arranges the state with a script; then takes
steps: actions picked by their labels (or that must be refused), playing on until an expression
holds, and checks written in the ruleset language. Failures are Problems located in the scenario file.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from meeple.errors import IllegalAction, MeepleError, Problem, Span
from meeple.language import ast as A
from meeple.language.parser import parse_expr, parse_script
from meeple.loading.files import find_ruleset
from meeple.loading.yamlsrc import Document, load_yaml_file
from meeple.runtime import machine as M
from meeple.runtime.data import Player
from meeple.runtime.evaluator import show
from meeple.runtime.game import Game
from meeple.runtime.rules import Ruleset, load_ruleset
from meeple.tools import scenario_steps as S

DEFAULT_MAX_STEPS = 20_000
RULESET_GIVEN = "T002"  # a ruleset file where a scenario file belongs: folder walks skip it


@dataclass
class Result:
    file: str
    name: str
    ok: bool
    problems: list[Problem] = field(default_factory=list)
    span: Span | None = None


class _Fail(Exception):
    def __init__(self, problem: Problem) -> None:
        self.problem = problem


_RULESETS: dict[str, Ruleset] = {}


def _ruleset(name: str, scenario_file: Path) -> Ruleset:
    path = find_ruleset(name, relative_to=scenario_file)
    key = str(path.resolve())
    if key not in _RULESETS:
        _RULESETS[key] = load_ruleset(path)
    return _RULESETS[key]


def run_file(path: str | Path) -> list[Result]:
    """Every scenario of a file. A schema error inside one scenario fails that scenario only; one
    outside them (no `ruleset:`, `scenarios:` not a list) fails the file."""
    from meeple.loading.schema import validate_document

    path = Path(path)
    try:
        doc = load_yaml_file(str(path), "scenario")
        if isinstance(doc.data, dict) and "meeple" in doc.data and "scenarios" not in doc.data:
            return [Result(doc.path, "(file)", False, [Problem(
                RULESET_GIVEN, "this is a ruleset file, not a scenario file (scenario files have `ruleset:` and "
                        "`scenarios:`)", doc.span(("meeple",), key=True),
                hint=f"check a ruleset with `meeple validate {path}`; docs/scenarios.md shows a scenario file")])]
        problems = [p for p in validate_document(doc, "scenario") if p.severity == "error"]
        scenarios = doc.data.get("scenarios") if isinstance(doc.data, dict) else None
        per = _by_scenario(doc, problems, scenarios)
        if per is None:
            return [Result(doc.path, "(file)", False, problems)]
    except MeepleError as e:
        return [Result(str(path), "(file)", False, e.problems)]
    try:
        rs = _ruleset(doc.data["ruleset"], path)
    except MeepleError as e:  # located at the `ruleset:` line; the ruleset's own problems keep their place
        at = doc.span(("ruleset",))
        return [Result(doc.path, "(file)", False, [p if p.span else Problem(p.code, p.message, at, p.severity, p.hint)
                                                   for p in e.problems], at)]
    assert isinstance(scenarios, list)
    return [run_scenario(rs, doc, i) if not per.get(i) else
            Result(doc.path, _name(scenarios[i], i), False, per[i], doc.span(("scenarios", i)))
            for i in range(len(scenarios))]


def _name(sc: Any, index: int) -> str:
    name = sc.get("name") if isinstance(sc, dict) else None
    return str(name) if name else f"scenario {index + 1}"


def _by_scenario(doc: Document, problems: list[Problem], scenarios: Any) -> dict[int, list[Problem]] | None:
    """Schema problems grouped by the scenario they are in, or None if one is outside every scenario."""
    if not problems:
        return {}
    if not isinstance(scenarios, list) or not scenarios or not isinstance(doc.data.get("ruleset"), str):
        return None
    spans = [doc.span(("scenarios", i)) for i in range(len(scenarios))]
    out: dict[int, list[Problem]] = {}
    for p in problems:
        at = (p.span.line, p.span.col) if p.span else (0, 0)
        i = next((i for i, s in enumerate(spans) if s and (s.line, s.col) <= at <= (s.end_line, s.end_col)), None)
        if i is None:
            return None
        out.setdefault(i, []).append(p)
    return out


def run_scenario(rs: Ruleset, doc: Document, index: int) -> Result:
    sc = doc.data["scenarios"][index]
    base = ("scenarios", index)
    name = _name(sc, index)
    try:
        _Runner(rs, doc, base, sc).run()
    except _Fail as f:
        return Result(doc.path, name, False, [f.problem], doc.span(base))
    except MeepleError as e:
        return Result(doc.path, name, False, e.problems, doc.span(base))
    return Result(doc.path, name, True, [], doc.span(base))


class _Runner:
    def __init__(self, rs: Ruleset, doc: Document, base: tuple, sc: dict) -> None:
        self.rs, self.doc, self.base, self.sc = rs, doc, base, sc
        self.game: Game | None = None
        self.remembered: dict[str, Any] = {}  # `remember:` names, readable by later checks

    def origin(self, path: tuple):
        def o(line: int, col: int, end_line: int, end_col: int) -> Span:
            return self.doc.locate(path, line, col, end_line, end_col)
        return o

    def fail(self, path: tuple, message: str, hint: str | None = None) -> _Fail:
        return _Fail(Problem("T001", message, self.doc.span(path), hint=hint))

    def scope(self) -> dict[str, Any]:
        g = self.game
        assert g is not None
        sc: dict[str, Any] = {f"p{i + 1}": Player(i) for i in range(g.state.nplayers)}
        sc["phase"] = g.state.phase
        sc["over"] = g.is_over
        sc["decider"] = Player(g.current_player) if g.current_player is not None else None
        sc["winners"] = [Player(w) for w in g.winners] if g.is_over else []
        sc["log"] = [text for who, text in g.state.log if who == -1]   # the public log lines, oldest first
        sc["logs"] = S.seat_logs(g)  # logs[p2]: the lines P2 reads, its private ones included
        sc.update(self.remembered)
        return sc

    def eval(self, text: str, path: tuple) -> Any:
        assert self.game is not None
        expr = parse_expr(str(text), self.origin(path))
        return self.game._rules(self.game._ev.eval, expr, self.scope())

    def run(self) -> None:
        sc = self.sc
        before = (parse_script(sc["before_flow"], self.origin(self.base + ("before_flow",)))
                  if sc.get("before_flow") else None)
        if not self.rs.min_players <= int(sc["players"]) <= self.rs.max_players:
            raise self.fail(self.base + ("players",), f"{self.rs.name} is for {self.rs.player_counts} players, "
                            f"not {sc['players']}")
        # `before_flow` runs between the ruleset's setup and its flow, as part of the game's start
        # (names: p1, p2... and the ruleset's own); `setup` runs once the flow waits for its first decision.
        if before is not None:
            self.game = self.rs.new_game(int(sc["players"]), int(sc.get("seed", 0)), before_flow=_with_seats(
                before, int(sc["players"])))
        else:
            self.game = self.rs.new_game(int(sc["players"]), int(sc.get("seed", 0)))
        if sc.get("setup"):
            self.script(sc["setup"], self.base + ("setup",))
        for i, step in enumerate(sc.get("steps") or []):
            self.step(step, self.base + ("steps", i))

    def script(self, text: str, path: tuple) -> None:
        """Run a script on the game as it stands (a scenario's `setup`, a `run` step)."""
        block = parse_script(text, self.origin(path))
        g = self.game
        assert g is not None
        g._rules(g._ev.exec_block, block, self.scope())
        # The arranged state may change what the pending decision offers: ask again.
        if g.state.pending is not None:
            g.state.pending = None
            g._rules(M.run, g._ev)

    def step(self, step: dict, path: tuple) -> None:
        g = self.game
        assert g is not None
        if "act" in step:
            self.act(step, path)
        elif "play_until" in step:
            rng = random.Random(int(self.sc.get("seed", 0)))
            limit = int(step.get("max_steps", DEFAULT_MAX_STEPS))
            for _ in range(limit):
                if self.eval(step["play_until"], path + ("play_until",)):
                    return
                if g.is_over:
                    break
                for seat in g.deciders:
                    g.apply_index(rng.randrange(g.num_actions(seat)), seat)
            if not self.eval(step["play_until"], path + ("play_until",)):
                raise self.fail(path + ("play_until",), f"`{step['play_until']}` never became true "
                                f"({'the game ended' if g.is_over else f'{limit} steps'})")
        elif "run" in step:
            self.script(step["run"], path + ("run",))
        elif "remember" in step:
            for name, expr in step["remember"].items():
                self.remembered[str(name)] = self.eval(expr, path + ("remember", name))
        elif "offered" in step or "not_offered" in step:
            S.offered(self, step, path, lambda label: S.could_be_a_label(self.rs, label))
        elif "menu_size" in step:
            S.menu_size(self, step, path)
        elif "seen_by" in step:
            S.seen_by(self, step, path)
        elif "check" in step:
            if type(got := self.eval(step["check"], path + ("check",))) is not bool:  # `check: p1.coins` passed if not 0
                raise self.fail(path + ("check",), f"`{step['check']}` is {_fmt(got, self.rs)}, not true or false",
                                hint="a check is a condition (`p1.coins == 5`); to compare a value, use `expect:`")
            if not got:
                raise self.fail(path + ("check",), f"check failed: `{step['check']}`")
        elif "expect" in step:
            for expr, want in step["expect"].items():
                got = self.eval(expr, path + ("expect", expr))
                if not _same(got, want, self.rs):
                    raise self.fail(path + ("expect", expr), f"`{expr}` is {_fmt(got, self.rs)}, expected "
                                    f"{json.dumps(want)}")

    def act(self, step: dict, path: tuple) -> None:
        g = self.game
        assert g is not None
        label = str(step["act"])
        seat = S.seat_of(self, step, path)
        legal = g.legal_actions(seat)
        matches = [a for a in legal if a["label"] == label]
        if step.get("refused"):
            if not matches and not S.could_be_a_label(self.rs, label):
                # Otherwise a misspelt label would "be refused" and the test could never fail.
                raise self.fail(path + ("act",), f"no option of the ruleset can be labelled `{label}`",
                                hint="check the spelling against the option labels in the ruleset")
            before = json.dumps(g.to_json()["state"], sort_keys=True)
            try:
                if matches:
                    g.apply(matches[0])
                else:
                    g.apply({"player": seat if seat is not None else g.current_player, "key": label,
                             "label": label})
            except IllegalAction as e:
                reason = step.get("reason")
                if reason and reason not in str(e):
                    raise self.fail(path, f"refused, but for another reason: {e.problems[0].message}") from None
                if json.dumps(g.to_json()["state"], sort_keys=True) != before:
                    raise self.fail(path, "the refused action changed the state") from None
                return
            raise self.fail(path, f"`{label}` was accepted but must be refused")
        if not matches:
            who = f"P{seat + 1}" if seat is not None else "anyone"
            options = "; ".join(a["label"] for a in legal[:12]) + (" ..." if len(legal) > 12 else "")
            hint = S.not_deciding_hint(g, seat) or (f"legal now: {options}" if legal else
                                                    "the game is over" if g.is_over else "no decision is pending")
            raise self.fail(path + ("act",), f"no legal action for {who} is labelled `{label}`", hint=hint)
        g.apply(matches[0])


def _with_seats(block: A.Block, players: int) -> A.Block:
    """`p1 = player(0)` ... before a `before_flow` script, so it names seats as the checks do."""
    sp = block.span
    pre = tuple(A.Assign(sp, A.Name(sp, f"p{i + 1}"), A.Call(sp, "player", (A.Num(sp, i),)))
                for i in range(players))
    return A.Block(sp, pre + tuple(block.body))


def _same(got: Any, want: Any, rs: Ruleset) -> bool:
    if type(got) in (int, bool, str) or got is None:
        return got == want and type(got) is type(want) or (got is None and want is None)
    if isinstance(got, list) and isinstance(want, list):
        return len(got) == len(want) and all(_same(a, b, rs) for a, b in zip(got, want))
    return show(got, rs) == want


def _fmt(v: Any, rs: Ruleset) -> str:
    return json.dumps(v) if type(v) in (int, bool, str) or v is None else show(v, rs)
