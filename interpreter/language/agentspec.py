"""Agent specs, the small language that names a bot: `mcts:1s:cut=phase`, `greedy:4`, `random`.

A spec is `NAME[:PARAM...]` (see AGENT_HELP). It is parsed here, into plain data, and nothing here
builds an agent: a ruleset names the bot people play against in `agents.play`, and the checker
reads that spec with every other part of the file, long before (and without) importing any bot.
`meeple.tools.agents` builds the agents from what `parse_spec` returns.
"""

from __future__ import annotations

import difflib
import math
import re
from dataclasses import dataclass

from meeple.errors import Problem, UsageError

__all__ = ["AGENT_HELP", "AGENT_NAMES", "AGENT_SPECS", "MCTS_SPEC", "SPEC_HINT", "AgentSpec", "MctsParams",
           "parse_spec"]

# The agent specs, for the commands' --agents help; AGENT_HELP explains every part.
MCTS_SPEC = "mcts[:BUDGET][:cut=K|phase][:c=C][:guide=P][:prior=M][:sealed=S][:others=S][:follow][:halving[=W]]"
AGENT_SPECS = f"random, first, greedy[:DEALS], {MCTS_SPEC}"
AGENT_HELP = ("Agents: random, first, greedy[:DEALS] (one move ahead on DEALS determinizations, default 2), "
              f"{MCTS_SPEC} (information-set Monte Carlo tree search; "
              "BUDGET is iterations per decision, e.g. 400, or time, e.g. 1s or 250ms; default 200; cut=K "
              "stops each rollout after K decisions and ranks the seats by the ruleset's value (agents.value) or "
              "heuristic, cut=phase where the next phase begins; c=C is "
              "the exploration constant, default 0.7; guide=P takes a share P (0 to 1, default 0: random) of "
              "rollout decisions one move ahead by the heuristic; prior=M starts each option with M visits "
              "worth its heuristic value, from greedy's judgement at the root, default 0; sealed=greedy "
              "makes sealed choices in rollouts, and the other seats' in the tree, as the greedy bot would; "
              "others=greedy makes every choice of the other seats in the tree the best one move ahead "
              "(judged once per node), others=dealt the same judged again on every iteration's deal, "
              "others=follow the one greedy takes, after its own follow-up decisions; default "
              "search for both; follow judges options as greedy does, after the seat's own follow-up "
              "decisions, in guided rollouts, priors and models, instead of one move ahead; halving=W, "
              "default W=4, grows no tree: greedy's W best options are played on shared deals with these "
              "rollouts, narrowed by sequential halving to the one played; BUDGET then counts rollouts). "
              "Comma-separated, one per seat in order, cycled over the seats: "
              "mcts:400,greedy.")

AGENT_NAMES = ("random", "greedy", "first", "mcts")  # the order `meeple serve` offers them in

# Bounds far above any real use, so that a typo or an absurd number is refused instead of a game that
# never ends (or a ValueError on a number of thousands of digits).
MAX_ITERATIONS = 1_000_000  # mcts:N, and cut=K, prior=M
MAX_SECONDS = 3600.0  # mcts:Ns: an hour a move
MAX_DEALS = 10_000  # greedy:DEALS
MAX_WIDTH = 1_000  # halving=W
MAX_EXPLORATION = 100.0  # c=C


@dataclass(frozen=True)
class MctsParams:
    """The parameters of `mcts:...`; None where the agent's own default applies."""

    iterations: int | None = None
    seconds: float | None = None
    cutoff: int | None = None  # cut=K
    to_phase: bool = False  # cut=phase
    exploration: float | None = None  # c=C
    guide: float = 0.0
    prior: float = 0.0
    sealed: str = "search"
    others: str = "search"
    follow: bool = False
    halving: bool = False
    width: int | None = None  # halving=W; None with `halving` alone: the halving agent's default width


@dataclass(frozen=True)
class AgentSpec:
    """One parsed spec: the agent's name, the spec as given (trimmed, lower case) and its parameters."""

    name: str
    text: str
    deals: int | None = None  # greedy:DEALS
    mcts: MctsParams | None = None


