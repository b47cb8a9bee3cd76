"""`meeple diff BASE VARIANT`: what a variant changes, by name, with changed scripts as unified diffs.

Both files are loaded and validated first, so the diff is between the merged rulesets as they play:
a variant's deep merges, additions and removals all show, whatever file they came from. Items are
matched by id (never by list position), phases step by step.
"""

from __future__ import annotations

import json
from typing import Any

import click
from meeple.cli.common import format_option
from meeple.tools.rulediff import semantic_diff


def _show(v: Any) -> str:
    text = json.dumps(v, ensure_ascii=False, default=str)
    return text if len(text) <= 100 else text[:97] + "..."


def render(base_name: str, variant_name: str, changes: list[dict]) -> str:
    if not changes:
        return f"{base_name} -> {variant_name}: no differences"
    counts: dict[str, int] = {}
    for c in changes:
        counts[c["change"]] = counts.get(c["change"], 0) + 1
    out = [f"{base_name} -> {variant_name}: " + ", ".join(f"{n} {k}" for k, n in counts.items()),
           "(+ added, - removed, ~ changed; scripts as unified diffs)"]
    section = None
    for c in changes:
        if c["section"] != section:
            section = c["section"]
            out.append(f"\n{section}:")
        sign = {"added": "+", "removed": "-", "changed": "~"}[c["change"]]
        fields = c["fields"]
        if not fields:
            out.append(f"  {sign} {c['entity']}")
            continue
        if len(fields) == 1 and not fields[0]["field"] and not fields[0].get("diff"):
            out.append(f"  {sign} {c['entity']}: {_change(fields[0])}")  # a single value: one line
            continue
        out.append(f"  {sign} {c['entity']}")
        for f in fields:
            if f.get("diff"):
                out.append(f"      {f['field'] or 'script'}:")
                out += [f"        {line}" for line in f["diff"][2:]]  # the ---/+++ header repeats the name
            else:
                out.append(f"      {f['field'] + ': ' if f['field'] else ''}{_change(f)}")
    return "\n".join(out)


def _change(f: dict) -> str:
    if "old" not in f:
        return _show(f["new"])
    if "new" not in f:
        return f"{_show(f['old'])} (removed)"
    return f"{_show(f['old'])} -> {_show(f['new'])}"


@click.command()
@click.argument("base")
@click.argument("variant")
@format_option
def diff(base: str, variant: str, fmt: str) -> None:
    """Show what VARIANT changes in BASE: components and items, constants, counters, zones, phases and
    steps, procedures, events and effects. Both are paths or bundled names."""
    from meeple.cli.common import load

    a, b = load(base), load(variant)
    changes = semantic_diff(a.raw, b.raw)
    if fmt == "json":
        click.echo(json.dumps({"base": a.name, "variant": b.name, "changes": changes}, indent=2,
                              ensure_ascii=False, default=str))
    else:
        click.echo(render(a.name, b.name, changes))


def changes_text(letter: str, name: str, changes: list[dict]) -> list[str]:
    out = [f"  {letter} ({name}): {len(changes)} change{'s' if len(changes) != 1 else ''}"]
    sign = {"added": "+", "removed": "-", "changed": "~"}
    for c in changes:
        parts = [f"{f or 'value'} {_short(n)}" if c["change"] == "added" else
                 f"{f or 'value'} {_short(o)}" if c["change"] == "removed" else
                 f"{f or 'value'} {_short(o)} -> {_short(n)}" for f, o, n in c["values"]]
        parts += [f"{f} (script) rewritten" for f in c["scripts"][:3]]
        what = "; ".join(parts) or c["change"]
        line = f"    {sign[c['change']]} {c['section']} {c['entity']}: {what}"
        if c["ran"]:
            line += "; " + ", ".join(f"{k} ran {v} times ({v / c['games']:.2f} per game)" if v else
                                     f"{k} never ran" + (" (bots do not count calls from labels or the greedy "
                                                         "heuristic)" if k.startswith("procedure") else "")
                                     for k, v in c["ran"].items())
        if c.get("held") == 0:
            line += "; no player held it at the end of any game: the bots may never take it"
        elif c.get("held") is not None:
            line += f"; held by a player at the end of {100 * c['held']:.0f}% of games"
        out.append(line)
    return out


def _short(v: Any) -> str:
    text = json.dumps(v, ensure_ascii=False)
    return text if len(text) <= 40 else text[:37] + "..."
