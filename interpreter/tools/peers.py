"""The peers `meeple bench` measures Meeple against, in the same run: a ratio is only meaningful when
both sides run in the same process, on the same core, at the same moment (the machine may be shared), so
`--peer PATH` or `--openspiel NAME` measures the peer right after Meeple and reports both.

Peers are described by a protocol, never named here:

* `--peer PATH`: a Python file (or a folder with exactly one file that defines it) with a class
  `Game(num_players, seed)` offering `legal_actions()`, `apply(action)` and `is_terminal()`.
* `--openspiel NAME`: a game of OpenSpiel (`pip install open_spiel`) loaded with `pyspiel.load_game`,
  for instance `python_tic_tac_toe` or `python_kuhn_poker` (its pure-Python games); chance nodes are
  sampled from their outcome probabilities.
"""

from __future__ import annotations

import difflib
import importlib.util
import random
import reprlib
import sys
import time
from collections.abc import Sized
from pathlib import Path
from typing import Any

from meeple.errors import Problem, UsageError
from meeple.tools.bench import Speed, timed_loop, weighted


def load_peer(path: str) -> Any:
    """The module of a hand-written peer engine, imported from its file (it is not part of Meeple)."""
    p = Path(path)
    if p.is_dir():
        # A folder: the one Python file in it that defines the engine's class.
        found = [f for f in sorted(p.glob("*.py")) if "\nclass Game" in f.read_text(errors="replace")]
        if len(found) != 1:
            raise UsageError(Problem("U030", f"{path} should hold exactly one Python file defining "
                                             f"`class Game`, found {len(found)}"))
        p = found[0]
    if not p.is_file():
        raise UsageError(Problem("IO02", f"no peer engine at {path}"))
    spec = importlib.util.spec_from_file_location(f"meeple_peer_{p.stem}", p)
    if spec is None or spec.loader is None:
        raise UsageError(Problem("U030", f"{path} is not a Python file"))
    module = importlib.util.module_from_spec(spec)
    sys.path.insert(0, str(p.parent))  # the peer may import its own helpers
    try:
        spec.loader.exec_module(module)
    except Exception as e:  # noqa: BLE001 - any failure of someone else's file is a usage error
        raise UsageError(Problem("U030", f"cannot import the peer engine {p}: {type(e).__name__}: {e}")) from None
    finally:
        sys.path.remove(str(p.parent))
    game = getattr(module, "Game", None)
    if game is None or not all(hasattr(game, m) for m in ("legal_actions", "apply", "is_terminal")):
        raise UsageError(Problem("U030", f"{p} has no class `Game` with legal_actions, apply and is_terminal"))
    return module


MAX_PEER_DECISIONS = 1_000_000  # a peer game still going after this many decisions is taken for one that never ends
CHUNK = range(1024)  # decisions between two looks at the clock and the cap: the loop stays as fast as it was


def bench_peer(module: Any, players: int, games: int | None, seconds: float) -> Speed:
    """Random play of a peer engine by the protocol in this module's docstring. A peer that breaks it
    (raises, offers no action before its game is over, or plays one game past the time budget `seconds`
    when no `games` count is given, or past MAX_PEER_DECISIONS) stops the measurement with a UsageError
    naming the file and what the engine did."""
    game_cls = module.Game
    prand = random.Random(players).random
    name = Path(module.__file__).name

    def play(i: int) -> int:
        n = 0
        acts: Any = None
        began: float | None = None
        try:
            g = game_cls(players, i)
            while True:
                for _ in CHUNK:
                    if g.is_terminal():
                        return n
                    acts = g.legal_actions()
                    g.apply(acts[int(prand() * len(acts))])
                    n += 1
                now = time.process_time()  # once per CHUNK decisions: a game's clock starts at its first look
                began = now if began is None else began
                if n >= MAX_PEER_DECISIONS or (games is None and now - began > seconds):
                    limit = (f"{MAX_PEER_DECISIONS:,} decisions" if n >= MAX_PEER_DECISIONS
                             else f"the time budget of {seconds:g} CPU seconds (--seconds)")
                    raise UsageError(Problem("U030", f"the peer engine {name}: game {i} ({players} players) did "
                                                     f"not end within {limit}: is_terminal() was still false "
                                                     f"after {n:,} decisions; the measurement was stopped"))
        except UsageError:
            raise
        except Exception as e:  # noqa: BLE001 - any failure of someone else's engine is reported, not a traceback
            raise peer_error(e, name, players, i, n, acts) from None
    done, decisions, elapsed = timed_loop(play, games, seconds)
    return Speed(f"peer {name}", players, done, decisions, elapsed)


