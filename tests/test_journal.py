"""`meeple ladder --journal FILE`: every finished game is kept, and a ladder stopped before its end (Ctrl-C,
a crash, a reboot) goes on from its journal and ends with the table of the whole run."""

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from meeple.cli.main import meeple
from meeple.runtime.rules import load_ruleset
from meeple.tools.backends import Interrupted
from meeple.tools.ladder import ladder
from support import stop_after, without_run_fields

TTT = Path(__file__).resolve().parent.parent / "rulesets" / "reference" / "tic_tac_toe.yaml"
DEEP = "[" * 100000 + "]" * 100000  # deeper than Python's JSON parser goes
LADDER = ["ladder", str(TTT), "--agents", "mcts:4,random", "--seed", "5", "--format", "json", "-j", "1"]


def run(*args):
    return CliRunner().invoke(meeple, [str(a) for a in args])


def test_a_ladder_resumed_from_its_journal_prints_the_whole_runs_table(tmp_path):
    book = tmp_path / "run.jsonl"
    first = run(*LADDER, "-n", 6, "--journal", book)
    assert first.exit_code == 0, first.output
    assert len(book.read_text().splitlines()) == 1 + 6  # the run's line, then a line per game
    resumed = run(*LADDER, "-n", 10, "--journal", book)
    assert resumed.exit_code == 0, resumed.output
    assert "6 of 10 games already played" in resumed.stderr
    whole = run(*LADDER, "-n", 10)
    assert json.loads(resumed.stdout)["resumed"] == 6 and json.loads(whole.stdout)["resumed"] == 0
    assert without_run_fields(resumed.stdout_bytes) == without_run_fields(whole.stdout_bytes)
    assert len(book.read_text().splitlines()) == 1 + 10
    again = run(*LADDER, "-n", 10, "--journal", book)  # nothing left to play: the table at once
    assert without_run_fields(again.stdout_bytes) == without_run_fields(whole.stdout_bytes)


def test_the_games_finished_in_order_before_ctrl_c_are_in_the_journal():
    rs = load_ruleset(TTT)
    kept = []
    with pytest.raises(Interrupted):
        ladder(rs, 2, "first,random", 10, seed=3, progress=stop_after(3), on_game=kept.append)
    assert [r.index for r in kept] == [0, 1, 2]
    resumed = ladder(rs, 2, "first,random", 10, seed=3, done=kept)
    whole = ladder(rs, 2, "first,random", 10, seed=3)
    assert [r.to_json() for r in resumed.rows] == [r.to_json() for r in whole.rows]
    assert resumed.resumed == 3


BASE = ["ladder", "demoludy", "--players", "3", "--agents", "random,first,random", "--seed", "5", "-n"]


@pytest.mark.parametrize(("option", "value", "words"), [
    ("--seed", "6", "its seed is 5, this run's is 6"),
    ("--agents", "first,random,random", "its agents are ['random', 'first', 'random']"),
    ("--players", "4", "its players are 3, this run's are 4"),
])
def test_a_journal_of_another_run_is_refused_and_left_as_it_is(tmp_path, option, value, words):
    book = tmp_path / "run.jsonl"
    assert run(*BASE, 3, "--journal", book).exit_code == 0
    before = book.read_bytes()
    args = [*BASE, 6, "--journal", book]
    args[args.index(option) + 1] = value
    r = run(*args)
    assert r.exit_code == 2, r.output
    assert f"{book}:1:1" in r.output and "another run" in r.output and words in r.output
    assert "Traceback" not in r.output and book.read_bytes() == before


def test_a_journal_written_by_other_code_or_of_another_ruleset_is_refused(tmp_path):
    book = tmp_path / "run.jsonl"
    assert run(*LADDER, "-n", 2, "--journal", book).exit_code == 0
    lines = book.read_text().splitlines()
    for key, words in (("code", "another version of Meeple"), ("ruleset_digest", "ruleset's data has changed")):
        head = json.loads(lines[0])
        head[key] = "0" * 16
        book.write_text("\n".join([json.dumps(head), *lines[1:]]) + "\n")
        r = run(*LADDER, "-n", 4, "--journal", book)
        assert r.exit_code == 2 and words in r.output, r.output


