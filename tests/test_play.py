"""`meeple play` as a person meets it: honest moves, a story, take-backs, saves that continue, a real ending,
and input that never loses a game."""

import json
import os
import re

import pytest
from click.testing import CliRunner
from meeple.cli.main import meeple
from meeple.cli.playsession import Session
from meeple.cli.view import menu_lines, number_ranges
from meeple.runtime.evaluator import Evaluator
from meeple.runtime.game import Game
from meeple.runtime.rules import load_ruleset

BIDS = """\
meeple: 1
name: Bids
players: {min: 2, max: 2}
counters:
  player: {points: 0}
flow: |
  for p in players:
      choose p "Bid":
          option "Bid {n} coins" for n in between(0, 30):
              score(p.points, n)
scoring:
  score: p.points
"""


def run(*args, input=None):
    # the bots play at random unless a test says otherwise: play's default bot thinks a second a move
    if args and args[0] == "play" and "--agents" not in args and "--load" not in args:
        args = (*args, "--agents", "random")
    return CliRunner().invoke(meeple, [str(a) for a in args], input=input)


def moves_of_others(output: str) -> list[str]:
    return re.findall(r"^P[2-9]: (.*)$", output, re.MULTILINE)


@pytest.mark.parametrize("name", ["speicherstadt", "merchants", "camel_up_off_season", "demoludy"])
def test_a_whole_game_of_each_bundled_ruleset_tells_its_story_and_ends_with_a_ranking(name):
    r = run("play", name, "-p", 3, "--seed", 3, input="1\n" * 3000)
    assert r.exit_code == 0, r.output
    out = r.output
    assert "Traceback" not in out and '"$' not in out
    assert moves_of_others(out), "the bots' moves are told"
    assert "  · " in out and "    ~ " in out  # log lines and what each move changed
    ranking = out.split("Final ranking:\n")[1]
    assert re.match(r"  1\. P\d", ranking) and "Winner" in ranking
    assert all(len(line) <= 80 for line in out.splitlines()), "80 columns, wrapped between words"


def test_others_never_read_a_card_added_face_down():
    """The leak the issue found: `play` echoed a bot's own label, "P2: Add purple 6 face down"."""
    cards = {c.name for c in load_ruleset("demoludy").components if c.kind == "card"}
    for seed in (1, 2, 3):
        out = run("play", "demoludy", "-p", 4, "--seed", seed, input="1\n" * 3000).output
        face_down = [m for m in moves_of_others(out) if m.endswith("face down")]
        assert face_down, "the bots did add cards face down"
        assert all(m == "Add a hidden card face down" for m in face_down), face_down
        assert not any(c in m for m in face_down for c in cards)


def test_the_end_screen_explains_the_scores():
    out = run("play", "speicherstadt", "-p", 2, "--seat", 2, "--seed", 1, input="1\n" * 1500).output
    end = out.split("Final ranking:")[1]
    assert "p.coins" in end  # the tie-break, as the ruleset writes it, with each player's value
    assert "Where the points came from:" in end and "Counting Office +2" in end
    # The 4th Fire burns during final scoring, through the procedure its effect calls: its points are its own.
    assert "4th Fire -8" in end and "final scoring" not in end
    demo = run("play", "demoludy", "-p", 3, "--seed", 3, input="1\n" * 3000).output.split("Final ranking:")[1]
    assert "countries(p)" in demo and "  3. P" in demo  # ranked by countries, not just 0/1


def test_undo_goes_back_to_your_previous_decision_until_something_is_revealed():
    r = run("play", "speicherstadt", "-p", 3, "--seed", 3, input="u\n1\nu\n1\n1\n1\n1\nu\nq\ny\n")
    out = r.output
    assert r.exit_code == 0
    assert "Cannot undo: there is no earlier decision of yours" in out
    assert "Taken back: you are at your previous decision again." in out
    assert "Cannot undo: since then you have seen what was hidden" in out  # a new card row was dealt
    # A card drawn into your hand cannot be undrawn: some decision soon after a draw refuses, naming it.
    cards = {c.name for c in load_ruleset("demoludy").components if c.kind == "card"}
    for k in range(1, 30):
        demo = run("play", "demoludy", "-p", 3, "--seed", 3, input="1\n" * k + "u\nq\ny\n").output
        refused = re.search(r"Cannot undo: since then you have seen what was hidden \((.*)\); it cannot be unseen", demo)
        if refused:
            assert set(refused[1].split(", ")) <= cards
            break
    else:
        pytest.fail("no take-back was ever refused")


