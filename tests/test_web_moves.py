"""A person's move at a live table: a click made on a state that is no longer the newest counts only if
nothing the seat chose from has changed since (Rule 3), and a rules error in a move, in a bot's or while
drawing a page stops the game as `meeple play` stops it: told to every page, located, the move not kept,
no traceback (Rule 5), the game before it saved (found by QA)."""

import json

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")


def _tokens(body):
    return body["host"].split("/")[-1], [s["link"].split("/")[-1] for s in body["seats"]]


def _recv(ws):
    return json.loads(ws.recv(timeout=10))


def _opened(web, token):
    """A page's socket, past the ruleset, and the page's first state."""
    ws = web.socket(token).__enter__()  # closed by the caller's `with`
    assert _recv(ws)["type"] == "ruleset"
    return ws, _recv(ws)


@pytest.mark.parametrize("ruleset", ["merchants", "speicherstadt"])
def test_a_click_sent_again_after_the_seats_own_move_is_refused(web, ruleset):
    """Bug: P1's click at step 0, sent again after P1 and then P2 had moved, was played as P1's next move
    (the option's key was the same; in Speicherstadt its label said another price), since only the
    keys of the menu then and now were compared."""
    status, body = web.post("/api/tables", {"ruleset": ruleset, "seats": [{"kind": "person"}] * 2, "seed": 0})
    assert status == 200, body
    _, (p1, p2) = _tokens(body)
    table = web.server.registry.by_token(p1)
    a, first = _opened(web, p1)
    b, _ = _opened(web, p2)
    with a, b:
        click = {"type": "act", "step": first["step"], "index": 0}
        a.send(json.dumps(click))
        assert _recv(a)["moves"] == 1
        state = _recv(b)
        b.send(json.dumps({"type": "act", "step": state["step"], "index": 0}))
        assert _recv(b)["step"] == 2
        assert _recv(a)["step"] == 2 and table.game.deciders == [0]
        before = table.game.dumps()
        a.send(json.dumps(click))  # the very same message again
        reply = _recv(a)
        assert reply == {"type": "error", "message": "the game has moved on since this page was drawn; try again"}
        assert table.game.dumps() == before
    assert web.tracebacks() == []


def test_a_click_on_a_sealed_menu_stands_after_another_seats_secret_choice_but_not_twice():
    """What a stale step is for: others chose in secret at the same decision while the click was on its
    way, so the seat's menu is the one it chose from. The same click sent again once the seat has chosen
    is refused, and so is one from a menu whose options read otherwise now."""
    from meeple.errors import IllegalAction
    from meeple.runtime.rules import load_ruleset
    from meeple.web.tables import Seat, Table

    rs = load_ruleset("camel_up_off_season")
    table = Table("t", rs, rs.name, rs.new_game(3, 5), [Seat("person")] * 3)
    game = table.game
    assert sorted(game.deciders) == [0, 1, 2]  # a sealed bid: everyone at once
    step = len(game.state.actions)
    table.act(0, step, 0)
    table.act(1, step, 0)  # drawn before P1's secret bid: the same menu, played
    assert game.deciders == [2]
    before = game.dumps()
    with pytest.raises(IllegalAction) as e:
        table.act(1, step, 0)  # sent again: P2 has chosen since
    assert e.value.problems[0].code == "B013" and game.dumps() == before
    table.act(2, step, 0)

    # A menu whose options have the same keys as the one the click was made on, but read otherwise.
    table = Table("t", rs, rs.name, rs.new_game(3, 5), [Seat("person")] * 3)
    table.act(0, 0, 0)

    class Relabelled:  # the game at step 0, its options read otherwise
        def legal_actions(self, seat=None):
            return [dict(a, label=a["label"] + " (then)") for a in table.at_step(0).legal_actions(seat)]

    assert table._same_menu(1, 0, table.at_step(0)) and not table._same_menu(1, 0, Relabelled())


# An option whose script fails halfway through: `x = lst[x]` with x 100, after x changed and a log line.
RULES_ERROR = """\
meeple: 1
name: RtErr
description: an option whose script fails halfway
players: {min: 2, max: 2}
counters:
  game:
    x: 0
    lst: {initial: [1, 2]}
flow: |
  while x < 5:
      choose player(0) "Pick":
          option "Good":
              x += 1
          option "Bad":
              x += 100
              log("x is now {x}")
              x = lst[x]
scoring:
  score: "0"
"""

# The second decision's label fails when it is drawn: `lst[2]`.
LABEL_ERROR = """\
meeple: 1
name: LabelErr
description: a label that fails at run time on the second decision
players: {min: 2, max: 2}
counters:
  game:
    moves: 0
    lst: {initial: [1, 2]}
flow: |
  while moves < 5:
      choose player(moves % 2) "Pick":
          option "Take {lst[moves * 2]}":
              moves += 1
scoring:
  score: "0"
"""


def _uploaded_table(web, filename, text, seats=None):
    status, body = web.post("/api/upload", {"filename": filename, "text": text})
    assert status == 200, body
    status, body = web.post("/api/tables", {"ruleset": body["id"], "seats": seats or [{"kind": "person"}] * 2,
                                            "speed": 0})
    assert status == 200, body
    return _tokens(body)


