"""Build the Ruleset model from merged YAML layers: parse every snippet once, record every problem."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from meeple.errors import Problems, RulesetError, Span
from meeple.language import ast as A
from meeple.language.model import CompDef, Decl, KindDef, ProcDef, Ruleset
from meeple.language.scriptcache import ScriptCache
from meeple.language.syntax import ScriptBudget
from meeple.language.walk import clone
from meeple.loading.yamlsrc import Document

Origin = Callable[[int, int, int, int], Span]

RESERVED_ITEM_KEYS = {"id", "name", "count", "on", "options"}
MAX_COMPONENTS = 10_000  # components of all kinds, copies included (the schema bounds one `count:`)


class Builder:
    def __init__(self, cache: ScriptCache | None = None) -> None:
        self.problems = Problems()
        self.sources: dict[str, str] = {}
        self.budget = ScriptBudget()  # bounds the parsing time of a file, whatever it holds
        self.cache = cache or ScriptCache()  # parsed scripts of an earlier load of the same files
        self.served: set[tuple] = set()

    # -- parsing helpers that record problems instead of stopping
    def origin(self, doc: Document, path: tuple) -> Origin:
        return doc.locator(path)  # the string's place in the file looked up once, not at every node

    def _parse(self, kind: str, doc: Document, path: tuple, what: str) -> Any:
        text = _get(doc.data, path)
        if not isinstance(text, str):
            if isinstance(text, bool):
                text = "true" if text else "false"
            elif isinstance(text, int):
                text = str(text)
            else:
                self.problems.add("S001", f"{what} must be text in the Meeple language", doc.span(path))
                return None
        over = self.budget.spend(text, doc.span(path))
        if over is not None:
            self.problems.items.extend(over)
            return None
        key = (kind, type(doc).__name__, doc.path, path)
        tree = self.cache.get(key, text)
        if tree is not None and key not in self.served:  # a script asked twice is parsed twice, as without a cache
            self.served.add(key)
            return tree
        from meeple.language import parser as P  # only on a miss: importing lark and building the parser cost

        fn = {"script": P.parse_script, "expr": P.parse_expr, "options": P.parse_options}[kind]
        try:
            tree = fn(text, self.origin(doc, path))
        except RulesetError as e:
            self.problems.items.extend(e.problems)
            return None
        self.cache.put(key, text, tree)
        return tree

    def script(self, doc: Document, path: tuple) -> A.Block | None:
        return self._parse("script", doc, path, "a script")

    def expr(self, doc: Document, path: tuple) -> Any:
        return self._parse("expr", doc, path, "an expression")

    def options(self, doc: Document, path: tuple) -> Any:
        return self._parse("options", doc, path, "option clauses")


def _none(v: Any) -> Any:
    """In data, `none` means the language's none (as `null` does in YAML), also inside lists and maps."""
    if v == "none":
        return None
    if isinstance(v, list):
        return [_none(x) for x in v]
    if isinstance(v, dict):
        return {k: _none(x) for k, x in v.items()}
    return v


def _get(data: Any, path: tuple) -> Any:
    for k in path:
        data = data[k]
    return data


