"""What a seat's browser receives holds only what that seat may see, checked on the raw network bytes.

Differential: a game and its twin that differs only in a secret (two components this seat cannot see
swapped, then the open decision re-evaluated) are seated at a real server; the seat's page must receive
byte-identical messages for both, while the omniscient messages differ (so the secret really differs).
"""

import json
import random

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

from meeple.errors import IllegalAction
from meeple.runtime import machine as M
from meeple.runtime.game import Game
from meeple.runtime.rules import load_ruleset
from meeple.web.render import OMNISCIENT, seat_payload
from meeple.web.tables import Seat, Table

GAMES = [("speicherstadt", 3), ("merchants", 3), ("camel_up_off_season", 3), ("demoludy", 3),
         ("variants/demoludy_points_actions", 4)]
CHECKPOINTS = 5  # decision points checked per game


def _hidden_positions(game, seat):
    """(zone, index, back seen there or None) of every component `seat` cannot see: in `hidden`, `top`
    and `backs` zones, others' `owner` zones, face down. Where a back is seen only a card of that back
    may take the place (Camel Up's top card, a face-down card under a tile)."""
    rs, st = game.rs, game.state
    out = []

    def back(c):
        d = rs.components[c]
        return tuple(str(d.attrs.get(a)) for a in rs.kinds[d.kind].back)

    def zone(key, vis, mine):
        for i, c in enumerate(st.zones[key]):
            if vis in ("hidden", "top") or (vis == "owner" and not mine):
                out.append((key, i, back(c) if vis == "top" and i == 0 else None))
            elif vis == "backs" or (c in st.facedown and not mine):
                out.append((key, i, back(c)))
    for name, d in rs.game_zones.items():
        zone(name, d.visibility, False)
    for p in range(st.nplayers):
        for name, d in rs.player_zones.items():
            zone(f"{p}.{name}", d.visibility, p == seat)
    return out


def secret_twin(game, seat, rng):
    """A copy of `game` with two components `seat` cannot see swapped (face-down marks stay with the
    places), and the open decision evaluated again; None if no two such components differ."""
    rs = game.rs
    places = _hidden_positions(game, seat)
    pairs = [(a, b) for i, a in enumerate(places) for b in places[i + 1:]
             if rs.components[game.state.zones[a[0]][a[1]]].item != rs.components[game.state.zones[b[0]][b[1]]].item
             and a[2] == b[2]]
    if not pairs:
        return None
    (za, ia, _), (zb, ib, _) = rng.choice(pairs)
    twin = game.copy()
    st = twin.state
    a, b = st.zones[za][ia], st.zones[zb][ib]
    fa, fb = a in st.facedown, b in st.facedown
    st.writable(za)[ia], st.writable(zb)[ib] = b, a  # the twin shares its zones with `game` until written
    st.loc[a], st.loc[b] = zb, za
    st.facedown -= {a, b}
    st.facedown |= {x for x, f in ((b, fa), (a, fb)) if f}
    if st.pending is not None:
        chosen = dict(st.pending["chosen"])
        st.pending = None
        M.run(twin._ev)
        st.pending["chosen"] = chosen
    return twin


def checkpoints(name, players, seed):
    """Copies of a random game at a few decision points, and at its end."""
    rs = load_ruleset(name)
    rng = random.Random(seed)
    game = rs.new_game(players, seed)
    out = []
    total = 0
    while not game.is_over:
        if total % 17 == 3 and len(out) < CHECKPOINTS:
            out.append(game.copy())
        game.apply_index(rng.randrange(game.num_actions()))
        total += 1
    out.append(game)
    return rs, out