def _private(web, text):
    upload_dir = str(web.server.lobby.upload_dir)
    return [x for x in (upload_dir, "meeple-web-", "/tmp/") if x in text]


def test_a_rules_error_in_a_persons_move_stops_the_game_for_every_page_without_the_move(web):
    """Bug: the mover alone heard the error, unlocated, as if the move were refused; but it was half
    applied (x 100, a log line), the other seat heard nothing, every later move was "the game is over",
    and the save stayed refused, the game neither running nor over."""
    host, (p1, p2) = _uploaded_table(web, "rterr.yaml", RULES_ERROR)
    table = web.server.registry.by_token(p1)
    a, first = _opened(web, p1)
    b, _ = _opened(web, p2)
    watcher, _ = _opened(web, host)
    located = "rterr.yaml:17:19: index 100 is out of range (length 2)"
    with a, b, watcher:
        a.send(json.dumps({"type": "act", "step": first["step"], "index": 1}))  # "Bad"
        for ws in (a, b, watcher):
            said = [_recv(ws), _recv(ws)]
            state, error = said
            assert error == {"type": "error", "message": located}, said
            # The game as it was before the move, open as a finished game is; no move offered.
            assert state["step"] == 0 and state["view"]["counters"]["x"] == 0 and state["view"]["log"] == []
            assert state["table"]["stopped"] == located and -2 in state["table"]["povs"]
            assert _private(web, json.dumps(said)) == []
        a.send(json.dumps({"type": "act", "step": 0, "index": 0}))  # no move is played any more
        assert _recv(a) == {"type": "error", "message": located}
    assert table.game.state.actions == [] and table.game.state.log == []
    # A page opened later is told too, and the game before the move can be saved and opened.
    ws, state = _opened(web, p2)
    with ws:
        assert state["table"]["stopped"] == located and state["step"] == 0
    status, save = web.get(f"/api/save/{p1}")
    assert status == 200 and json.loads(save)["actions"] == []
    assert web.post("/api/saves", {"text": save.decode(), "ruleset": "upload/rterr.yaml"})[0] == 200
    assert web.tracebacks() == []


# P1 (a person) moves, then P2 (a bot), whose second option fails halfway.
BOT_ERROR = RULES_ERROR.replace("name: RtErr", "name: BotErr").replace(
    '      choose player(0) "Pick":', '      choose player(0) "Go":\n          option "Go":\n              x += 0\n'
                                     '      choose player(1) "Pick":')


def test_a_rules_error_in_a_bots_move_is_located_and_the_move_not_kept(web):
    """A bot's move stops the game the same way (it was told without the error's place, and left half
    applied)."""
    class Bad:
        def choose(self, game, seat):
            return 1

    _, (p1,) = _uploaded_table(web, "boterr.yaml", BOT_ERROR, seats=[{"kind": "person"}, {"kind": "bot"}])
    table = web.server.registry.by_token(p1)
    table.bots[1] = Bad()
    ws, first = _opened(web, p1)
    with ws:
        ws.send(json.dumps({"type": "act", "step": first["step"], "index": 0}))
        said = [_recv(ws) for _ in range(3)]  # P1's move; the game stopped, without the bot's; why
    assert said[0]["step"] == 1 and said[1]["step"] == 1 and said[1]["table"]["stopped"]
    assert said[2]["type"] == "error" and said[2]["message"].startswith("boterr.yaml:20:19: index 100 "), said[2]
    assert len(table.game.state.actions) == 1 and table.game.state.log == []
    assert web.get(f"/api/save/{p1}")[0] == 200
    assert web.tracebacks() == []


def test_a_rules_error_drawing_a_page_is_told_to_every_page_not_a_dropped_socket(web):
    """Bug: a label that fails when drawn (P2's second decision) raised out of the page's handler: P2's
    socket dropped with a traceback naming the server's temporary folder, the broadcast skipped P2
    silently, and P1 waited for ever."""
    _, (p1, p2) = _uploaded_table(web, "labelerr.yaml", LABEL_ERROR)
    located = "labelerr.yaml:12:25: index 2 is out of range (length 2)"
    a, first = _opened(web, p1)
    b, _ = _opened(web, p2)
    with a, b:
        a.send(json.dumps({"type": "act", "step": first["step"], "index": 0}))
        said_a = [_recv(a) for _ in range(2)]  # the game after the move, stopped; and why
        assert said_a[0]["step"] == 1 and said_a[0]["table"]["stopped"] == located
        assert said_a[1] == {"type": "error", "message": located}
        assert _recv(b) == {"type": "error", "message": located}  # P2's page cannot be drawn: why
        b.send(json.dumps({"type": "pov", "pov": -1}))  # the socket is still there, and may look on
        state = _recv(b)
        assert state["audience"] == "public" and state["table"]["stopped"] == located
    with web.socket(p2) as ws:  # and a page opened again is told, not dropped
        assert _recv(ws)["type"] == "ruleset" and _recv(ws) == {"type": "error", "message": located}
    assert _private(web, json.dumps([said_a])) == []
    assert web.tracebacks() == []
