"""The public API of a game in progress: decisions, actions, views, saves, copies.

    rs = load_ruleset("my_game")
    game = rs.new_game(players=4, seed=1)
    while not game.is_over:
        game.apply(game.legal_actions()[0])
    game.scores, game.winners
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from meeple.errors import IllegalAction, Problem, SaveError
from meeple.language.model import Ruleset
from meeple.runtime import machine as M
from meeple.runtime import results
from meeple.runtime.compiler import CompiledEvaluator
from meeple.runtime.data import Comp, Player, Zone, decode, encode
from meeple.runtime.narrate import Move, take
from meeple.runtime.render import log_entry, render
from meeple.runtime.state import GameState

SAVE_FORMAT = "meeple-save"
SAVE_VERSION = 1

Action = dict  # {"player": seat (0-based), "key": stable id, "label": readable text}


class Game:
    __slots__ = ("_ev", "rs", "state")

    # The compiled evaluator is the default; the plain tree-walker is the reference it is tested against.
    evaluator_class: type = CompiledEvaluator

    def __init__(self, rs: Ruleset, state: GameState) -> None:
        self.rs = rs
        self.state = state
        self._ev = self.evaluator_class(rs, state)

    # ------------------------------------------------------------ creation
    @classmethod
    def new(cls, rs: Ruleset, players: int, seed: int = 0, *, coverage: bool = False, narrate: bool = True) -> Game:
        """A new game. `narrate=False` (simulations) skips what only a person reads: its log lines are
        kept as plain text no seat is shown, and where points came from is not noted."""
        if not rs.min_players <= players <= rs.max_players:
            raise IllegalAction(Problem("G001", f"{rs.name} is for {rs.min_players} to {rs.max_players} players, "
                                                f"not {players}"))
        st = GameState(players, seed)
        if coverage:
            st.coverage = {}
        st.quiet = not narrate
        for name, d in rs.game_counters.items():
            st.counters[name] = decode(d.initial)
        for p in range(players):
            for name, d in rs.player_counters.items():
                st.counters[f"{p}.{name}"] = decode(d.initial)
            for name in rs.player_zones:
                st.zones[f"{p}.{name}"] = []
        for name in rs.game_zones:
            st.zones[name] = []
        for c in rs.components:
            kind = rs.kinds[c.kind]
            for name, d in kind.counters.items():
                st.counters[f"#{c.id}.{name}"] = decode(d.initial)
            for name in kind.slots:
                st.zones[f"#{c.id}.{name}"] = []
            st.zones["box"].append(Comp(c.id))
            st.loc[c.id] = "box"
        if rs.flow is not None:
            st.stack.append([M.BLOCK, rs.flow, {}, 0])
        if rs.setup is not None:
            st.stack.append([M.BLOCK, rs.setup, {}, 0])
        g = cls(rs, st)
        M.run(g._ev)
        return g

    def copy(self) -> Game:
        return Game(self.rs, self.state.copy())

    # ------------------------------------------------------------ decisions
    @property
    def is_over(self) -> bool:
        return self.state.over

    @property
    def deciders(self) -> list[int]:
        """Seats that must still choose at this decision point (several for sealed choices)."""
        p = self.state.pending
        if p is None:
            return []
        return [s for s in p["players"] if s not in p["chosen"]]

    @property
    def current_player(self) -> int | None:
        d = self.deciders
        return d[0] if d else None

    def legal_actions(self, player: int | None = None) -> list[Action]:
        """Every legal action of every player who must decide now (or of one player)."""
        st = self.state
        if st.pending is None:
            return []
        frame = st.stack[-1]
        out = []
        for seat in self.deciders:
            if player is not None and seat != player:
                continue
            for opt in st.pending["options"][seat]:
                out.append({"player": seat, "key": M.key(opt), "label": M.label(self._ev, frame, opt, seat)})
        return out

    def num_actions(self, player: int | None = None) -> int:
        """How many actions the (first) deciding player has: a fast path for bots."""
        pending = self.state.pending
        if pending is None:
            return 0
        if player is None:
            chosen = pending["chosen"]
            player = next(iter([s for s in pending["players"] if s not in chosen]))
        return len(pending["options"][player])

    def apply_index(self, i: int, player: int | None = None) -> None:
        """Apply the i-th legal action of a deciding player without building labels (fast path)."""
        pending = self.state.pending
        if pending is None:
            raise IllegalAction(Problem("G002", "the game is over: no action is legal"))
        chosen = pending["chosen"]
        if player is None:
            player = next(iter([s for s in pending["players"] if s not in chosen]))
        elif player not in pending["players"] or player in chosen:
            raise IllegalAction(Problem("G003", f"P{player + 1} does not decide now"))
        opts = pending["options"][player]
        if not 0 <= i < len(opts):
            raise IllegalAction(Problem("G004", f"there are {len(opts)} options, so {i} is not one of them"))
        self._choose(player, i, M.key(opts[i]))

    def apply(self, action: Action | int | str) -> None:
        """Apply an action: a dict from legal_actions(), an index into it, or an exact label.
        An illegal action raises IllegalAction with the reason, and the state does not change."""
        st = self.state
        if st.pending is None:
            raise IllegalAction(Problem("G002", "the game is over: no action is legal"))
        if isinstance(action, bool):
            raise IllegalAction(Problem("G005", "an action must be an action, an index or a label"))
        if isinstance(action, int):
            legal = self.legal_actions()
            if not 0 <= action < len(legal):
                raise IllegalAction(Problem("G004", f"there are {len(legal)} actions, so {action} is not one of them"))
            action = legal[action]
        elif isinstance(action, str):
            matches = [a for a in self.legal_actions() if a["label"] == action]
            if not matches:
                raise IllegalAction(Problem("G006", f"no legal action is labelled {action!r}"))
            if len(matches) > 1 and len({a["player"] for a in matches}) > 1:
                raise IllegalAction(Problem("G007", f"several players have an action labelled {action!r}; "
                                                    "pass the action itself"))
            action = matches[0]
        if not isinstance(action, dict) or "player" not in action or "key" not in action:
            raise IllegalAction(Problem("G005", "an action needs `player` and `key`"))
        seat = action["player"]
        if seat not in self.deciders:
            who = ", ".join(f"P{s + 1}" for s in self.deciders)
            raise IllegalAction(Problem("G003", f"it is not P{seat + 1 if isinstance(seat, int) else seat}'s "
                                                f"decision now (waiting for {who})"))
        for i, opt in enumerate(st.pending["options"][seat]):
            if M.key(opt) == action["key"]:
                self._choose(seat, i, action["key"])
                return
        raise IllegalAction(Problem("G008", f"{action.get('label') or action['key']!r} is not a legal action now"))

    def _choose(self, seat: int, i: int, key: str) -> None:
        st = self.state
        st.pending["chosen"][seat] = i
        st.actions.append({"player": seat, "key": key})
        if len(st.pending["chosen"]) == len(st.pending["players"]):
            if not st.quiet:
                st.before = (dict(st.loc), frozenset(st.facedown))
            M.resolve(self._ev)
            M.run(self._ev)

    # ------------------------------------------------------------ results
    @property
    def scores(self) -> list[Any]:
        if self.rs.score is None:
            return [0] * self.state.nplayers
        return [self._ev.eval(self.rs.score, {"p": Player(i)}) for i in range(self.state.nplayers)]

    def ranking_key(self, seat: int) -> tuple:
        scope = {"p": Player(seat)}
        return tuple([self._ev.eval(self.rs.score, scope)] + [self._ev.eval(t, scope) for t in self.rs.tiebreak]) \
            if self.rs.score is not None else ()

    @property
    def winners(self) -> list[int]:
        """Seats tied for the best score after tie-breaks (ties share the win)."""
        keys = [self.ranking_key(i) for i in range(self.state.nplayers)]
        best = max(keys)
        return [i for i, k in enumerate(keys) if k == best]

    def ranking(self) -> list[dict]:
        """Players best first: {place, seat, score, tiebreaks} (tied players share a place)."""
        return results.ranking(self)

    def score_breakdown(self, seat: int) -> list[tuple[str, str, int]]:
        """Where a player's score came from: (counter, source, total) per card, effect or phase."""
        return results.breakdown(self, seat)

    def evaluate(self, expr: str, scope: dict | None = None) -> Any:
        """Evaluate an expression in the language against this game (tests, scenarios, REPL)."""
        from meeple.language.parser import parse_expr, plain_origin

        return self._ev.eval(parse_expr(expr, plain_origin("<expr>")), dict(scope or {}))

    # ------------------------------------------------------------ views
    def view(self, player: int) -> dict:
        """What `player` may see, as JSON-ready data: no other hands, face-down cards, deck order or sealed
        choices."""
        from meeple.runtime.views import make_view

        return make_view(self, player)

    # ------------------------------------------------------------ text for one seat
    # Front ends show a seat only these renderings, in which what the seat may not see reads as a
    # placeholder ("a hidden card"); see render.py.
    def take(self, i: int, player: int | None = None) -> Move:
        """Apply the i-th legal action of `player` (like apply_index) and return how each seat saw it."""
        if player is None:
            player = self.current_player
            if player is None:
                raise IllegalAction(Problem("G002", "the game is over: no action is legal"))
        return take(self, i, player)

    def log_for(self, viewer: int, start: int = 0) -> list[str]:
        """The log lines from index `start` of the log that `viewer` may read, as they read them."""
        return [render(t, viewer) for a, t in self.state.log[start:] if a == -1 or a == viewer]

    def log_tail(self, viewer: int, n: int) -> list[str]:
        """The last `n` log lines `viewer` may read."""
        out: list[str] = []
        for a, t in reversed(self.state.log):
            if len(out) >= n:
                break
            if a == -1 or a == viewer:
                out.append(render(t, viewer))
        return out[::-1]

    def prompt_for(self, viewer: int) -> str | None:
        """The open decision's prompt as `viewer` reads it (None if it has none or is not theirs to see)."""
        from meeple.runtime.views import decision_prompt

        return decision_prompt(self, viewer)

    # ------------------------------------------------------------ saves
    def to_json(self) -> dict:
        st = self.state
        frames = M.frames_to_json(st.stack, self.rs.node_ids)
        return {
            "format": SAVE_FORMAT, "version": SAVE_VERSION, "ruleset": self.rs.name,
            "ruleset_digest": ruleset_digest(self.rs), "players": st.nplayers, "seed": st.seed,
            "state": {
                "rng": st.rng.state, "counters": {k: encode(v) for k, v in st.counters.items()},
                "zones": st.zones, "facedown": sorted(st.facedown), "log": [list(x) for x in st.log],
                "pending": _enc_pending(st.pending), "over": st.over, "phase": st.phase, "steps": st.steps,
                "stack": frames, "coverage": st.coverage,
            },
            "actions": st.actions,
        }

    def dumps(self) -> str:
        return json.dumps(self.to_json(), separators=(",", ":"))

    @classmethod
    def from_json(cls, rs: Ruleset, data: dict | str) -> Game:
        """Restore a saved game. A corrupt save or one from another ruleset raises SaveError."""
        try:
            if isinstance(data, str):
                data = json.loads(data)
            if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
                raise ValueError("this is not a Meeple save file")
            if data.get("version") != SAVE_VERSION:
                raise ValueError(f"save format version {data.get('version')} is not supported")
            if data.get("ruleset_digest") != ruleset_digest(rs):
                raise ValueError(f"this save is from a different version of the ruleset ({data.get('ruleset')!r})")
            s = data["state"]
            st = GameState(int(data["players"]), int(data["seed"]))
            st.rng.state = int(s["rng"])
            st.counters = {k: decode(v) for k, v in s["counters"].items()}
            st.zones = {k: [Comp(int(c)) for c in v] for k, v in s["zones"].items()}
            st.loc = {c: k for k, v in st.zones.items() for c in v}
            st.facedown = {int(c) for c in s["facedown"]}
            st.log = [(int(a), log_entry(int(a), t)) for a, t in s["log"]]
            st.pending = _dec_pending(s["pending"])
            st.over = bool(s["over"])
            st.phase = str(s["phase"])
            st.steps = int(s["steps"])
            st.stack = M.frames_from_json(s["stack"], rs.nodes)
            st.coverage = {int(k): v for k, v in s["coverage"].items()} if s.get("coverage") is not None else None
            st.actions = [{"player": int(a["player"]), "key": str(a["key"])} for a in data["actions"]]
            M.assert_state(st)
            _check_counters(rs, st)
            if len(st.loc) != len(rs.components):
                raise ValueError("the save does not account for every component")
            game = cls(rs, st)
            if st.pending is not None:
                # Integrity: the decision the save claims is open must be the one its frames reopen.
                probe = game.copy()
                probe.state.pending = None
                M.run(probe._ev)
                if _enc_pending(probe.state.pending)["options"] != _enc_pending(st.pending)["options"]:
                    raise ValueError("the save is inconsistent: its pending decision does not match its state")
        except SaveError:
            raise
        except Exception as e:  # noqa: BLE001 - any failure to rebuild a save means the file is corrupt
            msg = str(e) if isinstance(e, ValueError) else f"the save is corrupt ({type(e).__name__}: {e})"
            raise SaveError(Problem("L001", msg)) from None
        return game

    @classmethod
    def replay(cls, rs: Ruleset, players: int, seed: int, actions: list[dict]) -> Game:
        g = cls.new(rs, players, seed)
        for a in actions:
            g.apply(a)
        return g