def build(b: Builder, layers: Any, factory: Callable[..., Ruleset] = Ruleset) -> Ruleset:
    """Build the Ruleset from merged data; `layers.where(path)` says which document defines a key."""
    data = layers.data
    where = layers.where  # path -> Document that holds the value at path
    top = layers.docs[-1]
    players = data.get("players") or {}
    rs = factory(name=str(data.get("name", Path(top.path).stem)), path=top.path,
                 min_players=int(players.get("min", 1)), max_players=int(players.get("max", 1)))
    if rs.min_players > rs.max_players:
        doc = where(("players", "min"))
        b.problems.add("S005", f"`players.min` ({rs.min_players}) is more than `players.max` ({rs.max_players})",
                       doc.span(("players", "min")) if doc else None)
    rs.sources = b.sources
    rs.raw = data
    rs.constants = {k: _none(v) for k, v in (data.get("constants") or {}).items()}

    def decls(section: str, scope: str) -> dict[str, Decl]:
        out = {}
        for name, v in ((data.get(section) or {}).get(scope) or {}).items():
            doc = where((section, scope, name))
            span = doc.span((section, scope, name), key=True) if doc else None
            if isinstance(v, dict) and ("initial" in v or "visibility" in v or "description" in v):
                out[name] = Decl(name, _none(v.get("initial", 0 if section == "counters" else None)),
                                 v.get("visibility", "public"), span, v.get("display"))
            elif section == "zones":
                out[name] = Decl(name, None, (v or {}).get("visibility", "public") if isinstance(v, dict)
                                 else "public", span, v.get("display") if isinstance(v, dict) else None)
            else:
                out[name] = Decl(name, _none(v), "public", span)
        return out

    rs.game_counters = decls("counters", "game")
    rs.player_counters = decls("counters", "player")
    rs.game_zones = decls("zones", "game")
    rs.game_zones.setdefault("box", Decl("box", None, "public", None))
    rs.player_zones = decls("zones", "player")
    for i, ev in enumerate(data.get("events") or []):  # each event's own span: a variant may add it
        doc = where(("events", i))
        rs.events[ev] = doc.span(("events", i)) if doc else None

    # -- components
    cid = 0
    for kind, kd in (data.get("components") or {}).items():
        kdoc = where(("components", kind))
        kspan = kdoc.span(("components", kind), key=True) if kdoc else None
        counters = {n: Decl(n, _none(v)) for n, v in (kd.get("counters") or {}).items()}
        slots = {n: Decl(n, None, (v or {}).get("visibility", "public") if isinstance(v, dict) else "public")
                 for n, v in (kd.get("slots") or {}).items()}
        defaults = {k: _none(v) for k, v in (kd.get("defaults") or {}).items()}
        attrs: set[str] = set(defaults)
        kind_on = {ev: b.script(where(("components", kind, "on", ev)), ("components", kind, "on", ev))
                   for ev in (kd.get("on") or {})}
        kind_opts = {ev: b.options(where(("components", kind, "options", ev)),
                                   ("components", kind, "options", ev)) for ev in (kd.get("options") or {})}
        for idx, item in enumerate(kd.get("items") or []):
            ipath = ("components", kind, "items", idx)
            idoc = where(ipath)
            on = dict(kind_on)
            for ev in item.get("on") or {}:
                on[ev] = b.script(idoc, ipath + ("on", ev))
            opts = dict(kind_opts)
            for ev in item.get("options") or {}:
                opts[ev] = b.options(idoc, ipath + ("options", ev))
            on = {k: v for k, v in on.items() if v is not None}
            opts = {k: v for k, v in opts.items() if v is not None}
            item_attrs = dict(defaults)
            item_attrs.update({k: _none(v) for k, v in item.items() if k not in RESERVED_ITEM_KEYS})
            attrs.update(item_attrs)
            item_id = str(item.get("id", kind))
            name = str(item.get("name", item.get("id", kind)))
            span = idoc.span(ipath) if idoc else None
            count = int(item.get("count", 1))
            if cid + count > MAX_COMPONENTS:
                # The schema bounds one count; this bounds them all, before a single copy is made.
                b.problems.add("S005", f"more than {MAX_COMPONENTS:,} components in all (the engine's limit)",
                               idoc.span(ipath + ("count",)) if idoc and "count" in item else span)
                count = 0
            for _ in range(count):
                rs.components.append(CompDef(cid, kind, item_id, name, item_attrs, on, opts, span))
                rs.items.setdefault(item_id, []).append(cid)
                cid += 1
        back = tuple(str(a) for a in kd.get("back") or ())
        spath = ("components", kind, "status")
        status = b.expr(where(spath), spath) if kd.get("status") is not None else None
        rs.kinds[kind] = KindDef(kind, counters, slots, attrs, kspan, back, status)

    # -- procedures and constants (imported libraries first, each after those it imports, so that a
    # library's own win over what it imports and the ruleset's own over every library's)
    shared: dict[str, Any] = {}
    for lib_doc, lib_data in layers.libraries:
        b.sources[lib_doc.path] = lib_doc.text
        _procedures(b, rs, lib_doc, lib_data.get("procedures") or {})
        shared.update(lib_data.get("constants") or {})
    for k, v in shared.items():
        rs.constants.setdefault(k, _none(v))
    for name in data.get("procedures") or {}:
        _procedures(b, rs, where(("procedures", name)), {name: data["procedures"][name]}, merged=True)

    # -- scripts
    if data.get("setup") is not None:
        rs.setup = b.script(where(("setup",)), ("setup",))
    for name, val in (data.get("phases") or {}).items():
        d = where(("phases", name))
        rs.spans[("phase", name)] = d.span(("phases", name), key=True) if d else None
        if isinstance(val, dict):
            # A phase given as named steps runs them in order; variants can replace one step by name.
            steps = {step: b.script(where(("phases", name, step)), ("phases", name, step)) for step in val}
            rs.phase_steps[name] = {k: v for k, v in steps.items() if v is not None}
            parts = list(rs.phase_steps[name].values())
            if parts:
                rs.phases[name] = A.Block(parts[0].span, tuple(st for blk in parts for st in blk.body))
        else:
            blk = b.script(d, ("phases", name))
            if blk is not None:
                rs.phases[name] = blk
    if data.get("flow") is not None:
        rs.flow = b.script(where(("flow",)), ("flow",))
    scoring = data.get("scoring") or {}
    if scoring.get("final") is not None:
        rs.final = b.script(where(("scoring", "final")), ("scoring", "final"))
    if scoring.get("score") is not None:
        rs.score = b.expr(where(("scoring", "score")), ("scoring", "score"))
    rs.tiebreak = tuple(x for i in range(len(scoring.get("tiebreak") or []))
                        if (x := b.expr(where(("scoring", "tiebreak", i)), ("scoring", "tiebreak", i))))
    if (data.get("agents") or {}).get("greedy") is not None:
        rs.greedy = b.expr(where(("agents", "greedy")), ("agents", "greedy"))
    if (data.get("agents") or {}).get("value") is not None:
        rs.value = b.expr(where(("agents", "value")), ("agents", "value"))
    if (data.get("agents") or {}).get("play") is not None:
        rs.play = str(data["agents"]["play"])
        d = where(("agents", "play"))
        rs.spans[("agents", "play")] = d.span(("agents", "play")) if d else None
    features = (data.get("agents") or {}).get("features") or []
    rs.features = tuple(x for i in range(len(features))
                        if (x := b.expr(where(("agents", "features", i)), ("agents", "features", i))))
    if (data.get("agents") or {}).get("weights") is not None:
        _weighted_value(b, rs, data["agents"], layers)
    return rs


