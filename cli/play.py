"""`meeple play`: a person plays one seat in the terminal against bots.

Everything printed comes from the engine's renderings for the person's seat (`Game.view`, `Move.text`,
`Game.log_for`, `Game.prompt_for`): `play` never formats a label or log line itself, so it cannot show a
bot's hidden card. Moves of a sealed decision are printed once every seat has chosen. Bad input is asked
again, a failed save keeps the game going, and `q` on an unsaved game asks first: a game is never lost.
"""

from __future__ import annotations

import json
import secrets

import click
from meeple.cli.common import INTERRUPTED, load
from meeple.cli.playsave import (
    check_save_path,
    load_game,
    read_save,
    restore_bots,
    ruleset_source,
    same_file,
    saved_source,
)
from meeple.cli.playsession import Quit, Session
from meeple.cli.view import wrap
from meeple.errors import MeepleError, Problem, SaveError, UsageError
from meeple.tools.agents import AGENT_SPECS, PLAY, play_spec
from meeple.tools.failures import with_hint


@click.command()
@click.argument("ruleset", required=False)
@click.option("--players", "-p", type=int, default=None,
              help="Number of players (default: 4 if the game allows it, else the nearest count).")
@click.option("--seat", type=int, default=None, help="Your seat, from 1 (default: 1, or the seat of a loaded save).")
@click.option("--seed", type=int, default=None, help="Game seed (default: random, printed so a game can be replayed).")
@click.option("--agents", default=None,
              help=f"Bots for the other seats, cycled over the seats: {AGENT_SPECS} (default: the "
                   f"ruleset's agents.play, else {PLAY}, about a second per move; see docs/agents.md).")
@click.option("--save", "save_path", default=None, metavar="FILE",
              help="Save the game to FILE after each of your moves and when you quit.")
@click.option("--load", "load_path", default=None, metavar="FILE",
              help="Continue a saved game (its ruleset need not be named).")
def play(ruleset: str | None, players: int | None, seat: int | None, seed: int | None, agents: str | None,
         save_path: str | None, load_path: str | None) -> None:
    """Play RULESET in the terminal: you take one seat, bots take the others.

    RULESET is a file or the name of a bundled ruleset (see `meeple rulesets`). At a decision, type the
    number of an option; `u` takes it back, `i NAME` explains a component, `s FILE` saves, `q` quits,
    `?` helps."""
    from meeple.cli.common import resolve_players

    check_save_path(save_path, load_path)
    saved: dict = {}
    own_file = load_path  # a file the game may be saved over without asking
    from_save: list[str] = []  # the settings the save gave, not the command line: their errors are the save's
    if load_path:
        data = read_save(load_path)
        source = ruleset if ruleset is not None else saved_source(data, load_path)
        try:
            rs = load(source)
        except UsageError as e:  # the file the save names was moved or removed: say it is the save's
            if ruleset is not None:
                raise
            raise UsageError(Problem("U032", f"{load_path} names {source} as its ruleset, which cannot be read: "
                                             f"{e.problems[0].message}",
                                     hint="name the ruleset: meeple play RULESET --load FILE")) from None
        game, saved, note = load_game(rs, load_path, data, named=ruleset is not None)
        if data.get("ruleset") != rs.name:
            # Its ruleset file now holds a game of another name (renamed, or another game that takes the same
            # moves): it goes on, but the save stays as it was unless the person says otherwise (found in review).
            if same_file(save_path, load_path):
                raise UsageError(Problem("U035", f"{load_path} is a game of {str(data.get('ruleset'))[:60]}, and its "
                                                 f"ruleset is now {rs.name}: --save would replace it",
                                         hint="save the game on to another file"))
            own_file = None  # not this game's own file any more: `s` asks before replacing it
        from_save = [k for k, given in (("seat", seat), ("agents", agents)) if given is None and k in saved]
        if seat is None and "seat" in saved:
            seat = saved["seat"]
            if type(seat) is not int:  # found by QA: `true` played as P1 ("You are PTrue.")
                raise SaveError(Problem("L001", f"{load_path} gives seat {json.dumps(seat)[:20]}, not a seat number",
                                        hint="choose yours: --seat N"))
        agents = agents or (saved.get("agents") if isinstance(saved.get("agents"), str) else None)
        if players is not None and players != game.state.nplayers:
            raise UsageError(Problem("U030", f"the save is a {game.state.nplayers}-player game, not {players}"))
        if seed is not None and seed != game.state.seed:  # found by QA: ignored without a word
            raise UsageError(Problem("U030", f"the save's game has seed {game.state.seed}, not {seed}: "
                                             "a loaded game goes on with its own"))
        seed = game.state.seed
        source = ruleset_source(source)
        click.echo(f"Continuing a {game.state.nplayers}-player game of {rs.name} from {load_path}.")
        if note:
            click.echo(note)
    else:
        if ruleset is None:
            raise UsageError(Problem("U033", "name a ruleset to play, or --load a save",
                                     hint="meeple rulesets lists the bundled games"))
        rs = load(ruleset)
        source = ruleset_source(ruleset)
        n = resolve_players(rs, players)
        seed = secrets.randbelow(1_000_000) if seed is None else seed
        game = rs.new_game(n, seed)
        click.echo(f"{rs.name}, {n} players, seed {seed}.")
    seat = 1 if seat is None else seat
    # People play against the best bot (docs/agents.md), about a second per move: the one the ruleset
    # names (`agents.play`), else the best measured over the bundled games.
    agents = agents or play_spec(rs)
    nplayers = game.state.nplayers
    if not 1 <= seat <= nplayers:
        if "seat" in from_save:  # found by QA: blamed on a --seat nobody gave
            raise SaveError(Problem("L001", f"{load_path} gives seat {seat}, not a seat of this {nplayers}-player game",
                                    hint=f"choose yours: --seat N (1 to {nplayers})"))
        raise UsageError(Problem("U031", f"--seat must be between 1 and {nplayers}, not {seat}"))
    try:
        session = Session(game, seat - 1, agents, seed, save_path, source, own_file)
    except MeepleError as e:
        if "agents" not in from_save:
            raise
        raise SaveError(Problem("L001", f"{load_path} names bots that cannot play: {e.problems[0].message}",
                                hint="choose them: --agents SPEC")) from None
    if "bots" in saved and saved.get("agents") == agents:
        restore_bots(session.bots, saved["bots"])  # the bots go on exactly as they would have
    click.echo(f"You are P{seat}. Type ? for help.")
    for text in game.log_tail(seat - 1, 5):
        click.echo(wrap(f"  · {text}", session.width, "    "))
    try:
        session.run()
    except MeepleError as e:  # a rules error stops the game: say where what was saved is (found by QA)
        if session.last_saved is None:
            raise
        raise with_hint(e, f"the game up to your last move is saved in {session.last_saved} "
                           f"(`meeple play --load {session.last_saved}` continues it)") from None
    except Quit as q:
        if save_path and session.try_save(save_path, quiet=True):
            click.echo(f"Saved to {save_path}. Continue with: meeple play --load {save_path}")
        click.echo("Bye.")
        if q.interrupted:
            click.get_current_context().exit(INTERRUPTED)
