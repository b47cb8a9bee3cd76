"""The steps of rule tests that look without acting: what a menu offers, how large it is, and what a
seat sees. Used by `scenarios.py`; each check raises the runner's failure, located at the step.

Labels in `offered` and `not_offered` are exact, or patterns when they contain `*` (any text): "P1 may
not decline" is `not_offered: "Pass*"`, which no option label has to match. An exact label that no
option of the ruleset could ever produce is refused as a misspelling, since asserting that it is not
offered could never fail.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from meeple.language import ast as A
from meeple.language.model import Ruleset
from meeple.language.walk import walk
from meeple.runtime.game import Game
from meeple.runtime.render import render


def label_matcher(label: str) -> Callable[[str], bool]:
    """Exact text, or with `*` standing for any text (a pattern)."""
    if "*" not in label:
        return lambda s: s == label
    rx = re.compile(".*".join(re.escape(p) for p in label.split("*")) + r"\Z", re.DOTALL)
    return lambda s: rx.match(s) is not None


def as_list(value: Any) -> list[str]:
    return [str(v) for v in value] if isinstance(value, list) else [str(value)]


def seat_of(runner: Any, step: dict, path: tuple) -> int | None:
    """The seat a step's `player: N` names (counted from 1, as P1), or None for the deciding players. One
    that is no seat of the game is the step's error, said as scenarios count (found by QA: `player: 9`
    was "8 is not a seat: this game's seats are 0 to 1", at the scenario's line)."""
    player = step.get("player")
    if player is None:
        return None
    n = runner.game.state.nplayers
    if not 1 <= int(player) <= n:
        raise runner.fail(path + ("player",), f"there is no P{int(player)} in a {n}-player game")
    return int(player) - 1


def menu(game: Game, seat: int | None) -> list[dict]:
    return game.legal_actions(seat)


def shown(legal: list[dict]) -> str:
    return "; ".join(a["label"] for a in legal[:12]) + (" ..." if len(legal) > 12 else "") if legal else "nothing"


def who(seat: int | None) -> str:
    return f"P{seat + 1}" if seat is not None else "the deciding players"


def offered(runner: Any, step: dict, path: tuple, could_be: Callable[[str], bool]) -> None:
    """`offered: LABEL(S)` must each match a legal action; `not_offered: LABEL(S)` none."""
    g, seat = runner.game, seat_of(runner, step, path)
    legal = menu(g, seat)
    labels = [a["label"] for a in legal]
    if "offered" in step:
        for label in as_list(step["offered"]):
            if not any(map(label_matcher(label), labels)):
                raise runner.fail(path + ("offered",), f"`{label}` is not offered to {who(seat)}",
                                  hint=f"offered now: {shown(legal)}" + _not_deciding(g, seat))
    if "not_offered" in step:
        for label in as_list(step["not_offered"]):
            if "*" not in label and not could_be(label):
                raise runner.fail(path + ("not_offered",), f"no option of the ruleset can be labelled `{label}`",
                                  hint="check the spelling, or write a pattern with `*` (`Pass*`) for an "
                                  "option the ruleset does not have")
            hit = [x for x in labels if label_matcher(label)(x)]
            if hit:
                raise runner.fail(path + ("not_offered",), f"`{hit[0]}` is offered to {who(seat)}, "
                                  "but must not be", hint=f"offered now: {shown(legal)}")


def menu_size(runner: Any, step: dict, path: tuple) -> None:
    g, seat = runner.game, seat_of(runner, step, path)
    legal = menu(g, seat)
    want = int(step["menu_size"])
    if len(legal) != want:
        has = "has" if seat is not None else "have"
        raise runner.fail(path + ("menu_size",), f"{who(seat)} {has} {len(legal)} options, expected {want}",
                          hint=f"offered now: {shown(legal)}" + _not_deciding(g, seat))


