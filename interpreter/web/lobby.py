"""The lobby: which rulesets a server offers, new tables from a form, and saves opened for replay.

Every request is checked here and refused with a UsageError (a message and a hint, shown in the page),
never a traceback: a form is user input like any other.
"""

from __future__ import annotations

import json
import math
import os
import re
import tempfile
from pathlib import Path
from typing import Any

from meeple.errors import MeepleError, Problem, SaveError, UsageError
from meeple.loading.files import bundled, display_path, rulesets_dir
from meeple.runtime.game import Game
from meeple.runtime.rules import Ruleset, load_ruleset
from meeple.runtime.saves import check_game
from meeple.runtime.saves import parse as parse_save
from meeple.tools.report import problem_json
from meeple.web.bots import BOTS, MAX_BUDGET, bot_budgets
from meeple.web.tables import Registry, Seat, Table
from meeple.web.uploads import quoted, replace_file, upload_name

MAX_SPEED = 60.0  # seconds between bot moves, at the slowest
MAX_UPLOAD = 2_000_000  # bytes of an uploaded ruleset or save
MAX_SEED = 2**63 - 1


# A file's place on a disk, absolute (POSIX or Windows): what is left of one in a refusal becomes its name.
_PLACE = re.compile(r"(?<![\w.~/:\\-])(?:[A-Za-z]:)?[/\\](?:[^\s/\\`'\"()\[\]{}:,;]+[/\\])+([^\s/\\`'\"()\[\]{}:,;]+)")


# A ruleset file's place relative to the server's working folder (a file that a named file extends):
# its name alone, as for an absolute place. Public names (`upload/NAME.yaml`) are not places.
_RELATIVE = re.compile(r"(?<![\w.~/:\\-])(?!upload/)(?:[^\s/\\`'\"()\[\]{}:,;]+[/\\])+([^\s/\\`'\"()\[\]{}:,;]+\.ya?ml)(?![\w/\\])")


def _bad(message: str, hint: str | None = None) -> UsageError:
    return UsageError(Problem("B001", message, hint=hint))


