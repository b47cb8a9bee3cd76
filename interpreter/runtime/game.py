"""The public API of a game in progress: decisions, actions, copies, and (readouts.py) scores, views,
text for a seat and saves.

    rs = load_ruleset("my_game")
    game = rs.new_game(players=4, seed=1)
    while not game.is_over:
        game.apply(game.legal_actions()[0])
    game.scores, game.winners
"""

from __future__ import annotations

import os

from meeple.errors import IllegalAction, Problem, UsageError
from meeple.language import ast as A
from meeple.language.model import Ruleset
from meeple.runtime import explicit as X
from meeple.runtime import machine as M
from meeple.runtime import saves as S
from meeple.runtime import shortcuts
from meeple.runtime.chance import CHANCE
from meeple.runtime.chancenodes import ChanceNode
from meeple.runtime.chancesites import calls_random, draws_after_start
from meeple.runtime.codegen.evaluator import GeneratedEvaluator
from meeple.runtime.data import Comp, Zone, as_int
from meeple.runtime.evaluator import Evaluator
from meeple.runtime.limits import MAX_STEPS, located
from meeple.runtime.narrate import Move
from meeple.runtime.prefix import start_state
from meeple.runtime.readouts import Readouts, index_of, whole
from meeple.runtime.state import GameState, initial_state
from meeple.runtime.views import action_keys, chosen_option

Action = dict  # {"player": seat (0-based), "key": stable id, "label": readable text}


