"""A game that the rules broke in the middle of many, kept so that it can be looked at.

`simulate`, `compare`, `ladder` and `fit-value` play hundreds of games with bots. When a script fails
in one of them (a division by zero in a card's effect, a loop that never ends), its place in the YAML
says what failed but not in which position of which game. So the error also names the game (its seed,
players and bots) and the decision, and the game up to that decision is saved as a Meeple save, which
`meeple play RULESET --load FILE` continues.

A game that never ends is such a failure too (R010, `endless`): whatever plays games (a simulation, a
search bot's rollouts, the adapters' measuring games) stops one at `MAX_DECISIONS` rather than hang.
"""

from __future__ import annotations

import dataclasses
import json
import os
import tempfile
import time
from pathlib import Path
from typing import Any

from meeple.errors import MeepleError, Problem, RuntimeRuleError
from meeple.loading.cache import write_atomic
from meeple.runtime.game import Game, ruleset_digest
from meeple.runtime.rules import Ruleset

# A game, or a bot's look-ahead, still offering choices past this is reported (R010), not waited for.
MAX_DECISIONS = 100_000


def endless(game: Game, max_decisions: int, which: str) -> RuntimeRuleError:
    """R010: a game that was still offering choices after `max_decisions` (`which` says which game),
    located at the open decision."""
    return RuntimeRuleError(Problem(
        "R010", f"the game did not end within {max_decisions} decisions {which}; this decision was still being offered",
        open_decision(game), hint="a loop in the flow may offer choices forever"))


def open_decision(game: Game) -> Any:
    """Where the open decision is written in the YAML (its `choose`): where R010 and the adapters' U066 are
    located (found by QA: a game that never ended was reported with no place in the YAML)."""
    stack = game.state.stack
    return getattr(stack[-1][1], "span", None) if stack and game.state.pending is not None else None


def in_game(e: MeepleError, rs: Ruleset, players: int, seed: int, agents: str, game: Game | None,
            decisions: int) -> MeepleError:
    """`e` with the game it happened in added to each problem's hint; `decisions` were applied whole."""
    path = _save(rs, players, seed, game, decisions)
    where = f"it happened in a game of {players} players, seed {seed}, bots {agents}, at decision {decisions + 1}"
    if path is not None:
        where += (f"; that game up to this decision is saved in {path} "
                  f"(`meeple play {rs.path} --load {path}` continues it)")
    return with_hint(e, where)


def with_hint(e: MeepleError, more: str) -> MeepleError:
    """`e` (of its own type) with `more` added to each problem's hint."""
    return type(e)([dataclasses.replace(p, hint=f"{p.hint}; {more}" if p.hint else more) for p in e.problems])


def _save(rs: Ruleset, players: int, seed: int, game: Game | None, decisions: int) -> str | None:
    """The file the game is kept in, or None. Best effort: whatever goes wrong here, the rules' error
    is what gets reported, never this function's."""
    if game is None:  # the setup itself failed: there is no game to keep
        return None
    try:
        # Played again from its seed up to the decision, the failed one's half-done changes left out: a
        # decision that failed while it was applied is already in the action log, one that failed while
        # a bot thought about it on its own copies is not.
        actions: list[Any] = game.state.actions[:decisions]
        saved = json.dumps(Game.replay(rs, players, seed, actions).to_json()).encode("utf-8")
        # Named by the ruleset and the game (a comparison plays the base and a variant on the same
        # seeds), so that the report is the same however many processes played and a second run of the
        # same failure writes the same file; in one folder; written whole, then renamed.
        folder = Path(tempfile.gettempdir()) / "meeple-failed-games"
        folder.mkdir(parents=True, exist_ok=True)
        _sweep(str(folder))
        path = folder / f"{ruleset_digest(rs)[:8]}-{seed}-{players}p.json"
        return str(path) if write_atomic(path, saved) else None
    except Exception:  # noqa: BLE001 - see the docstring
        return None


def _sweep(folder: str, age: float = 600.0) -> None:
    """Remove what saves cut short left: when one game of a parallel run fails, the run stops and ends
    its other worker processes, which may be writing a save of their own (`finally` does not run then)."""
    now = time.time()
    for name in os.listdir(folder):
        if name.endswith(".tmp"):
            try:
                if now - os.path.getmtime(os.path.join(folder, name)) > age:
                    os.remove(os.path.join(folder, name))
            except OSError:
                pass
