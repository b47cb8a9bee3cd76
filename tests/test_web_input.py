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
