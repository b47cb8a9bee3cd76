"""OpenSpiel's observers of a Meeple game (`game.make_py_observer`, what `make_observation` asks for).

An observer is one of OpenSpiel's kinds (`pyspiel.IIGObservationType`):

* a seat's own (public information and that seat's private information, the default): its view as
  JSON, and the view's fixed-size vector (tools/observe.py); with perfect recall, the information state:
  digests of the seat's successive views and its actions, then its current view (no vector: a history
  has no fixed size);
* public information only: what a spectator sees (`game.view` of no seat, as the web app's spectators
  get it), as JSON;
* every player's private information: the view of everything, as JSON;
* a seat's private information without the public: not given (`string_from` returns None, which
  OpenSpiel's playthroughs accept). A Meeple view is not split into public and private parts.

Only a seat's own observer has a vector. Perfect recall is offered for a seat's own observer only
(found by QA: every kind was given the seat's own view, so a public observer read its private cards).
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pyspiel
from meeple.errors import Problem, UsageError
from meeple.runtime.views import PUBLIC as SPECTATOR
from meeple.runtime.views import make_view

# The game's config (spieltree._Config) and state (spiel.MeepleState), named in words: spiel.py imports
# this module, and imports run one way.
_Config = Any
MeepleState = Any

SEAT, PUBLIC, ALL, PRIVATE = "seat", "public", "all", "private"


def observer(config: _Config, kind: Any = None) -> Observer:
    """The observer of the kind OpenSpiel asks for (None: a seat's own, without perfect recall)."""
    if kind is None:
        return Observer(config, False, SEAT)
    private = kind.private_info
    what: str | None
    if private == pyspiel.PrivateInfoType.SINGLE_PLAYER:
        what = SEAT if kind.public_info else PRIVATE
    elif private == pyspiel.PrivateInfoType.ALL_PLAYERS:
        what = ALL
    else:
        what = PUBLIC if kind.public_info else None
    if what is None or (kind.perfect_recall and what != SEAT):
        raise UsageError(Problem(
            "U067", "this game has no observer of that kind (perfect recall is offered for a seat's own "
                    "observations, and nothing for no information at all)",
            hint="ask for a seat's own observations (the default), public information, or every player's"))
    return Observer(config, kind.perfect_recall, what)


class Observer:
    """pyspiel's Python observer: `tensor` and `dict` from the view, strings from views or trails."""

    def __init__(self, config: _Config, perfect_recall: bool, kind: str = SEAT) -> None:
        self.config, self.perfect_recall, self.kind = config, perfect_recall, kind
        # Information states are strings only: a trail of views has no fixed size.
        self.tensor = None if perfect_recall or kind != SEAT else np.zeros(config.layout.size, np.float32)
        self.dict = {} if self.tensor is None else {"observation": self.tensor}

    def set_from(self, state: MeepleState, player: int) -> None:
        if self.tensor is not None:
            self.tensor[:] = state.node.tensor(player, self.config.layout)

    def string_from(self, state: MeepleState, player: int) -> str | None:
        if self.kind == PUBLIC:
            return _text(make_view(state.meeple, SPECTATOR))
        if self.kind == ALL:
            return _text(make_view(state.meeple, None))
        if self.kind == PRIVATE:
            return None
        if self.perfect_recall:  # the past as digests of views, the present in full
            return "\n".join([*state.node.trail(player), state.node.view_text(player)])
        return state.node.view_text(player)


def _text(view: dict[str, Any]) -> str:
    return json.dumps(view, sort_keys=True, separators=(",", ":"))
