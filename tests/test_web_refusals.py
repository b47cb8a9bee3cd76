"""What a page may ask for, and how the server refuses the rest: points of view a link may not pick,
numbers that are not whole, frames that are not text, rulesets the lobby does not offer. Every refusal
is a reason for the page, never a traceback (Rule 5), and nothing hidden reaches a seat (Rule 4)."""

import json
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")



def _tokens(body):
    return body["host"].split("/")[-1], [s["link"].split("/")[-1] for s in body["seats"]]


def _table(web, seats=None, **extra):
    seats = seats or [{"kind": "person"}, {"kind": "person"}]
    status, body = web.post("/api/tables", {"ruleset": "merchants", "seats": seats, "seed": 9, "speed": 0, **extra})
    assert status == 200, body
    return _tokens(body)


def test_a_hot_seat_host_may_pick_only_the_public_view_while_the_game_runs(web):
    """Bug: the replay page of a hot-seat table showed any person's seat (their hand) mid-game, since the
    host may be shown each seat after its hand-over; picking a point of view at will is another thing."""
    host, _ = _table(web, hotseat=True)
    for pov in (0, 1, -2):
        assert web.get(f"/api/replay/{host}?pov={pov}")[0] == 403, pov
    status, body = web.get(f"/api/replay/{host}")
    body = json.loads(body)
    assert status == 200 and body["payload"]["audience"] == "public" and body["payload"]["table"]["povs"] == [-1]
    with web.socket(host) as ws:
        ws.recv(timeout=10)
        assert json.loads(ws.recv(timeout=10))["type"] == "handover"
        ws.send(json.dumps({"type": "ready", "seat": 0}))
        state = json.loads(ws.recv(timeout=10))
        assert state["you"] == 0 and state["table"]["povs"] == [-1]  # the seat is shown, no other offered
        ws.send(json.dumps({"type": "pov", "pov": 1}))
        assert json.loads(ws.recv(timeout=10))["type"] == "error"
    assert web.get(f"/api/replay/{host}?pov=0")[0] == 403  # not even the seat on the screen just now


def test_a_point_of_view_is_a_whole_number_and_a_frame_is_text(web):
    """Bug: `0.0` and `true` passed the check (`0.0 in [0]`, `True in [1]`), then the engine refused them
    with a traceback and the socket dropped; a binary frame raised KeyError: 'text'."""
    host, (p1, p2) = _table(web, hotseat=True)
    for token, bad in ((p1, 0.0), (p2, True), (p1, "0"), (p1, None)):
        with web.socket(token) as ws:
            ws.recv(timeout=10)
            state = json.loads(ws.recv(timeout=10))
            ws.send(json.dumps({"type": "pov", "pov": bad}))
            assert json.loads(ws.recv(timeout=10))["type"] == "error", bad
            ws.send(json.dumps({"type": "act", "step": state["step"], "index": 0}))  # the page still works
            assert json.loads(ws.recv(timeout=10))["type"] in ("state", "error"), bad
    with web.socket(host) as ws:
        ws.recv(timeout=10)
        handover = json.loads(ws.recv(timeout=10))
        ws.send(json.dumps({"type": "ready", "seat": float(handover["to"])}))  # equal, but not a seat number
        assert json.loads(ws.recv(timeout=10))["type"] == "handover"
    for frame in (b"\x00\x01binary", "not json{", "[" * 100_000):
        with web.socket(p1) as ws:
            ws.recv(timeout=10)
            ws.recv(timeout=10)
            ws.send(frame)
            with pytest.raises(Exception) as closed:
                ws.recv(timeout=10)
            assert ws.close_code == 1003, (frame[:10], closed.value)
    assert web.tracebacks() == []


RAW = b'{"ruleset":"merchants","seats":[{"kind":"person"},{"kind":"bot","agent":"random"}],"seed":%s}'
COMPARE = b'{"base":"speicherstadt","variants":["variants/four_workers"],"games":2,"%s":%s}'


