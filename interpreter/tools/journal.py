"""A ladder's journal: each finished game as one line of JSON, so that a long run stopped by Ctrl-C, a
crash or a reboot goes on where it stopped instead of starting again.

The first line says what run the games belong to: the ruleset (its data's digest, as saves check it),
the players, the agents, the seed, and Meeple's own code (a digest of its Python files: a game of a
ladder depends only on these and its index, so the same run with the same code plays the same games).
Then one line per game, in game order (a ladder takes its games in order, so the journal holds games
0..k-1). Resuming checks the first line against the run asked for, reads the k games and plays the rest;
the table is the one an uninterrupted run prints, to the byte but for the run's own time.

A last line cut short (the process died while writing it: no newline ends it) is dropped, as if that
game had not finished, and cut from the file when the run goes on. Anything else that does not read is
an error located at its line, and the file is left as it is.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import os
from pathlib import Path
from typing import IO, Any

from meeple.errors import Problem, Span, UsageError
from meeple.loading.cache import files_digest
from meeple.runtime.rules import Ruleset
from meeple.runtime.saves import ruleset_digest
from meeple.tools.simulate import GameRecord

KIND = "meeple ladder journal"
RECORD_FIELDS = tuple(f.name for f in dataclasses.fields(GameRecord) if f.name != "coverage")  # what to_json keeps
OTHER = {  # what a first line that differs from this run's means, where its values would not say it
    "ruleset_digest": "the ruleset's data has changed since it was written",
    "code": "it was written by another version of Meeple, whose bots or engine may play other games",
}


@functools.cache
def code_digest() -> str:
    """A digest of Meeple's Python source: other bots or another engine may play other games."""
    root = Path(__file__).resolve().parent.parent
    return files_digest(sorted(root.rglob("*.py")), root)


def header(rs: Ruleset, players: int, agents: list[str], seed: int) -> dict[str, Any]:
    """What a journal's first line holds: everything a ladder's games depend on, besides their index."""
    return {"kind": KIND, "ruleset": rs.name, "ruleset_digest": ruleset_digest(rs), "players": players,
            "agents": agents, "seed": seed, "code": code_digest()}


def _bad(path: Path, line: int, message: str, hint: str | None = None) -> UsageError:
    # A journal that cannot be used as given (not a journal, damaged, of another run, holding more games
    # than asked for, unwritable) is a file the user named on the command line: a usage/IO error, exit
    # code 2, whatever is wrong with it. Exit code 1 is for rulesets and games that are wrong.
    return UsageError(Problem("U050", message, Span(str(path), line, 1), hint=hint))


def _record(path: Path, line: int, data: Any, index: int, head: dict[str, Any]) -> GameRecord:
    if not isinstance(data, dict) or any(k not in data for k in RECORD_FIELDS):
        raise _bad(path, line, "this line is not a finished game of a ladder")
    if data["index"] != index:
        raise _bad(path, line, f"this line is game {data['index']}, where game {index} should be",
                   "a journal holds the games in order from the first")
    wrong = _wrong_field(data, head)
    if wrong is not None:  # found by QA: `"winners": 5` was a traceback, `[7]` a table of made-up results
        raise _bad(path, line, f"this line is not a game this run could have played: its `{wrong}` is "
                               f"{json.dumps(data[wrong])[:40]}", "a journal is written by `meeple ladder` only")
    return GameRecord(**{k: data[k] for k in RECORD_FIELDS})


def _wrong_field(data: dict[str, Any], head: dict[str, Any]) -> str | None:
    """The first field of a game's line that no game of the run `head` describes would have."""
    n = head["players"]

    def whole(x: Any) -> bool:
        return type(x) is int and x >= 0

    checks = {
        "seed": type(data["seed"]) is int,
        "players": data["players"] == n,
        "agents": isinstance(data["agents"], list) and len(data["agents"]) == n
        and all(a in head["agents"] for a in data["agents"]),
        "scores": isinstance(data["scores"], list) and len(data["scores"]) == n,
        "winners": isinstance(data["winners"], list) and all(type(w) is int and 0 <= w < n for w in data["winners"])
        and len(set(data["winners"])) == len(data["winners"]),
        "decisions": whole(data["decisions"]),
        "length": whole(data["length"]),
    }
    return next((k for k, ok in checks.items() if not ok), None)