def peer_error(e: Exception, name: str, players: int, game: int, n: int, acts: Any) -> UsageError:
    """What a peer engine did wrong, from the exception its game loop raised."""
    where = f"the peer engine {name}: game {game} ({players} players)"
    tb = e.__traceback__
    inner = tb.tb_next if tb is not None else None
    if inner is None:  # raised by the loop itself: what legal_actions() returned cannot be drawn from
        where += f", decision {n + 1}"
        if isinstance(acts, Sized) and len(acts) == 0:
            what = "legal_actions() returned no actions while is_terminal() was false"
        else:
            what = f"legal_actions() returned {reprlib.repr(acts)}, not a list of actions ({type(e).__name__}: {e})"
    else:
        method = inner.tb_frame.f_code.co_name
        call = f"Game({players}, {game})" if method == "__init__" else f"{method}()"
        what = f"{call} raised {type(e).__name__}: {e}"
        if method != "__init__":
            where += f", decision {n + 1}"
    return UsageError(Problem("U030", f"{where}: {what}"))


def load_openspiel(name: str) -> Any:
    """OpenSpiel's game `name`, loaded before anything is measured; a usage error naming the nearest
    games when there is none of that name (OpenSpiel's own message lists all of them, over a hundred)."""
    try:
        import pyspiel  # type: ignore[import-not-found]
        try:
            import open_spiel.python.games  # noqa: F401 - registers the pure-Python games
        except ImportError:
            pass
    except ImportError:
        raise UsageError(Problem("U031", "--openspiel needs OpenSpiel", None,
                                 hint="pip install open_spiel")) from None
    names = list(pyspiel.registered_names())
    if name.split("(", 1)[0] not in names:  # a name may carry parameters: "leduc_poker(players=3)"
        close = difflib.get_close_matches(name, names, n=3)
        pure = ", ".join(n for n in names if n.startswith("python_"))
        hint = (f"did you mean {' or '.join(f'`{c}`' for c in close)}? " if close else "") + \
            f"OpenSpiel's pure-Python games: {pure}"
        raise UsageError(Problem("U031", f"OpenSpiel has no game {name!r}", None, hint=hint))
    try:
        return pyspiel.load_game(name)
    except Exception as e:  # noqa: BLE001 - pyspiel raises its own error types
        first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        raise UsageError(Problem("U031", f"OpenSpiel cannot load {name!r}: {first}")) from None


def bench_openspiel(game: Any, games: int | None, seconds: float, observe: bool = False) -> Speed:
    """Random playouts of an OpenSpiel game (`load_openspiel`), sampling chance nodes by their
    probabilities; with `observe`, the deciding player's `observation_tensor` before each decision."""
    name = str(game).removesuffix("()")  # with its parameters, if any: "leduc_poker(players=3)"
    rng = random.Random(1)
    prand = rng.random

    def play(i: int) -> int:
        s = game.new_initial_state()
        n = 0
        while not s.is_terminal():
            if s.is_chance_node():
                outcomes = s.chance_outcomes()
                s.apply_action(outcomes[weighted(outcomes, prand())][0])
                continue
            if observe:
                s.observation_tensor(s.current_player())
            acts = s.legal_actions()
            s.apply_action(acts[int(prand() * len(acts))])
            n += 1
        return n
    try:
        done, decisions, elapsed = timed_loop(play, games, seconds)
    except Exception as e:  # noqa: BLE001 - pyspiel raises its own error types; a traceback helps nobody here
        raise UsageError(Problem("U031", f"OpenSpiel's {name} failed while playing: {type(e).__name__}: {e}")) from None
    return Speed(f"OpenSpiel {name}", game.num_players(), done, decisions, elapsed)