@pytest.mark.parametrize("name,players", GAMES)
def test_a_secret_changes_no_byte_a_seat_receives(web, name, players):
    rs, points = checkpoints(name, players, seed=11)
    rng = random.Random(5)
    compared = 0
    for game in points:
        for seat in range(players):
            twin = secret_twin(game, seat, rng)
            if twin is None:
                continue
            ta, tb = web.seat_game(rs, game.copy()), web.seat_game(rs, twin)
            # the secret is real: someone who sees everything can tell the two games apart
            assert seat_payload(game, OMNISCIENT) != seat_payload(twin, OMNISCIENT)
            ra, rb = web.first_messages(ta.tokens[seat]), web.first_messages(tb.tokens[seat])
            assert ra == rb, f"{name}: P{seat + 1} can tell two games apart that differ only in a secret"
            assert json.loads(ra[1])["you"] == seat
            assert web.get(f"/api/replay/{ta.tokens[seat]}") == web.get(f"/api/replay/{tb.tokens[seat]}")
            if not compared:  # the pages and the ruleset are the same files for every game
                for path in ("/api/ruleset/{}", "/table/{}", "/replay/{}"):
                    assert web.get(path.format(ta.tokens[seat])) == web.get(path.format(tb.tokens[seat])), path
            compared += 1
        if twin is not None and not game.is_over:  # spectators of a game in progress: the public view
            assert web.first_messages(ta.host) == web.first_messages(tb.host)
    assert compared >= 3, "too few secrets to compare: the test would prove nothing"


def test_the_differential_check_can_fail():
    # the omniscient view of the same twins does change, so a payload that carried a secret would show
    _, points = checkpoints("merchants", 3, seed=2)
    game = points[1]
    twin = secret_twin(game, 0, random.Random(1))
    assert json.dumps(seat_payload(game, OMNISCIENT)) != json.dumps(seat_payload(twin, OMNISCIENT))
    assert json.dumps(seat_payload(game, 0)) == json.dumps(seat_payload(twin, 0))


def _table(web, name="merchants", seats=None, **extra):
    seats = seats or [{"kind": "person"}, {"kind": "person"}, {"kind": "bot", "agent": "random"}]
    status, body = web.post("/api/tables", {"ruleset": name, "seats": seats, "seed": 4, "speed": 0, **extra})
    assert status == 200, body
    return body


def test_a_seat_link_opens_only_its_own_seat(web):
    body = _table(web)
    mine = body["seats"][0]["link"].split("/")[-1]
    with web.socket(mine) as ws:
        ws.recv(timeout=10)
        state = json.loads(ws.recv(timeout=10))
        assert state["you"] == 0 and state["table"]["povs"] == [0]
        ws.send(json.dumps({"type": "pov", "pov": 1}))
        assert json.loads(ws.recv(timeout=10))["type"] == "error"
        ws.send(json.dumps({"type": "pov", "pov": -2}))
        assert json.loads(ws.recv(timeout=10))["type"] == "error"
    assert web.get(f"/api/replay/{mine}?pov=1")[0] == 403
    assert web.get(f"/api/replay/{mine}?pov=-2")[0] == 403
    assert web.get(f"/api/save/{mine}")[0] == 403  # a save holds every secret
    host = body["host"].split("/")[-1]
    assert web.get(f"/api/replay/{host}?pov=0")[0] == 403  # spectators of people's games see the public view
    assert web.get(f"/api/replay/{host}?pov=-1")[0] == 200


def test_a_page_cannot_move_for_another_seat_or_twice(web):
    body = _table(web, seats=[{"kind": "person"}, {"kind": "person"}])
    p2 = body["seats"][1]["link"].split("/")[-1]
    with web.socket(p2) as ws:
        ws.recv(timeout=10)
        state = json.loads(ws.recv(timeout=10))
        assert "actions" not in state.get("decision", {})  # P1 moves first in Merchants
        ws.send(json.dumps({"type": "act", "step": state["step"], "index": 0}))
        reply = json.loads(ws.recv(timeout=10))
        assert reply["type"] == "error"
    p1 = body["seats"][0]["link"].split("/")[-1]
    with web.socket(p1) as ws:
        ws.recv(timeout=10)
        state = json.loads(ws.recv(timeout=10))
        ws.send(json.dumps({"type": "act", "step": state["step"] - 1, "index": 0}))
        reply = json.loads(ws.recv(timeout=10))
        assert reply["type"] == "error" and "moved on" in reply["message"]


