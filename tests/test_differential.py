"""The generated engine plays exactly like the reference tree-walker (the oracle).

Every bundled ruleset, variant and scenario is played by both from the same seeds, and at every step
the legal actions (keys and labels), the log and the save must be identical. A property test
generates small random scripts, so that constructs no bundled game uses are compared too.
"""

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from meeple.errors import MeepleError
from meeple.runtime.chance import CHANCE
from meeple.runtime.codegen.evaluator import GeneratedEvaluator
from meeple.runtime.evaluator import Evaluator
from meeple.runtime.game import Game
from meeple.runtime.limits import STEPS_MESSAGE
from meeple.runtime.rules import load_ruleset
from meeple.tools.scenarios import run_file

ROOT = Path(__file__).resolve().parent.parent
RULESETS = sorted((ROOT / "rulesets").glob("*.yaml")) + sorted((ROOT / "rulesets" / "reference").glob("*.yaml")) \
    + sorted((ROOT / "rulesets" / "variants").glob("*.yaml"))
SCENARIOS = sorted((ROOT / "rulesets" / "scenarios").glob("*.yaml")) \
    + sorted((ROOT / "tests" / "scenarios").glob("*.yaml"))


class ReferenceGame(Game):
    __slots__ = ()
    evaluator_class = Evaluator


class GeneratedGame(Game):
    __slots__ = ()
    evaluator_class = GeneratedEvaluator


def snapshot(g: Game) -> dict:
    """Everything a player or a save can observe. The runaway-loop step counters differ by design:
    the reference counts every statement, generated code counts loop passes and calls."""
    data = g.to_json()
    data["state"].pop("steps")
    data.pop("seal", None)  # a save's seal covers the step counter too
    # What a deciding seat is shown goes through the per-viewer rendering: its view (with the keys of its
    # actions as it reads them) and its log lines, from both engines alike. (Every seat's view at every
    # step made this file five times slower; a deciding seat sees every kind of thing there is to see.)
    # At a chance event nobody decides: every seat's, there (the state as the random event found it).
    seen = {s: (g.view(s), g.log_for(s)) for s in g.deciders or (range(g.state.nplayers) if g.is_chance else [])}
    return {"save": data, "actions": g.legal_actions(), "log": list(g.state.log), "over": g.is_over,
            "deciders": g.deciders, "seen": seen}


def outcome(fn):
    """The result of `fn()`, or the error it raised, comparable between the two engines."""
    try:
        return ("ok", fn())
    except MeepleError as e:
        # A runaway loop is stopped where the step budget runs out, which is counted differently by
        # design (the reference counts statements, generated code loop passes and calls): both stop it
        # in the same file with the same error, at a statement of the loop that may differ.
        return ("error", [(p.code, p.message, p.span.file if p.message == STEPS_MESSAGE and p.span else p.span)
                          for p in e.problems])
    except Exception as e:  # noqa: BLE001 - both engines must fail the same way, whatever the failure
        return ("python", type(e).__name__, str(e))


def lockstep(rs, players: int, seed: int, max_decisions: int = 2_000, narrate: bool = True,
             swap_at: int | None = None, chance: str = "seeded") -> int:
    """Play both engines side by side with the same random choices (and chance outcomes, with explicit
    chance); compare them at every step. At decision `swap_at`, each engine goes on from a save of the
    other (restored, not copied; the generated engine's by replaying the reference's action log)."""
    made = [outcome(lambda cls=cls: cls.new(rs, players, seed, narrate=narrate, chance=chance))
            for cls in (GeneratedGame, ReferenceGame)]
    assert [m[0] for m in made] == [made[1][0]] * 2 and (made[0][0] == "ok" or made[0] == made[1])
    if made[0][0] != "ok":
        return 0
    fast, ref = made[0][1], made[1][1]
    rng = random.Random(seed)
    decisions = 0
    while True:
        # A label whose hole fails (a rules error at the hole) fails the query alike in both engines
        assert outcome(lambda g=fast: snapshot(g)) == outcome(lambda g=ref: snapshot(g)), f"step {decisions}"
        if ref.is_over or decisions >= max_decisions:
            break
        if decisions == swap_at:
            # One save loads as it is (sealed), the other by replaying its action log (its seal removed).
            unsealed = {k: v for k, v in ref.to_json().items() if k != "seal"}
            fast, ref = GeneratedGame.from_json(rs, unsealed), ReferenceGame.from_json(rs, fast.to_json())
            assert snapshot(fast) == snapshot(ref), "restored"
        for seat in ref.deciders or [CHANCE]:  # no decider: a chance event
            i = rng.randrange(ref.num_actions(seat))
            a = outcome(lambda i=i, seat=seat, g=fast: g.apply_index(i, seat))
            b = outcome(lambda i=i, seat=seat, g=ref: g.apply_index(i, seat))
            assert a == b, f"step {decisions}"
            if a[0] != "ok":
                return decisions
            decisions += 1
    assert fast.scores == ref.scores and fast.winners == ref.winners
    assert fast.copy().to_json() == fast.to_json()
    return decisions