SEALED = """\
meeple: 1
name: Sealed
players: {min: 2, max: 2}
counters:
  player: {points: 0}
flow: |
  choose player(1) "Ready?":
      option "Yes":
          pass
      option "Sure":
          pass
  repeat 2:
      simultaneous q in players:
          choose q "Your secret bid":
              option "Bid {n}" for n in between(0, 3):
                  score(q.points, n)
scoring:
  score: p.points
"""


def test_undo_is_refused_once_the_others_secret_choices_were_shown(tmp_path):
    """Found by QA: after sealed bids were revealed, `u` took the person's bid back and let them bid
    again knowing the others'. Before the reveal (a bot that chose first, not shown yet) it is allowed."""
    rules = tmp_path / "sealed.yaml"
    rules.write_text(SEALED)
    r = run("play", rules, "--seed", 1, "--seat", 1, input="2\nu\nq\ny\n")
    assert "P2: Bid" in r.output  # the bids were shown
    assert "Cannot undo: since then you have seen the other players' secret choices" in r.output, r.output
    # As P2: P1's bid is in before P2 chooses, but not shown yet, so P2 may still go back to "Ready?"
    r = run("play", rules, "--seed", 1, "--seat", 2, input="1\nu\nq\ny\n")
    assert "Taken back: you are at your previous decision again." in r.output, r.output
    assert "P1: Bid" not in r.output


def test_a_take_back_replays_the_same_way():
    """Undoing and choosing the same again gives the same game: the bots' random state is restored too."""
    straight = run("play", "speicherstadt", "-p", 3, "--seed", 3, input="1\n2\n" + "1\n" * 3000).output
    undone = run("play", "speicherstadt", "-p", 3, "--seed", 3, input="1\n1\nu\n2\n" + "1\n" * 3000).output
    assert straight.split("Final ranking:")[1] == undone.split("Final ranking:")[1]


def test_a_loaded_game_continues_exactly_as_the_unstopped_one(tmp_path):
    save = tmp_path / "g.json"
    whole = run("play", "merchants", "-p", 3, "--seed", 5, input="1\n" * 3000)
    first = run("play", "merchants", "-p", 3, "--seed", 5, input="1\n" * 6 + f"s {save}\nq\n")
    assert "Saved to" in first.output and save.is_file()
    extra = json.loads(save.read_text())["play"]
    assert extra["ruleset"] == "merchants" and len(extra["bots"]) == 3
    rest = run("play", "--load", save, input="1\n" * 3000)  # no ruleset named: the save knows it
    assert rest.exit_code == 0, rest.output
    assert "Continuing a 3-player game of Merchants" in rest.output
    tail = whole.output.split("Final ranking:")[1]
    assert rest.output.split("Final ranking:")[1] == tail
    assert moves_of_others(rest.output)[-20:] == moves_of_others(whole.output)[-20:]


def test_a_save_of_another_game_is_refused_naming_both(tmp_path):
    save = tmp_path / "g.json"
    run("play", "merchants", "-p", 3, "--seed", 5, input=f"s {save}\nq\n")
    r = run("play", "speicherstadt", "--load", save)
    assert r.exit_code == 1 and "is a game of Merchants, not of Speicherstadt" in r.output
    bare = tmp_path / "bare.json"
    data = json.loads(save.read_text())
    del data["play"]
    bare.write_text(json.dumps(data))
    r = run("play", "--load", bare)
    assert r.exit_code == 2 and "does not say where its ruleset is" in r.output
    assert run("play").exit_code == 2


