"""Random control flow across decisions, against the oracle, and through saves from one engine to the other.

Generated code suspends at a `choose` by returning to the frame machine, and resumes from the frames
the state keeps (codegen/resume.py): one resolver per option, and the rest of the block after it. Its
hardest paths are those that leave a block from inside an option: `break` and `continue` of a loop
around the `choose` (Speicherstadt's "Finish loading"), `return` from a procedure that decides, a
decision inside an option, a trigger whose handler decides, a card's options that decide, and
`end_game`. test_codegen.py's random scripts decide only in options with plain bodies; these put any
of the above in an option's body, at any depth of loops and procedures.

The scripts also loop over a zone that they change, and label options with variables that live across
decisions. A game in progress is plain data (DEVELOPERS.md, rule 2), and each engine's frames are the
other's: so at a random decision, each engine's save is restored into the other engine, and both play
on from there, with seeded or explicit chance. Under explicit chance, the shortcuts of runtime/explicit.py
(a shuffle drawn in place, marks, shared starts) must show what replaying each step from its start
shows. CI runs 80 and 40 scripts; MEEPLE_LONG=1 runs 3,000 and 1,000.
"""

import json
import random

import pytest
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st
from meeple.errors import MeepleError, RulesetError
from meeple.runtime.frames import frames_to_json
from meeple.runtime.rules import load_ruleset
from support import examples, indent
from test_chance_in_place import play, replaying
from test_copy_forest import each_replays, grow
from test_differential import CHANCE, GeneratedGame, ReferenceGame, lockstep, snapshot

HEAD = """\
meeple: 1
name: Flow
players: {min: 2, max: 3}
events: [ping, extra]
counters:
  game: {total: 0, a: 0, v: 0}
  player: {points: 0}
zones:
  game: {pool: {}, bin: {}}
components:
  token:
    counters: {charge: 0}
    items:
      - id: red
        name: Red
        value: 2
        count: 2
        on:
          ping: |
            choose player(0) "React to {self.name}":
                option "Charge":
                    self.charge += 1
                option "Skip":
                    return
            total += self.value
      - id: blue
        name: Blue
        value: 5
        options:
          extra: |
            option "Extra {n}" for n in [1, 2] when total >= n:
                total -= n
                choose player(1) "Confirm {n}":
                    option "Yes":
                        total += self.value
                    option "No":
                        pass
procedures:
  offer:
    params: [q]
    do: |
      choose q "Offer":
          option "Keep {n}" for n in between(0, 2):
              return n
          option "Ask twice":
              for k in [1, 2]:
                  choose q "Ask {k}":
                      option "Stop":
                          return k * 10
                      option "Go on":
                          continue
      return -1
"""
TAIL = """setup: |
  move(components("token"), pool)
flow: |
  r = 0
  xs = [1, 2]
  p = player(0)
{flow}  v = go(p)
  r = offer(player(1))
  choose p "Last":
      options extra from pool
      option "Done":
          trigger ping on pool
scoring:
  score: p.points + a
"""

small = st.sampled_from(["0", "1", "2", "3"])


def _choose(body, n: str, who: str = "p") -> list[str]:
    """A decision whose options run the given bodies, with a card's options among them."""
    first, second = body
    return [f"choose {who} \"Choose\":", "    options extra from pool",
            f"    option \"Add {{n}} at {{r}}\" for n in between(0, 2) when n != {n} and n <= r + 2:", "        a += n",
            *indent(first, 8),
            "    option \"Other\":", *indent(second, 8)]


