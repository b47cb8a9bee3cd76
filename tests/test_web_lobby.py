"""What the lobby keeps and how it words a refusal: an upload that is refused loses nothing uploaded
before it, a refusal's headline is its first error (not a warning listed before it), and a save opened
with another game's ruleset is refused for that reason, as the command line refuses it."""

import json

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")


def _merchants_text():
    from meeple.loading.files import rulesets_dir

    return (rulesets_dir() / "merchants.yaml").read_text(encoding="utf-8")


def test_a_refused_upload_keeps_the_good_file_of_that_name_and_headlines_its_error(web):
    """Bug: a broken ruleset sent under the file name of an earlier good upload replaced the good file
    and forgot it before it was checked, so `upload/mine.yaml` no longer made a table; and the refusal's
    headline was its first problem, a warning about the schema comment, while the error came second."""
    good = _merchants_text()
    assert "$schema=../schema/" in good  # a comment that points nowhere from the upload folder: W013
    status, body = web.post("/api/upload", {"filename": "mine.yaml", "text": good})
    assert (status, body) == (200, {"id": "upload/mine.yaml"})
    seats = [{"kind": "bot", "agent": "random"}] * 2
    assert web.post("/api/tables", {"ruleset": "upload/mine.yaml", "seats": seats, "seed": 1})[0] == 200

    broken = good.replace("n = shown(g)", "n = shwn(g)")
    assert broken != good
    status, body = web.post("/api/upload", {"filename": "mine.yaml", "text": broken})
    assert status == 400, body
    assert "schema comment" in body["problems"][0]  # the warning comes first among the problems...
    assert body["code"] == "C003" and body["error"].startswith("mine.yaml:")  # ...the error is the headline
    assert body["error"].endswith("there is no function or procedure `shwn`"), body

    status, body = web.post("/api/tables", {"ruleset": "upload/mine.yaml", "seats": seats, "seed": 1})
    assert status == 200, body
    titles = [r["title"] for r in json.loads(web.get("/api/lobby")[1])["rulesets"] if r["id"] == "upload/mine.yaml"]
    assert titles == ["Merchants"]
    upload_dir = web.server.lobby.upload_dir
    assert (upload_dir / "mine.yaml").read_text(encoding="utf-8") == good
    assert sorted(p.name for p in upload_dir.iterdir()) == ["mine.yaml"]  # nothing left beside it
    assert web.tracebacks() == []


def test_a_save_opened_with_another_games_ruleset_is_refused_as_the_command_line_refuses_it(web, tmp_path):
    """Bug: a save of Merchants opened with the ruleset Speicherstadt was refused as a save "from a
    different version of the ruleset" (L003), where `meeple play speicherstadt --load FILE` says it is a
    game of Merchants, not of Speicherstadt (L002)."""
    from meeple.cli.playsave import load_game
    from meeple.errors import SaveError
    from meeple.runtime.game import Game
    from meeple.runtime.rules import load_ruleset

    save = json.dumps(Game.new(load_ruleset("merchants"), 2, 1).to_json())
    status, body = web.post("/api/saves", {"text": save, "ruleset": "speicherstadt"})
    assert status == 400, body
    assert body["code"] == "L002" and body["error"] == "the save is a game of Merchants, not of Speicherstadt"
    assert "leave the ruleset out" in body["hint"]

    path = tmp_path / "merchants-save.json"
    path.write_text(save, encoding="utf-8")
    with pytest.raises(SaveError) as cli:
        load_game(load_ruleset("speicherstadt"), str(path))
    said = cli.value.problems[0]
    assert said.code == body["code"] and said.message.replace(str(path), "the save") == body["error"]

    # The save's own ruleset, named or not, still opens it.
    for named in ("merchants", None):
        status, body = web.post("/api/saves", {"text": save, "ruleset": named})
        assert status == 200 and body["replay"].startswith("/replay/"), body
    assert web.tracebacks() == []


@pytest.mark.parametrize("chance, narrate", [("seeded", False), ("explicit", True), ("explicit", False)])
def test_a_save_of_a_quiet_or_explicit_game_opens_in_the_replay_viewer(web, chance, narrate):
    """The replay viewer checks that a save's action log leads to its state by replaying it: as a
    narrated game with seeded chance, so a save of a quiet game (no log lines) or of one with explicit
    chance was refused as corrupt, though it loads anywhere else. Then it opened, but stepping through it
    replayed from a seeded, narrated start: with explicit chance every earlier step was refused (G003),
    the last one omnisciently an HTTP 500 (its move text), and a quiet game's earlier steps had log lines.
    Every step now shows the save's own game, for every point of view, and a chance outcome is told as one."""
    from meeple.runtime.chance import CHANCE
    from meeple.runtime.game import Game
    from meeple.runtime.rules import load_ruleset
    from meeple.web.render import OMNISCIENT, PUBLIC, seat_payload

    rs = load_ruleset("merchants")
    g = Game.new(rs, 2, 4, chance=chance, narrate=narrate)
    for _ in range(12):
        if g.is_chance:
            g.apply_index(0)
        else:
            g.apply_index(0, g.deciders[0])
    status, body = web.post("/api/saves", {"text": json.dumps(g.to_json()), "ruleset": "merchants"})
    assert status == 200 and body["replay"].startswith("/replay/"), body
    token = body["replay"].rsplit("/", 1)[1]
    actions = g.state.actions
    assert (chance == "explicit") == any(a["player"] == CHANCE for a in actions)

    def view(game, pov):  # what the game itself shows that point of view, as the replay sends it
        return json.loads(json.dumps(seat_payload(game, pov)["view"]))

    at = Game.new(rs, 2, 4, chance=chance, narrate=narrate)  # the save's game, step by step
    for step in range(len(actions) + 1):
        if step:
            at.apply(actions[step - 1])
        for pov in (OMNISCIENT, PUBLIC, 1):
            status, raw = web.get(f"/api/replay/{token}?pov={pov}&step={step}")
            assert status == 200, (step, pov, raw[:300])
            reply = json.loads(raw)
            assert reply["length"] == len(actions) and reply["payload"]["step"] == step
            assert reply["payload"]["view"] == view(at, pov), (step, pov)
            assert narrate or reply["payload"]["view"]["log"] == []
            if pov != OMNISCIENT or step == 0:  # a seat is not told who did what: a label may name a card
                assert "move" not in reply or reply["move"] is None, (step, pov)
            else:
                who = actions[step - 1]["player"]
                assert reply["move"].startswith("Chance: " if who == CHANCE else f"P{who + 1}: "), reply["move"]
    # The last step is the save's own state.
    assert at.to_json()["state"] == g.to_json()["state"]
    for pov in (OMNISCIENT, 0):
        status, raw = web.get(f"/api/replay/{token}?pov={pov}")
        assert status == 200 and json.loads(raw)["payload"]["view"] == view(g, pov)
    assert web.tracebacks() == []