def test_seeds_players_and_games_are_whole_numbers(web):
    """Bug: `"seed": Infinity` was a 500 (OverflowError), `1.7` and `true` were taken for 1."""
    for bad in (b"Infinity", b"-Infinity", b"NaN", b"1e300", b"1.7", b"true", b"-1", b'"x"', b"[1]"):
        status, body = web.post_raw("/api/tables", RAW % bad)
        assert status == 400 and body["error"].startswith("seed must be "), (bad, body)
        for field in (b"seed", b"players", b"games"):
            status, body = web.post_raw("/api/compare", COMPARE % (field, bad))
            assert status == 400 and body["error"].startswith(field.decode() + " must be "), (field, bad, body)
    assert web.post_raw("/api/compare", COMPARE % (b"players", b"9"))[1]["error"] == \
        "players must be between 2 and 5, not 9"
    status, body = web.post_raw("/api/tables", RAW % b"7.0")
    assert status == 200, body
    assert web.tracebacks() == []


def test_a_save_is_opened_only_with_an_offered_ruleset(web):
    """Bug: a ruleset that was not text was a 500; a server file the lobby does not offer was loaded; an
    unknown name was refused naming the save's own ruleset instead."""
    from pathlib import Path

    from meeple.loading.files import rulesets_dir

    unoffered = str(Path(rulesets_dir()) / "demoludy.yaml")
    save = json.dumps({"format": "meeple-save", "ruleset": "Merchants", "state": {}})
    for name in ({"x": 1}, 3, ["merchants"], unoffered, "nope"):
        status, body = web.post("/api/saves", {"text": save, "ruleset": name})
        assert status == 400 and body["error"].startswith("unknown ruleset "), (name, body)
        assert ("'nope'" in body["error"]) == (name == "nope")
    assert web.tracebacks() == []


def test_an_upload_is_named_as_sent_and_no_reply_names_a_server_path(web):
    """Bug: a file with NUL bytes was refused as `/tmp/meeple-web-.../a.yaml looks like a binary file`;
    the designer's reply held each ruleset's path on the server."""
    status, body = web.post("/api/upload", {"filename": "my rules.yaml", "text": "name: x\x00\x01"})
    assert status == 400 and body["error"].startswith("my rules.yaml:1:8: `my rules.yaml` looks like a binary"), body
    assert "meeple-web-" not in json.dumps(body)
    status, body = web.post("/api/compare", {"base": "speicherstadt", "variants": ["variants/four_workers"],
                                             "games": 2, "players": 2})
    assert status == 200 and all("path" not in r for r in body["rulesets"])
    assert "rulesets/" not in json.dumps({k: v for k, v in body.items() if k != "names"})


def test_a_bots_budget_is_a_whole_number_up_to_a_cap(web):
    """Bug: an mcts budget up to 1e9 was accepted, a bot that thinks practically forever."""
    from meeple.web.bots import MAX_BUDGET

    for bad, why in ((MAX_BUDGET + 1, f"between 1 and {MAX_BUDGET}"), ("1e9", "whole number"), (0, "between"),
                     (2.5, "whole number"), (True, "whole number")):
        seats = [{"kind": "person"}, {"kind": "bot", "agent": "mcts", "budget": bad}]
        status, body = web.post("/api/tables", {"ruleset": "merchants", "seats": seats})
        assert status == 400 and body["error"].startswith("seat 2 budget must be ") and why in body["error"], body
    assert json.loads(web.get("/api/lobby")[1])["max_budget"] == MAX_BUDGET
    _table(web, seats=[{"kind": "person"}, {"kind": "bot", "agent": "mcts", "budget": "200"}])


def _parts_of(folder):
    """The parts of a folder's path that a reply could give away (all but the root and `tmp`)."""
    return [x for x in folder.parts[1:] if len(x) > 3]


