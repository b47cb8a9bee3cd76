"""Nothing hidden reaches a seat: a differential test over every bundled ruleset and variant.

At every step of a game played by random bots, and for every seat, a twin game is made that differs
from the real one only in a secret that seat does not know: the components it cannot see (before the
step and after it) are dealt differently, each swapped with another of its kind. Then the same action is
taken in both. Everything that seat is shown — its view (board, prompt, its own options), the move as it
reads it, the new log lines, the changes reported — must be the same text in both games. If any of it
named a hidden card, the twins would differ.

Some steps legitimately go differently when the secret differs: a player's turn that stops by itself when
their hand holds no more cards of a kind tells the others so, by the rules. Those steps change a different
shape of the state (other counters, other zones, another number of log lines, another player to decide),
and are not compared: the game's flow, not its text, carries that information.
"""

import json
import random

import pytest
from meeple.cli.view import value
from meeple.errors import RuntimeRuleError
from meeple.runtime.data import Comp, Zone
from meeple.runtime.frames import copy_frames
from meeple.runtime.game import Game
from meeple.runtime.rules import load_ruleset
from meeple.runtime.visibility import hidden_from
from support import load_text

PUBLIC = {"camel_up_off_season": ("back",)}  # attributes printed on the back of a component, seen while hidden
GAMES = [("speicherstadt", 3), ("merchants", 3), ("camel_up_off_season", 3), ("demoludy", 3),
         ("rulesets/variants/demoludy_actions.yaml", 4), ("rulesets/variants/demoludy_points.yaml", 3),
         ("rulesets/variants/demoludy_points_actions.yaml", 3), ("rulesets/variants/four_workers.yaml", 4),
         ("rulesets/variants/gentle_fires.yaml", 2), ("rulesets/variants/cheap_port.yaml", 2)]
MAX_STEPS = 120  # per game: enough to reach every phase of a round, few enough to keep the suite fast


def _key(k: str, pi: dict) -> str:
    if k.startswith("#"):
        cid, dot, rest = k[1:].partition(".")
        return f"#{pi.get(int(cid), int(cid))}{dot}{rest}"
    return k


def _map(v, pi: dict):
    t = type(v)
    if t is Comp:
        return Comp(pi.get(int(v), int(v)))
    if t is Zone:
        return Zone(_key(v.key, pi))
    if t is list:
        return [_map(x, pi) for x in v]
    if t is dict:
        return {_map(k, pi): _map(x, pi) for k, x in v.items()}
    return v


def twin(game: Game, secret: set[int], rng: random.Random, public: tuple = ()) -> Game | None:
    """`game` with the components in `secret` dealt differently: the items (kinds of card) at those places
    are shuffled among themselves, within a kind and keeping the attributes in `public` (printed on the
    back). A component whose place gets its own item stays, so copies of one item are not told apart.
    Every reference to a component is renamed. None if nothing changes."""
    rs = game.rs
    groups: dict[tuple, list[int]] = {}
    for c in sorted(secret):
        d = rs.components[c]
        # what is printed on the back (the kind's declared `back:` attributes, or `public`) is seen
        back = tuple(public) + tuple(rs.kinds[d.kind].back) if d.kind in rs.kinds else tuple(public)
        groups.setdefault((d.kind,) + tuple(repr(d.attrs.get(a)) for a in back), []).append(c)
    pi: dict[int, int] = {}
    for comps in groups.values():
        items = [rs.components[c].item for c in comps]
        rng.shuffle(items)
        pool: dict[str, list[int]] = {}
        for c, item in zip(comps, items):
            if rs.components[c].item != item:
                pool.setdefault(rs.components[c].item, []).append(c)
        for c, item in zip(comps, items):
            if rs.components[c].item != item:
                pi[c] = pool[item].pop()
    if not pi:
        return None
    st = game.state.copy()
    st.zones = {_key(k, pi): [Comp(pi.get(c, c)) for c in z] for k, z in st.zones.items()}
    st.loc = {c: k for k, z in st.zones.items() for c in z}
    st.facedown = {pi.get(c, c) for c in st.facedown}
    st.counters = {_key(k, pi): _map(v, pi) for k, v in st.counters.items()}
    st.stack = copy_frames(st.stack)
    done = set()
    for f in st.stack:
        sc = f[2]
        if sc is not None and id(sc) not in done:
            done.add(id(sc))
            new = {k: _map(v, pi) for k, v in sc.items()}
            sc.clear()
            sc.update(new)
        f[3:] = [_map(x, pi) for x in f[3:]]
    if st.pending is not None:
        st.pending["options"] = {
            s: [[o[0], _map(o[1], pi), pi.get(o[2], o[2]), o[3]] for o in opts]
            for s, opts in st.pending["options"].items()}
    return Game(rs, st)