def test_bad_input_is_asked_again_and_never_ends_the_game(tmp_path):
    answers = ["²", "9" * 5000, "=999", "0", "-1", "1.5", "", "s", f"s {tmp_path}/missing/g.json", "1"]
    r = run("play", "speicherstadt", "-p", 3, "--seed", 3, input="\n".join(answers) + "\nq\ny\n")
    assert r.exit_code == 0 and r.exception is None, r.output
    assert r.output.count("Please type a number from 1 to 4") == 7
    assert "Could not save: cannot save to" in r.output and "The game goes on." in r.output
    assert "P1: Place a worker" in r.output  # the game went on after the failed save


def test_quitting_an_unsaved_game_asks_first(tmp_path):
    r = run("play", "speicherstadt", "-p", 3, "--seed", 3, input="1\nq\nn\nq\ny\n")
    assert r.output.count("This game is not saved") == 2 and "Bye." in r.output
    save = tmp_path / "g.json"
    r = run("play", "speicherstadt", "-p", 3, "--seed", 3, input=f"1\ns {save}\nq\n")
    assert "This game is not saved" not in r.output and "Bye." in r.output


def test_info_tells_what_a_component_does():
    r = run("play", "speicherstadt", "-p", 3, "--seed", 3, input="i Counting Office\ni bag\ni nothing\nq\ny\n")
    assert "Counting Office (card)" in r.output and "score(owner.points" in r.output
    assert "bag (a game zone): The cloth bag of cubes." in r.output
    assert "Nothing is called 'nothing'" in r.output


def test_a_range_of_numbers_is_one_line_and_takes_a_typed_amount(tmp_path):
    rules = tmp_path / "bids.yaml"
    rules.write_text(BIDS)
    r = run("play", rules, "--seed", 1, input="=17\n")
    assert "   1-31) Bid N coins for N from 0 to 30: type =N" in r.output
    assert "P1: Bid 17 coins (you)" in r.output
    labels = [f"Bid {n}" for n in range(3)] + ["Pass"]
    assert number_ranges(labels) == []  # too short to fold
    assert menu_lines(labels, [], 80)[-1] == "   4) Pass"


def test_choices_are_only_ascii_option_numbers_or_amounts():
    ranges = [{"first": 2, "count": 5, "low": 10, "high": 14}]
    assert Session.pick("3", 8, ranges) == 2
    assert Session.pick("=12", 8, ranges) == 4
    for bad in ("²", "٣", "9" * 5000, "=15", "=9", "9", "0", " 1"):
        assert Session.pick(bad, 8, ranges) is None


def test_a_kinds_status_is_shown_beside_its_components():
    """Speicherstadt's contracts say how far along they are (`status` on the kind)."""
    import random

    rs = load_ruleset("speicherstadt")
    g = rs.new_game(3, 0)
    rng = random.Random(0)
    statuses = set()
    while not g.is_over and len(statuses) < 2:
        g.apply_index(rng.randrange(g.num_actions()))
        for seat in g.view(0)["seats"]:
            for c in seat["zones"]["tableau"]:
                if c["name"].startswith("Contract"):
                    statuses.add("complete" if c.get("status") == "complete" else "partial")
                else:
                    assert "status" not in c  # none: nothing to show
    assert statuses == {"complete", "partial"}


CREDIT = """\
meeple: 1
name: Credit
players: {min: 2, max: 2}
counters:
  player: {points: 0}
zones:
  game: {table: {}}
events: [chime, ring]
components:
  card:
    items:
      - id: bell
        name: Bell
        on:
          chime: |
            bonus(players[0], 2)
      - id: horn
        name: Horn
        on:
          ring: |
            asked_bonus(players[1])
procedures:
  bonus:
    params: [p, n]
    do: |
      score(p.points, n)
  asked_bonus:
    params: [p]
    do: |
      choose p "How loud?":
          option "Loud": score(p.points, 3)
flow: |
  move(components("card"), table)
  trigger chime on list(table)
  trigger ring on list(table)
  score(players[0].points, 1)
scoring:
  score: p.points
"""


