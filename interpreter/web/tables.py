"""Tables: games hosted by the web server, who sits at each seat, and who may see what.

A table holds one `Game`, a seat plan (a person or a bot per seat), a secret link token per person seat
and one for the host (the page that created the table: the hot-seat screen, or the watch page of a
bots-only game). Nothing here knows about HTTP: app.py maps requests onto these methods, and every
payload comes from render.seat_payload.

Who may see what: a seat token sees its seat, live and in replay. The host token sees the public view of
a game people are playing (or, hot-seat, the seat whose turn it is, after a hand-over); once the game is
over, or if only bots play, or for a save opened for replay, it may pick any point of view, including the
omniscient one. `allowed` is what a page may be shown, `pickable` what it may ask for at will (the
replay, the live page's point-of-view request and its drop-down): the same but for the hot-seat host of
a running game, which is shown a person's seat only through the hand-over and may pick only the public
view.

A rules error stops a table's game as it stops `meeple play` (found by QA: a person's move half applied
it and left the table stuck): a move the rules fail on is not kept, the game stays as it was before it,
nobody moves any more, and, since the game will not go on, every page may see everything and download
its save, as of a finished game.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from typing import Any

from meeple.errors import IllegalAction, MeepleError, Problem, UsageError
from meeple.language.model import Ruleset
from meeple.runtime.chance import CHANCE
from meeple.runtime.game import Game
from meeple.tools.agents import Agent, mix_seed
from meeple.web.bots import make_bot
from meeple.web.render import OMNISCIENT, PUBLIC, seat_payload

SNAPSHOT_EVERY = 32  # replay keeps a copy of the game every so many actions, so stepping stays cheap


@dataclass
class Seat:
    kind: str = "person"  # person | bot
    agent: str = "random"
    budget: int | None = None  # passed to bots that take a budget (search iterations, deals)

    def public(self, i: int) -> dict[str, Any]:
        out: dict[str, Any] = {"name": f"P{i + 1}", "kind": self.kind}
        if self.kind == "bot":
            out["agent"] = self.agent
            if self.budget is not None:
                out["budget"] = self.budget
        return out


@dataclass
class Table:
    id: str
    rs: Ruleset
    source: str
    game: Game
    seats: list[Seat]
    hotseat: bool = False
    speed: float = 0.5  # seconds between bot moves
    replay_only: bool = False  # a save opened for replay: no moves, every point of view
    tokens: list[str | None] = field(default_factory=list)
    host: str = ""
    bot_seed: int = 0
    bots: dict[int, Agent] = field(default_factory=dict)
    paused: bool = False
    failure: MeepleError | None = None  # the rules error that stopped the game (stop)
    start: Game | None = None  # the game at action 0, for replays
    _snapshots: dict[int, tuple[Game, list[dict]]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.tokens = [secrets.token_urlsafe(12) if s.kind == "person" else None for s in self.seats]
        self.host = secrets.token_urlsafe(12)
        self.bots = {i: make_bot(s.agent, mix_seed(self.bot_seed, "agent", i), s.budget, self.rs)
                     for i, s in enumerate(self.seats) if s.kind == "bot"}

    # ------------------------------------------------------------ who sees what
    @property
    def people(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s.kind == "person"]

    def open_book(self) -> bool:
        """May the host see everything? Once the game is over (or stopped by a rules error: it will not go
        on), when no person plays, or in a replay."""
        return self.replay_only or self.game.is_over or self.failure is not None or not self.people

    def allowed(self, token: str) -> list[int]:
        """The audiences a page with this token may be shown: seats, PUBLIC, OMNISCIENT."""
        if token in self.tokens:
            seat = self.tokens.index(token)
            if not self.open_book():
                return [seat]
            return [seat] + [s for s in range(len(self.seats)) if s != seat] + [PUBLIC, OMNISCIENT]
        if token == self.host:
            if self.open_book():
                return [OMNISCIENT, PUBLIC] + list(range(len(self.seats)))
            return [PUBLIC] + (self.people if self.hotseat else [])
        return []

    def pickable(self, token: str) -> list[int]:
        """The audiences a page with this token may pick at will (replay, point-of-view requests, the
        drop-down): those it may be shown, but only the public view for a hot-seat host while the game
        runs, since the seat to play is shown there only after the hand-over (live.Server.message)."""
        if token == self.host and self.hotseat and not self.open_book():
            return [PUBLIC]
        return self.allowed(token)

    def payload(self, audience: int, game: Game | None = None, povs: list[int] | None = None) -> dict[str, Any]:
        """THE message about a game for one audience (live, hot-seat and replay alike): render.seat_payload
        plus table facts everyone may know (who is a bot, which points of view this page may pick)."""
        g = game or self.game
        out = seat_payload(g, audience, [s.public(i) for i, s in enumerate(self.seats)])
        out["table"] = {"hotseat": self.hotseat, "replay_only": self.replay_only, "speed": self.speed,
                        "paused": self.paused, "bots_only": not self.people, "povs": povs or [audience]}
        return out

    # ------------------------------------------------------------ moves
    def bot_turn(self) -> list[int]:
        """The bots that must decide now."""
        if self.game.is_over or self.replay_only or self.failure is not None:
            return []
        return [s for s in self.game.deciders if s in self.bots]

    def play_bot(self, seat: int, index: int, step: int, seen: Game) -> bool:
        """Play option `index`, which the bot at `seat` chose on `seen` (a copy of the game after `step`
        actions), unless the game moved on while it thought (a person chose in secret at the same
        decision) and left it a menu other than the one it chose from. False if not played."""
        g = self.game
        if seat not in self.bot_turn():
            return False
        if step != len(g.state.actions) and not self._same_menu(seat, step, seen):
            return False
        self._apply(index, seat)
        return True

    def act(self, seat: int, step: int, index: int) -> None:
        """A person's move: option `index` of their menu at `step` (the number of actions so far). A stale
        click is refused and nothing changes, unless the moves since then left this seat's menu as it was
        (others deciding at the same time, a sealed choice): then the click means the same option still.
        An illegal index is refused too, and so is every move once a rules error stopped the game. A rules
        error in the move itself stops the game (`_apply`) and is raised."""
        g = self.game
        if self.replay_only:
            raise IllegalAction(Problem("B011", "this game is open for replay only"))
        if self.failure is not None:
            raise IllegalAction(Problem("B016", "a rules error stopped this game: no move is played any more"))
        if self.seats[seat].kind != "person":
            raise IllegalAction(Problem("B012", f"P{seat + 1} is a bot"))
        if type(index) is not int or type(step) is not int:
            raise IllegalAction(Problem("B014", "an action is chosen by its number and the step it was offered at"))
        if step != len(g.state.actions) and not self._same_menu(seat, step):
            raise IllegalAction(Problem("B013", "the game has moved on since this page was drawn; try again"))
        self._apply(index, seat)

    def _apply(self, index: int, seat: int) -> None:
        """Play option `index` of `seat`. An illegal one is refused by the engine, which leaves the game as
        it was. A rules error halfway through the move (found by QA: the move was half applied, the mover
        alone was told, without the error's place, and the table was stuck) leaves the game as it was
        before the move, as `meeple play` keeps the game up to the last move, and stops it (`stop`)."""
        before, played = self.game.copy(), len(self.game.state.actions)
        try:
            self.game.apply_index(index, seat)
        except MeepleError as e:
            if isinstance(e, IllegalAction) and len(self.game.state.actions) == played:
                raise  # refused before anything happened
            self.game = before
            self.stop(e)
            raise

    def stop(self, error: MeepleError) -> None:
        """A rules error stopped the game (in a move, in a bot's thinking, or drawing a page): nobody moves
        any more, and the game is an open book (`open_book`). The first error is the one told."""
        if self.failure is None:
            self.failure = error

    def _same_menu(self, seat: int, step: int, then: Game | None = None) -> bool:
        """Whether a choice `seat` made from its menu after `step` actions (in `then`, a copy of the game at
        that step, else replayed to it) still means the same now: nothing the seat chose from has changed.
        Found by QA: only the options' keys were compared, so a click sent again (a second tab, a retry)
        was played as a new move once the seat decided again with the same keys, after its own move, even
        where the same key read otherwise ("price now 3", not 1). Now the seat must not have moved since
        `step`, so that only others' moves at the same decision (a sealed choice) came between, and its
        options must be the same by key and by label."""
        actions = self.game.state.actions
        if not 0 <= step < len(actions) or any(a["player"] == seat for a in actions[step:]):
            return False

        def menu(g: Game) -> list[tuple[str, str]]:
            return [(a["key"], a["label"]) for a in g.legal_actions(seat)]

        now = menu(self.game)
        return bool(now) and menu(then if then is not None else self.at_step(step)) == now

    def hotseat_next(self) -> int | None:
        """The person seat the hot-seat screen must hand over to, if a person decides now."""
        if not self.hotseat or self.game.is_over or self.replay_only or self.failure is not None:
            return None
        people = [s for s in self.game.deciders if s not in self.bots]
        return people[0] if people else None

    # ------------------------------------------------------------ replay
    def replay_length(self) -> int:
        return len(self.game.state.actions)

    def at_step(self, step: int) -> Game:
        """The game after its first `step` actions, replayed from the start (seed and action log)."""
        actions = self.game.state.actions
        if not 0 <= step <= len(actions):
            raise UsageError(Problem("B015", f"step {step} is outside 0..{len(actions)}"))
        if step == len(actions):
            return self.game
        # A snapshot is used only if the log still starts with the actions that led to it (a take-back
        # may have rewritten the log since).
        base = max((k for k, (_, prefix) in self._snapshots.items() if k <= step and actions[:k] == prefix),
                   default=0)
        g = (self._snapshots[base][0] if base else self._start()).copy()
        for k in range(base, step):
            g.apply(actions[k])
            if (k + 1) % SNAPSHOT_EVERY == 0:
                self._snapshots[k + 1] = (g.copy(), [dict(a) for a in actions[:k + 1]])
        return g

    def move_text(self, step: int) -> str | None:
        """Who did what as action `step` (1-based), in the engine's own words: for audiences that see
        everything only, since another seat's label may name what it chose in secret."""
        if not 0 < step <= len(self.game.state.actions):
            return None
        action = self.game.state.actions[step - 1]
        before = self.at_step(step - 1)
        # A chance outcome (explicit chance) is labelled as the game offered it (chance_outcomes).
        label = next((a["label"] for a in before.legal_actions(action["player"]) if a["key"] == action["key"]),
                     action["key"])
        return f"{'Chance' if action['player'] == CHANCE else 'P' + str(action['player'] + 1)}: {label}"

    def _start(self) -> Game:
        """The game at action 0, made as this one was (Game.made_as): a replay then leads to its state."""
        if self.start is None:
            st = self.game.state
            self.start = Game.new(self.rs, st.nplayers, st.seed, **self.game.made_as())
        return self.start


class Registry:
    """Every table of one server, by id and by token."""

    def __init__(self) -> None:
        self.tables: dict[str, Table] = {}

    def add(self, table: Table) -> Table:
        self.tables[table.id] = table
        return table

    def new_id(self) -> str:
        return secrets.token_urlsafe(6)

    def by_token(self, token: str) -> Table | None:
        for t in self.tables.values():
            if token == t.host or token in t.tokens:
                return t
        return None
