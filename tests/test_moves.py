"""`move` of one component and a component's owner, against a model of what they mean.

Moving a component takes it out of the zone that holds it and puts it at the bottom (or top) of the
target, even when both are the same zone; a copy of the game never sees the moves of the other (zones
are copied on write). A component's owner is the player whose zone holds it, or the owner of the
component in whose slot it lies, or nobody. Both engines share these built-ins, so the differential tests
cannot tell a mistake here: this model can.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from meeple.runtime.actions import move
from meeple.runtime.data import Comp, Player, Zone
from meeple.runtime.rules import load_ruleset

from tests.support import examples

RULESET = """\
meeple: 1
name: Moves
players: {min: 2, max: 2}
zones:
  game: {deck: {}, pile: {}}
  player: {hand: {}}
components:
  crate:
    slots: {inside: {}}
    items:
      - {id: crate, name: Crate, count: 3}
  card:
    items:
      - {id: card, name: Card, count: 4}
setup: |
  move(components("card"), deck)
flow: |
  choose player(0) "Done":
      option "Done":
          end_game
scoring:
  score: "0"
"""


def model_owner(st, c):
    """The owner as the rules say it, from the zones alone."""
    key = next(k for k, z in st.zones.items() if c in z)
    head = key.split(".", 1)[0]
    if head.isdigit():
        return Player(int(head))
    if head.startswith("#"):
        return model_owner(st, Comp(int(head[1:])))
    return None


@settings(max_examples=examples(60, 600), derandomize=True, deadline=None)
@given(steps=st.lists(st.tuples(st.integers(0, 6), st.integers(0, 6), st.booleans(), st.booleans()), max_size=30))
def test_moving_one_component_at_a_time_is_what_the_model_says(tmp_path_factory, steps):
    path = tmp_path_factory.getbasetemp() / "moves.yaml"
    path.write_text(RULESET)
    rs = load_ruleset(path)
    g = rs.new_game(2, 1)
    crates = [c.id for c in rs.components if c.kind == "crate"]
    keys = ["deck", "pile", "0.hand", "1.hand", *[f"#{c}.inside" for c in crates]]
    model = {k: list(v) for k, v in g.state.zones.items()}
    original, copy = g, g.copy()
    frozen = {k: list(v) for k, v in copy.state.zones.items()}
    ev, node = g._ev, rs.flow
    for c, z, top, check in steps:
        comp, key = Comp(rs.components[c].id), keys[z]
        if c < len(crates) and key.startswith("#"):
            continue  # a crate into a crate (into itself, or a cycle): not what this model is about
        move(ev, node, comp, Zone(key), "top" if top else None)
        old = next(k for k, v in model.items() if comp in v)
        model[old].remove(comp)
        model[key].insert(0, comp) if top else model[key].append(comp)
        assert g.state.zones == model
        assert all(g.state.loc[x] == k for k, v in model.items() for x in v)
        if check:
            for d in rs.components:
                assert ev.owner(Comp(d.id)) == model_owner(g.state, Comp(d.id)), d.id
    assert original is g and copy.state.zones == frozen  # the copy never saw a move
