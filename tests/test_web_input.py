"""Requests that are well-formed JSON in name only, and uploads by any file name: each is refused with a
coded reason or kept under a name of its own, never a 500, a traceback, or an earlier upload lost."""

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

DEEP = "[" * 100000 + "]" * 100000  # deeper than Python's JSON parser goes
POSTS = ("/api/upload", "/api/tables", "/api/saves", "/api/compare")


def test_a_request_nested_too_deeply_is_refused_not_a_500(web):
    """A body or a save nested deeper than Python's JSON parser goes was an HTTP 500 with a RecursionError (found in QA)."""
    for path in POSTS:
        status, body = web.post_raw(path, DEEP.encode())
        assert status == 400 and body["error"] == "the request is nested too deeply" and body["code"], (path, body)
    status, body = web.post("/api/saves", {"text": DEEP})
    assert status == 400 and body["code"] == "L001" and body["error"] == "the save is corrupt (nested too deeply)"
    assert web.tracebacks() == []


def _rulesets(web):
    import json

    return {r["id"]: r["title"] for r in json.loads(web.get("/api/lobby")[1])["rulesets"]}


def _reference(name):
    from meeple.loading.files import rulesets_dir

    return (rulesets_dir() / "reference" / f"{name}.yaml").read_text(encoding="utf-8")


def test_an_upload_name_too_long_for_the_file_system_is_refused_not_a_500(web):
    """A file name of 300 characters was an HTTP 500 with `OSError: File name too long` (found in QA)."""
    from meeple.web.uploads import MAX_NAME

    ttt = _reference("tic_tac_toe")
    for name in ("x" * 300 + ".yaml", "x" * (MAX_NAME - 4) + ".yaml"):
        status, body = web.post("/api/upload", {"filename": name, "text": ttt})
        assert status == 400 and body["code"] == "B001" and body["error"] == \
            f"the file name is longer than {MAX_NAME} characters", body
    assert web.post("/api/upload", {"filename": "x" * (MAX_NAME - 5) + ".yaml", "text": ttt})[0] == 200
    # found in review: 62 emoji (253 bytes) uploaded once, then never again (the kept copy's name was
    # too long); a name's bytes are bounded too, and one that uploads once uploads again
    status, body = web.post("/api/upload", {"filename": "\U0001F600" * 62 + ".yaml", "text": ttt})
    assert status == 400 and "bytes" in body["error"], body
    name = "\U0001F600" * 48 + ".yaml"  # 197 bytes
    assert [web.post("/api/upload", {"filename": name, "text": ttt})[0] for _ in range(2)] == [200, 200]
    assert web.tracebacks() == []


def test_what_the_file_system_will_not_take_is_a_refusal_and_keeps_the_file_before(tmp_path, monkeypatch):
    """An OSError writing an upload (as a name too long for the file system gave) was a crash (found in QA)."""
    from pathlib import Path

    from meeple.errors import UsageError
    from meeple.web.lobby import Lobby

    lobby, ttt = Lobby(), _reference("tic_tac_toe")
    assert lobby.upload("mine.yaml", ttt) == "upload/mine.yaml"

    def full(self, *args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(Path, "write_text", full)
    with pytest.raises(UsageError) as e:
        lobby.upload("mine.yaml", ttt.replace("name: Tic", "name: Tac"))
    p = e.value.problems[0]
    assert p.code == "B001" and p.message == "the server cannot keep a file named 'mine.yaml': No space left on device"
    monkeypatch.undo()
    assert (lobby.upload_dir / "mine.yaml").read_text(encoding="utf-8") == ttt
    assert sorted(f.name for f in lobby.upload_dir.iterdir()) == ["mine.yaml"]


def test_uploads_of_different_names_are_different_files(web):
    """`mine.yml`, `mine.json` and `sub/mine.yaml` all became `upload/mine.yaml`, silently replacing an
    upload of another game (found in QA): an upload keeps its own name, and a name that is not a YAML
    file's own name is refused."""
    kuhn, ttt = _reference("kuhn_poker"), _reference("tic_tac_toe")
    assert web.post("/api/upload", {"filename": "mine.yaml", "text": kuhn}) == (200, {"id": "upload/mine.yaml"})
    assert web.post("/api/upload", {"filename": "mine.yml", "text": ttt}) == (200, {"id": "upload/mine.yml"})
    assert web.post("/api/upload", {"filename": "Mine (1).yaml", "text": ttt}) == (200, {"id": "upload/Mine (1).yaml"})
    for name, words in (("mine.json", "not a YAML file"), ("sub/mine.yaml", "names a folder"),
                        ("..\\mine.yaml", "names a folder"), (".mine.yaml", "hidden"), ("", "has no name"),
                        (["mine.yaml"], "has no name"), ("mi\x00ne.yaml", "control characters")):
        status, body = web.post("/api/upload", {"filename": name, "text": ttt})
        assert status == 400 and body["code"] == "B001" and words in body["error"], (name, body)
    titles = _rulesets(web)
    assert titles["upload/mine.yaml"] == "Kuhn poker"
    assert titles["upload/mine.yml"] == titles["upload/Mine (1).yaml"] == "Tic-tac-toe"
    assert {"Mine (1).yaml", "mine.yaml", "mine.yml"} <= {f.name for f in web.server.lobby.upload_dir.iterdir()}
    assert not any("json" in f.name or f.name.startswith(".") for f in web.server.lobby.upload_dir.iterdir())
    assert web.tracebacks() == []


def test_an_upload_whose_text_is_not_utf8_is_refused_not_a_500(web):
    """A text holding a lone surrogate (`\\ud800`, which JSON allows) was an HTTP 500 writing the file (found in review)."""
    status, body = web.post_raw("/api/upload", b'{"filename": "odd.yaml", "text": "name: \\ud800"}')
    assert status == 400 and body["code"] == "B001" and body["error"] == "the file's text is not UTF-8", body
    assert "odd.yaml" not in {f.name for f in web.server.lobby.upload_dir.iterdir()}
    assert web.tracebacks() == []