class ReferenceGame(Game):
    __slots__ = ()
    evaluator_class = Evaluator


@pytest.mark.parametrize("engine", [Game, ReferenceGame], ids=["compiled", "reference"])
def test_points_scored_by_a_procedure_belong_to_the_card_whose_effect_called_it(tmp_path, engine):
    """Bug: the Fires' points were credited to "phase supply": each Fire's effect calls a procedure that
    scores, and only the effect itself had the card as `self`. Both ways an effect runs are covered: as a
    direct call (Bell) and as frames that wait for a decision inside the procedure (Horn)."""
    path = tmp_path / "credit.yaml"
    path.write_text(CREDIT)
    game = engine.new(load_ruleset(path), 2, 0)
    game.apply_index(0)
    assert game.score_breakdown(0)[0] == ("points", "Bell", 2)  # then the flow's own point
    assert game.score_breakdown(1) == [("points", "Horn", 3)]


def test_people_play_the_bot_the_ruleset_names(tmp_path):
    """`agents.play` names the bot a ruleset is best played against (measured, docs/agents.md); `meeple
    play` seats it unless --agents says otherwise, and a spec no agent takes is a located error, found
    by `meeple validate` too."""
    from meeple.tools.agents import PLAY, play_spec

    path = tmp_path / "bids.yaml"
    path.write_text(BIDS + "agents:\n  play: first\n")
    save = tmp_path / "g.json"
    r = CliRunner().invoke(meeple, ["play", str(path), "--seed", "1", "--seat", "2"], input=f"s {save}\nq\n")
    assert r.exit_code == 0, r.output
    assert "P1: Bid 0 coins" in r.output  # the first option: `first` played, not a search
    assert json.loads(save.read_text())["play"]["agents"] == "first"
    assert play_spec(load_ruleset(path)) == "first"
    assert play_spec(load_ruleset("speicherstadt")) == PLAY
    path.write_text(BIDS + "agents:\n  play: \"mcts:1s:guide=2\"\n")
    for args in (["validate", str(path)], ["play", str(path)]):
        r = CliRunner().invoke(meeple, args)
        assert r.exit_code == 1 and "bids.yaml:14:9: error[A003]: agents.play: bad agent `mcts:1s:guide=2`" in r.output


def test_the_ranking_and_the_winners_follow_every_seats_key():
    rs = load_ruleset("speicherstadt")
    game = rs.new_game(players=3, seed=4)
    while not game.is_over:
        game.apply_index(0, game.deciders[0])
    keys = game.ranking_keys
    assert keys == [game.ranking_key(s) for s in range(3)] and all(len(k) == 2 for k in keys)
    assert game.winners == [s for s in range(3) if keys[s] == max(keys)]
    assert [r["seat"] for r in game.ranking()] == sorted(range(3), key=lambda s: keys[s], reverse=True)


ROUNDS = """\
meeple: 1
name: Rounds
players: {min: 2, max: 2}
counters: {game: {round: 0}, player: {points: 0}}
flow: |
  while round < 5:
      round += 1
      for p in players:
          choose p "Bid":
              option "Bid {n}" for n in between(0, 9):
                  score(p.points, n)
scoring: {score: p.points}
"""


