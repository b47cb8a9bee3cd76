"""Where the bundled data lives: `rulesets/` and `schema/`.

Installed, they are subpackages of `meeple` (`meeple/rulesets`, `meeple/schema`), beside the engine's
own folders. In a checkout (or an editable install) the engine is the repository's `interpreter/`
folder and the data folders stand beside it at the top of the repository.
"""

from __future__ import annotations

from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent  # the `meeple` package: interpreter/ in a checkout


def data_dir(folder: str) -> Path | None:
    """The folder of bundled data called `folder` ("rulesets" or "schema"), or None if missing."""
    for here in (PACKAGE / folder, PACKAGE.parent / folder):
        if here.is_dir():
            return here
    return None
