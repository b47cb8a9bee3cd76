"""Every bundled ruleset, variant and reference game is a PettingZoo AEC environment that passes
PettingZoo's own API and seeding tests; observations are fixed-size views, sealed choices stay sealed."""

from pathlib import Path

import pytest

np = pytest.importorskip("numpy")

pytest.importorskip("pettingzoo")

import meeple
import meeple.pettingzoo as mpz
from meeple.errors import MeepleError
from meeple.loading.files import bundled
from pettingzoo.test import api_test, seed_test
from support import load_text

ROOT = Path(__file__).resolve().parent.parent
ALL = bundled() + sorted(str(p) for d in ("variants", "reference") for p in (ROOT / "rulesets" / d).glob("*.yaml"))


@pytest.mark.filterwarnings("ignore:Observation")
@pytest.mark.parametrize("name", ALL, ids=lambda n: Path(n).stem)
def test_pettingzoo_api_and_seed_tests(name):
    rs = meeple.load_ruleset(name)
    api_test(mpz.env(rs, rs.min_players), num_cycles=15)
    seed_test(lambda: mpz.env(rs, rs.min_players), num_cycles=15)


def play(env, seed, choose):
    env.reset(seed=seed)
    rewards = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        rewards[agent] += reward
        env.step(None if terminated or truncated else choose(agent, obs))
    return rewards


def test_a_whole_game_ends_with_the_scores_as_rewards():
    env = mpz.raw_env("merchants", players=3)
    seen = []

    def first_legal(agent, obs):
        mask = obs["action_mask"]
        assert obs["observation"].shape == (env.layout.size,) and obs["observation"].dtype == np.float32
        assert mask.sum() == env.game.num_actions(env.possible_agents.index(agent))
        seen.append(agent)
        return int(np.flatnonzero(mask)[-1])

    rewards = play(env, 7, first_legal)
    assert env.game.is_over and not env.agents
    assert [rewards[a] for a in env.possible_agents] == [float(s) for s in env.game.scores]
    assert set(seen) == set(env.possible_agents)


def test_win_utility_splits_one_among_the_winners():
    env = mpz.raw_env("rulesets/reference/tic_tac_toe.yaml", players=2, utility="win")
    rewards = play(env, 1, lambda agent, obs: int(np.flatnonzero(obs["action_mask"])[0]))
    assert sum(rewards.values()) == pytest.approx(1.0)
    assert rewards == {a: (1.0 / len(env.game.winners) if i in env.game.winners else 0.0)
                       for i, a in enumerate(env.possible_agents)}


def test_an_illegal_action_is_refused():
    env = mpz.raw_env("rulesets/reference/kuhn_poker.yaml", players=2)
    env.reset(seed=0)
    with pytest.raises(ValueError, match="cannot take action"):
        env.step(2)
    assert env.game.state.actions == []


def test_sealed_choices_stay_sealed():
    # At a sealed decision, the seat that decides second observes the same whatever the first chose.
    env_a, env_b = mpz.raw_env("camel_up_off_season", players=3), mpz.raw_env("camel_up_off_season", players=3)
    for env in (env_a, env_b):
        env.reset(seed=3)
    step = 0
    while not env_a.game.is_over:
        deciders = env_a.game.deciders
        if len(deciders) > 1 and env_a.game.num_actions(deciders[0]) > 1:
            env_a.step(0)
            env_b.step(1)
            second = env_a.agent_selection
            assert second == env_b.agent_selection == env_a.possible_agents[deciders[1]]
            oa, ob = env_a.observe(second), env_b.observe(second)
            assert np.array_equal(oa["observation"], ob["observation"])
            assert np.array_equal(oa["action_mask"], ob["action_mask"])
            assert env_a.game.state.pending["chosen"] != env_b.game.state.pending["chosen"]
            return
        step += 1
        for env in (env_a, env_b):
            env.step(step % env.game.num_actions(env.game.deciders[0]))
    pytest.fail("no sealed decision with a choice was met")


def test_a_step_that_is_not_a_whole_number_is_refused_and_changes_nothing():
    # Bug: step(None) for an agent that must act raised int()'s TypeError, 1.9 was taken as 1 and '0' as 0.
    from meeple.errors import IllegalAction

    env = mpz.raw_env("rulesets/reference/kuhn_poker.yaml", players=2)
    env.reset(seed=0)
    agent = env.agent_selection
    for bad in (None, 1.9, "0", True, np.array([0])):
        with pytest.raises(IllegalAction, match=f"{agent} must act: its action must be a whole number"):
            env.step(bad)
        assert env.game.state.actions == [] and env.agent_selection == agent
    with pytest.raises(IllegalAction, match="cannot take action 7: there are 2 options"):
        env.step(7)
    env.step(np.int64(0))  # NumPy integers are whole numbers
    assert len(env.game.state.actions) == 1


