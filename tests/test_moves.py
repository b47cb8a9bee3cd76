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
      - {id: card, name: Card, count: 12}  # more than 8: a list of them moves at once (_move_many)
  bead:
    items:
      - {id: bead, name: Bead, count: 10}  # left in the box by the setup
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


@settings(max_examples=examples(60, 600), derandomize=True, deadline=None)
@given(steps=st.lists(st.tuples(st.sets(st.integers(0, 11), min_size=9), st.integers(0, 3), st.booleans(),
                                st.booleans()), max_size=12))
def test_moving_many_components_at_once_is_moving_them_one_by_one(tmp_path_factory, steps):
    """Nine cards or more move in one pass (`_move_many`): the zones, the order and where each card is,
    as the model moving them one at a time; `whole` moves every card of the zone that holds the first
    (a pile onto a deck), in its order, which takes the shortcut that empties the zone."""
    path = tmp_path_factory.getbasetemp() / "moves_many.yaml"
    path.write_text(RULESET)
    rs = load_ruleset(path)
    g = rs.new_game(2, 1)
    cards = [Comp(c.id) for c in rs.components if c.kind == "card"]
    keys = ["deck", "pile", "0.hand", "1.hand"]
    model = {k: list(v) for k, v in g.state.zones.items()}
    copy = g.copy()
    frozen = {k: list(v) for k, v in copy.state.zones.items()}
    for picked, z, top, whole in steps:
        comps = [cards[i] for i in sorted(picked)]
        if whole:
            comps = list(g.state.zones[g.state.loc[comps[0]]])
            if len(comps) <= 8:
                continue
        move(g._ev, rs.flow, comps, Zone(keys[z]), "top" if top else None)
        for comp in comps:  # the model: one at a time
            old = next(k for k, v in model.items() if comp in v)
            model[old].remove(comp)
            model[keys[z]].insert(0, comp) if top else model[keys[z]].append(comp)
        assert g.state.zones == model
        assert all(g.state.loc[x] == k for k, v in model.items() for x in v)
    assert copy.state.zones == frozen  # the copy never saw a move


def test_moving_many_components_from_the_box(tmp_path_factory):
    """Components the setup left in the box (a zone of its own, with the crates) move as many at once,
    alone or with a whole zone (two places at once: no shortcut)."""
    path = tmp_path_factory.getbasetemp() / "moves_box.yaml"
    path.write_text(RULESET)
    rs = load_ruleset(path)
    g = rs.new_game(2, 1)
    beads = [Comp(c.id) for c in rs.components if c.kind == "bead"]
    cards = list(g.state.zones["deck"])
    assert all(g.state.loc[b] == "box" for b in beads)
    move(g._ev, rs.flow, beads[:9], Zone("pile"))
    assert g.state.zones["pile"] == beads[:9]
    move(g._ev, rs.flow, [beads[9], *cards], Zone("pile"), "top")
    assert g.state.zones["pile"] == [*reversed(cards), beads[9], *beads[:9]] and g.state.zones["deck"] == []
    assert all(g.state.loc[x] == "pile" for x in g.state.zones["pile"])