def test_files_named_on_the_command_line_are_offered_by_their_names_not_their_paths(tmp_path, monkeypatch):
    """Bug: `meeple serve FILE...` offered a file by the path it was given as, so the lobby, its JSON, the
    designer's report and the refusals showed every page the operator's folders."""
    import tempfile

    from tests.support import PICK
    from tests.test_web_designer import BROKEN
    from tests.webserver import Running

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "temp-of-the-server"))  # failed games' saves
    (tmp_path / "temp-of-the-server").mkdir()
    one, two = tmp_path / "operator-one", tmp_path / "operator-two"
    one.mkdir(), two.mkdir()
    (one / "pick.yaml").write_text(PICK)
    (two / "pick.yaml").write_text(PICK.replace("name: Pick", "name: Pick two").replace("[1, 3, 2]", "[1, 3, 4]"))
    (one / "broken_income.yaml").write_text(BROKEN)
    secret = _parts_of(tmp_path) + ["operator-", "temp-of-the-server"]

    def private(text):
        return [x for x in secret if x in text]

    web = Running([str(one / "pick.yaml"), str(two / "pick.yaml"), str(one / "broken_income.yaml"),
                   "variants/four_workers"])
    try:
        listing = web.get("/api/lobby")[1].decode()
        assert private(listing) == []
        rows = json.loads(listing)["rulesets"]
        # Files by their names (a second of the same name told apart), a bundled name as it is.
        assert [(r["id"], r["title"], r["file"]) for r in rows[:4]] == [
            ("pick.yaml", "Pick", True), ("pick-2.yaml", "Pick two", True),
            ("broken_income.yaml", "Broken income", True), ("variants/four_workers", "Speicherstadt, 4 workers", False)]
        assert [(r["id"], r["file"]) for r in rows if r["id"] in ("speicherstadt", "variants/cheap_port")] == [
            ("speicherstadt", False), ("variants/cheap_port", False)]
        assert sum(r["id"] == "variants/four_workers" for r in rows) == 1

        # A table of the second file: every message its pages receive, and its replay and save.
        status, body = web.post("/api/tables", {"ruleset": "pick-2.yaml", "seats": [{"kind": "person"}] * 2})
        assert status == 200, body
        host, seats = _tokens(body)
        for k, token in enumerate(seats):
            with web.socket(token) as ws:
                got = [ws.recv(timeout=10), ws.recv(timeout=10)]
                assert json.loads(got[0])["name"] == "Pick two"
                ws.send(json.dumps({"type": "act", "step": json.loads(got[1])["step"], "index": 0}))
                got.append(ws.recv(timeout=10))
                ws.send(json.dumps({"type": "act", "step": 0, "index": 99}))  # refused, with a reason
                got.append(ws.recv(timeout=10))
            assert json.loads(got[-1])["type"] == "error" and private("".join(got)) == [], k
        assert private("".join(web.first_messages(host))) == []
        status, replay = web.get(f"/api/replay/{host}?pov=-2&step=1")
        assert status == 200 and json.loads(replay)["move"].startswith("P1: ") and private(replay.decode()) == []
        status, save = web.get(f"/api/save/{host}")
        assert status == 200 and private(save.decode()) == []
        status, opened = web.post("/api/saves", {"text": save.decode(), "ruleset": "pick-2.yaml"})
        assert status == 200 and private(json.dumps(opened)) == [], opened

        # The path itself is no name the lobby offers.
        status, body = web.post("/api/tables", {"ruleset": str(two / "pick.yaml"), "seats": [{"kind": "person"}] * 2})
        assert status == 400 and body["error"].startswith("unknown ruleset ")

        # The designer's report, a failed variant's error and the refusal when nothing is left to compare.
        status, body = web.post("/api/compare", {"base": "speicherstadt", "players": 3, "games": 4,
                                                 "variants": ["broken_income.yaml", "variants/cheap_port"]})
        assert status == 200 and private(json.dumps(body)) == [], body
        assert body["names"] == ["speicherstadt", "variants/cheap_port"]
        assert [(f["name"], f["error"]) for f in body["failed"]] == [
            ("broken_income.yaml", "broken_income.yaml:6:11: division by zero")]
        assert "`meeple play broken_income.yaml --load " in body["failed"][0]["hint"]
        status, body = web.post("/api/compare", {"base": "pick.yaml", "variants": ["pick-2.yaml"], "games": 2})
        assert status == 200 and body["names"] == ["pick.yaml", "pick-2.yaml"] and private(json.dumps(body)) == []
        assert web.tracebacks() == []
    finally:
        web.stop()