def test_a_save_goes_on_after_the_designer_edits_the_ruleset(tmp_path):
    """A designer saves, edits the rules, and loads again: the save's moves are replayed under the rules
    as they are now, as far as they stay legal, instead of "a different version of the ruleset"."""
    rules, save = tmp_path / "rounds.yaml", tmp_path / "g.json"
    rules.write_text(ROUNDS)
    first = run("play", rules, "--seed", 1, "--agents", "first", input="10\n10\n" + f"s {save}\nq\n")
    assert "Saved to" in first.output
    rules.write_text(ROUNDS.replace("name: Rounds\n", "name: Rounds\ndescription: edited\n"))
    r = run("play", "--load", save, input="1\n" * 20)
    assert r.exit_code == 0, r.output
    assert "its 4 moves were replayed under the rules as they are now" in r.output
    assert "P1" in r.output.split("Final ranking:")[1]
    rules.write_text(ROUNDS.replace("name: Rounds", "name: Rounds II"))  # renamed: the save's own file
    r = run("play", "--load", save, input="1\n" * 20)
    assert r.exit_code == 0 and "its 4 moves were replayed" in r.output, r.output
    rules.write_text(ROUNDS.replace("between(0, 9)", "between(0, 5)"))  # the first move (9) is illegal now
    r = run("play", "--load", save, input="1\n" * 20)
    assert r.exit_code == 0, r.output
    assert "its first 0 of 4 moves were replayed" in r.output and "move 1 is no longer legal" in r.output
    assert run("play", "speicherstadt", "--load", save).exit_code == 1  # another game, named: still refused


def test_a_rules_error_while_replaying_an_edited_rulesets_save_is_the_rules_error_and_keeps_the_save(tmp_path):
    """Found by QA: a move that the edited rules allow but fail on was "no longer legal", the game went on
    from the move before, and quitting with --save wrote the save without its later moves."""
    rules, save = tmp_path / "rounds.yaml", tmp_path / "g.json"
    rules.write_text(ROUNDS)
    assert "Saved to" in run("play", rules, "--seed", 1, "--agents", "first", input="10\n10\n10\n" + f"s {save}\nq\n").output
    before = save.read_bytes()
    rules.write_text(ROUNDS.replace("score(p.points, n)", "score(p.points, n // (round - 2))"))  # round 2: 1 // 0
    r = run("play", "--load", save, "--save", save, input="q\n")
    assert r.exit_code == 1 and "rounds.yaml:11:35:" in r.output and "division by zero" in r.output, r.output
    assert "while replaying move 3 of the save's 6 under the rules as they are now; the save is unchanged" in r.output
    assert "no longer legal" not in r.output and save.read_bytes() == before


def test_a_rules_error_in_a_saved_game_says_where_the_save_is(tmp_path):
    # Found by QA: with --save, a rules error stopped the game with the located error and nothing about
    # the save, which held the game up to the move before.
    path = tmp_path / "boom.yaml"
    path.write_text("meeple: 1\nname: Boom\nplayers: {min: 2, max: 2}\ncounters:\n  game: {x: 0}\nflow: |\n"
                    "  choose player(0) \"First\":\n      option \"Fine\":\n          pass\n"
                    "  choose player(0) \"Second\":\n      option \"Boom\":\n          x = 1 // x\n"
                    "scoring:\n  score: \"0\"\n")
    save = tmp_path / "s.json"
    r = CliRunner().invoke(meeple, ["play", str(path), "--seat", "1", "--agents", "first", "--save", str(save)],
                           input="1\n1\n")
    assert r.exit_code == 1, r.output
    assert "boom.yaml:12:" in r.stderr and f"the game up to your last move is saved in {save}" in r.stderr
    assert json.loads(save.read_text())


def test_saving_never_replaces_another_file_without_asking(tmp_path):
    """Found by QA: `--save mygame.yaml` replaced the ruleset being played with a save, and `--save
    keep.json` replaced a save of another game before a move was made. `--save` refuses a file that is
    already there (but the save being continued), and `s FILE` asks first."""
    rules = tmp_path / "bids.yaml"
    rules.write_text(BIDS)
    r = run("play", rules, "--save", rules, input="1\n")
    assert r.exit_code == 2 and "already holds a file that is not a Meeple save" in r.output, r.output
    assert r.output.startswith("error:") and "--load" not in r.output
    assert rules.read_text() == BIDS
    keep = tmp_path / "keep.json"
    assert run("play", rules, "--seed", 1, "--save", keep, input="1\nq\n").exit_code == 0
    kept = keep.read_text()
    r = run("play", "speicherstadt", "--save", keep, input="q\n")
    assert r.exit_code == 2 and "already holds a save of Bids" in r.output and keep.read_text() == kept
    # continuing a save may write to it, and so may a game already saved there
    assert run("play", "--load", keep, "--save", keep, input="q\n").exit_code == 0
    r = run("play", "speicherstadt", "-p", 2, input=f"s {rules}\nn\ns {keep}\ny\ns {keep}\nq\n")
    assert r.exit_code == 0, r.output
    assert rules.read_text() == BIDS and "Not saved. The game goes on." in r.output
    assert r.output.count("Replace it?") == 2  # not asked again for the file it saved to
    assert json.loads(keep.read_text())["ruleset"] == "Speicherstadt"
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)  # found in review: --save onto a pipe opened it to read it, and waited for ever
    r = run("play", rules, "--save", pipe, input="q\n")
    assert r.exit_code == 2 and "something that is not a file" in r.output