def shown(game: Game, viewer: int) -> dict:
    """The seat's view without its log (compared separately, as the lines added by the step)."""
    view = game.view(viewer)
    view.pop("log")
    return view


def shape(before: Game, after: Game) -> tuple:
    """Which counters and zones a step changed, how many log lines it wrote, and who decides next."""
    b, a = before.state, after.state
    counters = sorted(k for k, v in a.counters.items() if b.counters.get(k) != v and not k.startswith("#"))
    zones = sorted(k for k, z in a.zones.items() if len(z) != len(b.zones.get(k, ())) and not k.startswith("#"))
    return counters, zones, len(a.log) - len(b.log), after.deciders


def check_game(rs, players: int, seed: int, public: tuple = ()) -> int:
    """Play one game, comparing twins at every step; returns how many (step, seat) pairs were compared."""
    g = rs.new_game(players, seed)
    rng = random.Random(seed)
    compared = 0
    for _ in range(MAX_STEPS):
        if g.is_over:
            break
        seat = g.deciders[0]
        i = rng.randrange(g.num_actions(seat))
        after = g.copy()
        move = after.take(i, seat)
        start = len(g.state.log)
        for v in range(players):
            secret = hidden_from(g._ev, v) & hidden_from(after._ev, v)
            other = twin(g, secret, rng, public)
            if other is None:
                continue
            assert shown(other, v) == shown(g, v), f"P{v + 1}'s view depends on a secret"
            try:
                other_move = other.take(i, seat)
            except RuntimeRuleError:
                continue  # the twin is not a state the rules can reach (a total kept of the hidden cards)
            if shape(g, other) != shape(g, after):
                continue  # the rules went another way (see the module docstring)
            assert other_move.text(v) == move.text(v)
            assert other_move.changes[v] == move.changes[v]
            assert other.log_for(v, start) == after.log_for(v, start)
            assert shown(other, v) == shown(after, v)
            compared += 1
        g = after
    return compared


@pytest.mark.parametrize("name,players", GAMES)
def test_no_seat_is_shown_a_secret(name, players):
    rs = load_ruleset(name)
    assert check_game(rs, players, 7, PUBLIC.get(name.split("/")[-1].split(".")[0], ())) > 50


def test_the_twin_test_catches_a_leak(monkeypatch):
    """Were moves shown to every seat as their mover reads them (how `play` once echoed a bot's
    "Add purple 6 face down"), the test above would fail."""
    from meeple.runtime import narrate

    monkeypatch.setattr(narrate, "render", lambda payload, viewer: narrate_truth(payload))
    with pytest.raises(AssertionError):
        check_game(load_ruleset("demoludy"), 3, 7)


def narrate_truth(payload) -> str:
    from meeple.runtime.render import render

    return render(payload, None)


