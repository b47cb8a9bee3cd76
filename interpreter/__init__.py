"""Meeple's engine: load a ruleset, then play games of it.

    from interpreter import load_ruleset
    game = load_ruleset("my_game").new_game(players=4, seed=1)
"""

from .errors import IllegalAction, MeepleError, RulesetError, SaveError, UsageError
from .game import Game
from .loader import load_ruleset

__all__ = ["Game", "IllegalAction", "MeepleError", "RulesetError", "SaveError", "UsageError", "load_ruleset"]