def test_bad_arguments_are_refused_with_a_typed_error_that_names_them():
    # Bug: observe('player_7') said "'player_7' is not in list"; reset(seed=-1) failed with NumPy's message;
    # players=np.int64(2) was refused as "the number of players and the seed must be whole numbers".
    from meeple.errors import UsageError

    env = mpz.raw_env("rulesets/reference/kuhn_poker.yaml", players=np.int64(2))
    assert env.players == 2 and type(env.players) is int
    env.reset(seed=-1)
    with pytest.raises(UsageError, match="'player_7' is not an agent of this environment: its agents are "
                                         "player_0, player_1"):
        env.observe("player_7")
    with pytest.raises(UsageError, match="the seed must be a whole number, not 1.5"):
        env.reset(seed=1.5)
    for kwargs, message in (({"players": 2.0}, "players= must be a whole number, not 2.0"),
                            ({"players": True}, "players= must be a whole number, not True"),
                            ({"players": 3}, "for 2 players, not 3"),
                            ({"utility": "chips"}, "utility must be 'score' or 'win'"),
                            ({"max_actions": 0}, "max_actions= must be at least 1"),
                            ({"narrate": "yes"}, "narrate= must be true or false, not 'yes'")):
        with pytest.raises(UsageError, match=message):
            mpz.env("rulesets/reference/kuhn_poker.yaml", **{"players": 2, **kwargs})


def test_games_are_quiet_unless_a_log_is_asked_for():
    # No agent reads a log line (no render mode, empty infos), so the environment's games keep none,
    # and observe the same as narrated ones; narrate=True keeps the log for a person debugging (`env.unwrapped.game.log_for(seat)`).
    quiet, told = mpz.raw_env("speicherstadt", players=3), mpz.raw_env("speicherstadt", players=3, narrate=True)
    for env in (quiet, told):
        env.reset(seed=4)
    for _ in range(30):
        agent = quiet.agent_selection
        assert told.agent_selection == agent
        a, b = quiet.observe(agent), told.observe(agent)
        assert (a["observation"] == b["observation"]).all() and (a["action_mask"] == b["action_mask"]).all()
        action = int(np.flatnonzero(a["action_mask"])[-1])
        quiet.step(action)
        told.step(action)
    assert quiet.game.state.quiet and not quiet.game.log_for(0)
    assert not told.game.state.quiet and told.game.log_for(0)


def test_reset_with_a_seed_plays_the_game_of_that_seed():
    # Bug: reset(seed=42) played the game of seed 191664964 (a draw from NumPy seeded with 42), though the
    # docs say reset(seed=...) sets the game's seed; an episode could not be replayed with rs.new_game.
    env = mpz.raw_env("merchants", players=3)
    rs = env.rs
    for seed in (42, -1, np.int64(7)):
        env.reset(seed=seed)
        assert env.game.state.seed == seed
        assert env.game.to_json()["state"] == rs.new_game(players=3, seed=int(seed)).to_json()["state"]
    env.reset(seed=42)
    env.reset()
    after = env.game.state.seed
    env.reset(seed=42)
    env.reset()
    assert env.game.state.seed == after != 42  # a reset without a seed draws the next one from the last seed


@pytest.mark.parametrize(("name", "players", "policy"), [("camel_up_off_season", 3, 0), ("demoludy", 3, -1)])
def test_the_action_space_holds_the_menus_of_a_seat_that_always_takes_the_first_or_last_option(name, players,
                                                                                                 policy):
    # Bug: the action space was measured on 12 random games only: always taking the first option offered 49
    # options where the space had 48 (seed 0), always taking the last 17 where it had 16.
    env = mpz.raw_env(name, players=players)
    play(env, 0, lambda agent, obs: int(np.flatnonzero(obs["action_mask"])[policy]))
    assert env.game.is_over


def test_the_probe_plays_the_same_games_every_time():
    from meeple.tools import probe

    rs = meeple.load_ruleset("merchants")
    first = probe.profile(rs, 2)
    assert probe.profile(rs, 2) is first  # cached per ruleset object
    assert probe.profile(meeple.load_ruleset("merchants"), 2) == first  # and measured alike afresh


@pytest.mark.parametrize("name", ["speicherstadt", "merchants", "camel_up_off_season", "demoludy"])
def test_observations_come_from_views_without_texts_and_encode_the_same(name):
    # An observation reads no text a person reads (labels, prompts, status lines, the log): making
    # them was most of an environment step (Speicherstadt 1.6 games/s, now about 14).
    import random

    from meeple.tools.observe import Layout

    rs = meeple.load_ruleset(name)
    layout = Layout(rs, 4)
    g = rs.new_game(4, 5)
    rng = random.Random(5)
    for _ in range(80):
        if g.is_over:
            break
        for seat in range(4):
            lean, full = g.view(seat, texts=False), g.view(seat)
            assert (layout.encode(lean) == layout.encode(full)).all()
            assert "log" not in lean and not {"prompt", "actions"} & set(lean.get("decision", {}))
            assert lean["zones"] == _no_status(full["zones"]) and lean["seats"] == _no_status(full["seats"])
        g.apply_index(rng.randrange(g.num_actions(g.deciders[0])), g.deciders[0])