def test_a_save_naming_a_file_that_is_no_ruleset_is_refused_without_reading_it(tmp_path):
    """Found by QA: a save from elsewhere whose `play.ruleset` was /etc/passwd had that file read as a
    ruleset and its first line quoted in the error."""
    save = tmp_path / "g.json"
    assert run("play", "speicherstadt", "-p", 2, "--save", save, input="1\nq\n").exit_code == 0
    data = json.loads(save.read_text())
    secret = tmp_path / "secret.txt"
    secret.write_text("root:x:0:0:do not print me\n")
    data["play"]["ruleset"] = str(secret)
    evil = tmp_path / "evil.json"
    evil.write_text(json.dumps(data))
    r = run("play", "--load", evil, input="q\n")
    assert r.exit_code == 2 and "which is neither a bundled ruleset nor a ruleset file" in r.output
    assert "do not print me" not in r.output
    data["play"]["ruleset"] = "secret.txt"  # found in review: a bare file name was still read and quoted
    evil.write_text(json.dumps(data))
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        r = run("play", "--load", evil, input="q\n")
    finally:
        os.chdir(cwd)
    assert r.exit_code == 2 and "do not print me" not in r.output, r.output
    data["play"]["ruleset"] = "kuhn_poker"  # a bundled name, here of a reference game, is a ruleset
    evil.write_text(json.dumps(data))
    r = run("play", "--load", evil, input="q\n")  # read, and found to be another game (found by QA)
    assert r.exit_code == 1 and "is a game of Speicherstadt, not of Kuhn poker" in r.output, r.output


def test_a_bad_seat_or_bot_in_a_save_is_the_saves_error_not_an_option_nobody_gave(tmp_path):
    """Found by QA: a save with seat 7 said "--seat must be between 1 and 3", and one with an unknown bot
    blamed nothing: both are the save's (L001, exit 1), and an option given overrides them."""
    save = tmp_path / "g.json"
    assert run("play", "speicherstadt", "-p", 3, "--save", save, input="1\nq\n").exit_code == 0
    data = json.loads(save.read_text())
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({**data, "play": {**data["play"], "seat": 7}}))
    r = run("play", "--load", bad, input="q\n")
    assert r.exit_code == 1 and "gives seat 7, not a seat of this 3-player game" in r.output and "--seat must" not in r.output
    assert run("play", "--load", bad, "--seat", 2, input="q\n").exit_code == 0
    assert run("play", "--load", bad, "--seat", 0, input="q\n").exit_code == 2  # the option's own error
    bad.write_text(json.dumps({**data, "play": {**data["play"], "agents": "nosuchbot"}}))
    r = run("play", "--load", bad, input="q\n")
    assert r.exit_code == 1 and "names bots that cannot play" in r.output and "nosuchbot" in r.output, r.output
    assert run("play", "--load", bad, "--agents", "random", input="q\n").exit_code == 0


def test_a_quiet_games_save_plays_on_narrated(tmp_path):
    """Found in review: a save of a quiet game (narrate=False, as simulations and programs play) loaded
    quiet, so `meeple play --load` showed no log line at all, private ones included."""
    g = load_ruleset("merchants").new_game(3, 7, narrate=False)
    for _ in range(6):
        g.apply_index(0)
    save = tmp_path / "quiet.json"
    save.write_text(json.dumps(g.to_json()))
    r = run("play", "merchants", "--load", save, "--agents", "first", input="1\n1\n1\nq\ny\n")
    assert r.exit_code == 0 and r.output.count("  · ") > 5, r.output


