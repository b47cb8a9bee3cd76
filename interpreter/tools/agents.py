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
Specs are parsed in `meeple.language.agentspec`, which the checker reads a ruleset's `agents.play` with;
here they become agents.
"""

from __future__ import annotations

from collections.abc import Callable

from meeple.errors import Problem, UsageError
from meeple.language.agentspec import AGENT_HELP, AGENT_SPECS, MCTS_SPEC, SPEC_HINT, AgentSpec, parse_spec
from meeple.language.model import Ruleset
from meeple.tools.halving import HalvingAgent
from meeple.tools.mcts import MctsAgent
from meeple.tools.policy import Agent, FirstAgent, GreedyAgent, RandomAgent, mix_seed

__all__ = ["AGENTS", "AGENT_HELP", "AGENT_SPECS", "MCTS_SPEC", "Agent", "FirstAgent", "GreedyAgent", "MctsAgent",
           "RandomAgent", "make_agent", "make_agents", "mix_seed", "parse_agents", "play_spec", "searches",
           "seat_names"]


def _greedy(seed: int, spec: AgentSpec) -> Agent:
    return GreedyAgent(seed, spec.deals) if spec.deals is not None else GreedyAgent(seed)


def _mcts(seed: int, spec: AgentSpec) -> Agent:
    m = spec.mcts
    assert m is not None  # parse_spec gives every mcts spec its parameters
    kind = HalvingAgent if m.halving else MctsAgent
    agent = kind(seed, m.iterations, m.seconds, m.cutoff, guide=m.guide, prior=m.prior, sealed=m.sealed,
                 others=m.others, follow=m.follow, to_phase=m.to_phase)
    if isinstance(agent, HalvingAgent) and m.width is not None:
        agent.width = m.width  # else the class's own default, halving.WIDTH
    if m.exploration is not None:
        agent.exploration = m.exploration
    return agent


# How each agent is built from its parsed spec (language/agentspec.py parses every name listed there).
AGENTS: dict[str, Callable[[int, AgentSpec], Agent]] = {
    "random": lambda seed, spec: RandomAgent(seed),
    "greedy": _greedy,
    "first": lambda seed, spec: FirstAgent(seed),
    "mcts": _mcts,
}


def make_agent(spec: str, seed: int = 0) -> Agent:
    """One agent from a spec such as "mcts:1s" (a usage error if the spec is not valid)."""
    parsed = parse_spec(spec)
    return AGENTS[parsed.name](seed, parsed)


def parse_agents(spec: str) -> list[str]:
    """Agent specs from "random,mcts:400"; an unknown name or a bad parameter is a usage error."""
    names = [s.strip().lower() for s in spec.split(",")]
    if not spec.strip() or any(not s for s in names):
        raise UsageError(Problem("U010", f"bad agent list {spec!r}: give names separated by commas",
                                 hint=SPEC_HINT))
    for s in names:
        parse_spec(s)  # checks the name and the parameters
    return names


def searches(spec: str) -> bool:
    """Whether any agent of the list searches (mcts): its games take seconds, so a run hands them out one
    at a time (`Work.batch_cap`), and Ctrl-C keeps every game finished."""
    return any(parse_spec(s).mcts is not None for s in parse_agents(spec))


# The bot people play against when neither the ruleset (`agents.play`) nor `--agents` names one: the
# best measured over the bundled games at about a second per move (docs/agents.md).
PLAY = "mcts:1s:cut=5:guide=1:prior=10"


def play_spec(rs: Ruleset) -> str:
    """The agent spec people play against by default: the ruleset's `agents.play`, else PLAY. Loading
    checked the ruleset's spec (a spec no agent takes is error A003, located in the ruleset)."""
    return PLAY if rs.play is None else rs.play


def seat_names(spec: str, nplayers: int) -> list[str]:
    """Which agent plays each seat: the names cycle over the seats ("greedy" alone plays every seat)."""
    names = parse_agents(spec)
    if len(names) > nplayers:
        raise UsageError(Problem("U012", f"{len(names)} agents given for {nplayers} players"))
    return [names[i % len(names)] for i in range(nplayers)]


def make_agents(spec: str, nplayers: int, seed: int = 0) -> list[Agent]:
    """One agent per seat, each with its own seed derived from (seed, seat)."""
    return [make_agent(name, mix_seed(seed, "agent", seat)) for seat, name in enumerate(seat_names(spec, nplayers))]
