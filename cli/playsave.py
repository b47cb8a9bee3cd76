"""Saves of `meeple play`: the game's own JSON plus what `play` needs to continue it exactly.

Next to the game (`Game.to_json`, which another program can load alone), a save made by `play` holds,
under the key `play`: the person's seat, the bot names, where the ruleset came from (so `--load FILE`
needs no RULESET), and each bot's random state (so the bots move as they would have in the game that
was never stopped).
"""

from __future__ import annotations

import contextlib
import json
import os
import random
from pathlib import Path
from typing import Any

from meeple.errors import Problem, SaveError, UsageError
from meeple.loading.files import SUFFIXES, is_bundled_name, path_problem
from meeple.runtime.game import Game
from meeple.runtime.rules import Ruleset
from meeple.runtime.saves import check_game
from meeple.runtime.saves import parse as parse_save

PLAY_KEY = "play"  # extra key in a save: who the person was and which bots played (Game ignores it)
MAX_SAVE_BYTES = 64 << 20  # what `what_is_there` reads of a file to tell whether it is a save


def bot_states(bots: list[Any]) -> list[Any]:
    """Each bot's random state as JSON (None for a bot without one)."""
    out: list[Any] = []
    for bot in bots:
        rng = getattr(bot, "rng", None)
        if isinstance(rng, random.Random):
            version, internal, gauss = rng.getstate()
            out.append([version, list(internal), gauss])
        else:
            out.append(None)
    return out


def restore_bots(bots: list[Any], states: Any) -> None:
    """Put saved random states back into freshly made bots; anything malformed is a corrupt save."""
    if not isinstance(states, list) or len(states) != len(bots):
        raise SaveError(Problem("L001", "the save's bot states do not match its players"))
    for bot, state in zip(bots, states):
        rng = getattr(bot, "rng", None)
        if state is None or not isinstance(rng, random.Random):
            continue
        try:
            version, internal, gauss = state
            rng.setstate((version, tuple(internal), gauss))
        except (TypeError, ValueError, OverflowError) as e:  # OverflowError: a number no C int holds
            raise SaveError(Problem("L001", f"the save's bot states are corrupt ({e})")) from None


def ruleset_source(ruleset: str) -> str:
    """How to find the ruleset again: a file as an absolute path, a bundled name as it is."""
    return os.path.abspath(ruleset) if os.path.isfile(ruleset) else ruleset


def save_game(game: Game, path: str, extra: dict | None = None) -> None:
    data = game.to_json()
    if extra is not None:
        data[PLAY_KEY] = extra
    if "\0" in path:  # typed at `s FILE`: no file name holds one, and `open` would raise ValueError
        raise UsageError(Problem("IO03", f"cannot save to {path!r}: a file name cannot hold a NUL character"))
    # Write a temporary file and rename it over the old save, so that a failed write (disk full, Ctrl-C)
    # never destroys the save the player already had. The temporary file is one that was not there (found
    # by QA: a fixed `FILE.tmp` replaced the person's own file of that name).
    tmp = None
    try:
        tmp = _new_file_beside(path)
        with open(tmp, "w", encoding="utf-8") as fh:
            json.dump(data, fh, separators=(",", ":"))
        os.replace(tmp, path)
    except OSError as e:
        if tmp is not None:
            with contextlib.suppress(OSError):
                os.remove(tmp)
        raise UsageError(Problem("IO03", f"cannot save to {path}: {e.strerror or e}")) from None


def _new_file_beside(path: str) -> str:
    """A new empty file in the folder of `path`, named so that it fits wherever `path` does; `open(...,
    "x")` never takes a file that is there. OSError when the folder cannot take one."""
    folder, n = os.path.dirname(path), 0
    while True:
        tmp = os.path.join(folder, f".meeple-{os.getpid()}-{n}.tmp")
        try:
            with open(tmp, "x"):
                return tmp
        except FileExistsError:
            n += 1