def _weighted_value(b: Builder, rs: Ruleset, agents: dict, layers: Any) -> None:
    """`agents.weights`: the value is each feature times its weight, summed (`w1 * f1 + w2 * f2 ...`), as
    if written out in `agents.value`. The value's terms are copies of the features' trees, so that its nodes
    are its own (later stages key side tables by node) and an error in a term still points at its feature."""
    weights, features, where = agents["weights"], agents.get("features") or [], layers.where
    doc = where(("agents", "weights"))
    span = doc.span(("agents", "weights")) if doc else None
    if agents.get("value") is not None:
        # A variant's own choice replaces its base's (a variant cannot `remove:` the other key); one file
        # that gives both is refused.
        at = [layers.docs.index(where(("agents", k)).doc) for k in ("value", "weights")]
        if at[0] == at[1]:
            b.problems.add("S005", "`agents.value` and `agents.weights` both give the value: keep one", span)
            return
        if at[0] > at[1]:
            return  # the value written out, by a later file
    if len(weights) != len(features):
        fdoc = where(("agents", "features"))
        if doc is not None and fdoc is not None and layers.docs.index(fdoc.doc) > layers.docs.index(doc.doc):
            # A variant changed the features: the base's weights were fitted to others. The value is left
            # out (bots fall back on the heuristic) and `meeple fit-value` can fit the new ones.
            b.problems.add("W019", f"these {len(features)} features replace the base's, whose {len(weights)} "
                           "weights no longer fit them: the weighted value is left out",
                           fdoc.span(("agents", "features")), severity="warning",
                           hint="fit new weights with `meeple fit-value FILE` and paste them under `agents.weights`")
            return
        b.problems.add("S005", f"`agents.weights` has {len(weights)} numbers for {len(features)} features: "
                               "one weight per feature, in order", span,
                       hint="`meeple fit-value FILE` fits them (delete the weights first if it will not load)")
        return
    if len(rs.features) != len(features):
        return  # a feature's own problem is reported already
    value: Any = None
    for i, (w, feature) in enumerate(zip(weights, rs.features, strict=True)):
        f: Any = clone(feature)
        at = doc.span(("agents", "weights", i)) if doc else f.span
        term = A.BinOp(at, "*", A.Num(at, w), f)
        value = term if value is None else A.BinOp(f.span, "+", value, term)
    rs.value = value  # no weights (and no features): no value, as if none were given


def _procedures(b: Builder, rs: Ruleset, doc: Document, procs: dict, merged: bool = False) -> None:
    for name, spec in procs.items():
        path = ("procedures", name)
        if isinstance(spec, str):
            params: tuple[str, ...] = ()
            body = b.script(doc, path)
        else:
            params = tuple(spec.get("params") or ())
            body = b.script(doc, path + ("do",))
        if body is not None:
            rs.procedures[name] = ProcDef(name, params, body, doc.span(path, key=True))