def seen_by(runner: Any, step: dict, path: tuple) -> None:
    """`seen_by: N` with `shows:` and `hides:`: texts that must (not) appear in what seat N sees: its
    view (zones, counters, the open decision) and its log lines, its own private ones included."""
    g = runner.game
    seat = int(step["seen_by"]) - 1
    if not 0 <= seat < g.state.nplayers:
        raise runner.fail(path + ("seen_by",), f"there is no P{seat + 1} in a {g.state.nplayers}-player game")
    if "shows" not in step and "hides" not in step:
        raise runner.fail(path + ("seen_by",), "`seen_by` without `shows` or `hides` checks nothing",
                          hint="list the texts the player must see (`shows`) or must not see (`hides`)")
    texts = list(_strings(g.view(seat)))
    texts += [t for a, t in g.state.log if a in (-1, seat)]
    could_be_seen = seeable(runner.rs, g)
    for text in as_list(step.get("shows", [])):
        if not any(text in t for t in texts):
            never = "" if could_be_seen(text) else "; no text of the ruleset could ever show it"
            raise runner.fail(path + ("shows",), f"P{seat + 1} does not see `{text}`",
                              hint="neither in P{0}'s view nor in the log lines P{0} reads".format(seat + 1) + never)
    for text in as_list(step.get("hides", [])):
        if not could_be_seen(text):
            # Otherwise a misspelt text would "be hidden" and the test could never fail.
            raise runner.fail(path + ("hides",), f"no text of the ruleset can show `{text}`, so hiding it "
                              "checks nothing", hint="check the spelling against the ruleset's names and texts")
        hit = next((t for t in texts if text in t), None)
        if hit is not None:
            raise runner.fail(path + ("hides",), f"P{seat + 1} sees `{text}`, which must be hidden from them",
                              hint=f"it is in: {hit[:120]}")


def seat_logs(game: Game) -> dict[Any, list[str]]:
    """For checks: each seat's log lines (public and its own), keyed by player."""
    from meeple.runtime.data import Player

    return {Player(p): [t for a, t in game.state.log if a in (-1, p)] for p in range(game.state.nplayers)}


def not_deciding_hint(game: Game, seat: int | None) -> str | None:
    """When an action is asked of a seat that is not deciding: who is, and what they may do."""
    if seat is None or seat in game.deciders or not game.deciders:
        return None
    names = ", ".join(f"P{d + 1}" for d in game.deciders)
    first = game.deciders[0]
    return (f"P{seat + 1} is not deciding now; {names} {'is' if len(game.deciders) == 1 else 'are'}: "
            f"P{first + 1} may {shown(game.legal_actions(first))}")


def _not_deciding(game: Game, seat: int | None) -> str:
    h = not_deciding_hint(game, seat)
    return f" ({h})" if h else ""


def _strings(data: Any):
    if isinstance(data, str):
        yield data
    elif isinstance(data, dict):
        for v in data.values():
            yield from _strings(v)
    elif isinstance(data, list):
        for v in data:
            yield from _strings(v)


_LABELS: dict[int, tuple[Ruleset, list[re.Pattern[str]]]] = {}  # id -> (the ruleset itself, patterns)


def could_be_a_label(rs: Ruleset, label: str) -> bool:
    """Whether some option of the ruleset has a label template that this text fits: literal parts must
    match exactly, each `{...}` hole stands for any text."""
    cached = _LABELS.get(id(rs))
    if cached is not None and cached[0] is rs:
        pats = cached[1]
    else:
        pats = []
        for _, root in rs.scripts():
            for n in walk(root):
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


def seeable(rs: Ruleset, game: Game) -> Callable[[str], bool]:
    """Whether a seat could ever see a text: each of its words (numbers aside) is part of the ruleset's
    files (names, data, the scripts' texts), of a component's name, or of what any seat sees or reads
    now (the engine's own words). Loose on purpose: it catches misspellings, never a possible text. The
    known words are gathered once, when first needed, for every text of a step."""
    known: list[str] = []

    def could_be_seen(text: str) -> bool:
        if not known:
            seen = [json.dumps(game.view(s), ensure_ascii=False) for s in range(game.state.nplayers)]
            known.append("\n".join([*rs.sources.values(), *(c.name for c in rs.components), *seen,
                                     *(render(t, None) for _, t in game.state.log), str(rs.name)]))
        return all(w.isdigit() or re.fullmatch(r"P\d+", w) or w in known[0] for w in re.findall(r"\w+", text))

    return could_be_seen
