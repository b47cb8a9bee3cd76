"""The designer page (`/designer`, web/designer.py and static/designer.js): `meeple compare` for the
rulesets the lobby offers, which goes on past a variant that fails or changes nothing, as the command
does, and whose replies name no file by its place on the server (Rule 4)."""

import json

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")


# A variant whose income phase divides by zero: its first game fails at the first income (line 6).
BROKEN = ('meeple: 1\nextends: speicherstadt\nname: Broken income\nphases:\n  income: |\n'
          '    log("{10 // (nplayers - nplayers)}")\n')


@pytest.fixture
def failed_games_in(tmp_path, monkeypatch):
    """The game a rules error broke is saved in the temporary folder: here, this test's."""
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    return tmp_path


def _upload(web, filename, text):
    status, body = web.post("/api/upload", {"filename": filename, "text": text})
    assert status == 200, body
    return body["id"]


def test_a_refusal_names_no_file_by_its_place_on_the_server(web, failed_games_in):
    """Bug: when every variant failed, the reply's hint named the saved game it broke (and the command
    to replay it) by their paths on the server."""
    broken = _upload(web, "broken_income.yaml", BROKEN)
    status, body = web.post("/api/compare", {"base": "speicherstadt", "variants": [broken], "games": 2,
                                             "players": 3})
    assert status == 400 and body["error"].startswith("broken_income.yaml:6:"), body
    assert "division by zero" in body["error"] and "seed" in body["hint"]
    text = json.dumps(body)
    assert str(failed_games_in) not in text and "meeple-failed-games" not in text and "meeple-web-" not in text
    assert web.tracebacks() == []


SAME = "meeple: 1\nextends: speicherstadt\nname: Same rules\ndescription: Only the name.\n"


def _spec(*variants, games=4):
    return {"base": "speicherstadt", "variants": list(variants), "games": games, "players": 3}


def test_a_failing_variant_leaves_the_others_compared_and_one_that_changes_nothing_is_not_played(web,
                                                                                                 failed_games_in):
    """Bug: one variant's rules error was the whole page's error (nothing compared), and a variant with
    the base's rules played the base's very games, every difference 0 and "not significant"."""
    broken, same = _upload(web, "broken_income.yaml", BROKEN), _upload(web, "renamed.yaml", SAME)
    status, body = web.post("/api/compare", _spec("variants/cheap_port", broken, same))
    assert status == 200, body
    assert body["names"] == ["speicherstadt", "variants/cheap_port"]
    assert [s["ruleset"] for s in body["rulesets"]] == ["Speicherstadt", "Speicherstadt, cheap Port"]
    assert len(body["differences"]) == 1
    (failed,) = body["failed"]
    assert (failed["name"], failed["ruleset"]) == (broken, "Broken income")
    assert failed["error"] == "broken_income.yaml:6:11: division by zero" and "seed" in failed["hint"]
    assert body["skipped"] == [{"name": same, "ruleset": "Same rules"}]
    # Rulesets are named by their lobby ids (`names`, `name`), which have an upload test of their own.
    text = json.dumps({k: v for k, v in body.items() if k != "names"}).replace(broken, "").replace(same, "")
    assert str(failed_games_in) not in text and "meeple-web-" not in text and '"path"' not in text
    # The headline rows that are not significant say what they leave open, as the command's do.
    row = next(r for r in body["differences"][0]["rows"] if r["what"] == "P1 win rate")
    assert row["inconclusive"] and row["detectable"] > 0 and row["to_detect"]["games"] > 4
    assert web.tracebacks() == []


def test_nothing_to_compare_is_refused_before_any_game(web):
    same = _upload(web, "renamed.yaml", SAME)
    status, body = web.post("/api/compare", _spec(same, "speicherstadt"))
    assert status == 400 and body["error"].startswith("nothing to compare: ") and "same rules" in body["error"]
    assert "meeple diff" in body["hint"] and "meeple-web-" not in json.dumps(body)


