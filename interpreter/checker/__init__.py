"""Stage 3, the checker: names, types, arity, events, reachability; `load_ruleset` ends here."""
