"""`meeple play`: a person plays one seat in the terminal against bots.

The person sees only their seat's view. Bots move at once and their moves are printed; the moves of a
sealed decision are printed only after everyone has chosen, so the person never sees them early.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
from typing import Any

import click
from meeple.cli.common import load
from meeple.cli.view import render_scores, render_view
from meeple.errors import Problem, SaveError, UsageError
from meeple.runtime.data import Player
from meeple.runtime.game import Game
from meeple.tools.agents import make_agents, mix_seed

HELP = """Type the number of an option to choose it. Other commands:
  v          show the game again
  s FILE     save the game to FILE (continue later with --load FILE)
  q          quit (with --save, the game is saved first)
  ?          this help"""


class Quit(Exception):
    pass


def decision_prompt(game: Game, seat: int) -> str | None:
    """The text of the open `choose` (e.g. "Place a worker"). The view does not carry it, so read it from
    the decision frame; it is cosmetic, so any failure just leaves it out."""
    try:
        frame = game.state.stack[-1]
        node = frame[1]
        choose = getattr(node, "choose", node)  # a sealed decision wraps its `choose`
        if choose.prompt is None:
            return None
        scope = dict(frame[2])
        if choose is not node:
            scope[node.var] = Player(seat)
        v = game._ev.eval(choose.prompt, scope)
        return v if isinstance(v, str) else str(v)
    except Exception:  # noqa: BLE001 - a missing prompt must never stop a game
        return None


DEFAULT_AGENTS = "mcts:1s"  # people play against the best bot, about a second per move
PLAY_KEY = "play"  # extra key in a save: who the person was and which bots played (Game ignores it)


def save_game(game: Game, path: str, seat: int | None = None, agents: str | None = None) -> None:
    data = game.to_json()
    if seat is not None:
        data[PLAY_KEY] = {"seat": seat + 1, "agents": agents}
    # Write a temporary file and rename it over the old save, so that a failed write (disk full, Ctrl-C)
    # never destroys the save the player already had.
    tmp = f"{path}.tmp"
    try:
        with open(tmp, "w", encoding="utf-8") as fh:
            json.dump(data, fh, separators=(",", ":"))
        os.replace(tmp, path)
    except OSError as e:
        with contextlib.suppress(OSError):
            os.remove(tmp)
        raise UsageError(Problem("IO03", f"cannot save to {path}: {e.strerror or e}")) from None


def load_game(rs: Any, path: str) -> tuple[Game, dict]:
    """The game and the `play` settings saved with it ({} if the save came from elsewhere)."""
    if not os.path.isfile(path):
        raise UsageError(Problem("IO01", f"no such save file: {path}"))
    with open(path, "rb") as fh:
        raw = fh.read()
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise SaveError(Problem("L001", f"{path} is not a Meeple save file ({e})")) from None
    game = Game.from_json(rs, data)
    extra = data.get(PLAY_KEY) if isinstance(data, dict) else None
    return game, extra if isinstance(extra, dict) else {}


class Session:
    def __init__(self, game: Game, human: int, agents_spec: str, seed: int, autosave: str | None) -> None:
        self.game = game
        self.human = human
        self.agents_spec = agents_spec
        self.bots = make_agents(agents_spec, game.state.nplayers, mix_seed(seed, len(game.state.actions)))
        self.autosave = autosave
        self.seen = len(game.state.log)  # log lines already shown

    def new_log(self) -> None:
        log = self.game.state.log
        for audience, text in log[self.seen:]:
            if audience in (-1, self.human):
                click.echo(f"  · {text}")
        self.seen = len(log)

    def run(self) -> None:
        game = self.game
        while not game.is_over:
            deciders = game.deciders
            sealed = len(game.state.pending["players"]) > 1
            revealed: list[str] = []
            for seat in deciders:
                if seat == self.human:
                    i = self.ask()
                    game.apply_index(i, seat)
                    if self.autosave:
                        self.save(self.autosave)
                else:
                    i = self.bots[seat].choose(game, seat)
                    move = f"P{seat + 1}: {game.legal_actions(seat)[i]['label']}"
                    game.apply_index(i, seat)
                    if sealed:
                        revealed.append(move)  # shown once every sealed choice is in
                    else:
                        click.echo(move)
                        self.new_log()
            for move in revealed:
                click.echo(move)
            self.new_log()
        click.echo(render_scores(game.scores, game.winners, self.human))

    def save(self, path: str) -> None:
        save_game(self.game, path, self.human, self.agents_spec)

    def show(self) -> None:
        click.echo("")
        click.echo(render_view(self.game.view(self.human), self.game.rs))

    def ask(self) -> int:
        game = self.game
        actions = game.legal_actions(self.human)
        self.show()
        prompt = decision_prompt(game, self.human)
        click.echo(f"Your decision (P{self.human + 1}){': ' + prompt if prompt else ''}")
        for n, a in enumerate(actions, 1):
            click.echo(f"  {n:>2}) {a['label']}")
        while True:
            try:
                answer = click.prompt(f"Choose 1-{len(actions)} (? for help)", default="", show_default=False)
            except click.Abort:  # end of input: leave like `q`
                click.echo("")
                raise Quit() from None
            answer = answer.strip()
            word, _, rest = answer.partition(" ")
            if answer.isdigit() and 1 <= int(answer) <= len(actions):
                return int(answer) - 1
            if word.lower() in ("q", "quit", "exit"):
                raise Quit()
            if word.lower() in ("?", "h", "help"):
                click.echo(HELP)
            elif word.lower() in ("v", "view"):
                self.show()
                for n, a in enumerate(actions, 1):
                    click.echo(f"  {n:>2}) {a['label']}")
            elif word.lower() in ("s", "save"):
                if not rest.strip():
                    click.echo("Give a file name: s FILE")
                    continue
                try:
                    self.save(rest.strip())
                    click.echo(f"Saved to {rest.strip()}.")
                except OSError as e:
                    click.echo(f"Could not save: {e.strerror or e}")
            else:
                click.echo(f"Please type a number from 1 to {len(actions)}, or ? for help.")


@click.command()
@click.argument("ruleset")
@click.option("--players", "-p", type=int, default=None,
              help="Number of players (default: 4 if the game allows it, else the nearest count).")
@click.option("--seat", type=int, default=None, help="Your seat, from 1 (default: 1, or the seat of a loaded save).")
@click.option("--seed", type=int, default=None, help="Game seed (default: random, printed so a game can be replayed).")
@click.option("--agents", default=None,
              help="Bots for the other seats, cycled over the seats (default: mcts:1s, a search of about a "
                   "second per move): mcts[:BUDGET][:cut=K], greedy[:DEALS], random, first.")
@click.option("--save", "save_path", default=None, metavar="FILE",
              help="Save the game to FILE after each of your moves and when you quit.")
@click.option("--load", "load_path", default=None, metavar="FILE", help="Continue a saved game.")
def play(ruleset: str, players: int | None, seat: int | None, seed: int | None, agents: str | None,
         save_path: str | None,
         load_path: str | None) -> None:
    """Play RULESET in the terminal: you take one seat, bots take the others.

    RULESET is a file or the name of a bundled ruleset (see `meeple rulesets`). At a decision, type the
    number of an option; `s FILE` saves, `q` quits, `?` helps."""
    from meeple.cli.common import resolve_players

    rs = load(ruleset)
    if load_path:
        game, saved = load_game(rs, load_path)
        seat = seat if seat is not None else saved.get("seat") if isinstance(saved.get("seat"), int) else None
        agents = agents or (saved.get("agents") if isinstance(saved.get("agents"), str) else None)
        if players is not None and players != game.state.nplayers:
            raise UsageError(Problem("U030", f"the save is a {game.state.nplayers}-player game, not {players}"))
        seed = game.state.seed
        click.echo(f"Continuing a {game.state.nplayers}-player game of {rs.name} from {load_path}.")
    else:
        n = resolve_players(rs, players)
        seed = secrets.randbelow(1_000_000) if seed is None else seed
        game = rs.new_game(n, seed)
        click.echo(f"{rs.name}, {n} players, seed {seed}.")
    seat = 1 if seat is None else seat
    agents = agents or DEFAULT_AGENTS
    nplayers = game.state.nplayers
    if not 1 <= seat <= nplayers:
        raise UsageError(Problem("U031", f"--seat must be between 1 and {nplayers}, not {seat}"))
    session = Session(game, seat - 1, agents, seed, save_path)
    click.echo(f"You are P{seat}. Type ? for help.")
    tail = [t for a, t in game.state.log if a in (-1, seat - 1)][-5:]
    for text in tail:
        click.echo(f"  · {text}")
    try:
        session.run()
    except Quit:
        if save_path:
            session.save(save_path)
            click.echo(f"Saved to {save_path}. Continue with --load {save_path}.")
        click.echo("Bye.")
