"""Rule tests as data: run scenario files (`meeple test`).

A scenario names a ruleset, a player count and a seed; arranges the state with a script; then takes
steps: actions picked by their labels (or that must be refused), playing on until an expression
holds, and checks written in the ruleset language. Failures are Problems located in the scenario file.
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from meeple.errors import IllegalAction, MeepleError, Problem, Span, UsageError
from meeple.language import ast as A
from meeple.language.parser import parse_expr, parse_script
from meeple.loading.files import find_ruleset
from meeple.loading.yamlsrc import Document, load_yaml_file
from meeple.runtime import machine as M
from meeple.runtime.data import Player
from meeple.runtime.evaluator import show
from meeple.runtime.game import Game
from meeple.runtime.rules import Ruleset, load_ruleset

DEFAULT_MAX_STEPS = 20_000


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


def run_paths(paths: list[str | Path]) -> list[Result]:
    files: list[Path] = []
    for p in map(Path, paths):
        if p.is_dir():
            files += sorted(p.rglob("*.yaml"))
        elif p.is_file():
            files.append(p)
        else:
            raise UsageError(Problem("IO01", f"no such file or folder: {p}"))
    out: list[Result] = []
    for f in files:
        out += run_file(f)
    return out


_RULESETS: dict[str, Ruleset] = {}


def _ruleset(name: str, scenario_file: Path) -> Ruleset:
    path = find_ruleset(name, relative_to=scenario_file)
    key = str(path.resolve())
    if key not in _RULESETS:
        _RULESETS[key] = load_ruleset(path)
    return _RULESETS[key]


def run_file(path: str | Path) -> list[Result]:
    from meeple.loading.schema import validate_document

    path = Path(path)
    try:
        doc = load_yaml_file(str(path))
        problems = validate_document(doc, "scenario")
        if any(p.severity == "error" for p in problems):
            return [Result(doc.path, "(file)", False, problems)]
        rs = _ruleset(doc.data["ruleset"], path)
    except MeepleError as e:
        return [Result(str(path), "(file)", False, e.problems)]
    return [run_scenario(rs, doc, i) for i in range(len(doc.data["scenarios"]))]


def run_scenario(rs: Ruleset, doc: Document, index: int) -> Result:
    sc = doc.data["scenarios"][index]
    base = ("scenarios", index)
    name = str(sc.get("name", f"scenario {index + 1}"))
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
        return sc

    def eval(self, text: str, path: tuple) -> Any:
        assert self.game is not None
        expr = parse_expr(str(text), self.origin(path))
        return self.game._rules(self.game._ev.eval, expr, self.scope())

    def run(self) -> None:
        sc = self.sc
        self.game = self.rs.new_game(int(sc["players"]), int(sc.get("seed", 0)))
        if sc.get("setup"):
            block = parse_script(sc["setup"], self.origin(self.base + ("setup",)))
            g = self.game
            g._rules(g._ev.exec_block, block, self.scope())
            # The arranged state may change what the pending decision offers: ask again.
            if g.state.pending is not None:
                g.state.pending = None
                g._rules(M.run, g._ev)
        for i, step in enumerate(sc.get("steps") or []):
            self.step(step, self.base + ("steps", i))

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
        elif "check" in step:
            if not self.eval(step["check"], path + ("check",)):
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
        player = step.get("player")
        seat = int(player) - 1 if player is not None else None
        legal = g.legal_actions(seat)
        matches = [a for a in legal if a["label"] == label]
        if step.get("refused"):
            if not matches and not _could_be_a_label(self.rs, label):
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
            raise self.fail(path + ("act",), f"no legal action for {who} is labelled `{label}`",
                            hint=f"legal now: {options}" if legal else "no decision is pending")
        g.apply(matches[0])


_LABELS: dict[int, tuple[Ruleset, list[re.Pattern[str]]]] = {}  # id -> (the ruleset itself, patterns)


def _could_be_a_label(rs: Ruleset, label: str) -> bool:
    """Whether some option of the ruleset has a label template that this text fits: literal parts must
    match exactly, each `{...}` hole stands for any text."""
    cached = _LABELS.get(id(rs))
    if cached is not None and cached[0] is rs:
        pats = cached[1]
    else:
        pats = []
        for _, root in rs.scripts():
            for n in A.walk(root):
                if type(n) is A.Option:
                    lab = n.label
                    if type(lab) is A.Str:
                        pats.append(re.compile(re.escape(lab.value) + r"\Z"))
                    elif type(lab) is A.Interp:
                        pats.append(re.compile("".join(re.escape(p) if type(p) is str else ".*?"
                                                       for p in lab.parts) + r"\Z", re.DOTALL))
                    else:
                        pats.append(re.compile(".*"))
        _LABELS[id(rs)] = (rs, pats)
    return any(p.match(label) for p in pats)


def _same(got: Any, want: Any, rs: Ruleset) -> bool:
    if type(got) in (int, bool, str) or got is None:
        return got == want and type(got) is type(want) or (got is None and want is None)
    if isinstance(got, list) and isinstance(want, list):
        return len(got) == len(want) and all(_same(a, b, rs) for a, b in zip(got, want))
    return show(got, rs) == want


def _fmt(v: Any, rs: Ruleset) -> str:
    return json.dumps(v) if type(v) in (int, bool, str) or v is None else show(v, rs)