SECRETS = """\
meeple: 1
name: Secrets
players: {min: 2, max: 2}
counters:
  player: {coins: {initial: 3, visibility: owner}}
zones:
  game: {deck: {visibility: hidden}, table: {}}
  player: {hand: {visibility: owner}}
components:
  card:
    items:
      - {id: ace, name: Ace}
      - {id: king, name: King}
      - {id: queen, name: Queen}
      - {id: jack, name: Jack}
setup: |
  move(components("card"), deck)
  for p in players:
      draw(2, deck, p.hand)
flow: |
  for p in players:
      log("{p.name} has {p.coins} coins and {count(p.hand)} cards")
      choose p "Play a card, {p.name}: you hold {text(list(p.hand))}":
          option "Play {c.name} face up" for c in p.hand:
              move(c, table)
              log("{p.name} plays {c.name}")
          option "Put {c.name} back in the deck" for c in p.hand:
              move(c, deck)
              log("{p.name} puts {c.name} back")
scoring:
  score: p.coins
"""


def test_each_seat_reads_what_it_may_see(tmp_path):
    """The rule in words: a hole that mentions something a seat cannot see reads as a placeholder for it,
    decided by the engine whatever the ruleset's author wrote."""
    path = tmp_path / "secrets.yaml"
    path.write_text(SECRETS)
    g = load_ruleset(path).new_game(2, 1)
    hand = [g.rs.components[c].name for c in g.state.zones["0.hand"]]
    assert g.log_for(0) == ["P1 has 3 coins and 2 cards"]
    assert g.log_for(1) == ["P1 has a hidden amount coins and 2 cards"]  # another's coins are theirs alone
    assert g.prompt_for(0) == f"Play a card, P1: you hold {', '.join(hand)}"
    assert g.prompt_for(1) == "Play a card, P1: you hold 2 hidden cards"
    played = g.take(0, 0)  # face up: once on the table, everyone reads its name
    assert played.text(1) == f"P1: Play {hand[0]} face up" and g.log_for(1)[-2] == f"P1 plays {hand[0]}"
    hidden = g.take(g.legal_actions(1)[-1]["label"] and len(g.legal_actions(1)) - 1, 1)  # back into the deck
    assert hidden.text(0) == "P2: Put a hidden card back in the deck"
    assert g.log_for(0)[-1] == "P2 puts a hidden card back" and "hidden" not in g.log_for(1)[-1]
    assert hidden.changes[0] == ["a hidden card: P2 hand → deck"]


HAND_TOTALS = """\
meeple: 1
name: Totals
players: {min: 2, max: 2}
zones:
  player: {hand: {visibility: owner}}
components:
  card:
    defaults: {value: 0}
    items:
      - {id: a, value: 1}
      - {id: b, value: 5}
flow: |
  move([a, b], player(0).hand)
  log("sum {sum(x.value for x in player(0).hand)}, list {[x.value for x in player(0).hand]}")
  log("big {any(x.value > 4 for x in player(0).hand)}")
  log("nested {[sum([y.value for y in [x]]) for x in player(0).hand]}")
  choose player(1) "Guess":
      option "Total is {sum(x.value for x in player(0).hand)}":
          pass
scoring:
  score: '0'
"""


def test_what_a_comprehension_reads_of_a_hidden_hand_is_hidden_too(tmp_path):
    """Found by QA: only a hole that evaluated to a card was hidden, so a comprehension over a hidden hand
    (`sum(x.value for x in player(0).hand)`: a number, over a zone) told others its total, in log lines
    and in the label of the very seat that decides."""
    path = tmp_path / "totals.yaml"
    path.write_text(HAND_TOTALS)
    g = load_ruleset(path).new_game(2, 1)
    assert g.log_for(0) == ["sum 6, list 1, 5", "big true", "nested 1, 5"]
    assert g.log_for(1) == ["sum 2 hidden cards, list 2 hidden cards", "big 2 hidden cards", "nested 2 hidden cards"]
    assert [a["label"] for a in g.legal_actions(1)] == ["Total is 2 hidden cards"]
    move = g.take(0, 1)
    assert move.text(0) == "P2: Total is 6" and move.text(1) == "P2: Total is 2 hidden cards"