def _no_status(x):
    if isinstance(x, dict):
        return {k: _no_status(v) for k, v in x.items() if k != "status"}
    if isinstance(x, list):
        return [_no_status(v) for v in x]
    return x


SOMETIMES_OVER = """
meeple: 1
name: Sometimes over
players: {min: 2, max: 2}
counters:
  player: {points: 0}
setup: |
  if random_pick([1, 2]) == 1:
      end_game
flow: |
  for p in players:
      choose p "Points":
          option "Take {n}" for n in between(1, 3):
              p.points = n
scoring:
  score: p.points
"""


@pytest.fixture(scope="module")
def sometimes_over(tmp_path_factory):
    """The ruleset, a seed whose game its setup ends, and a seed whose game goes on."""
    rs = load_text(tmp_path_factory.mktemp("sometimes"), "sometimes", SOMETIMES_OVER)
    over = [s for s in range(40) if meeple.Game.new(rs, 2, s).is_over]
    going = [s for s in range(40) if s not in over]
    assert over and going
    return rs, over[0], going[0]


def test_a_game_over_before_anyone_decides_is_refused_at_reset_and_the_environment_keeps_its_game(
        sometimes_over):
    """Bug: a reset that drew a game its setup ended failed with an IndexError from inside the environment.
    PettingZoo has no episode without a first move (its api_test wants agents, none terminated, after
    every reset), so such a game is refused with a typed error that names its seed, and nothing changes."""
    rs, over, going = sometimes_over
    env = mpz.raw_env(rs, players=2)
    env.reset(seed=going)
    game = env.game
    with pytest.raises(MeepleError, match=f"seed {over} .* is over before anyone decides") as e:
        env.reset(seed=over)
    assert e.value.problems[0].code == "U064"
    assert env.game is game and env.agent_selection == "player_0" and not any(env.terminations.values())
    env.step(0)  # the game it had goes on
    assert env.agent_selection == "player_1"


def test_a_first_reset_refused_leaves_the_wrapped_environment_not_reset(sometimes_over):
    """Bug: PettingZoo's wrapper counts a reset as done before it runs, so after a first reset refused
    (U064) `step` reached an environment with no game (AttributeError). Now PettingZoo's own order check
    answers, as before any reset, and a reset that succeeds then plays."""
    rs, over, going = sometimes_over
    env = mpz.env(rs, players=2)
    with pytest.raises(MeepleError, match="U064|is over before anyone decides"):
        env.reset(seed=over)
    with pytest.raises(AssertionError, match=r"reset\(\) needs to be called before step"):
        env.step(0)
    env.reset(seed=going)
    env.step(0)
    assert env.agent_selection == "player_1"


def test_the_unwrapped_environment_without_a_game_says_to_reset_first(sometimes_over):
    """Bug: `raw_env` (PettingZoo's raw environments do not check the order of calls) failed with an
    AttributeError or a bare AssertionError from inside when `step`, `observe` or `last` came before any
    reset, after a refused first reset, or after `close()`. Each is now U065, saying to reset first."""
    rs, over, going = sometimes_over
    env = mpz.raw_env(rs, players=2)

    def refused_all() -> None:
        for call in (lambda: env.step(0), lambda: env.observe("player_0"), lambda: env.last()):
            with pytest.raises(mpz.NotReset, match=r"U065|call reset\(\) first") as e:
                call()
            assert e.value.problems[0].code == "U065"

    refused_all()
    with pytest.raises(MeepleError, match="U064"):
        env.reset(seed=over)
    refused_all()
    env.reset(seed=going)
    env.step(0)
    assert env.last()[0]["action_mask"].sum() > 0
    env.close()
    refused_all()


def test_a_menu_wider_than_the_action_space_is_a_typed_error_placed_at_its_choose():
    """It was a bare RuntimeError from inside the environment; now U066 (still a RuntimeError), which says
    to pass max_actions= and points at the decision's `choose` in the YAML."""
    from meeple.tools.probe import Outgrown

    ttt = Path(__file__).resolve().parent.parent / "rulesets" / "reference" / "tic_tac_toe.yaml"
    env = mpz.raw_env(str(ttt), players=2, max_actions=3)
    with pytest.raises(Outgrown, match="pass max_actions=") as e:
        env.reset(seed=1)
    p = e.value.problems[0]
    assert isinstance(e.value, RuntimeError) and p.code == "U066" and "more than this environment's 3: pass max_actions=" in p.message
    assert "choose" in ttt.read_text().splitlines()[p.span.line - 1]