def test_a_click_made_before_others_chose_in_secret_still_counts():
    """Bug: at a sealed choice each bot's choice redrew the person's page with a new step, and a click on
    the menu they had been looking at was refused as stale, though their menu had not changed."""
    rs = load_ruleset("camel_up_off_season")
    game = Game.new(rs, 3, 5)
    assert game.deciders == [0, 1, 2]  # the first decision is a sealed bid
    table = Table("t", rs, "camel_up_off_season", game, [Seat("person")] * 3)
    table.act(1, 0, 0)  # P2 chooses first
    table.act(0, 0, 2)  # P1 clicks on the menu drawn at step 0: the same menu, so it counts
    assert [a["player"] for a in game.state.actions] == [1, 0]
    table.act(2, 2, 0)  # P3, up to date; the bid is resolved
    before = game.to_json()
    with pytest.raises(IllegalAction, match="moved on"):
        table.act(1, 2, 0)  # P2's menu at step 2 was empty: this click belongs to no menu it has now
    assert game.to_json() == before


def test_bad_requests_are_refused_with_a_reason(web):
    assert web.post("/api/tables", {"ruleset": "nope", "seats": []})[1]["error"].startswith("unknown ruleset")
    status, body = web.post("/api/tables", {"ruleset": "merchants", "seats": [{"kind": "person"}]})
    assert status == 400 and "2 to 4 players" in body["error"]
    status, body = web.post("/api/tables", {"ruleset": "merchants", "seats": [{"kind": "bot", "agent": "genius"}] * 2})
    assert status == 400 and "genius" in body["error"]
    status, body = web.post("/api/saves", {"text": "{not json"})
    assert status == 400 and "not a Meeple save" in body["error"]
    status, body = web.post("/api/upload", {"filename": "x.yaml", "text": "meeple: 1\nname: X\n"})
    assert status == 400 and body["error"]
    status, body = web.post("/api/tables", {"ruleset": "merchants", "seats": "two people"})
    assert status == 400 and body["error"] == "`seats` must be a list, one entry per player"
    # A body that is not a JSON object used to be read as {}: "unknown ruleset None".
    for raw in (b"{", b"[1, 2]", b"\xff"):
        for path in ("/api/tables", "/api/upload", "/api/saves", "/api/compare"):
            status, body = web.post_raw(path, raw)
            assert status == 400 and body["error"].startswith("the request body "), (path, raw, body)
    with web.socket("no-such-token") as ws:
        assert json.loads(ws.recv(timeout=10))["type"] == "error"


def _play_out(web, token):
    """Waits on the websocket until the game is over; returns the last state."""
    with web.socket(token) as ws:
        while True:
            msg = json.loads(ws.recv(timeout=30))
            if msg["type"] == "state" and msg["view"]["over"]:
                return msg


def test_a_finished_game_saves_and_reopens_in_the_replay_viewer(web):
    body = _table(web, seats=[{"kind": "bot", "agent": "random"}] * 3)
    host = body["host"].split("/")[-1]
    final = _play_out(web, host)
    status, save = web.get(f"/api/save/{host}")
    assert status == 200
    status, opened = web.post("/api/saves", {"text": save.decode()})
    assert status == 200, opened
    again = opened["replay"].split("/")[-1]
    status, end = web.get(f"/api/replay/{again}?pov=-2")
    end = json.loads(end)
    assert end["length"] == final["step"] and end["payload"]["view"]["scores"] == final["view"]["scores"]
    status, start = web.get(f"/api/replay/{again}?pov=0&step=0")
    assert json.loads(start)["payload"]["step"] == 0
    # everything-seeing replays say who did what at each step; a seat's replay never does
    moved = json.loads(web.get(f"/api/replay/{again}?pov=-2&step=1")[1])
    assert moved["move"].startswith("P1: ")
    assert "move" not in json.loads(web.get(f"/api/replay/{again}?pov=0&step=1")[1])
    assert web.get(f"/api/replay/{again}?step={final['step'] + 1}")[0] == 400
    # a save whose state its action log does not lead to cannot be replayed
    tampered = json.loads(save)
    tampered["seed"] += 1
    assert web.post("/api/saves", {"text": json.dumps(tampered)})[0] == 400