def test_a_file_named_like_a_bundled_ruleset_does_not_hide_it(tmp_path):
    from meeple.web.lobby import Lobby

    from tests.support import PICK

    (tmp_path / "speicherstadt").write_text(PICK)
    lobby = Lobby([str(tmp_path / "speicherstadt"), "merchants"])
    assert lobby.names()[:2] == ["speicherstadt-2", "merchants"] and "speicherstadt" in lobby.names()
    assert lobby.ruleset("speicherstadt-2").name == "Pick" and lobby.ruleset("speicherstadt").name == "Speicherstadt"
    assert lobby.shown(f"{tmp_path / 'speicherstadt'}:3:1: bad") == "speicherstadt-2:3:1: bad"


def test_the_same_file_given_twice_is_offered_once(tmp_path, monkeypatch):
    # Found in review: `meeple serve a.yaml ./a.yaml` offered it as a.yaml and a-2.yaml, and named it
    # a-2.yaml in every message.
    from meeple.web.lobby import Lobby

    from tests.support import PICK

    monkeypatch.chdir(tmp_path)
    (tmp_path / "house").mkdir()
    (tmp_path / "house" / "pick.yaml").write_text(PICK)
    lobby = Lobby(["house/pick.yaml", "./house/pick.yaml", str(tmp_path / "house" / "pick.yaml")])
    assert lobby.files == ["pick.yaml"]
    assert lobby.shown("house/pick.yaml:1:1: x") == "pick.yaml:1:1: x"


def test_a_file_a_named_file_extends_is_named_without_its_folders(tmp_path, monkeypatch):
    # Found in review: the designer's failed variant named the file its variant extends by its path
    # relative to the server's working folder (house/private/secret_base.yaml).
    import tempfile

    from meeple.web.designer import run_compare
    from meeple.web.lobby import Lobby

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    (tmp_path / "house" / "private").mkdir(parents=True)
    (tmp_path / "house" / "private" / "secret_base.yaml").write_text(
        "meeple: 1\n"
        "extends: speicherstadt\n"
        "name: Secret base\n"
        "phases:\n"
        "  income: |\n"
        '    log("{10 // (nplayers - nplayers)}")\n')
    (tmp_path / "house" / "variant.yaml").write_text("meeple: 1\nextends: private/secret_base.yaml\nname: My variant\n")
    lobby = Lobby(["house/variant.yaml"])
    res = run_compare(lobby, {"base": "speicherstadt", "variants": ["variant.yaml", "variants/cheap_port"],
                              "games": 2, "players": 3})
    [failed] = res["failed"]
    assert failed["error"].startswith("secret_base.yaml:6:"), failed
    assert "house/" not in json.dumps(res) and "private/" not in json.dumps(res)


def test_a_comparisons_variants_and_bots_are_refused_if_not_a_list_and_a_text(web):
    """Bug (found by QA): `variants` of `true`, 1 or 1.5 was a 500 (TypeError), an object was read as the
    list of its keys, and a list of bots was taken for the text of one unknown bot."""
    spec = {"base": "speicherstadt", "variants": ["variants/cheap_port"], "games": 2, "players": 3}
    for bad in (True, 1, 1.5, "variants/cheap_port", {"variants/cheap_port": 1}, [["variants/cheap_port"]]):
        status, body = web.post("/api/compare", {**spec, "variants": bad})
        assert status == 400 and body["code"] == "B020", (bad, body)
    for bad in (["random"], {"random": 1}, 5, True):
        status, body = web.post("/api/compare", {**spec, "agents": bad})
        assert status == 400 and body["code"] == "B020" and body["error"].startswith("agents must be a text"), body
    assert web.tracebacks() == []


