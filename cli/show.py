"""`meeple show RULESET [NAME]`: a ruleset's vocabulary, or one name's data and scripts; and
`meeple new variant NAME --extends RULESET`: a variant file to start a house rule from.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import click
from meeple.cli.common import format_option, load, usage


@click.command()
@click.argument("ruleset")
@click.argument("name", required=False)
@format_option
def show(ruleset: str, name: str | None, fmt: str) -> None:
    """List RULESET's components (ids, attributes), counters, zones, events, procedures, phases and
    constants; with NAME (an item id, kind, procedure, phase...), that one's data and scripts."""
    from meeple.checker.decls import did_you_mean
    from meeple.tools.vocabulary import entry, names, vocabulary

    rs = load(ruleset)
    if name is None:
        data = vocabulary(rs)
        click.echo(json.dumps(data, indent=2, ensure_ascii=False) if fmt == "json" else _vocabulary_text(data))
        return
    found = entry(rs, name)
    if found is None:
        raise usage(f"{rs.name} has no item, kind, procedure, phase, constant, counter, zone or event called "
                    f"`{name}`", hint=did_you_mean(name, names(rs)) or f"`meeple show {ruleset}` lists them")
    click.echo(json.dumps(found, indent=2, ensure_ascii=False) if fmt == "json" else _entry_text(found))


def _line(name: str, desc: str, extra: str = "") -> str:
    return f"  {name}{extra}" + (f"  - {desc}" if desc else "")


def _vocabulary_text(v: dict[str, Any]) -> str:
    out = [f"{v['name']} ({v['players'][0]}-{v['players'][1]} players)"]
    if v["description"]:
        out.append(v["description"].strip())
    if v["constants"]:
        out += ["", "constants:"] + [f"  {c['name']} = {_literal(c['value'])}"
                                     for c in v["constants"]]
    for section in ("counters", "zones"):
        for scope in ("game", "player"):
            rows = v[section][scope]
            if rows:
                out += ["", f"{scope} {section}:"]
                for d in rows:
                    extra = "".join(f" ({k} {_literal(d[k])})" for k in ("initial", "visibility") if k in d)
                    out.append(_line(d["name"], d["description"], extra))
    if v["events"]:
        out += ["", "events (and the items that handle them):"]
        out += [f"  {e['name']}: " + (", ".join(e["handled_by"][:8]) + (" ..." if len(e["handled_by"]) > 8 else "")
                                      if e["handled_by"] else "(no item handles it)") for e in v["events"]]
    for k in v["components"]:
        out += ["", f"components `{k['kind']}` ({k['copies']} in all)" + (f"  - {k['description']}" if k["description"]
                                                                      else "")]
        for a in k["attributes"]:
            default = f" (default {_literal(a['default'])})" if a["declared_by"] == "defaults" else ""
            out.append(_line(f"  .{a['name']}", a["description"], default))
        for what in ("counters", "slots"):
            if k[what]:
                out.append(f"    {what}: " + ", ".join(k[what]))
        for it in k["items"]:
            count = f" x{it['count']}" if it["count"] != 1 else ""
            effects = f"  [{', '.join(it['effects'])}]" if it["effects"] else ""
            out.append(f"    {it['id']}{count}: {it['name']}{effects}")
    if v["procedures"]:
        out += ["", "procedures:"] + [_line(f"{p['name']}({', '.join(p['params'])})", p["description"])
                                      for p in v["procedures"]]
    if v["phases"]:
        out += ["", "phases:"] + [f"  {p['name']}" + (f" (steps: {', '.join(p['steps'])})" if p["steps"] else "")
                                  for p in v["phases"]]
    return "\n".join(out)


def _entry_text(e: dict[str, Any]) -> str:
    out = [f"{e['name'] if 'name' in e else e.get('kind')}: {e['what']}"]
    for key, value in e.items():
        if key in ("what", "name", "scripts"):
            continue
        if key == "attributes" and isinstance(value, dict):
            out += ["attributes:"] + [f"  {k}: {json.dumps(v, ensure_ascii=False)}" for k, v in value.items()]
        elif key == "items":
            out += ["items: " + ", ".join(i["id"] for i in value)]
        elif key == "attributes":
            out += ["attributes: " + ", ".join(a["name"] for a in value)]
        elif value not in ("", [], None):
            out.append(f"{key}: {value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)}")
    for label, text in (e.get("scripts") or {}).items():
        out += [f"{label}:"] + ["    " + ln for ln in text.rstrip().split("\n")]
    return "\n".join(out)