def test_ctrl_c_at_the_quit_question_exits_130(monkeypatch):
    """Found in review: Ctrl-C at "Quit anyway?" quit with 0, where Ctrl-C at the prompt exits 130."""
    import click
    from meeple.cli import playsession

    def confirm(*a, **k):
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt:
            raise click.Abort() from None

    monkeypatch.setattr(playsession.click, "confirm", confirm)
    r = run("play", "speicherstadt", "-p", 2, input="1\nq\n")
    assert r.exit_code == 130 and "Bye." in r.output, r.output


def test_a_save_whose_ruleset_file_now_holds_another_game_is_refused_and_kept(tmp_path):
    """Found by QA: a save whose ruleset file had become another game was "continued" with none of its
    moves replayed, and `--save` over it then replaced it with the other game."""
    rules = tmp_path / "game.yaml"
    rules.write_text(BIDS)
    save = tmp_path / "g.json"
    assert run("play", rules, "--seed", 1, "--save", save, input="1\nq\n").exit_code == 0
    kept = save.read_text()
    rules.write_text(SEALED.replace("name: Sealed", "name: Other"))  # none of the save's moves is legal there
    r = run("play", "--load", save, "--save", save, input="1\nq\n")
    assert r.exit_code == 1 and "is a game of Bids, not of Other" in r.output and "holds another game" in r.output
    assert save.read_text() == kept
    rules.unlink()  # moved away: the save's ruleset is named, with the way out
    r = run("play", "--load", save, input="q\n")
    assert r.exit_code == 2 and "names" in r.output and "as its ruleset, which cannot be read" in r.output
    assert "meeple play RULESET --load FILE" in r.output


def test_play_refuses_what_a_loaded_or_saved_game_cannot_use(tmp_path, monkeypatch):
    """Found by QA: a save's seat `true` played as "PTrue", `--seed` with `--load` was ignored, `--save`
    into a missing folder played the whole game saving nothing, `s FILE` could replace the ruleset being
    played, Ctrl-C at "Replace it?" was taken as no, and a save nested too deeply was a traceback."""
    import click
    from meeple.cli import playsession

    save = tmp_path / "g.json"
    assert run("play", "speicherstadt", "-p", 2, "--seed", 3, "--save", save, input="1\nq\n").exit_code == 0
    data = json.loads(save.read_text())
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({**data, "play": {**data["play"], "seat": True}}))
    r = run("play", "--load", bad, input="q\n")
    assert r.exit_code == 1 and "gives seat true, not a seat number" in r.output
    r = run("play", "--load", save, "--seed", 4, input="q\n")
    assert r.exit_code == 2 and "has seed 3, not 4" in r.output
    r = run("play", "speicherstadt", "--save", tmp_path / "nowhere" / "g.json", input="q\n")
    assert r.exit_code == 2 and "does not exist" in r.output
    rules = tmp_path / "bids.yaml"
    rules.write_text(BIDS)
    r = run("play", rules, input=f"s {rules}\nq\ny\n")
    assert "is a file of the ruleset being played" in r.output and rules.read_text() == BIDS
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100000 + "]" * 100000)
    r = run("play", "--load", deep)
    assert r.exit_code == 1 and "nested too deeply" in r.output and "Traceback" not in r.output, r.output

    def confirm(*a, **k):
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt:
            raise click.Abort() from None

    other = tmp_path / "other.json"
    other.write_text(save.read_text())
    monkeypatch.setattr(playsession.click, "confirm", confirm)
    r = run("play", "speicherstadt", "-p", 2, input=f"s {other}\n")
    assert r.exit_code == 130 and other.read_text() == save.read_text(), r.output