def statements(depth: int, in_loop: bool, in_proc: bool):
    """Lines of script: `in_loop` allows `break`/`continue`, `in_proc` allows `return`."""
    simple = [
        small.map(lambda x: [f"a += {x}"]),
        small.map(lambda x: [f"r += {x}"]),
        small.map(lambda x: [f"p.points += {x}", "log(\"a {a} total {total} v {v} r {r}\")"]),
        st.just(["v = offer(p)"]), st.just(["r = offer(player(1))"]), st.just(["offer(p)"]),
        st.just(["trigger ping on pool"]), st.just(["trigger ping on first(pool)"]),
        st.just(["move(first(pool), bin)"]), st.just(["move(bin, pool)"]), st.just(["shuffle(pool)"]),
        st.just(["move(random_pick(list(pool)), bin)"]),
        small.map(lambda x: [f"if a > {x} * 4:", "    end_game"]),
        st.just(["simultaneous q in players:", "    choose q \"Bid\":",
                 "        option \"Bid {n}\" for n in between(0, 2):", "            q.points += n"]),
    ]
    if not in_proc:
        simple.append(st.just(["v = go(p)"]))
    if in_loop:
        simple += [st.just(["break"]), st.just(["continue"]), small.map(lambda x: [f"if a > {x}:", "    break"])]
    if in_proc:
        simple += [st.just(["return r"]), small.map(lambda x: [f"if v > {x}:", "    return v"])]
    leaf = st.one_of(*simple)
    if depth == 0:
        return st.lists(leaf, min_size=1, max_size=2).map(lambda ls: [x for s in ls for x in s])
    inner = statements(depth - 1, in_loop, in_proc)
    looped = statements(depth - 1, True, in_proc)
    w = f"w{depth}"  # a loop counter per depth: an inner loop must not reset an outer one
    compound = st.one_of(
        st.tuples(st.tuples(inner, inner), small).map(lambda t: _choose(*t)),
        st.tuples(st.tuples(inner, inner), small).map(lambda t: _choose(*t, who="player(1)")),
        st.tuples(small, inner, inner).map(lambda t: [f"if a > {t[0]}:", *indent(t[1]), "else:", *indent(t[2])]),
        looped.map(lambda b: ["for y in xs:", *indent(b)]),
        looped.map(lambda b: ["for q in players:", "    choose q \"Turn\":", "        option \"Play\":",
                              *indent(b, 12), "        option \"Rest\":", "            pass"]),
        looped.map(lambda b: ["repeat 2:", *indent(b)]),
        looped.map(lambda b: ["repeat count(bin):", *indent(b)]),
        looped.map(lambda b: ["for c in pool:", "    c.charge += 1", *indent(b)]),
        looped.map(lambda b: [f"{w} = 0", f"while {w} < 3:", f"    {w} += 1", *indent(b)]),
    )
    return st.lists(st.one_of(leaf, compound), min_size=1, max_size=3).map(lambda ls: [x for s in ls for x in s])


def loaded(folder, flow: list[str], proc: list[str]):
    """The ruleset of `flow` and `proc`, loaded from a file in `folder`; an example the checker refuses
    (it can prove some scripts wrong) is dropped: nothing runs."""
    path = folder / "flow.yaml"
    path.write_text(ruleset_text(flow, proc))
    try:
        return load_ruleset(path)
    except RulesetError:
        assume(False)


def ruleset_text(flow: list[str], proc: list[str]) -> str:
    """The ruleset: HEAD, the procedure `go` (which the flow may call) around `proc`, and the flow."""
    body = ["r = 1", "p = q", "xs = [q]", *proc, "return r"]  # the names the statements use, as the flow has them
    go = "  go:\n    params: [q]\n    do: |\n" + "".join(f"      {line}\n" for line in body)
    return HEAD + go + TAIL.format(flow="".join(f"  {line}\n" for line in flow))


# Hypothesis gives up if the checker refuses most scripts (`loaded`), so a property cannot pass by running
# nothing.
@settings(max_examples=examples(80, 3000), derandomize=True, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture,
                                 HealthCheck.data_too_large])
@given(statements(2, False, False), statements(1, False, True), st.integers(0, 5), st.integers(0, 12),
       st.sampled_from(["seeded", "explicit"]))
def test_random_flow_runs_identically_in_both_engines_and_across_their_saves(
        tmp_path_factory, flow, proc, seed, swap_at, chance):
    rs = loaded(tmp_path_factory.mktemp("flow"), flow, proc)
    lockstep(rs, 2 + seed % 2, seed, max_decisions=60, narrate=seed % 2 == 0, swap_at=swap_at, chance=chance)


# runtime/explicit.py's shortcuts (a shuffle drawn in place, marks rather than copies, shared starts) must
# give what replaying each step from its start gives (tests/test_chance_in_place.py, for the bundled games).
@settings(max_examples=examples(40, 1000), derandomize=True, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture,
                                 HealthCheck.data_too_large])