def test_a_save_keeps_what_each_seat_may_read(tmp_path):
    import json

    from meeple.errors import SaveError

    path = tmp_path / "secrets.yaml"
    path.write_text(SECRETS)
    g = load_ruleset(path).new_game(2, 1)
    g.take(len(g.legal_actions(0)) - 1, 0)  # P1 puts a card back: P2 reads "a hidden card"
    again = Game.from_json(g.rs, json.loads(json.dumps(g.to_json())))
    assert [again.log_for(v) for v in (0, 1)] == [g.log_for(v) for v in (0, 1)]
    assert "P1 puts a hidden card back" in again.log_for(1)
    bad = g.to_json()
    bad["state"]["log"].append([-1, [["Ace", "not seats", "a hidden card"]]])
    with pytest.raises(SaveError):
        Game.from_json(g.rs, bad)


def _ids(node) -> list[int]:
    """Every component id in a view, slots included."""
    if isinstance(node, dict):
        own = [node["id"]] if "id" in node and "kind" in node else []
        return own + [i for k, v in node.items() if k != "id" for i in _ids(v)]
    if isinstance(node, list):
        return [i for v in node for i in _ids(v)]
    return []


@pytest.mark.parametrize("name,players", GAMES[:4])
def test_the_view_of_everything_shows_every_component_once(name, players):
    """`view(None)` (a finished game's replay, bots-only tables) hides nothing: each component is in it
    once, face down or not, while a seat's view of the same moment shows fewer."""
    game = load_ruleset(name).new_game(players=players, seed=4)
    rng = random.Random(4)
    for _ in range(40):
        if game.is_over:
            break
        game.apply_index(rng.randrange(game.num_actions()), game.deciders[0])
    placed = sorted(c for z in game.state.zones.values() for c in z)
    everything = _ids(game.view(None)["zones"]) + _ids(game.view(None)["seats"])
    assert sorted(everything) == placed
    assert len(_ids(game.view(0))) < len(placed)


HIDDEN_SCORER = """\
meeple: 1
name: Hidden scorer
players: {min: 2, max: 2}
counters:
  player: {points: 0}
zones:
  player:
    hand: {visibility: owner}
events: [count]
components:
  card:
    items:
      - id: gem
        name: Gem
        on:
          count: |
            score(owner.points, 2)
flow: |
  move(gem, players[0].hand)
  trigger count on list(players[0].hand)
scoring:
  score: p.points
"""


def test_the_end_screen_names_a_card_only_to_the_seats_that_saw_it(tmp_path):
    """Where the points came from is shown to every seat at the end (`play`, the browser): a card that
    scored from a hand another seat never saw reads as a placeholder there, as in any log line."""
    from meeple.runtime import results
    from meeple.web.render import OMNISCIENT, seat_payload

    path = tmp_path / "hidden.yaml"
    path.write_text(HIDDEN_SCORER)
    game = load_ruleset(path).new_game(2, 0)
    assert game.is_over
    assert results.summary(game, 0)["breakdown"][0] == [["Gem", 2]]
    assert results.summary(game, 1)["breakdown"][0] == [["a hidden card", 2]]
    assert results.summary(game, None)["breakdown"][0] == [["Gem", 2]]
    assert "Gem" not in json.dumps(seat_payload(game, 1)) and "Gem" in json.dumps(seat_payload(game, OMNISCIENT))
    saved = Game.from_json(game.rs, json.loads(game.dumps()) | {"seal": "none"})
    assert results.summary(saved, 1) == results.summary(game, 1)


