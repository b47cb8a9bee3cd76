"""Helpers shared by the test files: random play, view inspection, and tiny rulesets."""

import json
import random
from pathlib import Path

from meeple.runtime.rules import load_ruleset

PICK = """\
meeple: 1
name: Pick
players: {min: 1, max: 3}
counters:
  player: {points: 0}
flow: |
  for p in players:
      choose p "Take":
          option "Take {n}" for n in [1, 3, 2]:
              score(p.points, n)
scoring:
  score: p.points
"""


# A sealed auction: the highest bid scores, and every bid is paid.
BIDS = """\
meeple: 1
name: Bids
players: {min: 2, max: 3}
counters:
  game: {round: 0}
  player: {coins: 5, points: 0}
flow: |
  repeat 3:
      round += 1
      bids = {}
      simultaneous q in players:
          choose q "Your secret bid":
              option "Bid {n}" for n in between(0, q.coins):
                  bids[q] = n
      best = max([bids[p] for p in players])
      for p in players:
          pay(p.coins, bids[p])
          if bids[p] == best:
              score(p.points, 1)
scoring:
  score: p.points
  tiebreak: [p.coins]
"""


# Runs fine until the third player must choose from an empty menu (R002).
BROKEN = """\
meeple: 1
name: Broken
players: {min: 2, max: 3}
counters:
  player: {points: 0}
flow: |
  for p in players:
      choose p "Take":
          option "Take 1" when p.seat < 2:
              score(p.points, 1)
scoring:
  score: p.points
"""


def random_game(rs, players, seed, each_step=None):
    """Play a game of `rs` to the end with uniformly random actions (seeded), calling each_step(game)
    before every decision and once at the end."""
    g = rs.new_game(players, seed)
    rng = random.Random(seed)
    while not g.is_over:
        if each_step:
            each_step(g)
        g.apply_index(rng.randrange(g.num_actions()))
    if each_step:
        each_step(g)
    return g


def visible_ids(game, viewer):
    """Ids of every component a seat's view shows. The view names components by item, not id (copies look
    alike), so each shown entry is matched with the state's component at its place and position, and its
    item checked against that component's."""
    st, rs = game.state, game.rs
    out = set()

    def zone(shown, key):
        if isinstance(shown, dict):  # a zone the seat sees only the size of (and a `top` pile its top's back)
            assert shown["count"] == len(st.zones[key]) and set(shown) <= {"count", "top"}
            assert "top" not in shown or set(shown["top"]) <= {"hidden", "back"}
            return
        assert len(shown) == len(st.zones[key])
        for entry, c in zip(shown, st.zones[key]):
            assert "id" not in entry
            if "item" in entry:
                assert entry["item"] == rs.components[c].item
                out.add(c)
            for slot, inner in entry.get("slots", {}).items():
                zone(inner, f"#{c}.{slot}")

    view = game.view(viewer)
    for n, z in view["zones"].items():
        zone(z, n)
    for seat in view["seats"]:
        for n, z in seat["zones"].items():
            zone(z, f"{seat['seat']}.{n}")
    return out


# How a run went, not its games (simulate's and ladder's JSON).
RUN_FIELDS = ("seconds", "games_per_s", "decisions_per_s", "seconds_per_game", "workers", "backend", "resumed")


def statistics(summary):
    """A simulation's JSON without the fields that describe the run (its speed, where it ran): the part
    that must be the same, to the byte, wherever and however the games were played."""
    return json.dumps({k: v for k, v in summary.to_json(records=True).items() if k not in RUN_FIELDS}, indent=2)


def without_run_fields(output: bytes) -> bytes:
    """A command's output without what describes the run: the run fields of its JSON, the speed or time
    line of its text. What is left must be the same, to the byte, wherever the games were played."""
    if output.lstrip().startswith(b"{"):
        data = json.loads(output)
        return json.dumps({k: v for k, v in data.items() if k not in RUN_FIELDS}, indent=2).encode()
    return b"\n".join(line for line in output.split(b"\n") if not line.startswith((b"time: ", b"speed: ")))


def indent(lines: list[str], width: int = 4) -> list[str]:
    """Script lines `width` columns deeper (random scripts: tests/test_codegen.py, tests/test_random_values.py,
    tests/test_random_flow.py)."""
    return [" " * width + x for x in lines]


def form(template: str, *parts):
    """A hypothesis strategy for script text: `template` (str.format's, `{0}`, `{1}`...) filled with one draw
    of each of `parts` (random scripts: tests/test_codegen.py, tests/test_random_values.py)."""
    from hypothesis import strategies as st

    return st.tuples(*parts).map(lambda drawn: template.format(*drawn))


def examples(ci: int, long: int) -> int:
    """How many hypothesis examples a property test runs: `ci` normally, `long` with `pytest --long` (or
    MEEPLE_LONG=1)."""
    import os

    return long if os.environ.get("MEEPLE_LONG") == "1" else ci


def record(counts, outcome: str) -> None:
    """Count what a fuzzed case did; with MEEPLE_LONG_LOG=FILE also append it there as it happens, so that
    a long run stopped early still tells how far it got."""
    import os

    counts[outcome] += 1
    path = os.environ.get("MEEPLE_LONG_LOG")
    if path:
        with open(path, "a", encoding="utf-8") as fh:
            fh.write(outcome + "\n")


def load_text(folder, name, text):
    """A ruleset kept in a test as YAML text: written to `folder` as NAME.yaml, and loaded."""
    path = Path(folder) / f"{name}.yaml"
    path.write_text(text, encoding="utf-8")
    return load_ruleset(path)


def stop_after(games):
    """A run's progress callback that presses Ctrl-C once `games` games have finished."""
    seen = []

    def progress(n):
        seen.append(n)
        if sum(seen) >= games:
            raise KeyboardInterrupt

    return progress