SPEC_HINT = f"agents: {AGENT_SPECS}, comma-separated, one per seat (docs/agents.md)"  # a short hint
_FORMS = {"mcts": f"the form is {MCTS_SPEC} (docs/agents.md)",
          "greedy": "the form is greedy[:DEALS], as in greedy:4 (docs/agents.md)"}


def _short(text: str) -> str:
    return text if len(text) <= 40 else f"{text[:30]}...({len(text)} characters)"


def _number(spec: str, text: str, low: float, top: float, why: str, whole: bool = False) -> float:
    """`text` as a number from `low` to `top` (digits, with a decimal point unless `whole`), else refused
    saying `why` (what the parameter is and its range)."""
    ok = re.fullmatch(r"\d+" if whole else r"\d+(?:\.\d+)?", text)
    value = (float(text) if len(text.split(".")[0]) <= 16 else math.inf) if ok else math.nan
    if not low <= value <= top:  # nan (not a number) fails too
        raise _bad(spec, f"{why}, not `{_short(text)}`")
    return value


def _bad(spec: str, why: str) -> UsageError:
    name = spec.split(":", 1)[0]
    hint = _FORMS.get(name, f"`{name}` takes no parameters (docs/agents.md)")
    return UsageError(Problem("U013", f"bad agent `{_short(spec)}`: {why}", hint=hint))


def parse_spec(spec: str) -> AgentSpec:
    """One agent spec such as "mcts:1s" as data; U011 for an unknown name, U013 for a bad parameter."""
    text = spec.strip().lower()
    name, *params = text.split(":")
    if name not in AGENT_NAMES:
        close = difflib.get_close_matches(name, list(AGENT_NAMES), n=1)
        hint = f"did you mean `{close[0]}`?" if close else SPEC_HINT
        raise UsageError(Problem("U011", f"unknown agent `{_short(name)}`", hint=hint))
    if name == "mcts":
        return AgentSpec(name, text, mcts=_mcts(text, params))
    if name == "greedy":
        if len(params) > 1:
            raise _bad(text, "greedy takes one parameter, the number of determinizations DEALS")
        deals = int(_number(text, params[0], 1, MAX_DEALS, "DEALS is the number of determinizations: a whole "
                            f"number from 1 to {MAX_DEALS:,}", whole=True)) if params else None
        return AgentSpec(name, text, deals=deals)
    if params:
        raise _bad(text, f"{name} takes no parameters")
    return AgentSpec(name, text)


_KINDS = ("budget", "cut", "c", "guide", "prior", "sealed", "others", "follow", "halving")


def _kind(p: str) -> str:
    """Which parameter `p` sets: `budget` for 400 or 1s, else its name (`cut` for cut=5 and cut=phase)."""
    return "budget" if p[:1].isdigit() or p[:1] in "-." else p.split("=", 1)[0]


def _once(spec: str, p: str, kind: str, seen: dict[str, str]) -> None:
    """Refuse a parameter given twice (`mcts:10:cut=5:cut=6`), which would otherwise have the last win."""
    if kind not in seen:
        seen[kind] = p
        return
    first = seen[kind]
    if kind == "budget" and first.endswith("s") != p.endswith("s"):
        raise _bad(spec, "give a budget in iterations or in time, not both")
    if kind == "cut" and (first == "cut=phase") != (p == "cut=phase"):
        raise _bad(spec, "cut rollouts after K decisions or at the next phase, not both")
    what = "the budget" if kind == "budget" else f"`{kind}`"
    raise _bad(spec, f"{what} is given twice (`{first}`, then `{p}`): give each parameter once")


_ITERATIONS = f"a budget in iterations is a whole number from 1 to {MAX_ITERATIONS:,} a move"
_TIME = f"a time budget is above 0 and at most an hour a move ({MAX_SECONDS:.0f}s)"
_OTHERS = ("others= is `search` (every seat by the search), `greedy` (one move ahead), `dealt` (one move "
           "ahead on each iteration's deal) or `follow` (as greedy judges, after its own follow-ups)")