class Lobby:
    """The rulesets a server offers: the files named on the command line first, then the bundled ones.

    Every ruleset is offered by a public name, the only one a page, a JSON reply or a websocket message
    uses: a bundled ruleset or variant by its bundled name (`NAME`, `variants/NAME`), also when the
    command line names it so; a file named on the command line by its file name (`my_game.yaml`;
    `my_game-2.yaml` for a second file of that name); an upload by `upload/NAME.yaml`. Where a file is
    on the server is the lobby's business alone."""

    def __init__(self, files: list[str] | None = None) -> None:
        self._files: dict[str, str] = {}  # a command-line ruleset's public name: what loads it
        self._places: dict[str, str] = {}  # a command-line file's path, as a message may give it: its name
        self._loaded: dict[str, Ruleset] = {}
        self._upload_dir: Path | None = None
        self._sent_as: dict[str, str] = {}  # an uploaded file's path: the file name it was sent with
        self._uploads: dict[str, str] = {}  # an uploaded file's public id (upload/NAME.yaml): its path
        # The same file given twice (`a.yaml ./a.yaml`) is offered once, under one name.
        given = list({os.path.realpath(f) if Path(f).is_file() else f: f for f in reversed(files or [])}.values())[::-1]
        taken = set(_bundled_names()) | {f for f in given if not Path(f).is_file()}
        for f in given:
            if not Path(f).is_file():  # a bundled name (find_ruleset takes a file of that name first)
                self._files[f] = f
                continue
            public = _unused(Path(f).name, taken)
            taken.add(public)
            self._files[public] = os.path.abspath(f)
            # Every way a message may name it (display_path: relative to the working folder inside it).
            for place in (f, self._files[public], os.path.realpath(f), display_path(Path(self._files[public]))):
                self._places[place] = public
        for name in self._files:
            self.ruleset(name)  # a broken file stops `meeple serve` at once, with its problems

    @property
    def files(self) -> list[str]:
        """The public names of the rulesets named on the command line, in their order."""
        return list(self._files)

    def names(self) -> list[str]:
        offered = self.files + list(self._uploads)
        return offered + [n for n in _bundled_names() if n not in offered]

    def ruleset(self, name: str) -> Ruleset:
        """An offered ruleset by its name in the lobby (a public name stands for its file)."""
        if name not in self._loaded:
            self._loaded[name] = load_ruleset(self._uploads.get(name) or self._files.get(name) or name)
        return self._loaded[name]

    def is_file(self, name: str) -> bool:
        """Whether an offered name stands for a file of the operator's or the browser's, not a bundled one."""
        return name in self._uploads or self._files.get(name, name) != name

    def listing(self) -> dict[str, Any]:
        rows = []
        for name in self.names():
            try:
                rs = self.ruleset(name)
                rows.append({"id": name, "title": rs.name, "min": rs.min_players, "max": rs.max_players,
                             "file": self.is_file(name),
                             "variant": name.startswith("variants/") or "extends" in rs.raw,
                             "description": str(rs.raw.get("description") or "")})
            except MeepleError as e:
                rows.append({"id": name, "title": name, "file": self.is_file(name),
                             "error": self.shown(e.problems[0].message)})
        return {"rulesets": rows, "bots": BOTS, "budgets": bot_budgets(), "max_budget": MAX_BUDGET}

    @property
    def upload_dir(self) -> Path | None:
        """The temporary folder of the rulesets sent from the browser (None before the first)."""
        return self._upload_dir

    def shown(self, text: str) -> str:
        """`text` (a refusal) with each uploaded file named as its sender named it, not by the server's
        temporary path, each file named on the command line by its public name, and any other file on
        the server (a bundled ruleset, the saved game a rules error broke) by its name alone."""
        places = {**self._sent_as, **self._places}
        if places:  # in one pass, a longer path before one it ends with: no name is replaced twice
            known = "|".join(re.escape(x) for x in sorted(places, key=len, reverse=True))
            text = re.sub(rf"(?<![\w./\\-])(?:{known})(?![\w/\\-])", lambda m: places[m.group(0)], text)
        return _RELATIVE.sub(lambda m: m.group(1), _PLACE.sub(lambda m: m.group(1), text))

    def problem(self, e: MeepleError) -> dict[str, Any]:
        """THE reply to a refusal or a rules error, as every request gives it: `reply` of its problems."""
        return self.reply([problem_json(p) for p in e.problems])

    def reply(self, problems: list[dict[str, Any]]) -> dict[str, Any]:
        """The reply to problems in the form every report of Meeple's holds them (tools/report.problem_json:
        `validate --format json`, a comparison's `failed`): the first error (a warning only when there is
        no error) located as the command line locates it (`FILE:LINE:COL: message`), its code and hint, and
        every problem's message, each file named by `shown`."""
        p = next((q for q in problems if q["severity"] == "error"), problems[0])  # a warning never headlines
        where = f"{p['file']}:{p['line']}:{p['column']}: " if p["file"] and p["line"] is not None else ""
        return {"error": self.shown(where + p["message"]), "code": p["code"],
                "hint": self.shown(p["hint"]) if p["hint"] else None,
                "problems": [self.shown(q["message"]) for q in problems]}

    def upload(self, filename: Any, text: str) -> str:
        """A ruleset file sent from the browser: checked like any file, then offered like the others, by
        a public id (`upload/NAME`, NAME as it was sent, suffix included: see uploads.py; a file sent
        again with the same name replaces it) that stands for its path in the server's temporary folder,
        which no reply names."""
        name = upload_name(filename)  # refused before anything touches the file system
        if len(text) > MAX_UPLOAD:
            raise _bad("the file is too large")
        if self._upload_dir is None:
            self._upload_dir = Path(tempfile.mkdtemp(prefix="meeple-web-"))
        path = self._upload_dir / name
        public = next(i for i in (f"upload/{_numbered(name, k)}" for k in range(len(self.files) + 2))
                      if i not in self.files)  # unique: a file named on the command line may be called so
        self._sent_as[str(path)] = name
        self._loaded[public] = replace_file(path, text, lambda: load_ruleset(str(path)))
        self._uploads[public] = str(path)
        return public

    def offered(self, name: Any, hint: str = "pick one from the list") -> Ruleset:
        """The offered ruleset of that name; anything else (a name not offered, a server path, not a
        text) is refused by what was asked for."""
        if not isinstance(name, str) or name not in self.names():
            raise _bad(f"unknown ruleset {_shown(name)}", hint)
        return self.ruleset(name)

    # ------------------------------------------------------------ tables
    def new_table(self, reg: Registry, spec: dict[str, Any]) -> Table:
        name = spec.get("ruleset")
        rs = self.offered(name)
        seats_in = spec.get("seats")
        if not isinstance(seats_in, list):
            raise _bad("`seats` must be a list, one entry per player")
        if not rs.min_players <= len(seats_in) <= rs.max_players:
            raise _bad(f"{rs.name} is for {rs.player_counts} players")
        seats = [_seat(s, i) for i, s in enumerate(seats_in)]
        seed = whole(spec.get("seed", 0), "seed", 0, MAX_SEED)
        speed = _num(spec.get("speed", 0.5), "speed", 0.0, MAX_SPEED)
        game = Game.new(rs, len(seats), seed)
        table = Table(reg.new_id(), rs, str(name), game, seats, hotseat=bool(spec.get("hotseat")), speed=speed,
                      bot_seed=seed)
        return reg.add(table)

    def open_save(self, reg: Registry, text: str, name: Any = None) -> Table:
        """A save (from `meeple play`, or downloaded from a table) opened in the replay viewer, with the
        offered ruleset `name` if given, else with an offered ruleset of the name the save holds."""
        name = None if name in (None, "") else name
        named = None if name is None else self.offered(name, "pick one from the list, or leave it out: "
                                                             "the save names its ruleset")
        if len(text) > MAX_UPLOAD:
            raise _bad("the save is too large")
        data = parse_save(text, "the save")
        if named is not None:  # as `meeple play RULESET --load FILE` refuses another game's save
            check_game(named, data, "the save", "leave the ruleset out: the save names its ruleset")
        candidates = [name] if name else self.names()
        refused: SaveError | None = None
        for cand in candidates:
            try:
                rs = self.ruleset(cand)
            except MeepleError:
                continue
            if rs.name != data.get("ruleset") and not name:
                continue
            try:
                game = Game.from_json(rs, data)  # a corrupt save, or one from another version, is refused
            except SaveError as e:
                refused = e  # another offered ruleset of the same name may be the one
                continue
            replayed = Game.replay(rs, game.state.nplayers, game.state.seed, game.state.actions, **game.made_as())
            if _without_steps(replayed) != _without_steps(game):
                raise SaveError(Problem("L001", "the save's action log does not lead to its state, "
                                                "so it cannot be replayed"))
            seats = [Seat("person") for _ in range(game.state.nplayers)]
            return reg.add(Table(reg.new_id(), rs, cand, game, seats, replay_only=True))
        if refused is not None:
            raise refused
        raise _bad(f"no offered ruleset is called {data.get('ruleset')!r}",
                   "start `meeple serve` with the ruleset file, or pick it in the form")


