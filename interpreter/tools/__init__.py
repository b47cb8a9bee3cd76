"""Stage 5, tools on the Game API: agents, simulation, statistics, compare, coverage, scenarios, reports."""
