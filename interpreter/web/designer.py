"""The designer page's report: `meeple compare` (tools/compare.py) run for a base and its variants.

The page shows the same figures as the command (win rates with confidence intervals, first-player
advantage, score, margin, length, items, coverage, the differences with their p-values) and, if
matplotlib is installed, the same plot as `meeple compare --plot`, as a PNG data URL. Like the command,
it goes on past a variant whose rules fail (listed in `failed`, with its located error) and does not
play a variant with the same rules as the base (listed in `skipped`: its games would be the base's).
"""

from __future__ import annotations

import base64
import io
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from meeple.errors import Problem, UsageError
from meeple.tools.agents import parse_agents, seat_names
from meeple.tools.compare import compare
from meeple.tools.rulediff import same_rules
from meeple.tools.simulate import default_players
from meeple.tools.stats import inconclusive
from meeple.web.bots import over_budget
from meeple.web.lobby import MAX_SEED, Lobby, whole

MAX_GAMES = 5000  # per ruleset: the page waits for the answer


def has_matplotlib() -> bool:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True


def _unplaced(x: Any, lobby: Lobby) -> Any:
    """The report without the server's paths, which are no business of the page: a ruleset's `path` is
    left out (the page names it by its lobby name), a `file` (where a rule is) is its file name alone."""
    if isinstance(x, dict):
        return {k: Path(lobby.shown(v)).name if k == "file" and isinstance(v, str) else _unplaced(v, lobby)
                for k, v in x.items() if k != "path"}
    if isinstance(x, list):
        return [_unplaced(v, lobby) for v in x]
    return x


def _given(x: Any, default: int) -> Any:
    return default if x is None or x == "" else x  # an empty box: the default


def _refused(message: str, hint: str | None = None) -> UsageError:
    return UsageError(Problem("B020", message, hint=hint))


def _agents(x: Any, players: int) -> str:
    """The bots of the comparison, one per seat (cycled, as `meeple compare --agents` takes them), each
    with at most the budget a lobby's bot may have (found by QA: `mcts:1000000` was taken, hours of
    games for one request, where a table's bot is held to MAX_BUDGET)."""
    agents = "random" if x in (None, "") else x
    if not isinstance(agents, str):  # found by QA: a list was taken for the text of one unknown bot
        raise _refused(f"agents must be a text, not {json.dumps(x)[:40]}", "bots by name, comma-separated: "
                                                                          "random,mcts:400")
    seat_names(agents, players)  # a bad bot list is refused before any game is played
    for name in parse_agents(agents):
        if (why := over_budget(name)) is not None:
            raise _refused(f"bot `{name}`: {why}")
    return agents


def run_compare(lobby: Lobby, spec: dict[str, Any], stopped: Callable[[], bool] | None = None) -> dict[str, Any]:
    """The report for the page. A variant a rules error stopped is in `failed` with its error as every
    reply words an error (Lobby.reply); a headline figure that is not significant says what it leaves
    open in the words of `meeple compare` (tools/stats.py), with the page's "Games each" box for -n.
    Once `stopped()` says so (the page has gone, the server stops), the comparison ends after the game
    in play, as Ctrl-C ends `meeple compare`: tools/backends.Interrupted is raised."""
    variants = [] if spec.get("variants") is None else spec["variants"]
    if not isinstance(variants, list):  # found by QA: `true` was a 500 (TypeError), `{...}` its keys
        raise _refused("variants must be a list of rulesets from the lobby's list")
    names = [spec.get("base"), *variants]
    if len(names) < 2 or not all(isinstance(n, str) and n in lobby.names() for n in names):
        raise _refused("pick a base ruleset and at least one variant from the lists")
    rulesets = [lobby.ruleset(n) for n in names]
    base = rulesets[0]
    players = whole(_given(spec.get("players"), default_players(base)),
                    "players", base.min_players, base.max_players)
    games = whole(_given(spec.get("games"), 100), "games", 2, MAX_GAMES)
    seed = whole(_given(spec.get("seed"), 0), "seed", 0, MAX_SEED)
    agents = _agents(spec.get("agents"), players)
    same = same_rules(rulesets, names)  # as `meeple compare`: their games would be the base's
    kept = [k for k in range(len(names)) if k not in same]

    def progress(_: int) -> None:  # after each game: where Ctrl-C ends `meeple compare` (tools/backends.py)
        if stopped is not None and stopped():
            raise KeyboardInterrupt

    res = compare([rulesets[k] for k in kept], players, games, seed, agents, workers=1, keep_going=True,
                  progress=progress)
    failed = {f["position"]: f for f in res["failed"]}  # positions among `kept`
    out = _unplaced({k: v for k, v in res.items() if k not in ("score_samples", "failed")}, lobby)
    out["names"] = [names[k] for i, k in enumerate(kept) if i not in failed]  # one per ruleset compared
    out["failed"] = [{"name": names[kept[i]], "ruleset": f["ruleset"], **lobby.reply(f["problems"])}
                     for i, f in sorted(failed.items())]
    unit = res["rulesets"][0]["length"]["unit"] if res["rulesets"] else ""
    for d_out, d in zip(out["differences"], res["differences"]):
        for r_out, r in zip(d_out["rows"], d["rows"]):
            if r.get("inconclusive"):
                r_out["inconclusive_text"] = inconclusive(r, unit, "{games} games each")
    out["skipped"] = [{"name": names[k], "ruleset": rulesets[k].name} for k in same]
    if has_matplotlib():
        from meeple.tools.plot import plot

        buf = io.BytesIO()
        plot(res, buf)
        out["plot"] = "data:image/png;base64," + base64.b64encode(buf.getvalue()).decode("ascii")
    return out
