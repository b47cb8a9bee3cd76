"""Saved games: the JSON form of a game state, its seal, and the checks a save passes before it loads.

A save is a snapshot: everything in it is built fresh, so later play cannot change it and editing it
cannot change the game. Loading trusts only what it can verify. A save this process wrote carries a seal
(an HMAC under a key that never leaves the process), so undo, search and tests reload it directly; any
other save is replayed from its seed and action log, and refused unless the replay ends in exactly the
state it claims (game.py does the replay, this module the comparing).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
from typing import Any

from meeple.errors import MeepleError, Problem, RuntimeRuleError, SaveError
from meeple.language.model import Ruleset
from meeple.runtime.data import Comp, copy_value, decode, encode
from meeple.runtime.frames import frames_from_json, frames_to_json
from meeple.runtime.render import log_entry
from meeple.runtime.state import GameState

SAVE_FORMAT = "meeple-save"
SAVE_VERSION = 1
_SEAL_KEY = os.urandom(32)


def state_to_json(rs: Ruleset, st: GameState, under_way: bool = False) -> dict:
    """The whole game as fresh JSON data, sealed. `under_way`: at a chance event, whose step stopped
    part-way through its scripts."""
    data = {
        "format": SAVE_FORMAT, "version": SAVE_VERSION, "ruleset": rs.name,
        "ruleset_digest": ruleset_digest(rs), "players": st.nplayers, "seed": st.seed,
        "state": {
            "rng": st.rng.state, "counters": {k: encode(v) for k, v in st.counters.items()},
            "zones": {k: [int(c) for c in v] for k, v in st.zones.items()}, "facedown": sorted(st.facedown),
            "log": [[a, copy_value(t)] for a, t in st.log], "pending": _enc_pending(st.pending), "over": st.over,
            "phase": st.phase, "steps": st.steps,
            # Part-way through a step, the frames are each evaluator's own (generated code runs an option's
            # body without frames, the reference with them), and a save of explicit chance loads by replay,
            # never from them: none are written, so either engine loads the other's save (found by
            # tests/test_random_flow.py: one refused the other's as edited).
            "stack": None if under_way else frames_to_json(st.stack, rs.node_ids),
            "coverage": None if st.coverage is None else dict(st.coverage),
        },
        "actions": [{"player": a["player"], "key": a["key"]} for a in st.actions],
    }
    if st.quiet:
        # A quiet game keeps no log lines: its save says so, and loads by a quiet replay (found by QA:
        # a narrated replay wrote lines the save did not hold, and the save was refused as edited).
        data["narrate"] = False
    if st.rng.explicit:
        # Explicit chance keeps no seed state: the game is its action log, outcomes included, and loads
        # by replaying it (never from a seal).
        data["chance"] = "explicit"
    else:
        data["seal"] = _seal(data)
    return data


def made_as(data: dict) -> dict[str, Any]:
    """How the game a save holds was made (Game.new's `chance` and `narrate`), as its replay must be."""
    return {"chance": "explicit" if data.get("chance") == "explicit" else "seeded",
            "narrate": data.get("narrate") is not False}


def parse(text: str | bytes, where: str) -> dict:
    """A save's text as data, or L001 naming `where` it came from: not UTF-8 or JSON, nested deeper than
    Python parses (found by QA: a traceback, and an HTTP 500), or not a JSON object."""
    try:
        data = json.loads(text)
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise SaveError(Problem("L001", f"{where} is not a Meeple save file ({e})")) from None
    except RecursionError:
        raise SaveError(Problem("L001", f"{where} is corrupt (nested too deeply)")) from None
    if not isinstance(data, dict):
        raise SaveError(Problem("L001", f"{where} is not a Meeple save file"))
    return data


def check_header(rs: Ruleset, data: Any) -> dict:
    """`data`, if it is a save of this ruleset; else ValueError with the message for the user."""
    if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
        raise ValueError("this is not a Meeple save file")
    if data.get("version") != SAVE_VERSION:
        raise ValueError(f"save format version {str(data.get('version'))[:20]} is not supported")
    if data.get("ruleset_digest") != ruleset_digest(rs):
        raise SaveError(Problem("L003", "this save is from a different version of the ruleset "
                                        f"({str(data.get('ruleset'))[:60]!r})"))
    return data


def check_game(rs: Ruleset, data: Any, where: str, hint: str) -> None:
    """Refuse a save of another game (L002), naming both: one check and one wording for every front end
    that lets a person name the ruleset a save is opened with (`meeple play`, the web)."""
    name = data.get("ruleset") if isinstance(data, dict) else None
    if isinstance(name, str) and data.get("format") == SAVE_FORMAT and name != rs.name:
        raise SaveError(Problem("L002", f"{where} is a game of {name[:60]}, not of {rs.name}", hint=hint))


def is_sealed(data: dict) -> bool:
    """Written by this process and unchanged since."""
    return isinstance(data.get("seal"), str) and hmac.compare_digest(data["seal"], _seal(data))


def replay_input(data: dict) -> tuple[int, int, list[dict], bool]:
    """(players, seed, actions, coverage) to replay a save from, checked to be what a save holds."""
    players, seed, actions = data["players"], data["seed"], data["actions"]
    if type(players) is not int or type(seed) is not int or type(actions) is not list:
        raise ValueError("the save's players, seed or action log is not what a save holds")
    if any(type(a) is not dict or set(a) != {"player", "key"} for a in actions):
        raise ValueError("the save's action log holds something that is not an action")
    state = data["state"]
    return players, seed, actions, type(state) is dict and state.get("coverage") is not None


def same_game(replayed: dict, claimed: dict) -> bool:
    """The replayed save and the claimed one hold the same game. The step counter is left out: it only
    measures work for the runaway-loop budget, and evaluators may count it differently. So are the
    frames at a chance event, which a replay leaves out (`state_to_json`'s `under_way`) and saves written
    before it held: they are the evaluator's own, and a replay never reads them."""
    state = claimed.get("state")
    if replayed["state"]["stack"] is None and isinstance(state, dict):  # `replayed`: Game.to_json's own
        claimed = {**claimed, "state": {**state, "stack": None}}
    return _canonical(replayed, verified=True) == _canonical(claimed, verified=True)


def state_from_json(rs: Ruleset, data: dict) -> GameState:
    """Rebuild the state of a sealed save (one this process wrote), without replaying it."""
    s = data["state"]
    st = GameState(int(data["players"]), int(data["seed"]))
    st.rng.state = int(s["rng"])
    st.counters = {k: decode(v) for k, v in s["counters"].items()}
    st.zones = {k: [Comp(int(c)) for c in v] for k, v in s["zones"].items()}
    st.loc = {c: k for k, v in st.zones.items() for c in v}
    st.facedown = {int(c) for c in s["facedown"]}
    st.log = [(int(a), log_entry(int(a), t)) for a, t in s["log"]]
    st.pending = _dec_pending(s["pending"])
    st.over = bool(s["over"])
    st.phase = str(s["phase"])
    st.steps = int(s["steps"])
    st.stack = frames_from_json(s["stack"], rs.nodes)
    st.coverage = {int(k): v for k, v in s["coverage"].items()} if s.get("coverage") is not None else None
    st.actions = [{"player": int(a["player"]), "key": str(a["key"])} for a in data["actions"]]
    st.quiet = data.get("narrate") is False
    return st


SAVE_KEYS = ("format", "version", "ruleset", "ruleset_digest", "players", "seed", "state", "actions", "narrate")


def _canonical(data: dict, verified: bool = False) -> str:
    """One text per save content, so that `true` and `1`, or `[1]` and `(1,)`, never compare equal. Keys
    a save does not define (a front end's own settings, such as `meeple play`'s) are not the game's."""
    body: dict[str, Any] = {k: data.get(k) for k in SAVE_KEYS}
    state = body["state"]
    if verified and isinstance(state, dict):
        body["state"] = {k: v for k, v in state.items() if k != "steps"}
    try:
        return json.dumps(body, sort_keys=True, separators=(",", ":"), allow_nan=False)
    except ValueError:  # found by QA: JSON's own words ("Out of range float values are not JSON compliant")
        raise ValueError("the save holds NaN or an infinite number, which no save holds: it is corrupt") from None


def _seal(data: dict) -> str:
    return hmac.new(_SEAL_KEY, _canonical(data).encode("utf-8", "surrogatepass"), hashlib.sha256).hexdigest()


def _enc_pending(p: Any) -> Any:
    if p is None:
        return None
    return {"players": list(p["players"]), "options": [[s, encode(p["options"][s])] for s in p["options"]],
            "chosen": [[s, i] for s, i in p["chosen"].items()]}


def _dec_pending(p: Any) -> Any:
    if p is None:
        return None
    return {"players": [int(x) for x in p["players"]], "options": {int(s): decode(o) for s, o in p["options"]},
            "chosen": {int(s): int(i) for s, i in p["chosen"]}}


def ruleset_digest(rs: Ruleset) -> str:
    """A digest of the ruleset's data: a save only loads into the ruleset it was made with."""
    cached = getattr(rs, "_digest", None)
    if cached is None:
        cached = hashlib.sha256(json.dumps(rs.raw, sort_keys=True, default=str).encode()).hexdigest()[:16]
        rs._digest = cached
    return cached


def replay_moves(cls: Any, rs: Ruleset, data: dict) -> tuple[Any, int]:
    """A save of a ruleset that has changed since (L003): its moves replayed from its seed under the
    rules as they are now, as far as they stay legal. (game, how many of the save's moves it took)."""
    if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT or data.get("version") != SAVE_VERSION:
        raise SaveError(Problem("L001", "this is not a Meeple save file of this version"))
    try:
        players, seed, actions, _ = replay_input(data)
        game = cls.new(rs, players, seed, **made_as(data))
    except MeepleError as e:
        raise SaveError(Problem("L001", f"the save cannot be replayed: {e.problems[0].message}")) from None
    except (ValueError, TypeError, KeyError, IndexError, AttributeError, OverflowError):
        raise SaveError(Problem("L001", "the save is corrupt: it lacks data a save holds")) from None
    for done, action in enumerate(actions):
        ahead = game.copy()  # a move that fails half-way must not leave its half in the game
        try:
            ahead.apply(action)
        except RuntimeRuleError as e:
            # The rules fail on a move they allow (found by QA: it was taken as "no longer legal", the game went
            # on without the save's later moves, and a save then lost them): the rules' error, said as such.
            p = e.problems[0]
            raise RuntimeRuleError(Problem(p.code, p.message, p.span, hint=(
                f"while replaying move {done + 1} of the save's {len(actions)} under the rules as they are now; "
                "the save is unchanged" + (f". {p.hint}" if p.hint else "")))) from None
        except MeepleError:  # a move the changed rules refuse ends the replay
            return game, done
        game = ahead
    return game, len(actions)


def load(cls: Any, rs: Ruleset, data: dict | str) -> Any:
    """`cls.from_json` (runtime.game.Game, passed in: the game imports this module): a sealed save as it
    is, any other by replaying its seed and action log and checking that the replay is the save."""
    try:
        save = check_header(rs, parse(data, "the save") if isinstance(data, str) else data)
        if is_sealed(save) and save.get("chance") != "explicit":
            return cls(rs, state_from_json(rs, save))
        players, seed, actions, coverage = replay_input(save)
        game = cls.replay(rs, players, seed, actions, coverage=coverage, **made_as(save))
        if not same_game(game.to_json(), save):
            raise ValueError("the save does not match its own seed and action log: it is corrupt or was edited")
    except SaveError:
        raise
    except MeepleError as e:
        raise SaveError(Problem("L001", f"the save's action log does not replay: {e.problems[0].message}")) from None
    except RecursionError:
        raise SaveError(Problem("L001", "the save is corrupt (nested too deeply)")) from None
    except (ValueError, TypeError, KeyError, IndexError, AttributeError, OverflowError) as e:
        msg = str(e) if type(e) is ValueError else "the save is corrupt: it lacks data a save holds, or holds " \
                                                   "the wrong kind of data"
        raise SaveError(Problem("L001", msg)) from None
    return game
