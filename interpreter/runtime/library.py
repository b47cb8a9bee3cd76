"""Every built-in, registered: import this module, then read `REGISTRY`.

The implementations register themselves as their modules are imported; this module is the one place
that imports them all, so that the evaluators see a complete registry.
"""

from __future__ import annotations

from meeple.runtime import actions, queries
from meeple.runtime.builtins import REGISTRY

MODULES = (queries, actions)

__all__ = ["MODULES", "REGISTRY"]
