"""A loaded ruleset that can start games: the checker's model plus `new_game`.

The model (language/model.py) is plain data that the checker reads; only the runtime knows how to
play it. So the runtime subclasses it and hands the subclass to the loader as the class to build,
which keeps imports flowing one way (the model never imports the game).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

from meeple.checker import load
from meeple.language import model
from meeple.runtime.game import Game


class Ruleset(model.Ruleset):
    """A checked ruleset, immutable and shared by all its games."""

    __slots__ = ()

    def new_game(self, players: int, seed: int = 0, *, coverage: bool = False, chance: str = "seeded",
                 before_flow: Any = None, narrate: bool = True) -> Game:
        """A new game at its first decision (or over, if it never asks for one). With chance="explicit",
        random events are chance nodes rather than draws from the seed (see Game.is_chance);
        `before_flow`: a parsed script run between the ruleset's setup and its flow (rule tests
        arrange states with it); `narrate=False`: a simulation that no person reads (see Game.new)."""
        return Game.new(self, players, seed, coverage=coverage, chance=chance, before_flow=before_flow,
                        narrate=narrate)


def load_ruleset(name_or_path: str | os.PathLike, *, check: bool = True,
                 allow: Sequence[str | os.PathLike] = ()) -> Ruleset:
    """Load, validate and analyse a ruleset (or a variant) by bundled name or path. Its `extends:` and
    `import:` read bundled files and files under its own folder, or under a folder in `allow`.

    Raises RulesetError with every problem found, or UsageError when the file cannot be read."""
    rs = load.load_ruleset(name_or_path, check=check, factory=Ruleset, allow=allow)
    assert isinstance(rs, Ruleset)
    return rs