def test_the_page_shows_what_was_not_compared_and_what_is_inconclusive(web, page, failed_games_in):
    broken, same = _upload(web, "broken_income.yaml", BROKEN), _upload(web, "renamed.yaml", SAME)
    page.goto(web.url + "/designer")
    page.wait_for_selector("#base option", state="attached")
    page.select_option("#base", "speicherstadt")
    page.select_option("#variants", ["variants/cheap_port", broken, same])
    page.fill("#players", "3")
    page.fill("#games", "6")
    page.click("#run")
    page.wait_for_selector("table.report")
    text = page.inner_text("#report")
    assert "B = Speicherstadt, cheap Port" in text and "C = " not in text
    assert "not compared: Broken income" in text and "broken_income.yaml:6:11: division by zero" in text
    assert "not played: Same rules" in text and "the same rules as A" in text
    line = next(x for x in text.splitlines() if "inconclusive: " in x and "P1 win rate" not in x)
    assert "; to detect one of " in line and " games each" in line, line
    assert page.locator("#error").is_hidden()
    assert "meeple-web-" not in text and "meeple-web-" not in page.inner_text("#variants")


def test_an_upload_is_offered_by_a_public_id_not_by_its_place_on_the_server(web, failed_games_in):
    """Bug: an uploaded ruleset's id, in /api/upload, /api/lobby and the designer's report, was its path in
    the server's temporary folder."""
    from tests.support import PICK

    assert _upload(web, "pick me.yaml", PICK) == "upload/pick me.yaml"
    upload_dir = str(web.server.lobby.upload_dir)
    listing = web.get("/api/lobby")[1].decode()
    assert upload_dir not in listing and "meeple-web-" not in listing
    assert [r["title"] for r in json.loads(listing)["rulesets"] if r["id"] == "upload/pick me.yaml"] == ["Pick"]
    status, body = web.post("/api/tables", {"ruleset": "upload/pick me.yaml", "seats": [{"kind": "person"}] * 2})
    assert status == 200 and len(body["seats"]) == 2, body
    # The path itself is not a name the lobby offers.
    status, body = web.post("/api/tables", {"ruleset": upload_dir + "/pick me.yaml", "seats": [{"kind": "person"}] * 2})
    assert status == 400 and body["error"].startswith("unknown ruleset") and upload_dir not in json.dumps(body)
    broken, same = _upload(web, "broken_income.yaml", BROKEN), _upload(web, "renamed.yaml", SAME)
    assert (broken, same) == ("upload/broken_income.yaml", "upload/renamed.yaml")
    status, body = web.post("/api/compare", _spec(broken, same, "variants/cheap_port", games=2))
    assert status == 200 and upload_dir not in json.dumps(body) and "meeple-web-" not in json.dumps(body)
    assert [f["name"] for f in body["failed"]] == [broken] and [s["name"] for s in body["skipped"]] == [same]
    # Sent again under the same name, a file replaces the one before, under the same id.
    assert _upload(web, "pick me.yaml", PICK.replace("name: Pick", "name: Pick again")) == "upload/pick me.yaml"
    titles = [r["title"] for r in json.loads(web.get("/api/lobby")[1])["rulesets"] if r["id"] == "upload/pick me.yaml"]
    assert titles == ["Pick again"]
    assert web.tracebacks() == []


def test_a_failed_variants_error_is_worded_as_every_reply_and_as_the_command(web, failed_games_in, tmp_path,
                                                                            monkeypatch):
    """Bug: the report rebuilt a failed variant's error by hand, apart from the reply every request gives
    for an error (the same error, when no variant is left to compare, came with all its problems)."""
    import re

    from click.testing import CliRunner
    from meeple.cli.main import meeple

    broken = _upload(web, "broken_income.yaml", BROKEN)
    status, alone = web.post("/api/compare", _spec(broken))  # nothing left to compare: the error is the reply
    assert status == 400, alone
    status, body = web.post("/api/compare", _spec(broken, "variants/cheap_port"))
    assert status == 200 and body["failed"] == [{"name": broken, "ruleset": "Broken income", **alone}], body
    assert alone["problems"] == ["division by zero"]
    # ... and as `meeple compare` says it, but for the severity and code the command adds.
    monkeypatch.chdir(tmp_path)
    (tmp_path / "broken_income.yaml").write_text(BROKEN)
    out = CliRunner().invoke(meeple, ["compare", "speicherstadt", "broken_income.yaml", "variants/cheap_port",
                                      "-p", "3", "-n", "4", "-j", "1"])
    assert out.exit_code == 1, out.output
    said = out.stderr.splitlines()
    located = next(line for line in said if line.startswith("broken_income.yaml:6:"))
    assert re.sub(r" error\[\w+\]:", "", located) == alone["error"]
    hint = next(line for line in said if line.startswith("  hint: "))[len("  hint: "):]
    assert hint.split("; ")[0] == alone["hint"].split("; ")[0] and "seed" in hint


