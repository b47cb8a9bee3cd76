"""Bots that play any ruleset, by name: they only see the Game API, never a particular game.

An agent answers `choose(game, player) -> int`, an index into `game.legal_actions(player)`. Drivers
apply it with `game.apply_index`, which skips building labels: bots never need them, and labels are
the slowest part of listing actions.

    agents = make_agents("mcts:400,greedy", nplayers=4, seed=7)
    while not game.is_over:
        for seat in game.deciders:
            game.apply_index(agents[seat].choose(game, seat), seat)

An agent is named by a spec, `NAME[:PARAM...]` (see AGENT_HELP): `random`, `first`, `greedy[:DEALS]`,
`mcts[:BUDGET][:cut=K|phase][:c=C][:guide=P][:prior=M][:sealed=S][:others=S][:follow][:halving[=W]]`.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable

from meeple.errors import Problem, RulesetError, UsageError
from meeple.language.model import Ruleset
from meeple.tools.halving import WIDTH, HalvingAgent
from meeple.tools.mcts import MctsAgent
from meeple.tools.policy import Agent, FirstAgent, GreedyAgent, RandomAgent, mix_seed

__all__ = ["AGENTS", "AGENT_HELP", "Agent", "FirstAgent", "GreedyAgent", "MctsAgent", "RandomAgent",
           "make_agent", "make_agents", "mix_seed", "parse_agents", "play_spec", "seat_names"]

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
              "others=greedy makes every choice of the other seats in the tree as greedy would; default "
              "search for both; follow judges options as greedy does, after the seat's own follow-up "
              "decisions, in guided rollouts, priors and models, instead of one move ahead; halving=W, "
              "default W=4, grows no tree: greedy's W best options are played on shared deals with these "
              "rollouts, narrowed by sequential halving to the one played; BUDGET then counts rollouts). "
              "Comma-separated, one per seat in order, cycled over the seats: "
              "mcts:400,greedy.")


def _bad(spec: str, why: str) -> UsageError:
    return UsageError(Problem("U013", f"bad agent `{spec}`: {why}", hint=AGENT_HELP))


def _plain(cls: Callable[[int], Agent]) -> Callable[[int, str, list[str]], Agent]:
    def make(seed: int, spec: str, params: list[str]) -> Agent:
        if params:
            raise _bad(spec, "this agent takes no parameters")
        return cls(seed)
    return make


def _greedy(seed: int, spec: str, params: list[str]) -> Agent:
    if len(params) > 1 or (params and not re.fullmatch(r"[1-9]\d*", params[0])):
        raise _bad(spec, "give the number of determinizations, as in greedy:4")
    return GreedyAgent(seed, int(params[0])) if params else GreedyAgent(seed)


def _mcts(seed: int, spec: str, params: list[str]) -> Agent:
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
    width: int | None = None
    for p in params:
        if m := re.fullmatch(r"(\d+(?:\.\d+)?)(ms|s)", p):
            seconds = float(m[1]) / (1000 if m[2] == "ms" else 1)
        elif re.fullmatch(r"[1-9]\d*", p):
            iterations = int(p)
        elif m := re.fullmatch(r"cut=([1-9]\d*)", p):
            cutoff = int(m[1])
        elif p == "cut=phase":
            to_phase = True
        elif m := re.fullmatch(r"c=(\d+(?:\.\d+)?)", p):
            exploration = float(m[1])
        elif m := re.fullmatch(r"guide=(\d+(?:\.\d+)?)", p):
            guide = float(m[1])
            if guide > 1:
                raise _bad(spec, "guide=P is a share of rollout decisions, from 0 to 1")
        elif m := re.fullmatch(r"prior=(\d+(?:\.\d+)?)", p):
            prior = float(m[1])
        elif m := re.fullmatch(r"sealed=(\w+)", p):
            if m[1] not in ("search", "greedy"):
                raise _bad(spec, "sealed= is `search` (every decider by the search) or `greedy`")
            sealed = m[1]
        elif m := re.fullmatch(r"others=(\w+)", p):
            if m[1] not in ("search", "greedy"):
                raise _bad(spec, "others= is `search` (every seat by the search) or `greedy`")
            others = m[1]
        elif p == "follow":
            follow = True
        elif m := re.fullmatch(r"halving(?:=(\d+))?", p):
            width = int(m[1]) if m[1] else WIDTH
            if width < 2:
                raise _bad(spec, "halving=W compares greedy's W best options: at least 2")
        else:
            raise _bad(spec, f"`{p}` is not a budget (400, 1s, 250ms), cut=K, cut=phase, c=C, guide=P, prior=M, sealed=S, "
                       "others=S, follow or halving[=W]")
    if iterations is not None and seconds is not None:
        raise _bad(spec, "give a budget in iterations or in time, not both")
    if seconds is not None and seconds <= 0:
        raise _bad(spec, "a time budget must be above zero")
    if to_phase and cutoff is not None:
        raise _bad(spec, "cut rollouts after K decisions or at the next phase, not both")
    if width is not None and (prior or others != "search" or exploration is not None):
        raise _bad(spec, "prior=, others= and c= tune the tree, and halving grows none")
    kind = MctsAgent if width is None else HalvingAgent
    agent = kind(seed, iterations, seconds, cutoff, guide=guide, prior=prior, sealed=sealed, others=others,
                 follow=follow, to_phase=to_phase)
    if isinstance(agent, HalvingAgent) and width is not None:
        agent.width = width
    if exploration is not None:
        agent.exploration = exploration
    return agent


AGENTS: dict[str, Callable[[int, str, list[str]], Agent]] = {
    "random": _plain(RandomAgent),
    "greedy": _greedy,
    "first": _plain(FirstAgent),
    "mcts": _mcts,
}


def make_agent(spec: str, seed: int = 0) -> Agent:
    """One agent from a spec such as "mcts:1s" (a usage error if the spec is not valid)."""
    name, *params = spec.strip().lower().split(":")
    if name not in AGENTS:
        close = difflib.get_close_matches(name, list(AGENTS), n=1)
        hint = f"did you mean `{close[0]}`?" if close else AGENT_HELP
        raise UsageError(Problem("U011", f"unknown agent `{name}`", hint=hint))
    return AGENTS[name](seed, spec.strip().lower(), params)


def parse_agents(spec: str) -> list[str]:
    """Agent specs from "random,mcts:400"; an unknown name or a bad parameter is a usage error."""
    names = [s.strip().lower() for s in spec.split(",")]
    if not spec.strip() or any(not s for s in names):
        raise UsageError(Problem("U010", f"bad agent list {spec!r}: give names separated by commas",
                                 hint=AGENT_HELP))
    for s in names:
        make_agent(s)  # checks the name and the parameters
    return names


# The bot people play against when neither the ruleset (`agents.play`) nor `--agents` names one: the
# best measured over the bundled games at about a second per move (docs/agents.md).
PLAY = "mcts:1s:cut=5:guide=1:prior=10"


def play_spec(rs: Ruleset) -> str:
    """The agent spec people play against by default: the ruleset's `agents.play`, else PLAY. A spec the
    schema let through but no agent takes (`mcts:1s:guide=2`) is an error located in the ruleset."""
    if rs.play is None:
        return PLAY
    try:
        make_agent(rs.play)
    except UsageError as e:
        p = e.problems[0]
        raise RulesetError(Problem("A003", f"agents.play: {p.message}", rs.spans.get(("agents", "play")),
                                   hint=p.hint)) from None
    return rs.play


def seat_names(spec: str, nplayers: int) -> list[str]:
    """Which agent plays each seat: the names cycle over the seats ("greedy" alone plays every seat)."""
    names = parse_agents(spec)
    if len(names) > nplayers:
        raise UsageError(Problem("U012", f"{len(names)} agents given for {nplayers} players"))
    return [names[i % len(names)] for i in range(nplayers)]


def make_agents(spec: str, nplayers: int, seed: int = 0) -> list[Agent]:
    """One agent per seat, each with its own seed derived from (seed, seat)."""
    return [make_agent(name, mix_seed(seed, "agent", seat)) for seat, name in enumerate(seat_names(spec, nplayers))]