def _budget(spec: str, p: str) -> tuple[int | None, float | None]:
    """`400` (iterations) or `1s`, `250ms` (time): (iterations, seconds)."""
    m = re.fullmatch(r"(.*?)(ms|s)?", p)
    assert m is not None
    if m[2] is None and not re.fullmatch(r"-?[\d.]+", p):
        raise _bad(spec, f"`{_short(p)}` is not a budget: iterations (400) or time in s or ms (1s, 250ms)")
    if m[2] is None:
        return int(_number(spec, p, 1, MAX_ITERATIONS, _ITERATIONS, whole=True)), None
    per = 1000 if m[2] == "ms" else 1
    seconds = _number(spec, m[1], 0, MAX_SECONDS * per, _TIME) / per
    if seconds <= 0:
        raise _bad(spec, f"{_TIME}, not `{p}`")
    return None, seconds


def _mcts(spec: str, params: list[str]) -> MctsParams:
    iterations: int | None = None
    seconds: float | None = None
    cutoff: int | None = None
    to_phase = False
    exploration = None
    guide = 0.0
    prior = 0.0
    sealed = "search"
    others = "search"
    follow = False
    halving = False
    width: int | None = None
    seen: dict[str, str] = {}  # each parameter's kind (the budget, cut=, c= ...), as first given
    for p in params:
        kind, value = _kind(p), p.partition("=")[2]
        if kind not in _KINDS:
            raise _bad(spec, f"`{_short(p)}` is neither a budget (400, 1s, 250ms) nor a parameter of mcts "
                             "(cut=K, c=C, guide=P, prior=M, sealed=S, others=S, follow, halving[=W])")
        _once(spec, p, kind, seen)
        if kind in ("cut", "c", "guide", "prior", "sealed", "others") and "=" not in p:
            raise _bad(spec, f"`{p}` needs a value, as in `{p}=...`")
        if kind == "budget":
            iterations, seconds = _budget(spec, p)
        elif kind == "cut" and value == "phase":
            to_phase = True
        elif kind == "cut":
            cutoff = int(_number(spec, value, 1, MAX_ITERATIONS, "cut=K stops each rollout after K decisions: K is "
                                 f"a whole number from 1 to {MAX_ITERATIONS:,}, or cut=phase", whole=True))
        elif kind == "c":
            exploration = _number(spec, value, 0, MAX_EXPLORATION, "c=C is the exploration constant: a number "
                                  f"from 0 to {MAX_EXPLORATION:g} (default 0.7)")
        elif kind == "guide":
            guide = _number(spec, value, 0, 1, "guide=P is a share of rollout decisions: a number from 0 to 1")
        elif kind == "prior":
            prior = _number(spec, value, 0, MAX_ITERATIONS, "prior=M is a number of visits: a number from 0 to "
                            f"{MAX_ITERATIONS:,}")
        elif kind == "sealed":
            if value not in ("search", "greedy"):
                raise _bad(spec, f"sealed= is `search` (every decider by the search) or `greedy`, not `{_short(value)}`")
            sealed = value
        elif kind == "others":
            if value not in ("search", "greedy", "dealt", "follow"):
                raise _bad(spec, f"{_OTHERS}, not `{_short(value)}`")
            others = value
        elif kind == "follow":
            if p != "follow":
                raise _bad(spec, f"`follow` takes no value, not `{_short(p)}`")
            follow = True
        else:
            halving = True
            width = int(_number(spec, value, 2, MAX_WIDTH, "halving=W compares greedy's W best options: a whole "
                                f"number from 2 to {MAX_WIDTH:,}", whole=True)) if "=" in p else None
    if halving and (prior or others != "search" or exploration is not None):
        raise _bad(spec, "prior=, others= and c= tune the tree, and halving grows none")
    return MctsParams(iterations, seconds, cutoff, to_phase, exploration, guide, prior, sealed, others, follow,
                      halving, width)