@pytest.mark.parametrize("path", RULESETS, ids=[p.stem for p in RULESETS])
def test_every_bundled_ruleset_and_variant_plays_identically(path):
    rs = load_ruleset(path)
    # After the first decision of each game (and at decision 25 in the longer ones), each engine goes on from a save of the
    # other: their frames are the same plain data.
    for players in sorted({rs.min_players, rs.max_players}):
        assert lockstep(rs, players, seed=players, swap_at=1) > 1
    assert lockstep(rs, rs.max_players, seed=11, narrate=False, swap_at=25) > 0  # as simulations and bots play
    assert lockstep(rs, rs.min_players, seed=5, chance="explicit", swap_at=9) > 0  # chance events as OpenSpiel's


def _recorded(monkeypatch, evaluator: type, path: Path) -> tuple[list, list]:
    """Run a scenario file with one engine, recording a snapshot after every action."""
    steps: list = []

    def spy(method):
        def spied(self, *args):
            method(self, *args)
            steps.append(snapshot(self))
        return spied
    monkeypatch.setattr(Game, "evaluator_class", evaluator)
    monkeypatch.setattr(Game, "apply", spy(Game.apply))  # actions by label or key
    monkeypatch.setattr(Game, "apply_index", spy(Game.apply_index))  # random steps
    results = [(r.name, r.ok, [(p.code, p.message) for p in r.problems]) for r in run_file(path)]
    monkeypatch.undo()
    return results, steps


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_every_scenario_plays_identically(monkeypatch, path):
    fast = _recorded(monkeypatch, GeneratedEvaluator, path)
    ref = _recorded(monkeypatch, Evaluator, path)
    assert fast[0] == ref[0]
    assert len(fast[1]) == len(ref[1]) > 0
    for i, (a, b) in enumerate(zip(fast[1], ref[1])):
        assert a == b, f"after action {i + 1}"


def test_the_default_engine_is_generated_and_the_environment_selects_the_reference():
    g = load_ruleset("tic_tac_toe").new_game(2)
    assert type(g._ev) is GeneratedEvaluator
    code = "import meeple; g = meeple.load_ruleset('tic_tac_toe').new_game(2); print(type(g._ev).__name__)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True,
                         env={**__import__("os").environ, "MEEPLE_EVALUATOR": "reference"})
    assert out.stdout.strip() == "Evaluator"


def test_copies_and_saves_of_generated_games_keep_playing_the_same(tmp_path):
    rs = load_ruleset("speicherstadt")
    g = GeneratedGame.new(rs, 3, 5)
    rng = random.Random(5)
    for _ in range(40):
        g.apply_index(rng.randrange(g.num_actions()))
    saved = json.loads(g.dumps())
    restored, copied = GeneratedGame.from_json(rs, saved), g.copy()
    ref = ReferenceGame.from_json(rs, saved)
    for other in (restored, copied, ref):
        for _ in range(30):
            i = len(other.state.actions) % other.num_actions()
            other.apply_index(i)
        snap = snapshot(other)
        if other is restored:
            first = snap
        else:
            assert snap["save"]["actions"] == first["save"]["actions"]
            assert snap["log"] == first["log"]


def option_ends_as_the_reference(rs, i: int, fails: bool, narrate: bool) -> None:
    """Option i of the first menu of a 2-player game of `rs`, taken by both engines: the same outcome (an
    error when `fails`, else none), and the same game after it."""
    games = [cls.new(rs, 2, 1, narrate=narrate) for cls in (GeneratedGame, ReferenceGame)]
    results = [outcome(lambda g=g: g.apply_index(i)) for g in games]
    assert results[0] == results[1]
    assert results[0][0] == ("error" if fails else "ok"), results[0]
    if results[0][0] == "ok":
        assert snapshot(games[0]) == snapshot(games[1])


def edge_menu(tmp_path: Path, name: str, head: str, edges: dict[str, str], tail: str):
    """A ruleset whose first menu has one option per edge case (its label, and its one line of script):
    `head` opens the menu, `tail` follows it."""
    body = "".join(f"      option {label!r}:\n        {code}\n".replace("'", '"') for label, code in edges.items())
    path = tmp_path / f"{name}.yaml"
    path.write_text(head + body + tail)
    return load_ruleset(path)


RUNAWAY = """\
meeple: 1
name: Runaway
players: {min: 2, max: 2}
flow: |
  xs = [1, 2]
  w = 0
  while w < 3:
      w += 1
      w = 0
      while w < 3:
          w += 1
          log("{min([y * 2 for y in xs])}")
          break
scoring:
  score: "0"
"""


def test_a_runaway_loop_fails_alike_in_both_engines_wherever_its_budget_runs_out(tmp_path):
    # Found by a long run of test_codegen's random scripts: the budget ran out at the comprehension in
    # generated code and at the inner `while` in the reference, which counts every statement.
    path = tmp_path / "runaway.yaml"
    path.write_text(RUNAWAY)
    rs = load_ruleset(path)
    made = [outcome(lambda cls=cls: cls.new(rs, 2, 1)) for cls in (GeneratedGame, ReferenceGame)]
    assert made[0] == made[1] == ("error", [("R001", STEPS_MESSAGE, str(path))])
    assert lockstep(rs, 2, 1) == 0