def test_a_last_line_cut_short_is_dropped_and_the_run_goes_on(tmp_path):
    book = tmp_path / "run.jsonl"
    assert run(*LADDER, "-n", 4, "--journal", book).exit_code == 0
    text = book.read_text()
    book.write_text(text[:-25])  # the process died while writing game 3
    r = run(*LADDER, "-n", 8, "--journal", book)
    assert r.exit_code == 0, r.output
    assert "3 of 8 games already played" in r.stderr
    whole = run(*LADDER, "-n", 8)
    assert without_run_fields(r.stdout_bytes) == without_run_fields(whole.stdout_bytes)
    assert [json.loads(x)["index"] for x in book.read_text().splitlines()[1:]] == list(range(8))


@pytest.mark.parametrize(("damage", "line", "words"), [
    (lambda lines: [lines[0], "not json", *lines[2:]], 2, "not JSON"),
    (lambda lines: [lines[0], lines[2], lines[1], *lines[3:]], 2, "this line is game 1, where game 0 should be"),
    (lambda lines: [lines[0], '{"index": 0}', *lines[2:]], 2, "not a finished game"),
    (lambda lines: ["meeple: 1", *lines[1:]], 1, "not a ladder's journal"),
    # found by QA: a line of the right keys but wrong values was a traceback (`"winners": 5`) or a table of
    # made-up results (a winner who is no seat, scores that are not one a seat)
    *[(lambda lines, k=k, v=v: [lines[0], json.dumps({**json.loads(lines[1]), k: v}), *lines[2:]], 2,
       f"not a game this run could have played: its `{k}` is") for k, v in (
        ("winners", 5), ("winners", [7]), ("winners", [0, 0]), ("scores", ["a"]), ("players", 3),
        ("agents", ["nobody", "first"]), ("decisions", -1), ("length", "9"), ("seed", None))],
])
def test_a_damaged_journal_is_an_error_at_its_line_and_is_left_as_it_is(tmp_path, damage, line, words):
    book = tmp_path / "run.jsonl"
    assert run(*LADDER, "-n", 4, "--journal", book).exit_code == 0
    book.write_text("\n".join(damage(book.read_text().splitlines())) + "\n")
    before = book.read_bytes()
    r = run(*LADDER, "-n", 8, "--journal", book)
    assert r.exit_code == 2, r.output  # a journal that cannot be used as given is a usage/IO error
    assert f"{book}:{line}:1" in r.output and words in r.output and "Traceback" not in r.output
    assert book.read_bytes() == before


@pytest.mark.parametrize(("damage", "line", "words"), [
    (lambda lines: [lines[0], DEEP, *lines[2:]], 2, "not JSON: it is nested too deeply"),
    (lambda lines: [DEEP, *lines[1:]], 1, "not a ladder's journal"),
])
def test_a_line_nested_too_deeply_is_a_bad_line_not_a_traceback(tmp_path, damage, line, words):
    """A journal line nested deeper than Python's JSON parser goes was a RecursionError traceback (found in QA)."""
    test_a_damaged_journal_is_an_error_at_its_line_and_is_left_as_it_is(tmp_path, damage, line, words)


def test_a_journal_with_more_games_than_asked_for_is_a_usage_error(tmp_path):
    book = tmp_path / "run.jsonl"
    assert run(*LADDER, "-n", 6, "--journal", book).exit_code == 0
    r = run(*LADDER, "-n", 4, "--journal", book)
    assert r.exit_code == 2 and "holds 6 games, more than the 4 asked for" in r.output
    assert "already played" not in r.output  # only the error, not "6 of 4 games already played"
    again = run(*LADDER, "-n", 6, "--journal", book)
    assert again.exit_code == 0 and "all 6 games already played" in again.stderr
    more = run(*LADDER, "-n", 7, "--journal", book)
    assert more.exit_code == 0 and "6 of 7 games already played; playing the rest" in more.stderr


