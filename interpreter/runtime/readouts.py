"""What a game in progress tells (the readouts half of `Game`, game.py): scores and winners, views,
text for one seat, chance events, and its save. None of these changes the game: rules they run are run
as queries (`_query`), which put back whatever the rules touch on the way."""

from __future__ import annotations

import json
from collections.abc import Callable
from fractions import Fraction
from typing import Any, TypeVar

from meeple.errors import IllegalAction, Problem, RuntimeRuleError, UsageError
from meeple.language.model import Ruleset
from meeple.runtime import explicit as X
from meeple.runtime import results, shortcuts
from meeple.runtime import saves as S
from meeple.runtime.data import Player, as_int
from meeple.runtime.decisions import build_menu
from meeple.runtime.evaluator import Evaluator
from meeple.runtime.limits import located
from meeple.runtime.narrate import Move, take
from meeple.runtime.render import log_tail, render
from meeple.runtime.state import GameState

Game = Any  # runtime.game.Game, which is made of this class
T = TypeVar("T")
SPECTATOR = -1  # a viewer who holds no seat: sees only what is public (views.make_view's "no seat")


def whole(x: Any, what: str) -> int:
    """A whole number given to the API: Python's or NumPy's (from a researcher's arrays), not True or 1.0."""
    v = x if type(x) is int else as_int(x)
    if v is None:
        raise UsageError(Problem("G001", f"{what} must be a whole number, not {x!r}"))
    return v


def index_of(i: Any) -> int:
    """An action index given to the API, as `whole`; refused as an illegal action, which it is."""
    try:
        return whole(i, "an action index")
    except UsageError:
        raise IllegalAction(Problem("G005", f"an action index must be a whole number, not {i!r}")) from None


