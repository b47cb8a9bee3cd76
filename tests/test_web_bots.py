"""Bots at a browser table think without holding up the server: other pages and tables are answered
while a bot chooses (the best bot takes about a second a move), and its move is played when it is ready."""

import json
import threading

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")



class Held:
    """A bot that chooses as `real` does, but only once the test lets it: while it waits, the test
    asks the server for something else."""

    def __init__(self, real):
        self.real, self.thinking, self.go, self.done = real, threading.Event(), threading.Event(), False

    def choose(self, game, seat):
        self.thinking.set()
        self.go.wait(20)  # without the worker thread the server cannot answer until this gives up
        self.done = True
        return self.real.choose(game, seat)


def _token(link):
    return link.split("/")[-1]


def test_the_server_answers_other_requests_while_a_bot_thinks(web):
    status, body = web.post("/api/tables", {"ruleset": "merchants", "seed": 4, "speed": 0,
                                            "seats": [{"kind": "person"}, {"kind": "bot", "agent": "random"}]})
    assert status == 200, body
    person = _token(body["seats"][0]["link"])
    table = web.server.registry.by_token(person)
    held = table.bots[1] = Held(table.bots[1])
    with web.socket(person) as ws:
        ws.recv(timeout=10)
        state = json.loads(ws.recv(timeout=10))
        ws.send(json.dumps({"type": "act", "step": state["step"], "index": 0}))  # P1 moves; the bot's turn
        assert held.thinking.wait(10)
        try:
            status, lobby = web.get("/api/lobby")
            answered_while_thinking = not held.done
        finally:
            held.go.set()
        assert status == 200 and json.loads(lobby)["bots"]
        assert answered_while_thinking
        # and the bot's move, when it comes, is played and shown
        for _ in range(10):
            msg = json.loads(ws.recv(timeout=30))
            if msg.get("step", 0) >= state["step"] + 2:
                break
        assert msg["step"] >= state["step"] + 2
    assert len(table.game.state.actions) >= 2 and table.game.state.actions[1]["player"] == 1


def test_a_bots_choice_stands_after_a_secret_choice_but_not_on_another_menu():
    """While the bot thinks, a person may choose in secret at the same decision: the step changes, the
    bot's menu does not, and its choice is played. A choice made on a menu the game has since left is not
    played, and the game does not change."""
    from meeple.runtime.rules import load_ruleset
    from meeple.web.tables import Seat, Table

    rs = load_ruleset("camel_up_off_season")
    seats = [Seat("person"), Seat("bot", "random"), Seat("person")]
    table = Table("t", rs, rs.name, rs.new_game(3, 5), seats)
    game = table.game
    assert sorted(game.deciders) == [0, 1, 2]  # a sealed bid: everyone at once
    seen, step = game.copy(), len(game.state.actions)
    table.act(0, step, 0)  # P1 bids in secret while the bot thinks
    assert table.play_bot(1, 0, step, seen)  # the same menu: played
    assert game.deciders == [2] and not table.play_bot(1, 0, step, seen)  # no longer the bot's turn

    # play on until the bot decides from another menu than the one it saw at the first decision
    table.act(2, len(game.state.actions), 0)
    keys = [a["key"] for a in seen.legal_actions(1)]
    while 1 not in game.deciders or [a["key"] for a in game.legal_actions(1)] == keys:
        game.apply_index(0, game.deciders[0])
    before = game.dumps()
    assert not table.play_bot(1, 0, step, seen)
    assert game.dumps() == before


def test_ctrl_c_stops_the_server_while_a_bot_with_a_large_budget_thinks():
    """A bot thinks in a daemon thread: `meeple serve` stopped with Ctrl-C exits at once, instead of
    waiting for a bot's 20,000 iterations (the most the lobby takes) to finish."""
    import re
    import signal
    import subprocess
    import sys
    import urllib.request

    proc = subprocess.Popen([sys.executable, "-m", "meeple.cli.main", "serve", "--port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        url = re.search(r"http://\S+/", proc.stdout.readline())[0]
        body = json.dumps({"ruleset": "merchants", "seed": 1, "speed": 0,
                           "seats": [{"kind": "bot", "agent": "mcts", "budget": 20000}, {"kind": "bot", "agent": "random"}]})
        opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
        with opener.open(urllib.request.Request(url + "api/tables", body.encode(),
                                                {"Content-Type": "application/json"}), timeout=30) as r:
            assert r.status == 200
        assert thinking(proc.pid), "the bot never started thinking"
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=30) == 0  # it used to wait for the bot: minutes
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def cpu_seconds(pid):
    """The CPU time process `pid` has used (Linux: /proc/PID/stat, in clock ticks)."""
    import os
    from pathlib import Path

    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def thinking(pid, seconds=1.0, tries=300):
    """Whether process `pid` has spent `seconds` of CPU from now on (an idle server spends none: only a
    thinking bot does), waiting for it."""
    import time

    start = cpu_seconds(pid)
    for _ in range(tries):
        if cpu_seconds(pid) - start >= seconds:
            return True
        time.sleep(0.1)
    return False
