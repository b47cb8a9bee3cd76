"""The built-in functions and actions of the language: their signatures and documentation.

This table is the language's side of the built-ins: the checker reads it for names, argument counts
and result types, and the language reference's table of built-ins is generated from it
(`python -m meeple.language.builtins` refreshes docs/language.md). Their behaviour is the runtime's:
runtime/queries.py and runtime/actions.py implement each name once, and a test keeps both sides equal.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Signature:
    name: str
    params: tuple[str, ...]  # parameter names; a trailing "?" marks an optional one
    returns: str  # a type name for the checker: num, bool, str, list, player, comp, zone, any, none
    doc: str
    pure: bool = True  # no side effects: allowed anywhere ("query"); else an "action"
    lazy: bool = False  # receives the AST of its arguments (to write to a counter)

    @property
    def min_args(self) -> int:
        return sum(1 for p in self.params if not p.endswith("?"))

    @property
    def max_args(self) -> int:
        return len(self.params)


def _sig(name: str, params: str, returns: str, doc: str, *, pure: bool = True,
         lazy: bool = False) -> Signature:
    return Signature(name, tuple(params.split()), returns, doc, pure, lazy)


SIGNATURES: dict[str, Signature] = {s.name: s for s in (
    _sig('count', 'xs', 'num',
         'Number of items in a list or zone. `count(p.hand)`'),
    _sig('sum', 'xs', 'num',
         'Sum of a list of numbers; 0 for an empty list. `sum(c.value for c in p.hand)`'),
    _sig('min', 'xs default?', 'any',
         'Smallest item; the default (if given) for an empty list. `min([c.price for c in row], 0)`'),
    _sig('max', 'xs default?', 'any',
         'Largest item; the default (if given) for an empty list.'),
    _sig('any', 'xs', 'bool',
         'True if any item is true. `any(c.kind == "token" for c in p.hand)`'),
    _sig('all', 'xs', 'bool',
         'True if every item is true (and for an empty list).'),
    _sig('first', 'xs', 'any',
         'The first item (the top of a zone), or none if empty.'),
    _sig('last', 'xs', 'any',
         'The last item (the bottom of a zone), or none if empty.'),
    _sig('list', 'xs', 'list',
         "A list copy of a zone's contents (a snapshot that later moves do not change)."),
    _sig('between', 'lo hi', 'list',
         'The numbers lo, lo+1, ..., hi (both included). `for n in between(0, p.coins)`'),
    _sig('flatten', 'xss', 'list',
         'Join a list of lists (or zones) into one list. `flatten([b.contents for b in p.hand])`'),
    _sig('distinct', 'xs', 'list',
         'The items without repeats, in first-seen order.'),
    _sig('sorted', 'xs', 'list',
         'The items in ascending order.'),
    _sig('reversed', 'xs', 'list',
         'The items in reverse order.'),
    _sig('slice', 'xs start stop?', 'list',
         'Items from index start up to (not including) stop. `slice(deck, 0, 3)` is the top three.'),
    _sig('index_of', 'xs x', 'num',
         'Position of x in a list or zone (0 is the first/top), or -1.'),
    _sig('abs', 'x', 'num',
         'Absolute value.'),
    _sig('keys', 'm', 'list',
         'The keys of a map.'),
    _sig('get', 'm key default', 'any',
         "A map's value for key, or the default."),
    _sig('text', 'x', 'str',
         'A value as readable text.'),
    _sig('player', 'seat', 'player',
         'The player at a seat (0-based, wrapping around). `player(0)` is P1.'),
    _sig('left_of', 'p', 'player',
         'The next player clockwise (to the left).'),
    _sig('right_of', 'p', 'player',
         'The previous player (to the right).'),
    _sig('turn_order', 'p', 'list',
         'All players clockwise, starting with p.'),
    _sig('others', 'p', 'list',
         "All players but p, clockwise from p's left."),
    _sig('owner', 'c', 'player',
         "The player whose zone holds c (also through a card's slot), or none."),
    _sig('components', 'kind_or_item', 'list',
         'All instances of a kind (`components("card")`) or of an item id (`components("gold_coin")`).'),
    _sig('zone_of', 'c', 'zone',
         'The zone that holds c, or none.'),
    _sig('random_pick', 'xs', 'any',
         "A uniformly random item (from the game's seeded RNG), or none if empty.", pure=False),
    _sig('move', 'x to where?', 'none',
         "Move a component (or a list, or a zone's contents) to the bottom of a zone, or to the top "
         'with `"top"` (one by one: `move([a, b, c], deck, "top")` leaves `c` on top). '
         '`move(card, p.hand)`, `move(tokens, supply)`, `move(c, deck, "top")`', pure=False),
    _sig('draw', 'k source to', 'list',
         'Move the top k components of a zone to another (fewer if it runs out); returns them. `got '
         '= draw(3, bag, c.slot)`', pure=False),
    _sig('shuffle', 'zone', 'none',
         "Shuffle a zone with the game's seeded RNG.", pure=False),
    _sig('swap', 'a b', 'none',
         "Exchange the places of two components (each takes the other's zone and position).", pure=False),
    _sig('reveal', 'x', 'none',
         'Turn components face up.', pure=False),
    _sig('conceal', 'x', 'none',
         'Turn components face down: only the owner of the zone (if a player) sees them.', pure=False),
    _sig('gain', 'counter amount', 'none',
         'Add a non-negative amount to a counter. `gain(p.coins, 2)`', pure=False, lazy=True),
    _sig('pay', 'counter amount', 'none',
         'Take an amount from a counter; it is a rules error if there is not enough. `pay(p.coins, '
         '3)`', pure=False, lazy=True),
    _sig('score', 'counter amount', 'none',
         'Add points, which may be negative and may take the counter below zero. `score(p.points, '
         '-4)`', pure=False, lazy=True),
    _sig('log', 'text', 'none',
         'Write a line every player sees in the game log.', pure=False),
    _sig('tell', 'p text', 'none',
         'Write a line only player p sees.', pure=False),
    _sig('show', 'x p', 'none',
         'Show components to player p only (e.g. a hand, to prove what is not in it).', pure=False),
    _sig('fail', 'text', 'none',
         'Stop with a rules error: for states the ruleset says cannot happen.', pure=False),
)}


def reference_table() -> str:
    """The Markdown table of built-ins for docs/language.md (kept current by tests/test_docs.py)."""
    rows = ["| function | kind | what |", "|---|---|---|"]
    for name in sorted(SIGNATURES):
        s = SIGNATURES[name]
        params = ", ".join(x.rstrip("?") + ("?" if x.endswith("?") else "") for x in s.params)
        doc = s.doc.replace("|", "\\|")
        rows.append(f"| `{name}({params})` | {'query' if s.pure else 'action'} | {doc} |")
    return "\n".join(rows)


if __name__ == "__main__":  # python -m meeple.language.builtins: refresh the table in docs/language.md
    import re
    import sys
    from pathlib import Path

    doc = Path(sys.argv[1] if len(sys.argv) > 1 else "docs/language.md")
    text = doc.read_text(encoding="utf-8")
    text = re.sub(r"(<!-- begin primitives -->\n).*?(\n<!-- end primitives -->)",
                  lambda m: m.group(1) + reference_table() + m.group(2), text, flags=re.DOTALL)
    doc.write_text(text, encoding="utf-8")