class Readouts:
    __slots__ = ()

    # provided by Game (game.py)
    rs: Ruleset
    state: GameState
    _ev: Evaluator
    _chance: Any
    max_steps: int

    @property
    def current_player(self) -> int | None:  # pragma: no cover - Game's
        raise NotImplementedError

    # ------------------------------------------------------------ running the rules
    def _rules(self, fn: Callable[..., T], *args: Any) -> T:
        """Run the rules with a fresh step budget; any Python failure inside them becomes a located
        rules error (a ruleset that validates never crashes the engine)."""
        self._ev.limit = self.state.steps + self.max_steps
        self._ev.depth = 0
        try:
            return fn(*args)
        except Exception as e:  # noqa: BLE001 - the safety net: every failure becomes a located error
            raise located(e) from None

    def _seat(self, seat: Any, spectator: bool = False, everything: bool = False) -> Any:
        """A seat given to the API, checked: a 1-based or mistyped one would otherwise read as a spectator
        (a view without the seat's own hand) or fail inside the rules as if the ruleset were wrong."""
        if seat is None and everything:
            return None
        i = as_int(seat)  # any whole number (NumPy's too), but not True or 1.0
        n = self.state.nplayers
        if i is None or not (0 <= i < n or (i == SPECTATOR and spectator)):
            also = (", or -1 for a spectator" if spectator else "") + (", or None for everything" if everything else "")
            raise UsageError(Problem("G009", f"{seat!r} is not a seat: this game's seats are 0 to {n - 1}{also}"))
        return i

    def _menus(self) -> None:
        """Work out the open decision's options if a lazy game (a bot's look-ahead, state.py) opened it
        without them. Everything that reads options calls this first."""
        p = self.state.pending
        if p is not None and p["options"] is None:
            self._rules(build_menu, self._ev)

    def _query(self, fn: Callable[..., T], *args: Any) -> T:
        """Run rules that only read the game (labels, prompts, scores, views): whatever they touch on
        the way (the step counter, the RNG, coverage) is put back, so asking changes nothing."""
        st = self.state
        steps, rng, cov = st.steps, st.rng.state, None if st.coverage is None else dict(st.coverage)
        try:
            return self._rules(fn, *args)
        finally:
            if st.steps != steps:  # it ran rules, which may have changed what a chance event shows
                shortcuts.forget(self)
            st.steps, st.rng.state = steps, rng
            if cov is not None:
                st.coverage = cov

    # ------------------------------------------------------------ chance
    @property
    def explicit_chance(self) -> bool:
        return self.state.rng.explicit

    @property
    def is_chance(self) -> bool:
        """True at a chance event of a game with explicit chance: apply one of `chance_outcomes()`."""
        return self._chance is not None

    def chance_outcomes(self) -> list[tuple[dict, Fraction]]:
        """The outcomes of the open chance event as (action, exact probability); empty at a decision."""
        return X.chance_actions(self)

    # ------------------------------------------------------------ results
    @property
    def scores(self) -> list[Any]:
        if self.rs.score is None:
            return [0] * self.state.nplayers
        return self._query(lambda: [self._ev.eval(self.rs.score, {"p": Player(i)})
                                    for i in range(self.state.nplayers)])

    def ranking_key(self, seat: int) -> tuple:
        """(score, tie-breaks) of a seat, as `winners` ranks them."""
        return self._ranking_key(self._seat(seat))

    @property
    def ranking_keys(self) -> list[tuple]:
        """(score, tie-breaks) of every seat in seat order; `winners` and the results rank by them."""
        return [self._ranking_key(i) for i in range(self.state.nplayers)]

    def _ranking_key(self, seat: int) -> tuple:
        # Unchecked: the seats come from range(nplayers), for every finished game, bots' rollouts included.
        if self.rs.score is None:
            return ()
        scope = {"p": Player(seat)}
        return self._query(lambda: tuple([self._ev.eval(self.rs.score, scope)]
                                         + [self._ev.eval(t, scope) for t in self.rs.tiebreak]))

    @property
    def winners(self) -> list[int]:
        """Seats tied for the best score after tie-breaks (ties share the win)."""
        keys = self.ranking_keys
        try:
            best = max(keys)
        except TypeError:
            raise RuntimeRuleError(Problem(
                "R001", "players cannot be ranked: their scores (and tie-breaks) must all be numbers, or all "
                        "strings", getattr(self.rs.score, "span", None))) from None
        return [i for i, k in enumerate(keys) if k == best]

    def ranking(self) -> list[dict]:
        """Players best first: {place, seat, score, tiebreaks} (tied players share a place)."""
        return results.ranking(self)

    def score_breakdown(self, seat: int) -> list[tuple[str, str, int]]:
        """Where a player's score came from: (counter, source, total) per card, effect or phase."""
        return results.breakdown(self, self._seat(seat))

    def evaluate(self, expr: str, scope: dict | None = None) -> Any:
        """Evaluate an expression in the language against this game (tests, scenarios, REPL)."""
        from meeple.language.parser import parse_expr, plain_origin

        if not isinstance(expr, str):  # found by QA: evaluate(5) was an AttributeError
            raise UsageError(Problem("G013", f"an expression to evaluate is text, not {type(expr).__name__}"))
        node = parse_expr(expr, plain_origin("<expr>"))
        # The game's own evaluator, whose reference path runs a node parsed on the fly (nothing is compiled
        # or cached for it); a generated evaluator also refuses what would break the compiled code's
        # assumptions (codegen/flatvars.py), should the expression call a procedure that stores it.
        shortcuts.forget(self)  # an expression may move components without counting a step
        ev = type(self._ev)(self.rs, self.state)
        ev.limit = self.state.steps + self.max_steps
        try:
            return ev.eval(node, dict(scope or {}))
        except Exception as e:  # noqa: BLE001 - the safety net, as in _rules
            raise located(e) from None

    # ------------------------------------------------------------ views
    def view(self, player: int | None, texts: bool = True) -> dict:
        """What `player` may see, as JSON-ready data: no other hands, face-down cards, deck order or sealed
        choices. `None` sees everything (for replays of finished games and for tools, never for a seat),
        and -1 (`SPECTATOR`) only what is public. `texts=False` leaves out what only a person reads (status
        lines, the prompt, the actions, the log): several times faster, for observation vectors."""
        from meeple.runtime.views import make_view

        player = self._seat(player, spectator=True, everything=True)
        self._menus()
        return self._query(make_view, self, player, bool(texts))

    def determinize(self, player: int, seed: int) -> Game:
        """A copy that `player` cannot tell from this game, with everything `player` cannot see (hidden
        piles' order, other hands, face-down cards, others' sealed choices, secret counters, the random
        generator) dealt again from `seed`. For search bots; see runtime/determinize.py. The copy draws
        its chance events from its generator (seeded), also when this game reports them (explicit)."""
        from meeple.runtime.determinize import determinize

        player, seed = self._seat(player), whole(seed, "the seed")
        if self._chance is not None:
            raise UsageError(Problem("G010", "a chance event is open: determinize at a player's decision",
                                     hint="apply one of chance_outcomes() first"))
        pending = self.state.pending
        if pending is not None and player not in pending["players"]:
            # The decision in progress was worked out from what its deciders hold: a new deal of that would
            # disagree with it and the rules fail (found by QA); keeping it would show it to the seat.
            who = ", ".join(f"P{s + 1}" for s in pending["players"])
            raise UsageError(Problem("G012", f"P{player + 1} does not decide now ({who} does): a determinization "
                                             "is for a seat at its own decision"))
        self._menus()
        return determinize(self, player, seed)

    # ------------------------------------------------------------ text for one seat
    # Front ends show a seat only these renderings, in which what the seat may not see reads as a
    # placeholder ("a hidden card"); see render.py.
    def take(self, i: int, player: int | None = None) -> Move:
        """Apply the i-th legal action of `player` (like apply_index) and return how each seat saw it."""
        if self._chance is not None:  # found by QA: the outcome was applied, then an IndexError
            raise IllegalAction(Problem("G003", "this is a chance event: apply one of chance_outcomes(); "
                                                "`take` is for a player's decision"))
        if player is None:
            player = self.current_player
            if player is None:
                raise IllegalAction(Problem("G002", "the game is over: no action is legal"))
        return take(self, index_of(i), self._seat(player))

    def log_for(self, viewer: int, start: int = 0) -> list[str]:
        """The log lines from index `start` of the log that `viewer` (a seat, or -1 for a spectator) may
        read, as they read them."""
        viewer = self._seat(viewer, spectator=True)
        return [render(t, viewer) for a, t in self.state.log[start:] if a == -1 or a == viewer]

    def log_tail(self, viewer: int | None, n: int) -> list[str]:
        """The last `n` log lines `viewer` may read. `None` reads every line meant for a seat, each
        private one marked with the seat it was for (engine notes and quiet lines are for no one)."""
        viewer = self._seat(viewer, spectator=True, everything=True)
        return log_tail(self.state.log, viewer, n)

    def prompt_for(self, viewer: int) -> str | None:
        """The open decision's prompt as `viewer` reads it (None if it has none or is not theirs to see)."""
        from meeple.runtime.views import decision_prompt

        viewer = self._seat(viewer, spectator=True)
        self._menus()
        return decision_prompt(self, viewer)

    # ------------------------------------------------------------ saves
    def to_json(self) -> dict:
        """The game as plain JSON data: a snapshot that later play never changes (and that can be edited
        without touching the game)."""
        self._menus()
        return S.state_to_json(self.rs, self.state, under_way=self._chance is not None)

    def made_as(self) -> dict[str, Any]:
        """How this game was made, as a replay of it must be (Game.new's and Game.replay's `chance` and
        `narrate`): its own chance (seeded, or explicit: outcomes in the action log) and narration."""
        return {"chance": "explicit" if self.state.rng.explicit else "seeded", "narrate": not self.state.quiet}

    def dumps(self) -> str:
        return json.dumps(self.to_json(), separators=(",", ":"))

    @classmethod
    def from_json(cls, rs: Ruleset, data: dict | str) -> Game:
        """Restore a saved game. A save is checked against its own seed and action log: one whose state is
        not what they replay to (corrupt, edited, or from another ruleset) raises SaveError. Saves made by
        this process are sealed and load without the replay."""
        return S.load(cls, rs, data)

    def __reduce__(self) -> tuple:
        # A game pickles as its ruleset and its save: the generated code it runs is rebuilt where it is
        # unpickled (multiprocessing, vectorised environments), and the save is checked there as any is.
        return _unpickle, (type(self), self.rs, self.to_json())

    @classmethod
    def replay(cls, rs: Ruleset, players: int, seed: int, actions: list[dict], *, coverage: bool = False,
               chance: str = "seeded", narrate: bool = True) -> Game:
        """A new game with `actions` applied in turn (each as `apply` takes it)."""
        if not isinstance(actions, list):  # found by QA: None gave a TypeError
            raise UsageError(Problem("G005", "the actions to replay must be a list of actions"))
        g = cls.new(rs, players, seed, coverage=coverage, chance=chance, narrate=narrate)  # type: ignore[attr-defined]
        for a in actions:
            g.apply(a)
        return g

    @classmethod
    def replay_moves(cls, rs: Ruleset, data: dict) -> tuple[Game, int]:
        """A save whose ruleset has changed since (from_json refuses it, SaveError L003): its moves
        replayed from its seed under the rules as they are now, up to the first that is no longer legal.
        Returns the game and how many of the save's moves it took. A move the rules allow but fail on
        raises their RuntimeRuleError, located, as playing it would."""
        return S.replay_moves(cls, rs, data)


def _unpickle(cls: Any, rs: Ruleset, data: dict) -> Any:
    return cls.from_json(rs, data)
