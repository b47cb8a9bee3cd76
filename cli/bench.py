"""`meeple bench`: random-play speed on one core, optionally side by side with a peer engine."""

from __future__ import annotations

import json
import statistics
from dataclasses import dataclass, field
from typing import Any

import click
from meeple.cli.common import INTERRUPTED, MAX_SECONDS, check_games, format_option, load, table, usage
from meeple.errors import UsageError
from meeple.tools import bench as B
from meeple.tools import peers as P

MAX_ROUNDS = 99


@dataclass
class Measured:
    """What a run of `meeple bench` measured: Meeple's median rows, the peers' median rows with their
    ratios (the median one and each round's), the micro-timings, and a peer that broke its protocol."""

    rows: list[B.BenchRow]
    peers: list[B.Speed] = field(default_factory=list)
    ratios: list[float | None] = field(default_factory=list)
    per_round: list[list[float]] = field(default_factory=list)
    micros: dict[int, dict[str, float]] = field(default_factory=dict)
    failed: UsageError | None = None


@click.command()
@click.argument("ruleset")
@click.option("--players", "-p", "players", type=int, multiple=True,
              help="Player count to measure (repeatable). Default: every supported count.")
@click.option("--games", "-n", type=int, default=None, help="Games per player count (default: as many as fit).")
@click.option("--seconds", type=float, default=2.0, show_default=True,
              help="CPU time per player count (and per peer) when --games is not given.")
@click.option("--peer", "peer", default=None, metavar="PATH",
              help="A hand-written engine of the same game (a Python file with a class Game(players, seed): "
                   "legal_actions, apply, is_terminal), measured in the same run.")
@click.option("--openspiel", "openspiel", default=None, metavar="NAME",
              help="An OpenSpiel game measured in the same run, e.g. python_tic_tac_toe (needs open_spiel).")
@click.option("--micro", is_flag=True, help="Also time new_game, copy() and apply_index in microseconds.")
@click.option("--chance", type=click.Choice(["seeded", "explicit"]), default="seeded", show_default=True,
              help="explicit: every random event is a chance node, sampled by its probabilities (the forward "
                   "model of a search over chance nodes; OpenSpiel's games are measured so).")
@click.option("--observe", is_flag=True,
              help="Make the deciding seat's observation vector before each decision, as a learning loop "
                   "does (the PettingZoo and OpenSpiel adapters' vector; with --openspiel, OpenSpiel's "
                   "observation_tensor). Needs NumPy.")
@click.option("--narrate", is_flag=True,
              help="Narrate the games as `meeple play` does (log lines rendered for each seat, score notes). "
                   "By default they are quiet, as in `meeple simulate`: peers keep no log either.")
@click.option("--rounds", type=int, default=1, show_default=True,
              help="Measure Meeple and the peer alternately this many times and report the median round, "
                   "with the ratio of every round: one run on a shared machine moves by 10-30%.")
@format_option
def bench(ruleset: str, players: tuple[int, ...], games: int | None, seconds: float, peer: str | None,
          openspiel: str | None, micro: bool, chance: str, observe: bool, narrate: bool, rounds: int,
          fmt: str) -> None:
    """Measure random-play speed of RULESET on one core: games/s and decisions/s, in CPU time.

    RULESET is a file or the name of a bundled ruleset (see `meeple rulesets`). With --peer or
    --openspiel the other engine is measured right after, and the ratio Meeple/peer is printed."""
    rs = load(ruleset)
    counts = B.player_counts(rs, players)  # each count asked for checked first
    _check_options(games, seconds, rounds, peer, micro, chance, observe)
    try:
        m = _measure(rs, counts, games, seconds, rounds, chance, narrate, micro, peer, openspiel, observe)
    except KeyboardInterrupt:
        # A ratio needs both engines measured in full: figures cut short would mislead, so none are shown.
        click.echo("interrupted: a benchmark stopped part-way reports nothing", err=True)
        click.get_current_context().exit(INTERRUPTED)
    if fmt == "json":
        click.echo(json.dumps({
            "ruleset": rs.name, "narrated": narrate, "chance": chance, "observed": observe,
            "rows": [dict(r.to_json(), **m.micros.get(r.players, {})) for r in m.rows],
            "rounds": rounds,
            "peers": [dict(p.to_json(), ratio=m.ratios[j], round_ratios=m.per_round[j])
                      for j, p in enumerate(m.peers)]},
            indent=2))
    else:
        _report(rs.name, m, rounds, chance, observe, narrate, micro)
    if m.failed is not None:
        raise m.failed