def _check_counters(rs: Ruleset, st: GameState) -> None:
    """Every declared counter is present, and number counters hold numbers."""
    expected: dict[str, Any] = {n: d.initial for n, d in rs.game_counters.items()}
    for p in range(st.nplayers):
        expected.update({f"{p}.{n}": d.initial for n, d in rs.player_counters.items()})
    for c in rs.components:
        expected.update({f"#{c.id}.{n}": d.initial for n, d in rs.kinds[c.kind].counters.items()})
    if set(expected) != set(st.counters):
        raise ValueError("the save's counters do not match the ruleset's")
    for key, initial in expected.items():
        if type(initial) is int and type(st.counters[key]) is not int:
            raise ValueError(f"counter `{key}` should hold a number")


def _enc_pending(p: Any) -> Any:
    if p is None:
        return None
    return {"players": p["players"], "options": [[s, encode(p["options"][s])] for s in p["options"]],
            "chosen": [[s, i] for s, i in p["chosen"].items()]}


def _dec_pending(p: Any) -> Any:
    if p is None:
        return None
    return {"players": [int(x) for x in p["players"]], "options": {int(s): decode(o) for s, o in p["options"]},
            "chosen": {int(s): int(i) for s, i in p["chosen"]}}


def ruleset_digest(rs: Ruleset) -> str:
    """A digest of the ruleset's data: a save only loads into the ruleset it was made with."""
    cached = getattr(rs, "_digest", None)
    if cached is None:
        cached = hashlib.sha256(json.dumps(rs.raw, sort_keys=True, default=str).encode()).hexdigest()[:16]
        rs._digest = cached
    return cached


__all__ = ["Action", "Comp", "Game", "Move", "Zone"]
