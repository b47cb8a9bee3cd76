"""The designer page's report: `meeple compare` (tools/compare.py) run for a base and its variants.

The page shows the same figures as the command (win rates with confidence intervals, first-player
advantage, score, margin, length, items, coverage, the differences with their p-values) and, if
matplotlib is installed, the same plot as `meeple compare --plot`, as a PNG data URL.
"""

from __future__ import annotations

import base64
import io
from typing import Any

from meeple.errors import Problem, UsageError
from meeple.tools.agents import seat_names
from meeple.tools.compare import compare
from meeple.web.lobby import Lobby

MAX_GAMES = 5000  # per ruleset: the page waits for the answer


def has_matplotlib() -> bool:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True


def run_compare(lobby: Lobby, spec: dict[str, Any]) -> dict[str, Any]:
    names = [spec.get("base"), *(spec.get("variants") or [])]
    if len(names) < 2 or not all(isinstance(n, str) and n in lobby.names() for n in names):
        raise UsageError(Problem("B020", "pick a base ruleset and at least one variant from the lists"))
    rulesets = [lobby.ruleset(n) for n in names]
    try:
        players = int(spec.get("players") or 0) or max(rulesets[0].min_players, min(4, rulesets[0].max_players))
        games = int(spec.get("games") or 100)
        seed = int(spec.get("seed") or 0)
    except (TypeError, ValueError):
        raise UsageError(Problem("B021", "players, games and seed must be whole numbers")) from None
    if not 2 <= games <= MAX_GAMES:
        raise UsageError(Problem("B022", f"games must be between 2 and {MAX_GAMES}"))
    agents = str(spec.get("agents") or "random")
    seat_names(agents, players)  # a bad bot list is refused before any game is played
    res = compare(rulesets, players, games, seed, agents, workers=1)
    out = {k: v for k, v in res.items() if k != "score_samples"}
    out["names"] = names
    if has_matplotlib():
        from meeple.tools.plot import plot

        buf = io.BytesIO()
        plot(res, buf)
        out["plot"] = "data:image/png;base64," + base64.b64encode(buf.getvalue()).decode("ascii")
    return out
