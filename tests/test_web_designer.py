"""The designer page (`/designer`, web/designer.py and static/designer.js): `meeple compare` for the
rulesets the lobby offers, which goes on past a variant that fails or changes nothing, as the command
does, and whose replies name no file by its place on the server (Rule 4)."""

import json

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

from tests.webserver import Running

# A variant whose income phase divides by zero: its first game fails at the first income (line 6).
BROKEN = ('meeple: 1\nextends: speicherstadt\nname: Broken income\nphases:\n  income: |\n'
          '    log("{10 // (nplayers - nplayers)}")\n')


@pytest.fixture(scope="module")
def web():
    running = Running()
    yield running
    running.stop()


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
