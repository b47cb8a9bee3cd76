"""Every ruleset as an OpenSpiel game: `meeple.openspiel.load(ruleset, players=N)` registers and loads it.

An optional extra: `pip install 'meeple[openspiel]'`. `import meeple` never imports this module, so
Meeple works without OpenSpiel; the adapter itself is tools/spiel.py (see docs/interop.md).
"""

try:
    from meeple.tools.spiel import MeepleGame, MeepleState, load
except ImportError as e:  # pragma: no cover - only without the extra
    raise ImportError(f"meeple.openspiel needs OpenSpiel: pip install 'meeple[openspiel]' ({e})") from e

__all__ = ["MeepleGame", "MeepleState", "load"]