def test_import_meeple_loads_no_web_framework():
    import subprocess
    import sys

    code = ("import sys, meeple, meeple.cli.main; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('starlette', 'uvicorn') or m == 'meeple.web'))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_serve_refuses_a_broken_ruleset_and_a_busy_port(tmp_path):
    import socket

    from click.testing import CliRunner
    from meeple.cli.main import meeple

    bad = tmp_path / "bad.yaml"
    bad.write_text("meeple: 1\nname: X\nplayers: {min: 2, max: 2}\nflow: |\n  nonsense(\n", encoding="utf-8")
    result = CliRunner().invoke(meeple, ["serve", str(bad), "--port", "0"])
    assert result.exit_code == 1 and "bad.yaml" in result.output
    with socket.create_server(("127.0.0.1", 0)) as busy:
        port = busy.getsockname()[1]
        result = CliRunner().invoke(meeple, ["serve", "--port", str(port)])
    assert result.exit_code == 2 and f"cannot listen on 127.0.0.1:{port}" in result.output


def test_a_hot_seat_shows_a_seat_only_after_the_hand_over(web):
    body = _table(web, seats=[{"kind": "person"}, {"kind": "person"}], hotseat=True)
    host = body["host"].split("/")[-1]
    with web.socket(host) as ws:
        assert json.loads(ws.recv(timeout=10))["type"] == "ruleset"
        handover = json.loads(ws.recv(timeout=10))
        assert handover == {"type": "handover", "to": 0, "name": "P1"}  # nothing of the table
        ws.send(json.dumps({"type": "pov", "pov": 0}))  # no way around the hand-over
        assert json.loads(ws.recv(timeout=10))["type"] == "error"
        ws.send(json.dumps({"type": "ready", "seat": 1}))  # not P2's turn
        assert json.loads(ws.recv(timeout=10))["type"] == "handover"
        ws.send(json.dumps({"type": "ready", "seat": 0}))
        state = json.loads(ws.recv(timeout=10))
        assert state["you"] == 0 and state["decision"]["actions"]
        ws.send(json.dumps({"type": "pov", "pov": 1}))
        assert json.loads(ws.recv(timeout=10))["type"] == "error"


def test_the_replay_shows_each_step_as_it_was_shown_live():
    from meeple.web.tables import Seat, Table

    rs = load_ruleset("merchants")
    game = rs.new_game(3, 8)
    rng = random.Random(8)
    live = []
    while not game.is_over:
        live.append(seat_payload(game, 1))
        game.apply_index(rng.randrange(game.num_actions()))
    live.append(seat_payload(game, 1))
    table = Table("t", rs, "merchants", game, [Seat("person")] * 3)
    for step in [0, 1, 40, 33, 32, 31, len(live) - 1, 70, 2]:  # back and forth, across snapshots
        assert seat_payload(table.at_step(step), 1) == live[step], step


def test_a_page_sending_nonsense_gets_a_reason_and_the_game_goes_on(web):
    body = _table(web, seats=[{"kind": "person"}, {"kind": "person"}])
    p1 = body["seats"][0]["link"].split("/")[-1]
    with web.socket(p1) as ws:
        ws.recv(timeout=10)
        state = json.loads(ws.recv(timeout=10))
        for bad in ([1, 2], {"type": "act", "step": state["step"], "index": "0"},
                    {"type": "act", "step": state["step"], "index": 999}, {"type": "dance"}):
            ws.send(json.dumps(bad))
            assert json.loads(ws.recv(timeout=10))["type"] == "error", bad
        ws.send(json.dumps({"type": "act", "step": state["step"], "index": 0}))
        assert json.loads(ws.recv(timeout=10))["step"] == state["step"] + 1


def test_an_uploaded_ruleset_is_checked_then_offered(web):
    from tests.support import PICK

    status, body = web.post("/api/upload", {"filename": "../pick me.yaml", "text": PICK})
    assert status == 400 and body["code"] == "B001"  # no way out of the upload folder (tests/test_web_input.py)
    status, body = web.post("/api/upload", {"filename": "pick me.yaml", "text": PICK})
    assert status == 200 and body["id"] == "upload/pick me.yaml", body  # the name as sent
    listing = json.loads(web.get("/api/lobby")[1])
    assert listing["rulesets"][0]["id"] == body["id"] and listing["rulesets"][0]["title"] == "Pick"
    table = _table(web, name=body["id"], seats=[{"kind": "person"}, {"kind": "bot"}])
    assert len(table["seats"]) == 1
    status, body = web.post("/api/upload", {"filename": "bad.yaml", "text": PICK.replace("score(p.points, n)",
                                                                                        "score(p.pointz, n)")})
    assert status == 400 and "bad.yaml:" in body["error"] and "pointz" in body["error"]
    assert body["error"].startswith("bad.yaml:")  # as the sender knows it, not the server's temporary folder


def test_the_designer_refuses_what_it_cannot_compare(web):
    status, body = web.post("/api/compare", {"base": "speicherstadt", "variants": []})
    assert status == 400 and "variant" in body["error"]
    status, body = web.post("/api/compare", {"base": "speicherstadt", "variants": ["variants/four_workers"],
                                             "games": 1})
    assert status == 400 and "games" in body["error"]
    status, body = web.post("/api/compare", {"base": "speicherstadt", "variants": ["variants/four_workers"],
                                             "games": 3, "players": 3, "agents": "random"})
    assert status == 200 and [s["games"] for s in body["rulesets"]] == [3, 3]


def test_a_seat_is_told_how_many_moves_it_has_made():
    """A page greys the menu after a click until a state counts the move: a state sent before the server
    applied it (others chose in secret meanwhile) has a later step but the same count."""
    rs = load_ruleset("camel_up_off_season")
    game = Game.new(rs, 3, 5)
    assert [seat_payload(game, s)["moves"] for s in range(3)] == [0, 0, 0]
    game.apply_index(0, 1)  # P2 bids in secret: P1's state has a new step, and P1 has still not moved
    assert [seat_payload(game, s)["moves"] for s in range(3)] == [0, 1, 0]
    assert "moves" not in seat_payload(game, OMNISCIENT)  # a count of the audience's own moves only


def test_showing_a_game_changes_nothing_in_it():
    # labels and prompts run script statements; rendering a game for every audience leaves it as it was
    rs = load_ruleset("merchants")
    game = rs.new_game(3, 4)
    rng = random.Random(1)
    while not game.is_over:
        before = game.dumps()
        for audience in (0, 1, 2, -1, OMNISCIENT):
            seat_payload(game, audience)
        assert game.dumps() == before
        game.apply_index(rng.randrange(game.num_actions()))


def test_the_lobby_offers_the_rulesets_best_bot_first(web):
    """People play against the best bot in the browser too: "best" (the lobby's default, listed first)
    is the bot the ruleset names in `agents.play`, the one `meeple play` seats."""
    from meeple.runtime.rules import load_ruleset
    from meeple.tools.halving import HalvingAgent
    from meeple.tools.mcts import MctsAgent
    from meeple.web.bots import make_bot

    status, info = web.get("/api/lobby")
    info = json.loads(info)
    assert status == 200 and info["bots"][0] == "best" and info["budgets"]["best"] is False
    demoludy = make_bot("best", 1, None, load_ruleset("demoludy"))
    assert isinstance(demoludy, MctsAgent) and demoludy.to_phase and demoludy.seconds == 1.0
    assert isinstance(make_bot("best", 1, 400, load_ruleset("camel_up_off_season")), HalvingAgent)
    assert make_bot("best", 1, None, load_ruleset("merchants")).cutoff == 5


def test_a_tables_search_bot_thinks_at_most_its_cap_whatever_its_budget():
    """Found in review: the cap of iterations let `mcts:20000:guide=1:follow` think for most of an hour a
    move in Speicherstadt (options that multiply the cost of an iteration)."""
    import time

    from meeple.runtime.rules import load_ruleset
    from meeple.web import bots

    rs = load_ruleset("speicherstadt")
    game = rs.new_game(4, 1)
    bot = bots.make_bot("mcts", 1, 20_000, rs)
    assert bot.cap == bots.MAX_THINK
    bot.cap = 0.3  # the same cap, shorter, for the test
    start = time.process_time()
    bot.choose(game, game.deciders[0])
    assert time.process_time() - start < 5  # 20,000 iterations take minutes
