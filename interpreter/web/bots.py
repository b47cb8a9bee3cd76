"""The bots of the web app's tables: which it offers, and what each may spend on a move.

"best" is the bot the ruleset names for people to play against (`agents.play`, as `meeple play` seats
it); the others are the agents by name, with an optional budget. Whoever names a bot (a seat's budget,
the designer's comparisons, an uploaded ruleset's `agents.play`), the server is shared: budgets are
capped, and a table's search bot thinks at most MAX_THINK seconds a move whatever its budget (found in
review: `mcts:20000:guide=1:follow` passed the cap of iterations and thought for most of an hour).
"""

from __future__ import annotations

from meeple.errors import Problem, UsageError
from meeple.language.agentspec import AGENT_NAMES, parse_spec
from meeple.language.model import Ruleset
from meeple.tools.agents import Agent, make_agent, play_spec
from meeple.tools.mcts import MctsAgent

# The bots a lobby offers: "best" is the one the ruleset names for people to play against
# (`agents.play`, as `meeple play` seats it), then every agent by name.
BEST = "best"
BOTS = [BEST, *AGENT_NAMES]

# What a bot of the web app may spend on a move, whoever names it: a seat's budget, the designer's
# comparisons, and the ruleset's own `agents.play` behind "best" (found in review: an uploaded ruleset's
# `mcts:1000000` or `mcts:3600s` was played as it asked, one move for hours on a shared server).
MAX_BUDGET = 20_000  # a bot's search iterations or deals: mcts:20000 already thinks for a long while a move
MAX_SECONDS = 1.0  # a bot's time a move, at most: the default best bot thinks about a second
MAX_THINK = 10.0  # seconds a table's search bot may think a move, whatever its budget (MctsAgent.cap)


def over_budget(spec: str) -> str | None:
    """Why the bot `spec` (one parsed spec) thinks longer than the web app allows, or None."""
    bot = parse_spec(spec)
    budget = bot.deals if bot.mcts is None else bot.mcts.iterations
    if budget is not None and budget > MAX_BUDGET:
        return f"a budget is at most {MAX_BUDGET:,}, as at a table"
    if bot.mcts is not None and bot.mcts.seconds is not None and bot.mcts.seconds > MAX_SECONDS:
        return f"a bot thinks at most {MAX_SECONDS:g} s a move, as the best bot does"
    return None


def make_bot(name: str, seed: int, budget: int | None, rs: Ruleset) -> Agent:
    """A bot by name; a budget becomes the agent's parameter (`mcts:400`, `greedy:4`) if it takes one.
    A search bot thinks at most MAX_THINK seconds a move."""
    bot = _bot(name, seed, budget, rs)
    if isinstance(bot, MctsAgent):  # the halving bot too
        bot.cap = MAX_THINK
    return bot


def _bot(name: str, seed: int, budget: int | None, rs: Ruleset) -> Agent:
    if name not in BOTS:
        raise UsageError(Problem("B010", f"unknown bot `{name}`", hint="bots: " + ", ".join(BOTS)))
    if name == BEST:
        spec = play_spec(rs)
        if (why := over_budget(spec)) is not None:
            raise UsageError(Problem("B010", f"the ruleset's own bot (agents.play: {spec}) cannot play here: {why}",
                                     hint="choose another bot for this seat, with a budget"))
        return make_agent(spec, seed)
    if budget is not None and bot_budgets()[name]:
        return make_agent(f"{name}:{int(budget)}", seed)
    return make_agent(name, seed)


def bot_budgets() -> dict[str, bool]:
    """Which bots take a budget (the lobby offers the field only for them): those with a parameter.
    "best" plays at the ruleset's own budget, about a second a move."""
    out = {BEST: False}
    for name in AGENT_NAMES:
        try:
            parse_spec(f"{name}:1")
            out[name] = True
        except UsageError:
            out[name] = False
    return out