def _check_options(games: int | None, seconds: float, rounds: int, peer: str | None, micro: bool,
                   chance: str, observe: bool) -> None:
    if games is not None:
        check_games(games)
    if not 0 < seconds <= MAX_SECONDS:  # also refuses nan, which compares false with everything
        raise usage(f"--seconds must be more than 0 and at most {MAX_SECONDS:,.0f}, not {seconds}")
    if not 1 <= rounds <= MAX_ROUNDS:
        raise usage(f"--rounds must be at least 1 and at most {MAX_ROUNDS}, not {rounds}")
    # A hand-written peer draws from its seed and makes no observations, and --micro times the seeded
    # Game API's calls alone: neither compares like for like with chance nodes or observations.
    alone = "--peer" if peer is not None else "--micro" if micro else None
    for asked, flag, what in ((chance == "explicit", "--chance explicit", "seeded games"),
                              (observe, "--observe", "play without observations")):
        if asked and alone is not None:
            raise usage(f"{alone} measures {what}: leave out {flag}")


def _measure(rs: Any, counts: list[int], games: int | None, seconds: float, rounds: int, chance: str,
             narrate: bool, micro: bool, peer: str | None, openspiel: str | None, observe: bool) -> Measured:
    """Meeple, then each peer, `rounds` times over; the median round of each, and the ratios."""
    observer = B.observer(rs) if observe else None
    module = P.load_peer(peer) if peer is not None else None
    spiel = P.load_openspiel(openspiel) if openspiel is not None else None
    rounds_rows: list[list[B.BenchRow]] = []  # Meeple's rows of each round
    rounds_peers: list[list[B.Speed]] = []  # the peers' of each round, measured right after Meeple's
    failed: UsageError | None = None  # a peer that broke its protocol: reported after Meeple's rows
    for _ in range(rounds):
        rounds_rows.append(B.bench(rs, counts, games, seconds, narrate=narrate, observer=observer, chance=chance))
        rounds_peers.append([])
        try:
            for n in counts if module is not None else []:
                rounds_peers[-1].append(P.bench_peer(module, n, games, seconds))
            if spiel is not None:
                rounds_peers[-1].append(P.bench_openspiel(spiel, games, seconds, observe=observe))
        except UsageError as e:
            failed = e
            break
    rows = B.median_rounds(rounds_rows)
    micros = {r.players: B.micro(rs, r.players, narrate=narrate) for r in rows} if micro else {}
    # A peer's row is its median round; its ratio the median of the rounds' ratios, each of Meeple and the
    # peer measured one after the other (the machine's speed moves between rounds, less within one).
    # Only a failing peer's round can be cut short, the last one: the peers measured before it still count
    # when it is the first.
    expected = (len(counts) if module is not None else 0) + (spiel is not None)
    complete = [ps for ps in rounds_peers if len(ps) == expected] or rounds_peers[:1]
    peers = B.median_rounds(complete)
    per_round = [B.round_ratios(rounds_rows, complete, j) for j in range(len(peers))]
    ratios = [statistics.median_low(xs) if xs else None for xs in per_round]
    return Measured(rows, peers, ratios, per_round, micros, failed)


def _report(name: str, m: Measured, rounds: int, chance: str, observe: bool, narrate: bool, micro: bool) -> None:
    """The text report: Meeple's table, then the peers' with their ratios."""
    chances = ", chance events as decisions" if chance == "explicit" else ""
    observed = ", an observation vector before each decision" if observe else ""
    click.echo(f"{name}: random play, one core, CPU time, {'narrated' if narrate else 'quiet'} games{chances}"
               f"{observed}")
    head = ["players", "games", "decisions", "seconds", "games/s", "decisions/s"]
    if micro:
        head += ["new_game µs", "copy µs", "apply_index µs"]
    lines = []
    for r in m.rows:
        cells = [str(r.players), str(r.games), str(r.decisions), f"{r.seconds:.2f}", f"{r.games_per_s:.1f}",
                 f"{r.decisions_per_s:.0f}"]
        if micro:
            t = m.micros[r.players]
            cells += [f"{t['new_game_us']:.1f}", f"{t['copy_us']:.1f}", f"{t['apply_index_us']:.1f}"]
        lines.append(cells)
    click.echo(table(head, lines))
    if m.peers:
        click.echo("")
        click.echo(table(["engine", "players", "games", "seconds", "games/s", "decisions/s", "Meeple ratio"],
                         [[p.engine, str(p.players), str(p.games), f"{p.seconds:.2f}", f"{p.games_per_s:.1f}",
                           f"{p.decisions_per_s:.0f}", "-" if m.ratios[j] is None else f"{m.ratios[j]:.2f}x"]
                          for j, p in enumerate(m.peers)]))
        if rounds > 1:
            click.echo(f"\nmedians of {rounds} rounds, Meeple then the peer in each; the ratio of each round:")
            for j, p in enumerate(m.peers):
                click.echo(f"  {p.engine} ({p.players} players): " + " ".join(f"{x:.2f}x" for x in m.per_round[j]))
    elif rounds > 1:
        click.echo(f"\nmedians of {rounds} rounds")
