"""A terminal game of `meeple play` in progress: the person's seat, the bots, and each decision asked
in the terminal (numbers, ranges, undo, info, log, save, quit).
"""

from __future__ import annotations

import re
import shutil
from dataclasses import dataclass
from typing import Any

import click
from meeple.cli.playsave import bot_states, restore_bots, same_file, save_game, what_is_there
from meeple.cli.view import info_text, menu_lines, number_ranges, render_end, render_view, wrap
from meeple.errors import MeepleError
from meeple.runtime.game import Game, Move
from meeple.tools.agents import make_agents, mix_seed

HELP = """Type the number of an option to choose it; in a range of numbers ("Bid 0 … Bid 24"), type =N.
Other commands:
  u          undo: take back your last decision (refused once something hidden was revealed,
             or others' secret choices were shown)
  i NAME     information about a component, zone or counter (its description and effects)
  l          the whole log
  v          show the board again
  s FILE     save the game to FILE (continue later with: meeple play --load FILE)
  q          quit (asks first if the game is not saved)
  ?          this help"""

RECENT = 6  # log lines shown under the board
# ASCII digits only ("²" is a digit to str.isdigit but not to int), and at most 6: longer "numbers" are
# no option, and Python refuses int() of 5,000 digits.
DIGITS = re.compile(r"[0-9]{1,6}")
AMOUNT = re.compile(r"=\s*(-?[0-9]{1,6})")


class Quit(Exception):
    """The person leaves the game: `q`, the end of input, or Ctrl-C (`interrupted`: the command then
    exits 130, as the shell expects of a program stopped by Ctrl-C and as `simulate` does)."""

    def __init__(self, interrupted: bool = False) -> None:
        super().__init__("quit")
        self.interrupted = interrupted

    @classmethod
    def at(cls, abort: click.Abort) -> Quit:
        """Leaving at one of click's questions: click turns Ctrl-C and the end of input both into Abort,
        and keeps which it was as the exception it was raised in."""
        return cls(interrupted=isinstance(abort.__context__, KeyboardInterrupt))


class Undo(Exception):
    pass


@dataclass
class Checkpoint:
    """The game as it was at one of the person's decisions, for `undo`."""

    game: Game
    bots: list[Any]
    seen: int
    moves: int