def what_is_there(path: str) -> str | None:
    """What a file already at `path` holds, in words; None when nothing is there. Saving never replaces
    a file the game was not saved to without asking (found by QA: `--save` over the ruleset itself, and
    over a save of another game)."""
    if not os.path.lexists(path):
        return None
    if os.path.isdir(path):
        return "a folder"
    if not os.path.isfile(path):  # a pipe or a device is never opened: reading one could wait for ever
        return "something that is not a file"
    try:
        with open(path, "rb") as fh:
            data = json.loads(fh.read(MAX_SAVE_BYTES + 1).decode("utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        data = None
    if isinstance(data, dict) and data.get("format") == "meeple-save":
        name = data.get("ruleset")
        return f"a save of {name}" if isinstance(name, str) else "a Meeple save"
    return "a file that is not a Meeple save"


def check_save_path(save_path: str | None, load_path: str | None) -> None:
    """`--save FILE` before the game starts: a file that is there already is never replaced (but the
    save `--load` continues), and a folder that cannot take it is said at once (found by QA: a game
    played through with "Could not save" after every move, then nothing saved)."""
    if save_path is None:
        return
    there = what_is_there(save_path)
    if there is not None and not same_file(save_path, load_path):
        raise UsageError(Problem("U035", f"{save_path} already holds {there}: --save does not replace a file",
                                 hint="choose another file name" + (
                                     f", or continue that save: meeple play --load {save_path} --save {save_path}"
                                     if there.startswith("a save") else "")))
    folder = os.path.dirname(os.path.abspath(save_path))
    if not (os.path.isdir(folder) and os.access(folder, os.W_OK)):
        raise UsageError(Problem("IO03", f"cannot save to {save_path}: its folder {folder} "
                                         f"{'is not writable' if os.path.isdir(folder) else 'does not exist'}"))


def same_file(a: str | None, b: str | None) -> bool:
    try:
        return a is not None and b is not None and os.path.realpath(a) == os.path.realpath(b)
    except ValueError:  # a NUL character typed into a file name names no file
        return False


def read_save(path: str) -> dict:
    if not os.path.isfile(path):  # missing, a folder, or a pipe (which could keep the read waiting)
        p = path_problem(Path(path), "save file")
        raise UsageError(Problem(p.code, p.message, hint="name a file written by `s FILE` or --save"))
    with open(path, "rb") as fh:
        return parse_save(fh.read(), path)


def saved_source(data: dict, path: str) -> str:
    """The ruleset a save names (for `--load FILE` without RULESET)."""
    extra = data.get(PLAY_KEY)
    source = extra.get("ruleset") if isinstance(extra, dict) else None
    if not isinstance(source, str):
        name = data.get("ruleset")
        raise UsageError(Problem("U032", f"{path} does not say where its ruleset is"
                                         + (f" (it is a game of {name})" if isinstance(name, str) else ""),
                                 hint="name the ruleset: meeple play RULESET --load FILE"))
    if not source.endswith(SUFFIXES) and not is_bundled_name(source):
        # A save may come from someone else: it is not read as a ruleset, nor quoted, unless it is one
        # (found by QA: a save naming /etc/passwd, or secret.txt, had its first line printed in the error).
        raise UsageError(Problem("U032", f"{path} names {source} as its ruleset, which is neither a bundled "
                                         "ruleset nor a ruleset file (.yaml or .yml)",
                                 hint="name the ruleset: meeple play RULESET --load FILE"))
    return source


def load_game(rs: Ruleset, path: str, data: dict | None = None, *,
              named: bool = True) -> tuple[Game, dict, str | None]:
    """The game, the `play` settings saved with it ({} if the save came from elsewhere) and a note for
    the player when the ruleset has changed since the save. A save of another game is refused with both
    names when the ruleset was `named` on the command line (a save's own file may have been renamed).

    A designer edits the rules between two sittings: the save's moves are then replayed under the rules
    as they are now, up to the first one they no longer allow, rather than refused."""
    data = read_save(path) if data is None else data
    if named:
        check_game(rs, data, path, "load it without naming a ruleset: meeple play --load FILE")
    note = None
    try:
        game = Game.from_json(rs, data)
    except SaveError as e:
        if e.problems[0].code != "L003":
            raise
        game, done = Game.replay_moves(rs, data)
        total = len(data["actions"])
        if done == 0 < total and not named:
            # The save's own file, renamed and none of its moves legal: another game now, not an edit (found
            # by QA: such a save was "continued" with none of its moves, then saved over).
            check_game(rs, data, path, "the ruleset file it names holds another game now: name the one it "
                                       "was played with, meeple play RULESET --load FILE")
        note = (f"The ruleset has changed since this save: its {total} moves were replayed under the rules as "
                "they are now." if done == total else
                f"The ruleset has changed since this save: its first {done} of {total} moves were replayed "
                f"under the rules as they are now; move {done + 1} is no longer legal, so the game goes on "
                "from there.")
    if game.state.quiet:
        # A quiet game (a simulation's, a program's) kept no log lines: a person reads them, so its moves are
        # replayed narrated (found in review: a loaded quiet save showed no line, private ones included).
        game = Game.replay(rs, game.state.nplayers, game.state.seed, game.state.actions,
                           **{**game.made_as(), "narrate": True})
    extra = data.get(PLAY_KEY)
    return game, extra if isinstance(extra, dict) else {}, note
