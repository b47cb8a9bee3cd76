"""`trigger` in generated code runs the handlers the reference runs, with the owners it gives them.

Generated code finds a component's handler for an event by the component's number (a table made once
per ruleset: codegen/tables.handler_tables) and its owner through a table of what each zone's key
says (values._OWNERS), where the reference asks each component's `on:` map and parses the key.
Each option below triggers one case; both engines must end in the same state or fail with the same
message at the same YAML line and column.
"""

import pytest
from test_differential import edge_menu, option_ends_as_the_reference

CASES = {
    # The crate's handler empties the pool: the beads' handlers run all the same, found before any ran.
    "handlers found before any runs": 'move(crate, pool, "top")\n        trigger ping on pool',
    "a bead in a slot of a crate a player holds": "move(first(pool), crate.inside)\n        trigger ping on crate.inside",
    "a bead in a slot of a crate in a game zone": "move(crate, spare)\n        move(first(pool), crate.inside)\n"
                                                  "        trigger ping on crate.inside",
    "a bead a player holds, then one in the pool": "move(first(pool), player(0).hand)\n"
                                                   "        trigger ping on [first(player(0).hand), first(pool)]",
    "a component without a handler for the event": "trigger grow on crate\n        r = 7",
    "a list with a number in it": "trigger ping on [first(pool), 3]",
    "none from a list": "trigger ping on first([])",
    "a handler that triggers itself": "trigger grow on first(pool)",
}

FAILING = {"a list with a number in it", "none from a list", "a handler that triggers itself"}

HEAD = """\
meeple: 1
name: Triggers
players: {min: 2, max: 2}
events: [ping, grow]
counters:
  game: {r: 0}
zones:
  game: {pool: {}, spare: {}}
  player: {hand: {}}
components:
  box:
    slots: {inside: {}}
    items:
      - id: crate
        name: Crate
        on:
          ping: |
            r = r * 10 + 9
            move(list(pool), spare)
  token:
    items:
      - id: bead
        name: Bead
        count: 3
        on:
          ping: |
            r = r * 10 + (owner.seat + 1 if owner != none else 0)
          grow: |
            r += 1
            trigger grow on self
setup: |
  move(components("token"), pool)
  move(crate, player(1).hand)
flow: |
  choose player(0) "Case":
"""


@pytest.fixture(scope="module")
def cases(tmp_path_factory):
    return edge_menu(tmp_path_factory.mktemp("triggers"), "triggers", HEAD, CASES, "scoring:\n  score: r\n")


@pytest.mark.parametrize("narrate", [True, False], ids=["narrated", "quiet"])
@pytest.mark.parametrize("label", list(CASES))
def test_each_trigger_ends_as_the_reference(cases, label, narrate):
    option_ends_as_the_reference(cases, list(CASES).index(label), label in FAILING, narrate)


def test_the_cases_reach_what_they_name(cases):
    """The owners the handlers saw, read back from `r`: none, a seat through a slot, none through a slot."""
    from meeple.runtime.game import Game

    def r_after(label):
        g = Game.new(cases, 2, 1, narrate=False)
        g.apply_index(list(CASES).index(label))
        return g.state.counters["r"]
    assert r_after("handlers found before any runs") == 9000  # the crate, then three beads in no one's zone
    assert r_after("a bead in a slot of a crate a player holds") == 2  # P2 holds the crate
    assert r_after("a bead in a slot of a crate in a game zone") == 0
    assert r_after("a bead a player holds, then one in the pool") == 10
    assert r_after("a component without a handler for the event") == 7