class Session:
    def __init__(self, game: Game, human: int, agents_spec: str, seed: int, save_path: str | None,
                 source: str, load_path: str | None = None) -> None:
        self.game = game
        self.human = human
        self.agents_spec = agents_spec
        self.bots = make_agents(agents_spec, game.state.nplayers, mix_seed(seed, len(game.state.actions)))
        self.save_path = save_path  # --save: saved after each of the person's moves
        self.source = source
        self.saved = True  # nothing to lose yet
        self.last_saved: str | None = None  # the file the game was last saved to
        self.secrets_shown = 0  # how many of `moves` were made when others' sealed choices were last shown
        # Files this game may be saved over without asking: its own (--load, --save, and `s FILE` once done).
        self.own = [p for p in (load_path, save_path) if p is not None]
        self.seen = len(game.state.log)  # log lines already shown
        self.moves: list[Move] = []
        self.history: list[Checkpoint] = []
        self.width = min(100, shutil.get_terminal_size((80, 24)).columns)

    # ------------------------------------------------------------ the game loop
    def run(self) -> None:
        while not self.game.is_over:
            game = self.game  # a take-back replaces it
            sealed = len(game.state.pending["players"]) > 1
            waiting: list[Move] = []
            try:
                for seat in game.deciders:
                    if seat == self.human:
                        self.history.append(self.checkpoint())
                        move = game.take(self.ask(), seat)
                        self.saved = False
                        if self.save_path:
                            self.try_save(self.save_path, quiet=True)
                    else:
                        move = game.take(self.think(game, seat), seat)
                    self.moves.append(move)
                    if sealed:
                        waiting.append(move)  # told once every sealed choice is in
                    else:
                        self.report(move)
            except Undo:
                continue
            for move in waiting:  # the sealed choices, now that all are in; then what they caused
                click.echo(wrap(move.text(self.human) + (" (you)" if move.seat == self.human else ""),
                                self.width, "    "))
            if any(move.seat != self.human for move in waiting):
                self.secrets_shown = len(self.moves)
            if waiting:
                self.echo_log()
            for move in waiting:
                self.echo_changes(move)
        self.echo_log()
        click.echo("")
        click.echo(render_end(self.game, self.human, self.width))

    def think(self, game: Game, seat: int) -> int:
        """A bot's choice. Ctrl-C while it thinks (the best bot takes a second a move) is Ctrl-C at the
        person's prompt: the game ends here, saved if --save says so. Bots think on copies, so the game
        is still whole, at this decision."""
        try:
            return self.bots[seat].choose(game, seat)
        except KeyboardInterrupt:
            click.echo("")
            raise Quit(interrupted=True) from None

    def report(self, move: Move) -> None:
        """A move as the person reads it, the log lines it wrote, and what it changed."""
        text = move.text(self.human)
        click.echo(wrap(text + (" (you)" if move.seat == self.human else ""), self.width, "    "))
        self.echo_log()
        self.echo_changes(move)

    def echo_changes(self, move: Move) -> None:
        changes = move.changes.get(self.human) or []
        if changes:
            click.echo(wrap("    ~ " + "; ".join(changes), self.width, "      "))

    def echo_log(self) -> None:
        for line in self.game.log_for(self.human, self.seen):
            click.echo(wrap(f"  · {line}", self.width, "    "))
        self.seen = len(self.game.state.log)

    # ------------------------------------------------------------ take-backs
    def checkpoint(self) -> Checkpoint:
        return Checkpoint(self.game.copy(), bot_states(self.bots), self.seen, len(self.moves))

    def undo(self) -> str | None:
        """Go back to the person's previous decision; the reason it is refused, if it is."""
        if len(self.history) < 2:
            return "there is no earlier decision of yours to go back to"
        target = self.history[-2]
        revealed: set[int] = set()
        for move in self.moves[target.moves:]:
            revealed |= move.revealed.get(self.human, set())
        if revealed:
            seen = sorted({self.game.rs.components[c].name for c in revealed})
            names = ", ".join(seen[:5]) + (f" and {len(seen) - 5} more" if len(seen) > 5 else "")
            return f"since then you have seen what was hidden ({names}); it cannot be unseen"
        if self.game.state.rng.state != target.game.state.rng.state:
            return "since then something was left to chance (a shuffle or a random draw)"
        if self.secrets_shown > target.moves:  # found by QA: a bid again, knowing the others' bids
            return "since then you have seen the other players' secret choices; they cannot be unseen"
        self.history = self.history[:-2]
        self.game = target.game.copy()
        restore_bots(self.bots, target.bots)
        del self.moves[target.moves:]
        self.seen = target.seen
        self.saved = False
        return None

    # ------------------------------------------------------------ the person's decision
    def show(self) -> None:
        click.echo("")
        click.echo(render_view(self.game.view(self.human), self.game.rs, self.width, RECENT))

    def ask(self) -> int:
        game = self.game
        actions = game.legal_actions(self.human)
        labels = [a["label"] for a in actions]
        self.show()
        prompt = game.prompt_for(self.human)
        header = f"Your decision (P{self.human + 1}){': ' + prompt if prompt else ''}"
        ranges = number_ranges(labels)
        while True:
            click.echo(wrap(header, self.width, "  "))
            for line in menu_lines(labels, ranges, self.width):
                click.echo(line)
            while True:
                try:
                    answer = click.prompt(f"Choose 1-{len(actions)} (? for help)", default="",
                                          show_default=False)
                except click.Abort as e:  # Ctrl-C or the end of input: leave like `q`, saving if asked to
                    click.echo("")
                    raise Quit.at(e) from None
                answer = answer.strip()
                word, _, rest = answer.partition(" ")
                word = word.lower()
                picked = self.pick(answer, len(actions), ranges)
                if picked is not None:
                    return picked
                if word in ("q", "quit", "exit"):
                    if self.confirm_quit():
                        raise Quit()
                elif word in ("?", "h", "help"):
                    click.echo(HELP)
                elif word in ("v", "view"):
                    self.show()
                    break
                elif word in ("l", "log"):
                    for line in game.log_for(self.human):
                        click.echo(wrap(f"  · {line}", self.width, "    "))
                elif word in ("i", "info"):
                    click.echo(info_text(game.rs, rest.strip(), self.width))
                elif word in ("u", "undo"):
                    reason = self.undo()
                    if reason is None:
                        click.echo("Taken back: you are at your previous decision again.")
                        raise Undo()
                    click.echo(f"Cannot undo: {reason}.")
                elif word in ("s", "save"):
                    if not rest.strip():
                        click.echo("Give a file name: s FILE")
                    else:
                        self.try_save(rest.strip())
                else:
                    click.echo(f"Please type a number from 1 to {len(actions)}, or ? for help.")

    @staticmethod
    def pick(answer: str, n: int, ranges: list[dict]) -> int | None:
        """The option an answer names: its number (ASCII digits only), or =N within a range of numbers."""
        if re.fullmatch(DIGITS, answer):
            k = int(answer)
            return k - 1 if 1 <= k <= n else None
        m = re.fullmatch(AMOUNT, answer)
        if m:
            value = int(m[1])
            for r in ranges:
                if r["low"] <= value <= r["high"]:
                    return r["first"] + (value - r["low"])
        return None

    def confirm_quit(self) -> bool:
        if self.saved or self.save_path:
            return True
        try:
            return click.confirm("This game is not saved (s FILE saves it). Quit anyway?", default=False)
        except click.Abort as e:  # Ctrl-C there is Ctrl-C (exit 130, found in review); the end of input quits
            raise Quit.at(e) from None

    def try_save(self, path: str, quiet: bool = False) -> bool:
        """Save; a failure is reported and the game goes on. Another file already at `path` is replaced
        only if the person says so."""
        if any(same_file(path, f) for f in self.game.rs.sources):  # found by QA: `s` over the rules in play
            click.echo(f"Not saved: {path} is a file of the ruleset being played. The game goes on.")
            return False
        there = None if any(same_file(path, p) for p in self.own) else what_is_there(path)
        if there is not None:
            try:
                if not click.confirm(f"{path} already holds {there}. Replace it?", default=False):
                    click.echo("Not saved. The game goes on.")
                    return False
            except click.Abort as e:  # Ctrl-C there is Ctrl-C (found by QA: taken as "no")
                raise Quit.at(e) from None
        try:
            save_game(self.game, path, self.extra())
        except MeepleError as e:
            click.echo(f"Could not save: {e.problems[0].message}. The game goes on.")
            return False
        self.saved = True
        self.last_saved = path
        if path not in self.own:
            self.own.append(path)
        if not quiet:
            click.echo(f"Saved to {path}. Continue with: meeple play --load {path}")
        return True

    def extra(self) -> dict:
        return {"seat": self.human + 1, "agents": self.agents_spec, "ruleset": self.source,
                "bots": bot_states(self.bots)}
