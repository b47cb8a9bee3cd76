"""The grammar's parser is built once and kept in the cache folder; a bad or unwritable cache never
fails a load: the parser is built again (and the entry replaced when the folder can be written)."""

from __future__ import annotations

import hashlib
import io
import pickle
from pathlib import Path

import lark
import pytest
from click.testing import CliRunner
from meeple.cli.main import meeple
from meeple.language import grammarcache
from meeple.language import parser as P

GRAMMAR = Path(P.__file__).with_name("grammar.lark").read_text(encoding="utf-8")
OPTIONS = {"parser": "lalr", "start": ["start", "expression", "options"], "propagate_positions": True,
           "maybe_placeholders": False}
SCRIPT = "if x > 1:\n    y = [a.b for a in c if a]\nelse:\n    pass\n"


@pytest.fixture
def cache(tmp_path, monkeypatch) -> Path:
    monkeypatch.setenv("MEEPLE_CACHE_DIR", str(tmp_path))
    return tmp_path


def build():
    return grammarcache.parser(GRAMMAR, P._Indenter(), **OPTIONS)


def entry(cache: Path) -> Path:
    (found,) = (cache / "grammar").iterdir()
    return found


def test_the_first_process_builds_and_stores_the_parser_and_the_next_loads_it(cache, monkeypatch):
    reference = build().parse(SCRIPT, start="start")
    stored = entry(cache).read_bytes()
    assert stored.startswith(grammarcache.MAGIC)

    def no_building(*args, **kwargs):
        raise AssertionError("built again")

    monkeypatch.setattr(grammarcache, "Lark", type("NoBuild", (grammarcache.Lark,), {"__init__": no_building}))
    loaded = build()
    assert loaded.parse(SCRIPT, start="start") == reference
    assert loaded.get_terminal("NAME").pattern.value == "[A-Za-z_][A-Za-z0-9_]*"


def _sealed(payload: bytes) -> bytes:
    return grammarcache.MAGIC + hashlib.sha256(payload).digest() + payload


def sound(path: Path) -> bool:
    stored = path.read_bytes()
    return stored == _sealed(stored[len(grammarcache.MAGIC) + 32:]) and grammarcache._read(path, P._Indenter()) is not None


class Planted:
    def __reduce__(self):
        return (print, ("ran code from the cache",))


@pytest.mark.parametrize("damage", ["garbage", "truncated", "flipped", "empty", "planted", "wrong shape"])
def test_a_damaged_entry_is_built_again_and_replaced(cache, damage, capsys):
    reference = build().parse(SCRIPT, start="start")
    path = entry(cache)
    good = path.read_bytes()
    bad = {"garbage": b"\x00\xff not a cache", "truncated": good[:len(good) // 2],
           "flipped": good[:-100] + bytes([good[-100] ^ 0xFF]) + good[-99:], "empty": b"",
           "planted": _sealed(pickle.dumps(Planted())),  # a checksum that fits, but code inside
           "wrong shape": _sealed(pickle.dumps({"data": [], "memo": 3}))}[damage]
    path.write_bytes(bad)
    assert build().parse(SCRIPT, start="start") == reference
    assert "ran code" not in capsys.readouterr().out
    assert sound(entry(cache)) and entry(cache).read_bytes() != bad  # written anew


def test_a_folder_that_cannot_be_written_is_skipped(tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder", encoding="utf-8")
    monkeypatch.setenv("MEEPLE_CACHE_DIR", str(blocker / "cache"))  # cannot be created (root or not)
    assert build().parse(SCRIPT, start="start").data == "start"


def test_validate_passes_with_a_corrupt_grammar_cache(cache, monkeypatch):
    build()
    entry(cache).write_bytes(grammarcache.MAGIC + b"\x00" * 32 + b"corrupt")
    P._lark.cache_clear()  # as in a new process: no parser in memory yet
    result = CliRunner().invoke(meeple, ["validate", "merchants"])
    assert (result.exit_code, result.output) == (0, "merchants: ok\n")
    assert sound(entry(cache))  # replaced


def test_the_key_follows_the_grammar(cache):
    build()
    grammarcache.parser(GRAMMAR + "\n// an edit\n", P._Indenter(), **OPTIONS)
    assert len(list((cache / "grammar").iterdir())) == 2


def test_plain_data_only(cache):
    with pytest.raises(pickle.UnpicklingError):
        grammarcache._PlainData(io.BytesIO(pickle.dumps(Planted()))).load()


def test_a_token_is_plain_data():
    """Bug: lark 1.1 saves some names as Tokens, and the cache refused them as code: every process built the
    parser again. A Token only rebuilds a string; it is read, and nothing else of lark's is."""
    token = lark.lexer.Token("NAME", "x", start_pos=0, line=1, column=1)
    loaded = grammarcache._PlainData(io.BytesIO(pickle.dumps([token]))).load()
    assert loaded == [token] and type(loaded[0]) is lark.lexer.Token and loaded[0].type == "NAME"
    with pytest.raises(pickle.UnpicklingError):
        grammarcache._PlainData(io.BytesIO(pickle.dumps(lark.Tree("start", [])))).load()