def test_a_comparisons_bots_are_held_to_a_tables_budget(web):
    """Bug (found by QA): `mcts:1000000` was taken, where a table's bot may think 20,000 iterations."""
    from meeple.errors import UsageError
    from meeple.web.bots import MAX_BUDGET, MAX_SECONDS
    from meeple.web.designer import _agents

    spec = {"base": "speicherstadt", "variants": ["variants/cheap_port"], "games": 2, "players": 3}
    for bad, why in ((f"mcts:{MAX_BUDGET + 1}", f"a budget is at most {MAX_BUDGET:,}"),
                     ("random,mcts:1000000:cut=5", f"a budget is at most {MAX_BUDGET:,}"),
                     ("mcts:2s", f"at most {MAX_SECONDS:g} s a move")):
        with pytest.raises(UsageError):  # first here: taken, the request would play for hours
            _agents(bad, 3)
        status, body = web.post("/api/compare", {**spec, "agents": bad})
        assert status == 400 and body["code"] == "B020" and why in body["error"], (bad, body)
    assert _agents(f"random,mcts:{MAX_BUDGET}:cut=5,mcts:1s", 3) == f"random,mcts:{MAX_BUDGET}:cut=5,mcts:1s"
    assert _agents(None, 3) == "random"
    assert web.tracebacks() == []


def test_a_save_of_no_table_is_not_found_as_the_replay_says(web):
    """Bug (found by QA): `/api/save/UNKNOWN` said 403 "a save holds every secret", where the replay and
    the ruleset of the same token say 404 "no such table"."""
    for path in ("/api/save/nope", "/api/replay/nope", "/api/ruleset/nope"):
        status, body = web.get(path)
        assert (status, json.loads(body)["error"]) == (404, "no such table"), path
    _, (p1, _) = _table(web)
    assert web.get(f"/api/save/{p1}")[0] == 403  # a table's save, while its game runs


def test_a_refused_names_unprintable_characters_are_quoted_not_cut(web):
    """Bug (found by QA): `a\\tb.yaml` was refused as `'tb.yaml' is not a name...`: the backslash of
    repr()'s escape was read as a Windows folder by Lobby.shown, which cut what came before it."""
    for name, quoted in (("a\tb.yaml", "'a<U+0009>b.yaml'"), ("my\x85game.yaml", "'my<U+0085>game.yaml'"),
                         ("ab\u200bcd.yaml", "'ab<U+200B>cd.yaml'"), ("sub\\mine.yaml", "'sub\\\\mine.yaml'")):
        status, body = web.post("/api/upload", {"filename": name, "text": "meeple: 1\n"})
        assert status == 400 and body["error"].startswith(quoted + " "), (name, body)
    status, body = web.post("/api/tables", {"ruleset": "a\tb.yaml", "seats": [{"kind": "person"}] * 2})
    assert status == 400 and body["error"] == "unknown ruleset 'a<U+0009>b.yaml'", body


def test_the_rulesets_own_best_bot_is_held_to_a_tables_budget(web):
    """Found in review: "best" played an uploaded ruleset's `agents.play` as it asked (`mcts:1000000`, or
    an hour a move), where every other bot of a table is held to MAX_BUDGET and the designer's to
    MAX_SECONDS."""
    from meeple.web.bots import MAX_BUDGET, MAX_SECONDS

    text = (Path(__file__).parent.parent / "rulesets" / "reference" / "tic_tac_toe.yaml").read_text(encoding="utf-8")
    seats = [{"kind": "person"}, {"kind": "bot", "agent": "best"}]

    def table(spec):
        status, body = web.post("/api/upload", {"filename": "bot.yaml", "text": text + f"\nagents:\n  play: {spec}\n"})
        assert status == 200, body
        return web.post("/api/tables", {"ruleset": body["id"], "seats": seats})

    for spec, why in ((f"mcts:{MAX_BUDGET + 1}", f"a budget is at most {MAX_BUDGET:,}, as at a table"),
                      ("mcts:3600s", f"a bot thinks at most {MAX_SECONDS:g} s a move, as the best bot does")):
        status, body = table(spec)
        assert status == 400 and body["error"] == f"the ruleset's own bot (agents.play: {spec}) cannot play here: {why}", body
    assert table(f"mcts:{MAX_BUDGET}")[0] == 200