def _bundled_names() -> list[str]:
    variants = sorted(f"variants/{p.stem}" for p in (rulesets_dir() / "variants").glob("*.yaml"))
    return bundled() + variants


def _unused(name: str, taken: set[str]) -> str:
    """`name`, or `STEM-2.SUFFIX`, `STEM-3.SUFFIX`... if it is taken."""
    return next(n for n in (_numbered(name, k) for k in range(1, len(taken) + 2)) if n not in taken)


def _numbered(name: str, k: int) -> str:
    """`name` for k 0 or 1, else `STEM-k.SUFFIX`."""
    return name if k <= 1 else f"{Path(name).stem}-{k}{Path(name).suffix}"


def _without_steps(game: Game) -> dict[str, Any]:
    """A game's state but for its statement count, which also counts the labels a front end built."""
    state = dict(game.to_json()["state"])
    state.pop("steps", None)
    return state


def _seat(s: Any, i: int) -> Seat:
    if not isinstance(s, dict) or s.get("kind") not in ("person", "bot"):
        raise _bad(f"seat {i + 1}: say whether a person or a bot plays it")
    if s["kind"] == "person":
        return Seat("person")
    agent = s.get("agent", "random")
    if agent not in BOTS:
        raise _bad(f"seat {i + 1}: unknown bot {agent!r}", "bots: " + ", ".join(BOTS))
    budget = s.get("budget")
    return Seat("bot", agent, None if budget in (None, "") else whole(budget, f"seat {i + 1} budget", 1, MAX_BUDGET))


def whole(x: Any, what: str, lo: int, hi: int) -> int:
    """A whole number from a form or a request: an int, a float with nothing after the point, or the
    digits of one (an input box's text). Refused: booleans, fractions, infinities, NaN, out of range."""
    if type(x) is int:
        v = x
    elif (type(x) is float and math.isfinite(x) and x.is_integer()) or \
            (isinstance(x, str) and re.fullmatch(r"\s*[+-]?[0-9]{1,40}\s*", x)):
        v = int(x)
    else:
        raise _bad(f"{what} must be a whole number, not {_shown(x)}")
    if not lo <= v <= hi:
        raise _bad(f"{what} must be between {lo} and {hi}, not {_shown(x)}")
    return v


def _num(x: Any, what: str, lo: float, hi: float) -> float:
    try:
        if isinstance(x, bool):
            raise TypeError
        v = float(x)
    except (TypeError, ValueError):
        raise _bad(f"{what} must be a number, not {_shown(x)}") from None
    if math.isnan(v) or not lo <= v <= hi:
        raise _bad(f"{what} must be between {lo:g} and {hi:g}")
    return v


def _shown(x: Any) -> str:
    """A value sent in a request, as a refusal quotes it: its start only."""
    text = json.dumps(x) if isinstance(x, (bool, float)) or x is None else quoted(x) if isinstance(x, str) else repr(x)
    return text if len(text) <= 40 else text[:37] + "..."