def _games(path: Path, data: bytes, expected: dict[str, Any]) -> list[GameRecord]:
    """The games a journal's bytes hold, after checking that it belongs to the run `expected` describes."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise UsageError(Problem("U050", f"cannot read the journal {path}: {e}")) from None
    # Numbered as in the file; the last piece has no newline: it was cut short, and is left out.
    pieces = text.split("\n")
    lines = [(k + 1, x) for k, x in enumerate(pieces[:-1]) if x.strip()]
    if not lines:
        if pieces[-1].strip():  # found by QA: a one-line file without a newline was taken for a journal
            raise _bad(path, len(pieces), "this file is not a ladder's journal",  # cut short, and emptied
                       "name a new file, or the journal of this run")
        return []
    try:
        first = json.loads(lines[0][1])
    except (ValueError, RecursionError):  # RecursionError: nested deeper than Python parses
        first = None
    if not isinstance(first, dict) or first.get("kind") != KIND:
        raise _bad(path, lines[0][0], "this file is not a ladder's journal",
                   "name a new file, or the journal of this run")
    for key, want in expected.items():
        if first.get(key) != want:
            are = "are" if key.endswith("s") else "is"
            what = OTHER.get(key, f"its {key} {are} {first.get(key)!r}, this run's {are} {want!r}")
            raise UsageError(Problem("U050", f"the journal is of another run: {what}",
                                     Span(str(path), lines[0][0], 1),
                                     hint="go on with the options that started it, or name a new journal file"))
    return [_record(path, n, _parse(path, n, x), k, first) for k, (n, x) in enumerate(lines[1:])]


def _parse(path: Path, line: int, text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError as e:
        raise _bad(path, line, f"this line is not JSON: {e}") from None
    except RecursionError:  # nested deeper than Python parses: not a line a ladder writes
        raise _bad(path, line, "this line is not JSON: it is nested too deeply") from None


class Journal:
    """A ladder's journal, open: `games` are those it held (checked against the run `head` describes),
    and `add` appends each game as it finishes. The file is read once; a new journal starts with its
    first line, and a piece of a line at the end (cut short while being written) is cut off, but only
    once the journal has been found to be this run's: a refused file is left as it was."""

    def __init__(self, path: Path, head: dict[str, Any]) -> None:
        self.path = path
        try:
            self._out: IO[bytes] = path.open("r+b" if path.exists() else "w+b")
        except OSError as e:
            raise UsageError(Problem("U050", f"cannot write the journal {path}: {e}")) from None
        try:
            data = self._out.read()
            self.games = _games(path, data, head)
            # A file of blank lines only is a new journal: its first line is the run's (found by QA: the
            # games followed the blank line without one, and the run could not go on from its journal).
            kept = data.rfind(b"\n") + 1 if data.strip() else 0
            self._out.seek(kept)
            self._out.truncate()
            if kept == 0:
                self._write(head)
        except OSError as e:
            self._out.close()
            raise UsageError(Problem("U050", f"cannot write the journal {path}: {e}")) from None
        except BaseException:
            self._out.close()
            raise

    def _write(self, data: dict[str, Any]) -> None:
        self._out.write(json.dumps(data, separators=(",", ":")).encode("utf-8") + b"\n")
        # A game is not lost to a crash once it is in the journal: hand it to the operating system.
        self._out.flush()
        os.fsync(self._out.fileno())

    def add(self, r: GameRecord) -> None:
        self._write(r.to_json())

    def close(self) -> None:
        self._out.close()