class Game(Readouts):
    __slots__ = ("_chance", "_ev", "_late", "_mark", "rs", "state")

    # The generated code is the default; the tree-walker is the reference it is tested against, and what
    # MEEPLE_EVALUATOR=reference selects (to debug a ruleset). Measuring coverage counts every statement,
    # which only the reference does.
    evaluator_class: type = Evaluator if os.environ.get("MEEPLE_EVALUATOR") == "reference" else GeneratedEvaluator
    # Statements the rules may run between two decisions (limits.py); a server or a fuzzer may lower it.
    max_steps: int = MAX_STEPS

    def __init__(self, rs: Ruleset, state: GameState) -> None:
        self.rs = rs
        self.state = state
        cls = self.evaluator_class if state.coverage is None else Evaluator
        self._ev = cls(rs, state)
        self._chance: ChanceNode | None = None  # the open chance event (explicit chance only)
        self._mark: shortcuts.Mark | None = None  # where a step that may draw starts from (shortcuts.py)
        self._late = False  # a script from outside the ruleset may draw after a decision (`before_flow`)

    # ------------------------------------------------------------ creation
    @classmethod
    def new(cls, rs: Ruleset, players: int, seed: int = 0, *, coverage: bool = False,
            chance: str = "seeded", before_flow: A.Block | None = None, narrate: bool = True) -> Game:
        """A new game. With chance="explicit" every random event is a chance node (`is_chance`,
        `chance_outcomes`) instead of a draw from the seed (see runtime/explicit.py). `before_flow` is a
        script (parsed by the caller, e.g. a rule test) run after the ruleset's `setup` and before its
        `flow`: to arrange a starting state. `narrate=False` (simulations) skips what only a person
        reads: it keeps no log lines (their holes are still evaluated, for their errors) and does not
        note where points came from."""
        if chance not in ("seeded", "explicit"):
            raise UsageError(Problem("G011", f"chance must be 'seeded' or 'explicit', not {chance!r}"))
        if type(players) is not int or type(seed) is not int:  # a search's every new game passes ints
            players, seed = whole(players, "the number of players"), whole(seed, "the seed")
        if not rs.min_players <= players <= rs.max_players:
            raise UsageError(Problem("G001", f"{rs.name} is for {rs.player_counts} players, not {players}"))
        reuse = chance == "explicit" and not coverage and before_flow is None
        if reuse and (g := shortcuts.reused(cls, rs, players, seed, not narrate)) is not None:
            return g
        st = None
        if not coverage:
            # the setup's seedless opening already run (runtime/prefix.py): it draws nothing, so it is
            # the same with explicit chance
            st = start_state(rs, players, seed, not narrate, cls.max_steps, cls.evaluator_class)
        if st is None:
            st = initial_state(rs, players, seed, coverage)
        if before_flow is not None:  # under the setup frame (run first), above the flow's
            st.stack.insert(len(st.stack) - (rs.setup is not None), [M.BLOCK, before_flow, {}, 0])
        st.quiet = not narrate
        if reuse:
            return shortcuts.first_start(cls, rs, st)
        g = cls(rs, st)
        if chance == "explicit":
            g._late = before_flow is not None and calls_random(before_flow)  # the ruleset's analysis cannot know it
            X.start(g, st)
        else:
            # A setup that never waits and has a generated function (from where its frame, on top of the
            # stack, starts) runs first as that function, as the machine would run the frame: without it.
            ev = g._ev
            fn = None
            if rs.setup is not None and id(rs.setup) in ev.blocks:
                fn = ev.segments[id(rs.setup)].get(st.stack[-1][3])
            direct = None if fn is None else (fn, st.stack.pop()[2])
            # `_rules` inlined; the step budget counts from the game's start (0), the seedless opening of
            # its setup included.
            ev.limit = cls.max_steps
            try:
                M.run(ev, direct)
            except Exception as e:  # noqa: BLE001 - the safety net, as in _rules
                raise located(e) from None
        return g

    def copy(self) -> Game:
        g = type(self)(self.rs, self.state.copy())
        g._chance = self._chance  # never changed in place: applying an outcome makes a new node
        g._mark, g._late = shortcuts.copied(self._mark), self._late
        return g

    # ------------------------------------------------------------ decisions
    @property
    def is_over(self) -> bool:
        return self.state.over

    @property
    def deciders(self) -> list[int]:
        """Seats that must still choose at this decision point (several for sealed choices)."""
        p = self.state.pending
        if p is None or self._chance is not None:
            return []
        if not p["chosen"]:  # the common case: nobody has chosen yet
            return p["players"][:]
        return [s for s in p["players"] if s not in p["chosen"]]

    @property
    def current_player(self) -> int | None:
        """The (first) seat to decide, CHANCE (-1) at a chance event, None when the game is over."""
        if self._chance is not None:
            return CHANCE
        d = self.deciders
        return d[0] if d else None

    def legal_actions(self, player: int | None = None) -> list[Action]:
        """Every legal action of every player who must decide now (or of one player)."""
        if player is not None and player != CHANCE:
            player = self._seat(player)
        if self._chance is not None:
            return [a for a, _ in X.chance_actions(self)] if player in (None, CHANCE) else []
        self._menus()  # a step of the game, unlike the labels' query
        return self._query(self._legal_actions, player)

    def _legal_actions(self, player: int | None) -> list[Action]:
        st = self.state
        if st.pending is None:
            return []
        frame = st.stack[-1]
        out = []
        for seat in [s for s in self.deciders if player is None or s == player]:
            opts = st.pending["options"][seat]  # a seat reads keys without ids, which tell deals apart:
            for opt, key in zip(opts, action_keys(opts, self._ev, None if player is None else seat)):
                out.append({"player": seat, "key": key, "label": M.label(self._ev, frame, opt, seat)})
        return out

    def num_actions(self, player: int | None = None) -> int:
        """How many actions the (first) deciding player has: a fast path for bots."""
        if self._chance is not None:  # the chance seat's outcomes; a player has none, as legal_actions says
            return len(self._chance.draws.groups) if player is None or player == CHANCE else 0
        pending = self.state.pending
        if pending is None:
            return 0
        if pending["options"] is None:
            self._menus()
        opts, chosen = pending["options"], pending["chosen"]
        if type(player) is int and player in opts and player not in chosen:  # a bot's every decision
            return len(opts[player])
        if player is None:
            players = pending["players"]
            if len(players) == 1 and not chosen:  # a playout's every decision (`step`)
                return len(opts[players[0]])
            player = next(iter([s for s in players if s not in chosen]))
        else:  # NumPy's whole numbers are seats; anything else is refused. Not deciding, or already chose
            player = self._seat(player)  # (a sealed choice): no action of its own
        return len(opts[player]) if player in opts and player not in chosen else 0

    def menu(self, player: int) -> list:
        """The options of `player` at the open decision, as the engine keeps them (for bots, which key
        them with `menu_keys`); worked out now if a lazy look-ahead left them for later. Empty
        when `player` does not decide now."""
        if type(player) is not int or not 0 <= player < self.state.nplayers:  # (the bots' own seats: no call)
            player = self._seat(player)  # found by QA: "0" or None was [], a list a TypeError
        pending = self.state.pending
        if pending is None or player in pending["chosen"]:  # a sealed choice made: it decides no more
            return []
        if pending["options"] is None:
            self._menus()
        return pending["options"].get(player, [])

    def menu_keys(self, player: int) -> list[str]:
        """The keys of `player`'s options as that seat reads them (the keys of `legal_actions(player)`,
        without labels): what a bot that keeps statistics per option across deals must key them by. The
        engine's own keys name components by id, which tell a hidden card apart from the others: a tree
        search keyed so picked the best card of a hand it could not see (found by QA)."""
        opts = self.menu(player)
        return action_keys(opts, self._ev, player) if opts else []

    def apply_index(self, i: int, player: int | None = None) -> None:
        """Apply the i-th legal action of a deciding player without building labels (fast path)."""
        if self._chance is not None:
            if player not in (None, CHANCE):
                raise IllegalAction(Problem("G003", "this is a chance event: only a chance outcome can be applied"))
            X.apply_chance_action(self, i)
            return
        st = self.state
        pending = st.pending
        if pending is None:
            raise IllegalAction(Problem("G002", "the game is over: no action is legal"))
        if pending["options"] is None:
            self._menus()
        players = pending["players"]
        # The common case first, every check at once: one decider, who has not chosen, a valid index.
        if (type(i) is int and len(players) == 1 and not pending["chosen"]
                and (player is None or (type(player) is int and player == players[0]))
                and 0 <= i < len(opts := pending["options"][players[0]])):
            pending["chosen"][players[0]] = i
            opt = opts[i]
            st._actions.append((players[0], opt))  # keyed when the log is read (GameState.actions)
            self._resolve(opt)
            return
        if type(i) is not int:
            i = index_of(i)
        if player is not None and type(player) is not int:
            if (seat := as_int(player)) is None:
                raise IllegalAction(Problem("G005", f"a seat must be a number, not {player!r}"))
            player = seat  # NumPy's whole numbers
        chosen = pending["chosen"]
        if player is None:
            player = next(iter([s for s in pending["players"] if s not in chosen]))
        elif player not in pending["players"] or player in chosen:
            raise IllegalAction(Problem("G003", f"P{player + 1} does not decide now" if 0 <= player < st.nplayers
                                                else f"{player} is not a seat: the seats are 0 to {st.nplayers - 1}"))
        opts = pending["options"][player]
        if not 0 <= i < len(opts):
            raise IllegalAction(Problem("G004", f"there are {len(opts)} options, so {i} is not one of them"))
        self._choose(player, i, opts[i])

    def step(self, i: int) -> int:
        """Apply the i-th action of the (first) deciding seat, or the chance outcome at a chance event,
        as `apply_index(i)` does (an illegal one is refused alike), and return how many actions the next
        decision offers, as `num_actions()` does: 0 once the game is over. A random playout then costs one
        call per decision, not four (`is_over`, `deciders`, `num_actions`, `apply_index`):

            n = game.num_actions()
            while n:
                n = game.step(rng.randrange(n))
        """
        self.apply_index(i)
        return self.num_actions()

    def apply(self, action: Action | int | str) -> None:
        """Apply an action: a dict from legal_actions(), an index into it, or an exact label.
        An illegal action raises IllegalAction with the reason, and the state does not change."""
        if self._chance is not None:
            X.apply_chance_action(self, action)
            return
        seat, i = chosen_option(self, action)  # raises IllegalAction with the reason
        self._choose(seat, i, self.state.pending["options"][seat][i])

    def _choose(self, seat: int, i: int, opt: list) -> None:
        st = self.state
        pending = st.pending
        chosen = pending["chosen"]
        chosen[seat] = i
        st._actions.append((seat, opt))  # keyed when the log is read (GameState.actions)
        if len(chosen) == len(pending["players"]):
            self._resolve(opt)

    def _resolve(self, opt: list) -> None:
        """Every decider has chosen (`opt` last): run on to the next decision (`_rules` and
        `machine.resume`, with the rules' set-up inlined: every bot's hot path)."""
        st = self.state
        if st.rng.explicit and (draws_after_start(self.rs) or self._late):
            return shortcuts.resolve(self, opt)  # in case its step draws (explicit chance)
        ev = self._ev
        ev.limit = st.steps + self.max_steps  # as in _rules, inlined
        ev.depth = 0
        if not st.quiet:
            st.before = (dict(st.loc), frozenset(st.facedown))
        try:
            M.resume(ev, opt)
        except Exception as e:  # noqa: BLE001 - the safety net: every failure becomes a located error
            raise located(e) from None

    # saves (to_json, from_json, replay): readouts.py


# Callers name these through this module.
SAVE_FORMAT, SAVE_VERSION, ruleset_digest = S.SAVE_FORMAT, S.SAVE_VERSION, S.ruleset_digest

__all__ = ["SAVE_FORMAT", "SAVE_VERSION", "Action", "Comp", "Game", "Move", "Zone", "ruleset_digest"]