def test_a_save_continued_under_a_ruleset_of_another_name_is_not_saved_over_without_asking(tmp_path):
    """Found in review: a save whose ruleset file now held another game that takes the same moves was
    continued as that game, and `s FILE` onto the save replaced it without asking; `--save` onto it too."""
    rules = tmp_path / "game.yaml"
    rules.write_text(ROUNDS)
    save = tmp_path / "g.json"
    assert run("play", rules, "--seed", 1, "--agents", "first", input=f"10\ns {save}\nq\n").exit_code == 0
    kept = save.read_text()
    rules.write_text(ROUNDS.replace("name: Rounds", "name: Other"))  # the same moves, another name
    r = run("play", "--load", save, input=f"s {save}\nn\nq\ny\n")
    assert r.exit_code == 0 and "Replace it?" in r.output and save.read_text() == kept, r.output
    r = run("play", "--load", save, "--save", save, input="q\n")
    assert r.exit_code == 2 and "--save would replace it" in r.output and save.read_text() == kept


def test_saving_keeps_every_file_beside_the_save_and_a_bad_name_is_refused_in_words(tmp_path):
    """Found by QA: saves were written through a fixed `FILE.tmp`, which replaced the person's own file
    of that name (and a folder of that name made "Is a directory" the reason); a NUL typed in `s FILE`
    ended the game with a traceback."""
    save, notes, folder = tmp_path / "g.json", tmp_path / "g.json.tmp", tmp_path / "h.json.tmp"
    notes.write_text("my notes")
    folder.mkdir()
    r = run("play", "tic_tac_toe", "--seed", 1, input=f"s {save}\ns {tmp_path / 'h.json'}\ns a\0b.json\n5\nq\n")
    assert r.exit_code == 0 and r.output.count("Saved to") == 2, r.output
    assert "a file name cannot hold a NUL character. The game goes on" in r.output and "Traceback" not in r.output
    assert notes.read_text() == "my notes" and folder.is_dir() and json.loads(save.read_text())["format"] == "meeple-save"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.json", "g.json.tmp", "h.json", "h.json.tmp"]


def test_a_save_with_bot_states_out_of_range_is_corrupt_not_a_traceback(tmp_path):
    """Found by QA: a bot's random state holding -1 or 10**30 raised OverflowError out of `play`."""
    save = tmp_path / "g.json"
    assert run("play", "tic_tac_toe", "--seed", 1, "--save", save, input="q\n").exit_code == 0
    data = json.loads(save.read_text())
    for bad in (-1, 10**30):
        states = data["play"]["bots"]
        seat = next(i for i, s in enumerate(states) if s is not None)
        states[seat][1][0] = bad
        save.write_text(json.dumps(data))
        r = run("play", "--load", save, input="q\n")
        assert r.exit_code == 1 and "the save's bot states are corrupt" in r.output and "Traceback" not in r.output, r.output


def test_loading_a_folder_or_a_pipe_says_what_it_is(tmp_path):
    """Found by QA: both were "no such save file"."""
    (tmp_path / "f").mkdir()
    os.mkfifo(tmp_path / "p")
    assert "is a folder" in (r := run("play", "--load", tmp_path / "f")).output and r.exit_code == 2
    assert "is not a regular file" in (r := run("play", "--load", tmp_path / "p")).output and r.exit_code == 2
    assert "no such save file" in run("play", "--load", tmp_path / "missing.json").output


def test_a_face_down_component_shows_its_back():
    """Found in review: the terminal and the web page drew every face-down component as "face down",
    though the view gives what its kind prints on the back (Speicherstadt's seasons on its pile)."""
    from meeple.cli.view import zone_inline

    pile = [{"hidden": True, "back": {"season": "A"}}] * 2 + [{"hidden": True, "back": {"season": "B"}}, {"hidden": True}]
    assert zone_inline(pile) == "(face down: season A) ×2, (face down: season B), (face down)"
    deck = {"count": 40, "top": {"hidden": True, "back": {"symbol": "research"}}}  # `visibility: top`
    assert zone_inline(deck) == "40 hidden, the top one (face down: symbol research)"
