"""The loaded, immutable form of a ruleset: definitions plus parsed AST. Shared by all games."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

from meeple.errors import Span
from meeple.language import ast as A


@dataclass(frozen=True, slots=True)
class Decl:
    """A counter or zone declaration: its initial value (counters) and who may see it."""

    name: str
    initial: Any = 0
    visibility: str = "public"
    span: Span | None = None
    display: str | None = None  # `internal` (bookkeeping players need not watch) or `counts` (zones)


@dataclass(slots=True)
class CompDef:
    """One component instance: its id, kind, item id, display name, attributes and hooks."""

    id: int
    kind: str
    item: str
    name: str
    attrs: dict[str, Any]
    on: dict[str, A.Block]
    options: dict[str, tuple[A.Option, ...]]
    span: Span | None = None


@dataclass(slots=True)
class KindDef:
    name: str
    counters: dict[str, Decl]
    slots: dict[str, Decl]
    attrs: set[str]
    span: Span | None = None
    back: tuple[str, ...] = ()  # attributes printed on the back: seen even when the component is face down
    status: A.Expr | None = None  # display hint: what to show beside each visible component of the kind


@dataclass(slots=True)
class ProcDef:
    name: str
    params: tuple[str, ...]
    body: A.Block
    span: Span | None = None


@dataclass(slots=True)
class Ruleset:
    name: str
    path: str
    min_players: int
    max_players: int
    constants: dict[str, Any] = field(default_factory=dict)
    game_counters: dict[str, Decl] = field(default_factory=dict)
    player_counters: dict[str, Decl] = field(default_factory=dict)
    game_zones: dict[str, Decl] = field(default_factory=dict)
    player_zones: dict[str, Decl] = field(default_factory=dict)
    events: dict[str, Span | None] = field(default_factory=dict)
    kinds: dict[str, KindDef] = field(default_factory=dict)
    components: list[CompDef] = field(default_factory=list)
    items: dict[str, list[int]] = field(default_factory=dict)  # item id -> instance ids
    procedures: dict[str, ProcDef] = field(default_factory=dict)
    setup: A.Block | None = None
    phases: dict[str, A.Block] = field(default_factory=dict)
    phase_steps: dict[str, dict[str, A.Block]] = field(default_factory=dict)  # phases written as named steps
    flow: A.Block | None = None
    final: A.Block | None = None
    score: A.Expr | None = None
    tiebreak: tuple[A.Expr, ...] = ()
    greedy: A.Expr | None = None
    value: A.Expr | None = None  # agents.value: a seat's chances (hundredths of a logit), for cut rollouts
    features: tuple[A.Expr, ...] = ()  # agents.features: what `meeple fit-value` builds a value from
    play: str | None = None  # agents.play: the agent spec people play against by default
    sources: dict[str, str] = field(default_factory=dict)  # file -> text, for error rendering
    spans: dict[tuple, Span | None] = field(default_factory=dict)  # ("phase", name) -> where it is defined
    raw: dict[str, Any] = field(default_factory=dict)  # the merged YAML data, for `meeple diff`
    # filled by `analyze` (checker.py): which statements may wait for a decision, and stable node ids.
    suspends: set[int] = field(default_factory=set)  # ids (python id()) of statements that may suspend
    node_ids: dict[int, int] = field(default_factory=dict)  # python id(node) -> stable index
    nodes: list[Any] = field(default_factory=list)  # stable index -> node
    suspending_procs: set[str] = field(default_factory=set)
    # ids of the statements among `suspends` that wait for no decision (checker/suspension.py)
    shuffle_frames: set[int] = field(default_factory=set)
    warnings: list[Any] = field(default_factory=list)
    _digest: str | None = None
    _compiled: Any = None  # what is derived from the ruleset once and kept while it lives: see `derived`

    @property
    def player_counts(self) -> str:
        """`3` or `2 to 4`: the numbers of players the game is for, for messages."""
        lo, hi = self.min_players, self.max_players
        return str(lo) if lo == hi else f"{lo} to {hi}"

    def __getstate__(self) -> dict[str, Any]:
        """For pickling, to send a loaded ruleset to worker processes and cluster nodes instead of
        reloading it there (where its files may not exist). `node_ids` and `suspends` are keyed by
        memory addresses, which a copy does not keep: they travel as stable node indices. The closure
        cache stays behind; it is rebuilt on first use."""
        state = {f.name: getattr(self, f.name) for f in fields(self)}
        state["node_ids"] = None
        state["suspends"] = sorted(self.node_ids[i] for i in self.suspends)
        state["shuffle_frames"] = sorted(self.node_ids[i] for i in self.shuffle_frames)
        state["_compiled"] = None
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        for name, value in state.items():
            object.__setattr__(self, name, value)
        self.node_ids = {id(n): i for i, n in enumerate(self.nodes)}
        self.suspends = {id(self.nodes[i]) for i in state["suspends"]}
        self.shuffle_frames = {id(self.nodes[i]) for i in state["shuffle_frames"]}

    def derived(self) -> dict[Any, Any]:
        """The ruleset's cache of what is worked out from it once, not per game: generated code, tables,
        the templates of new states. Keyed by name; a fact about a node is keyed by id(node) and keeps
        the node beside it, since ids are unique only among live objects. Not pickled."""
        cache = self._compiled
        if cache is None:
            cache = self._compiled = {}
        return cache

    def scripts(self):
        """Every parsed root with a description: (what, node). For walks over the whole ruleset."""
        if self.setup:
            yield "setup", self.setup
        for n, b in self.phases.items():
            yield f"phase {n}", b
        if self.flow:
            yield "flow", self.flow
        if self.final:
            yield "scoring.final", self.final
        if self.score:
            yield "scoring.score", self.score
        for t in self.tiebreak:
            yield "scoring.tiebreak", t
        if self.greedy:
            yield "agents.greedy", self.greedy
        if self.value:
            yield "agents.value", self.value
        for f in self.features:
            yield "agents.features", f
        for k in self.kinds.values():
            if k.status is not None:
                yield f"{k.name} status", k.status
        for p in self.procedures.values():
            yield f"procedure {p.name}", p.body
        seen: set[int] = set()
        for c in self.components:
            for ev, b in c.on.items():
                if id(b) not in seen:
                    seen.add(id(b))
                    yield f"{c.kind} {c.item} on {ev}", b
            for ev, opts in c.options.items():
                for o in opts:
                    if id(o) not in seen:
                        seen.add(id(o))
                        yield f"{c.kind} {c.item} options {ev}", o