# ------------------------------------------------------------------ new variant
def _ref(target: Path, here: Path) -> str:
    """How the new file names another: relative when they share a folder below the root (the pair can
    move together), else absolute (a copy elsewhere still finds it)."""
    try:
        common = Path(os.path.commonpath([target, here]))
    except ValueError:  # another drive
        return str(target)
    return str(target) if common == Path(common.anchor) else os.path.relpath(target, here)

@click.group()
def new() -> None:
    """Start a new file from a template."""


@new.command("variant")
@click.argument("name")
@click.option("--extends", "base", required=True, help="The ruleset it changes: a bundled name or a path.")
@click.option("--force", is_flag=True, help="Overwrite the file if it exists.")
def new_variant(name: str, base: str, force: bool) -> None:
    """Write NAME.yaml: a variant of a ruleset, with a schema comment that points at this installation's
    schema (for editors) and commented examples of what a variant can change."""
    from meeple.loading.files import find_ruleset, rulesets_dir
    from meeple.loading.resources import data_dir
    from meeple.loading.variants import resolve_layers

    rs = load(base)  # a base that does not load would give a variant that cannot load either
    path = Path(name if name.endswith((".yaml", ".yml")) else f"{name}.yaml")
    if not path.stem.strip() or path.name.startswith("."):  # found by QA: "" (and "sub/") wrote a hidden .yaml
        raise usage(f"`{name}` is no name for a variant: give it one, such as `house_rule`", code="U033")
    if path.exists() and not force:
        raise usage(f"{path} exists: give another name, or --force to overwrite it", code="IO01")
    base_path = find_ruleset(base).resolve()
    # Found by QA and in review: --force wrote a variant over the base, or over a file the base extends
    # or imports, which then extended itself in a circle.
    layers = resolve_layers(base_path)
    if path.resolve() in {Path(d.path).resolve() for d in [*layers.docs, *(d for d, _ in layers.libraries)]}:
        raise usage(f"{path} is a file of the ruleset the variant extends: give the variant another name",
                    code="U033")
    bundled = rulesets_dir().resolve()
    here = path.resolve().parent
    if base_path.parent in (bundled, bundled / "variants", bundled / "reference") and not Path(base).exists():
        extends = base  # a bundled name works from anywhere
    else:
        extends = _ref(base_path, here)
        if extends.startswith("..") or Path(extends).is_absolute():
            # loading refuses an `extends:` outside the variant's own folder (V001)
            raise usage(f"a variant of {base} must be written in its folder ({base_path.parent}) or a folder above it",
                        code="U033")
    schema_dir = data_dir("schema")
    schema = _ref(schema_dir.resolve() / "meeple.schema.json", here) if schema_dir else "meeple.schema.json"
    phases = list(rs.phases)
    consts = list(rs.constants)
    text = f"""# yaml-language-server: $schema={schema}
meeple: 1
extends: {extends}
name: {rs.name} + {path.stem}
description: What this house rule changes, and why.

# A variant states only what differs from its base (docs/variants.md). For example:
# constants: {{{consts[0] if consts else "NAME"}: ...}}
# phases:
#   {phases[0] if phases else "PHASE"}: |
#     ...
# components:
#   KIND:
#     items:
#       ITEM_ID: {{count: 2}}            # change an item of the base
#       new_item: {{new: true, ...}}     # add an item: `new: true`
# remove:
#   items: [ITEM_ID]
"""
    path.write_text(text, encoding="utf-8")
    click.echo(f"wrote {path} (extends {extends}); check it with: meeple validate {path}")


def _literal(value: object) -> str:
    """A data value as a script writes it: `none` (YAML's `null` and `none` alike), not JSON's null."""
    if value is None or value == "none":
        return "none"
    if isinstance(value, list):
        return "[" + ", ".join(_literal(x) for x in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{json.dumps(str(k), ensure_ascii=False)}: {_literal(x)}" for k, x in value.items()) + "}"
    return json.dumps(value, ensure_ascii=False)