def test_a_journal_that_cannot_be_written_is_a_usage_error(tmp_path):
    r = run(*LADDER, "-n", 2, "--journal", tmp_path / "no such folder" / "run.jsonl")
    assert r.exit_code == 2 and "cannot write the journal" in r.output and "Traceback" not in r.output


def test_ctrl_c_on_the_command_line_keeps_the_journal_and_the_same_command_goes_on(tmp_path):
    import os
    import signal
    import subprocess
    import sys
    import time

    book = tmp_path / "run.jsonl"
    args = ["ladder", "demoludy", "-p", "3", "--agents", "random", "-n", "60000", "-j", "2", "--journal", str(book)]
    p = subprocess.Popen([sys.executable, "-m", "meeple.cli.main", *args], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, start_new_session=True)
    deadline = time.monotonic() + 60
    while (not book.exists() or len(book.read_bytes().splitlines()) < 30) and time.monotonic() < deadline:
        time.sleep(0.05)
    os.killpg(p.pid, signal.SIGINT)  # as a terminal's Ctrl-C does: to the whole process group
    out, err = p.communicate(timeout=60)
    assert p.returncode == 130, err
    assert b"the same command goes on from them" in err and b"Traceback" not in err
    kept = [json.loads(x) for x in book.read_text().splitlines()[1:]]
    shown = int(re.search(r"(\d+) games, 3 players", out.decode()).group(1))
    assert len(kept) == shown >= 29 and [g["index"] for g in kept] == list(range(shown))
    k = shown + 7
    resumed = run(*args[:7], str(k), "-j", "1", "--journal", book, "--format", "json")
    assert resumed.exit_code == 0 and json.loads(resumed.stdout)["resumed"] == shown
    whole = run(*args[:7], str(k), "-j", "1", "--format", "json")
    assert without_run_fields(resumed.stdout_bytes) == without_run_fields(whole.stdout_bytes)


def test_a_damaged_line_is_located_at_its_own_line_even_after_a_blank_one(tmp_path):
    book = tmp_path / "run.jsonl"
    assert run(*LADDER, "-n", 4, "--journal", book).exit_code == 0
    lines = book.read_text().splitlines()
    book.write_text("\n".join([lines[0], "", lines[1], "not json", *lines[3:]]) + "\n")
    r = run(*LADDER, "-n", 8, "--journal", book)
    assert r.exit_code == 2 and f"{book}:4:1" in r.output and "not JSON" in r.output


@pytest.mark.parametrize("text", [b'{"a": 1}', b"notes", b"\n\n{\"kind\""])
def test_a_file_of_one_piece_without_a_newline_is_no_journal_and_is_left_as_it_is(tmp_path, text):
    """Found by QA: its only piece was dropped as a line cut short, and the file emptied for the run."""
    book = tmp_path / "data.json"
    book.write_bytes(text)
    r = run(*LADDER, "-n", 2, "--journal", book)
    assert r.exit_code == 2 and "not a ladder's journal" in r.output and book.read_bytes() == text


def test_a_file_of_blank_lines_becomes_a_journal_that_the_run_can_go_on_from(tmp_path):
    """Found by QA: the games were written after the blank line without the run's first line, so the same
    command with more games refused its own journal."""
    book = tmp_path / "run.jsonl"
    book.write_text("\n  \n")
    assert run(*LADDER, "-n", 2, "--journal", book).exit_code == 0
    assert json.loads(book.read_text().splitlines()[0])["kind"] == "meeple ladder journal"
    more = run(*LADDER, "-n", 4, "--journal", book)
    assert more.exit_code == 0 and "2 of 4 games already played" in more.stderr, more.output