COPIES = """\
meeple: 1
name: Copies
players: {min: 2, max: 2}
counters:
  game: {last: {initial: none}}
zones:
  game: {table: {}}
  player: {hand: {visibility: owner}}
components:
  card:
    items:
      - {id: red, name: Red, count: 2}
      - {id: blue, name: Blue}
setup: |
  move(components("card"), table)
flow: |
  # The test deals the hands while the game waits here.
  choose players[0] "Deal":
      option "Dealt":
          last = none
  for p in players:
      choose p "Play a card":
          option "Play {c.name}" for c in p.hand:
              move(c, table)
              last = c
scoring:
  score: count(p.hand)
"""


def test_a_seat_cannot_tell_copies_of_an_item_apart(tmp_path):
    """Rule 4, for what a seat could remember: P1 saw a red card go into P2's hand. If the red P2 plays
    later had another id than the one seen, P1 would know the first is still in that hand. A seat's
    view names components by item (counters and its own action keys too), so two games that differ
    only in which red copy is where look the same to every seat; the view of everything tells them
    apart by id."""
    rs = load_text(tmp_path, "copies", COPIES)
    reds, blue = [Comp(c) for c in rs.items["red"]], Comp(rs.items["blue"][0])
    games = []
    for mine, theirs in ((reds[0], reds[1]), (reds[1], reds[0])):
        g = rs.new_game(2, 0)
        st = g.state
        for c, hand in ((mine, "0.hand"), (blue, "0.hand"), (theirs, "1.hand")):
            st.writable(st.loc[c]).remove(c)
            st.writable(hand).append(c)
            st.loc[c] = hand
        g.apply("Dealt")
        g.apply("Play Red")
        games.append(g)
    assert [g.state.counters["last"] for g in games] == [reds[0], reds[1]]
    for viewer in (0, 1):
        assert games[0].view(viewer) == games[1].view(viewer)
    assert games[0].view(1)["counters"]["last"] == {"$c": "red"}
    assert [a["key"] for a in games[0].view(1)["decision"]["actions"]] == ["0:#red"]
    assert games[0].view(None) != games[1].view(None)
    assert value(games[0].view(1)["counters"]["last"], rs) == "Red"  # as `meeple play` shows it


def test_a_seat_that_is_not_one_is_refused_not_read_as_a_spectator():
    """Bug: `view(2)` of a two-player game (a 1-based seat) returned the public view, without the hand of
    the seat the caller meant, and `ranking_key(7)` failed as if the ruleset were broken. Every method
    that takes a seat now refuses one that is not, naming the seats; -1 is a spectator, None everything."""
    from meeple.errors import UsageError

    g = load_ruleset("merchants").new_game(2, 1)
    while g.deciders != [1]:  # `determinize` is for the seat that decides (G012): seat 1 below
        g.apply_index(0)
    calls = [lambda s: g.view(s), lambda s: g.determinize(s, 1), lambda s: g.log_for(s),
             lambda s: g.log_tail(s, 3), lambda s: g.prompt_for(s), lambda s: g.score_breakdown(s),
             lambda s: g.ranking_key(s)]
    for call in calls:
        for seat in (2, 7, "0", True, 1.0):
            with pytest.raises(UsageError, match="is not a seat: this game's seats are 0 to 1"):
                call(seat)
        call(1)
    assert g.view(-1)["viewer"] == -1 and g.view(0)["players"] == 2
    assert json.dumps(g.view(0)) != json.dumps(g.view(-1))  # seat 0 sees its own hand, a spectator does not
    assert g.view(None)["viewer"] is None


def test_a_seat_from_a_numpy_array_is_a_seat():
    np = pytest.importorskip("numpy")
    g = load_ruleset("merchants").new_game(2, 1)
    assert g.view(np.int64(1)) == g.view(1) and g.view(np.int64(-1)) == g.view(-1)
    assert g.determinize(np.int64(0), 3).view(0) == g.determinize(0, 3).view(0)


