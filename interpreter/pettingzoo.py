"""Every ruleset as a PettingZoo AEC environment: `meeple.pettingzoo.env(ruleset, players=N)`.

An optional extra: `pip install 'meeple[pettingzoo]'`. `import meeple` never imports this module, so
Meeple works without PettingZoo; the adapter itself is tools/pettingzoo_env.py (see docs/interop.md).
"""

try:
    from meeple.tools.pettingzoo_env import BadStep, NoEpisode, NotReset, env, raw_env
except ImportError as e:  # pragma: no cover - only without the extra
    raise ImportError(f"meeple.pettingzoo needs PettingZoo: pip install 'meeple[pettingzoo]' ({e})") from e

__all__ = ["BadStep", "NoEpisode", "NotReset", "env", "raw_env"]