@given(statements(2, False, False), statements(1, False, True), st.integers(0, 5),
       st.sampled_from([GeneratedGame, ReferenceGame]))
@example(["shuffle(pool)", "v = go(p)"], ["shuffle(pool)"], 0, GeneratedGame)  # in place, and not (in `go`)
@example(["shuffle(pool)", "v = go(p)"], ["shuffle(pool)"], 1, ReferenceGame)
def test_random_flow_with_explicit_chance_goes_on_in_place_as_its_replay_does(tmp_path_factory, flow, proc, seed,
                                                                               game_class):
    rs = loaded(tmp_path_factory.mktemp("flow"), flow, proc)
    fast = play(rs, game_class, seed, 60, players=2 + seed % 2, narrate=seed % 2 == 0)
    with pytest.MonkeyPatch.context() as m:
        replaying(m)
        assert play(rs, game_class, seed, 60, players=2 + seed % 2, narrate=seed % 2 == 0) == fast


# Copies share what they do not change (tests/test_copy_forest.py, for the bundled games): a forest of
# copies of a random flow, played interleaved, holds only games that their own logs replay to.
@settings(max_examples=examples(30, 1000), derandomize=True, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture,
                                 HealthCheck.data_too_large])
@given(statements(2, False, False), statements(1, False, True), st.integers(0, 5),
       st.sampled_from(["seeded", "explicit"]), st.sampled_from([GeneratedGame, ReferenceGame]))
def test_every_game_of_a_forest_of_copies_of_a_random_flow_is_its_log_replayed(tmp_path_factory, flow, proc, seed,
                                                                                chance, game_class):
    rs = loaded(tmp_path_factory.mktemp("flow"), flow, proc)
    players, narrate = 2 + seed % 2, seed % 2 == 0
    try:
        forest = grow(rs, game_class, players, chance, narrate, random.Random(seed), 120)
    except MeepleError as e:  # the script fails somewhere (a menu left empty, an error it raises), as its replay
        assert e.problems[0].code != "R003", e  # would; never by doing something impossible (a list the copies share)
        return
    each_replays(rs, game_class, players, chance, narrate, forest)


# Found by this property: a save made at a chance event part-way through a step held that step's frames,
# which are each engine's own (generated code runs an option's body without frames), so the other engine
# refused it as edited (L001). A save at a chance event now holds no frames; it loads by replay.
STOPPED = (['choose p "Choose":', '    options extra from pool', '    option "Add {n} at {r}" for n in between(0, 2):',
            '        a += n', '        v = go(p)', '    option "Other":', '        v = offer(p)'], ['shuffle(pool)'])


def test_a_save_at_a_chance_event_part_way_through_a_step_loads_in_either_engine(tmp_path):
    rs = loaded(tmp_path, *STOPPED)
    for made, other in ((GeneratedGame, ReferenceGame), (ReferenceGame, GeneratedGame)):
        g = made.new(rs, 2, 0, chance="explicit")
        g.apply_index(0)  # "Add 0": `go` shuffles the pool, a chance event inside the option's body
        assert g.is_chance and g.to_json()["state"]["stack"] is None
        h = other.from_json(rs, json.loads(g.dumps()))
        assert h.is_chance and snapshot(h) == snapshot(g)
        for game in (g, h):
            game.apply_index(0, CHANCE)
        assert snapshot(h) == snapshot(g)


def test_a_save_at_a_chance_event_written_with_the_frames_of_its_step_still_loads(tmp_path):
    # As saves were written before the fix: the frames are the engine's own, and a replay never reads them.
    rs = loaded(tmp_path, *STOPPED)
    g = ReferenceGame.new(rs, 2, 0, chance="explicit")
    g.apply_index(0)
    old = g.to_json()
    old["state"]["stack"] = frames_to_json(g.state.stack, rs.node_ids)
    assert old["state"]["stack"]["frames"]
    for cls in (GeneratedGame, ReferenceGame):
        assert snapshot(cls.from_json(rs, old)) == snapshot(g)