TWIN_JACKS = """\
meeple: 1
name: Twin jacks
players: {min: 2, max: 2}
counters: {player: {points: 0}}
zones:
  game: {deck: {visibility: hidden}, table: {}}
  player: {hand: {visibility: owner}}
components:
  card:
    items:
      - {id: jack, name: J, rank: 1, count: 2}
      - {id: king, name: K, rank: 3}
setup: |
  move(components("card"), deck)
  shuffle(deck)
  for p in players:
      draw(1, deck, p.hand)
flow: |
  choose player(1) "Play your card, or guess the deck's":
      option "Play {c.name}" for c in player(1).hand:
          move(c, table)
      option "Guess the deck's card" for c in deck:
          move(c, table)
  if first(player(0).hand).rank > first(table).rank:
      player(0).points += 1
scoring: {score: p.points}
"""


def test_a_seats_own_action_keys_do_not_tell_which_copy_it_holds(tmp_path):
    """Found by a researcher: P2's key `0:#1` or `0:#0` for its jack told whether P1 held the other
    jack or the king (the ids of alike copies follow the deal). A seat's keys name items, and a card it
    cannot see not even that; `apply` takes them."""
    rs = load_text(tmp_path, "twins", TWIN_JACKS)
    seen = {}
    for seed in range(30):
        g = rs.new_game(players=2, seed=seed)
        item = g.view(1)["seats"][1]["zones"]["hand"][0]["item"]
        keys = [a["key"] for a in g.legal_actions(1)]
        seen.setdefault(item, set()).add(tuple(keys))
        assert all("#" in k and not any(ch.isdigit() for ch in k.split("#")[1]) for k in keys), keys
        g.apply(g.legal_actions(1)[1])  # by the seat's key: the deck's card
        assert g.is_over and g.state.actions[0]["key"] != keys[1]  # the log keeps the true key, for replay
    assert seen == {"jack": {("0:#jack", "1:#?")}, "king": {("0:#king", "1:#?")}}


def test_alike_options_a_seat_can_see_keep_one_key_each(tmp_path):
    rs = load_text(tmp_path, "open", TWIN_JACKS.replace("for c in player(1).hand", 'for c in components("card")')
                   .replace("deck: {visibility: hidden}", "deck: {}").replace("{visibility: owner}", "{}"))
    g = rs.new_game(players=2, seed=1)
    keys = [a["key"] for a in g.legal_actions(1)]
    assert keys[:3] == ["0:#jack", "0:#jack~2", "0:#king"] and len(set(keys)) == len(keys)
    twin = g.copy()
    g.apply(g.legal_actions(1)[1])
    twin.apply_index(1, 1)
    assert g.to_json()["state"] == twin.to_json()["state"]


SECRET_STATUS = """\
meeple: 1
name: Secret status
players: {min: 2, max: 2}
counters:
  game: {done: 0}
  player:
    secret: {initial: false, visibility: owner}
zones:
  player: {tableau: {}}
components:
  token:
    status: "owner.secret if owner != none else none"
    items:
      - {id: t, name: Token, count: 2}
setup: |
  move(components("token")[0], player(0).tableau)
  move(components("token")[1], player(1).tableau)
  player(0).secret = VALUE
flow: |
  choose player(0) "Go":
      option "done":
          done = 1
scoring:
  score: "0"
"""


@pytest.mark.parametrize("texts", [True, False])
def test_a_status_that_reads_a_secret_looks_the_same_whatever_the_secret(tmp_path, texts):
    # Found in review: a shortcut that left out statuses whose value was none or false showed the
    # placeholder only when P1's hidden secret was true, so P2 could read the secret off P1's token.
    seen = []
    for secret in ("true", "false"):
        g = load_text(tmp_path, f"secret_{secret}", SECRET_STATUS.replace("VALUE", secret)).new_game(2, 0)
        seen.append(g.view(1, texts=texts)["seats"][0]["zones"]["tableau"])
    assert seen[0] == seen[1]
    if texts:
        assert seen[0][0]["status"] == "a hidden amount"