def test_an_inconclusive_figure_says_what_it_leaves_open_in_the_commands_words(web, page, monkeypatch):
    """Bug: the page worded the sentence of `meeple compare` itself, a copy to keep in step with the
    command's; the server sends the command's sentence (tools/stats.py), with the page's box for -n,
    also when the server was not started by `meeple serve`."""
    from meeple.tools import stats

    status, body = web.post("/api/compare", _spec("variants/cheap_port"))
    assert status == 200, body
    unit = body["rulesets"][0]["length"]["unit"]
    rows = [r for r in body["differences"][0]["rows"] if r.get("inconclusive")]
    assert rows and all("inconclusive_text" not in r for r in body["differences"][0]["rows"] if not r.get("inconclusive"))
    for r in rows:
        command = stats.inconclusive(r, unit)  # "... try about -n N": the page has a "Games each" box
        assert r["inconclusive_text"] == command.replace(f"-n {r['to_detect']['games']}",
                                                         f"{r['to_detect']['games']} games each"), r
        assert r["inconclusive_text"].startswith("inconclusive: ") and "-n " not in r["inconclusive_text"]
    from meeple.web import designer

    monkeypatch.setattr(designer, "inconclusive", lambda row, unit, more: f"THE SERVER'S WORDS for {row['what']} in {unit}")
    page.goto(web.url + "/designer")
    page.wait_for_selector("#base option", state="attached")
    page.select_option("#base", "speicherstadt")
    page.select_option("#variants", ["variants/cheap_port"])
    page.fill("#players", "3")
    page.fill("#games", "4")
    page.click("#run")
    page.wait_for_selector("table.report")
    shown = page.locator("tr.inconclusive").all_inner_texts()
    assert shown and all("THE SERVER'S WORDS for " in x for x in shown), shown
    assert "THE SERVER'S WORDS for P1 win rate in " in page.inner_text("#report")


def _compare_request(url, spec, timeout):
    """POST /api/compare from another thread; what became of it lands in the returned list."""
    import threading
    import urllib.error
    import urllib.request

    got = []

    def post():
        opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
        req = urllib.request.Request(url + "/api/compare", json.dumps(spec).encode(), {"Content-Type": "application/json"})
        try:
            with opener.open(req, timeout=timeout) as r:
                got.append(r.status)
        except urllib.error.HTTPError as e:
            got.append(e.code)
        except OSError as e:  # timed out (the page gave up), or the server went away
            got.append(type(e).__name__)

    thread = threading.Thread(target=post, daemon=True)
    thread.start()
    return thread, got


def test_a_comparison_ends_when_its_page_has_gone(web, monkeypatch):
    """Bug (found by QA): a comparison went on playing its thousands of games after the page that asked
    for it had gone. It now ends after the game in play, as Ctrl-C ends `meeple compare`."""
    import time

    from meeple.tools import compare

    played = []
    real = compare.play_one
    monkeypatch.setattr(compare, "play_one", lambda *a, **k: played.append(1) or real(*a, **k))
    spec = {"base": "speicherstadt", "variants": ["variants/cheap_port"], "games": 5000, "players": 3}
    thread, got = _compare_request(web.url, spec, timeout=1.5)
    thread.join(30)
    assert got and got[0] != 200 and played, got  # the page gave up while games were being played
    for _ in range(100):  # the game in play ends; then no other starts
        count = len(played)
        time.sleep(0.5)
        if len(played) == count:
            break
    time.sleep(1)
    assert len(played) == count < 2 * 5000, (count, len(played))
    assert web.tracebacks() == []


def test_ctrl_c_stops_the_server_while_a_comparison_plays():
    """Bug (found by QA): `meeple serve` did not stop on Ctrl-C while a comparison of slow bots played
    (the event loop's pool waited for it), nor while a page waited for one (the server waits for every
    answer). The comparison plays in a daemon thread and its request ends when the server stops."""
    import re
    import signal
    import subprocess
    import sys

    from tests.test_web_bots import thinking

    proc = subprocess.Popen([sys.executable, "-m", "meeple.cli.main", "serve", "--port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        url = re.search(r"http://\S+/", proc.stdout.readline())[0].rstrip("/")
        spec = {"base": "merchants", "variants": ["variants/cheap_port"], "games": 200, "agents": "mcts:20000"}
        thread, got = _compare_request(url, spec, timeout=120)  # a page that waits for the answer
        assert thinking(proc.pid), "the comparison never started"
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=30) == 0  # it used to play on: hours
        thread.join(10)
        assert got in ([503], ["RemoteDisconnected"], ["ConnectionResetError"]), got
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
