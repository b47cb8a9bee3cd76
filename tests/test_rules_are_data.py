"""Rule 1 of DEVELOPERS.md: the engine (`interpreter/`) and the CLI (`cli/`) never name a game, a card, a
good or a phase. Every name the four seeded games declare is looked for, as a whole word, in the source,
comments and docstrings included (an example in a docstring is read as documentation of the engine).

Names that are ordinary words of the engine's own vocabulary (`deck`, `round`, `points`, `hand`, `start`)
are allowed: a game that calls a zone `deck` does not make every deck its own. Everything else a game
declares (its cards' ids and names, goods, procedures, phases, zones, slots, counters) must not appear."""

import re
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
GAMES = ["speicherstadt", "merchants", "camel_up_off_season", "demoludy"]

# The engine's and the CLI's own vocabulary, used there in its generic sense (checked by reading each
# hit when this list was made; add a word only after reading where it occurs).
GENERIC = {
    "out", "code", "stack", "start", "play", "action", "workers", "progress", "load", "token", "tokens", "total",
    "shown", "loading", "played", "row", "down", "card", "cards", "points", "hold", "port", "hand", "won",
    "coins", "taken", "side", "owned", "tiebreak", "round", "drawn", "opened", "reveal", "picks", "deck", "space",
    "complete", "pile", "reach", "offer", "discard", "fits", "centre", "bag", "supply", "stock", "sell",
    "auction", "buy", "trade", "cube", "queue", "income", "score", "value", "values", "name", "type", "count",
    "size", "good", "goods", "contract", "bank",
}


def _declared(game: str) -> set[str]:
    raw = yaml.safe_load((ROOT / "rulesets" / f"{game}.yaml").read_text(encoding="utf-8"))
    names = {game, raw["name"]}
    for section in ("constants", "procedures", "phases"):
        names |= set(raw.get(section) or {})
    for level in ("game", "player"):
        names |= set((raw.get("counters") or {}).get(level) or {})
        names |= set((raw.get("zones") or {}).get(level) or {})
    names |= set(raw.get("events") or [])
    for kind, spec in (raw.get("components") or {}).items():
        names |= {kind} | set(spec.get("counters") or {}) | set(spec.get("slots") or {})
        for item in spec.get("items") or []:
            names |= {str(v) for k, v in item.items() if k in ("id", "name", "good", "type") and isinstance(v, str)}
    return {n for n in names if len(n) >= 3 and n.lower() not in GENERIC}


def _sources() -> list[Path]:
    return [p for folder in ("interpreter", "cli") for p in sorted((ROOT / folder).rglob("*"))
            if p.suffix in (".py", ".js", ".html", ".css", ".lark")]


def test_the_engine_and_the_cli_name_nothing_a_seeded_game_declares():
    names = set().union(*(_declared(g) for g in GAMES))
    pattern = re.compile(r"\b(" + "|".join(sorted(map(re.escape, names), key=len, reverse=True)) + r")\b",
                         re.IGNORECASE)
    found = []
    for path in _sources():
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for m in pattern.finditer(line):
                found.append(f"{path.relative_to(ROOT)}:{number}: `{m.group(1)}`: {line.strip()}")
    assert not found, "game words in the engine or the CLI (rule 1):\n" + "\n".join(found)


def test_the_check_finds_a_game_word():
    # the check itself can fail: a seeded game's zone in an example must be found
    names = _declared("speicherstadt")
    assert "tableau" in names and "warehouse_capacity" in names and "Coffee Roaster" in names
    assert "deck" not in names
