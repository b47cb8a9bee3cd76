"""`meeple compare BASE VARIANT...`: play every ruleset on the same seeds and show the results side by side.

The figures come from interpreter/tools/compare.py. The report leads with what each variant changes
(from `meeple diff`) and how often the changed parts ran. Each cell of a variant is marked against the
base: `*` when the difference is significant (p < 0.05 after Holm's correction over all the figures of
that variant), `~` when it is not; the "differences" section says it in words. The first-player
advantage is tested against the fair share, in a section of its own. `--plot` draws score distributions and seat win rates (needs the `plot` extra).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import click
from meeple import errors as E
from meeple.cli.common import check_games, check_workers, format_option, table, usage
from meeple.cli.diff import changes_text
from meeple.cli.runs import (
    INTERRUPTED,
    backend_options,
    play_runs,
    progress_option,
    run_json,
    shows_progress,
    warn_about_play,
    workers_option,
)
from meeple.errors import MeepleError, Problem, Span
from meeple.tools.agents import AGENT_SPECS
from meeple.tools.rulediff import changes_from_base, changes_of, same_rules
from meeple.tools.stats import inconclusive


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def _num(x: float | None, digits: int = 1) -> str:
    return "-" if x is None else f"{x:.{digits}f}"


def _mark(rows: list[dict], what: str) -> str:
    row = next((r for r in rows if r["what"] == what), None)
    if row is None:
        return ""
    return " *" if row["significant"] else " ~"


def _star(rows: list[dict], what: str) -> str:
    """Items are many: mark only their significant changes, to keep the table readable."""
    return "*" if any(r["what"] == what and r["significant"] for r in rows) else ""


def render(res: dict[str, Any]) -> str:
    sums, diffs = res["rulesets"], res["differences"]
    letters = [chr(ord("A") + i) for i in range(len(sums))]
    out = [(f"{len(sums)} rulesets, {res['players']} players, {res['games']} games each on matched seeds "
            f"(seed {res['seed']}), agents {', '.join(res['agents'])}")]
    for letter, s in zip(letters, sums):
        out.append(f"  {letter} = {s['ruleset']} ({s['path']}){'  [base]' if letter == 'A' else ''}")
    for f in res.get("skipped", []):
        out.append(f"  not played: {f['ruleset']} ({f['path']}): the same rules as A")
    for f in res.get("failed", []):
        out.append(f"  not compared: {f['ruleset']} ({f['path']}): a rules error stopped its games "
                   "(reported on stderr, with the game it broke)")
    if all(a == "random" for a in res["agents"]):
        out.append("  note: every seat is a random bot. Random bots do not react to a rule's incentives, so a "
                   "change that players would exploit (or avoid) may show no effect here; try --agents greedy.")
    if res.get("changes"):
        out.append("\nWhat each variant changes (meeple diff), and how often the changed parts ran in its games")
        for letter, s, ch in zip(letters[1:], sums[1:], res["changes"]):
            out += changes_text(letter, s["ruleset"], ch)
    tests = max((sum(r["p"] is not None for r in d["rows"]) for d in diffs), default=0)
    out.append(f"\nVersus the base A: * significant, ~ not, at p < {res.get('alpha', 0.05)} after "
               f"{res.get('correction', 'Holm')}'s correction for the {tests} figures compared per variant\n")

    def cells(fn: Any, what: str | None = None) -> list[str]:
        row = [fn(sums[0])]
        for s, d in zip(sums[1:], diffs):
            row.append(fn(s) + (_mark(d["rows"], what) if what else ""))
        return row

    rows = []
    for k in range(res["players"]):
        rows.append([f"P{k + 1} win rate [95% CI]"] + cells(
            lambda s, k=k: f"{_pct(s['seats'][k]['win_rate'])} [{_pct(s['seats'][k]['win_ci'][0])}-"
                           f"{_pct(s['seats'][k]['win_ci'][1])}]", f"P{k + 1} win rate"))
    rows.append(["score mean (sd)"] + cells(lambda s: f"{_num(s['score']['mean'])} ({_num(s['score']['sd'])})",
                                            "score mean"))
    rows.append(["winning margin (sd)"] + cells(
        lambda s: f"{_num(s['margin']['mean'])} ({_num(s['margin']['sd'])})", "winning margin"))
    rows.append([f"game length, {sums[0]['length']['unit']} (sd)"] + cells(
        lambda s: f"{_num(s['length']['mean'])} ({_num(s['length']['sd'])})", "game length"))
    rows.append(["decisions per game"] + cells(lambda s: _num(s["decisions_mean"], 0)))
    out.append(table([""] + letters, rows))
    out.append("\nVersus the fair share (each ruleset on its own, not against A): does P1 win more than 1 in "
               f"{res['players']}?")
    out += [f"  {letter}: first-player advantage {100 * s['first_player']['advantage']:+.1f} points "
            f"(P1 wins {_pct(s['first_player']['win_rate'])}, fair {_pct(s['first_player']['fair'])}; "
            f"p {s['first_player']['p']:.3f}, {'significant' if s['first_player']['p'] < res.get('alpha', 0.05) else 'not significant'})"
            for letter, s in zip(letters, sums)]
    if len(set(res["agents"])) > 1:  # found by QA: a weak bot in seat 1 read as a seat that loses
        out.append(f"  (the seats play different bots, {', '.join(res['agents'])}: P1's share mixes the first "
                   "seat's advantage with its bot's strength; give one bot, or read the variant's change)")

    out.append("\nItems: held = games in which a player ends holding it; win = its owners' win rate; "
               "* = significant change")
    item_rows = []
    for item, b in sums[0]["items"].items():
        row = [f"{item} ({b['kind']}" + (f" x{b['copies']})" if b["copies"] > 1 else ")")]
        for i, s in enumerate(sums):
            it = s["items"].get(item)
            if it is None:
                row.append("(removed)")
                continue
            rows_i = diffs[i - 1]["rows"] if i else []
            row.append(f"{_pct(it['held_rate'])}{_star(rows_i, f'{item} held')} "
                       f"{_pct(it['owner_win_rate'])}{_star(rows_i, f'{item} owners win rate')}")
        item_rows.append(row)
    for i, s in enumerate(sums[1:], 1):  # items that only a variant has
        for item, it in s["items"].items():
            if item not in sums[0]["items"]:
                item_rows.append([f"{item} ({it['kind']}, new)"] + ["-"] * i +
                                 [f"{_pct(it['held_rate'])} {_pct(it['owner_win_rate'])}"] +
                                 ["-"] * (len(sums) - i - 1))
    out.append(table(["item"] + [f"{x}: held win" for x in letters], item_rows))

    out.append("\nDifferences against A (items: only the significant ones; p raw, and adjusted for the "
               "number of figures compared). Where a headline figure is not significant, \"inconclusive\" gives the "
               "smallest difference these games had an 80% chance to show (after the correction)")
    for letter, d in zip(letters[1:], diffs):
        out.append(f"  {letter}: {d['variant']}")
        for r in d["rows"]:
            if r["item"] is None or r["significant"]:
                verdict = "significant" if r["significant"] else "not significant"
                adj = r.get("p_adjusted")
                out.append(f"    {r['what']}: {_fmt(r['base'])} -> {_fmt(r['variant'])} "
                           f"({'+' if r['diff'] >= 0 else ''}{_fmt(r['diff'])}, p {r['p']:.3f}"
                           + (f", adjusted {adj:.3f}" if adj is not None else "") + f", {verdict})")
                if r.get("inconclusive"):
                    out.append(f"      {inconclusive(r, sums[0]['length']['unit'])}")
    if any("coverage" in s for s in sums):
        out.append("\nRules coverage: what never ran")
        for letter, s in zip(letters, sums):
            never = s["coverage"]["never_ran"]
            if letter != "A" and never == sums[0]["coverage"]["never_ran"]:
                out.append(f"  {letter}: the same as A")
                continue
            out.append(f"  {letter}: {len(never)} of {s['coverage']['units']} never ran" + (":" if never else ""))
            out += [f"    {u['file']}:{u['line']}  {u['kind']} {u['name']}" for u in never]
    return "\n".join(out)


def _differing(args: tuple[str, ...], loaded: list[Any], changes: list[list[dict]]) -> list[int]:
    """The positions of the base and of every variant whose rules differ from it (`changes`, by position);
    a variant with the base's rules (tools/rulediff.same_rules) is said on stderr and not played."""
    same = same_rules(loaded, list(args), changes)
    for k in same:
        click.echo(f"{args[k]}: the same rules as the base {args[0]} (meeple diff shows no change to a rule): "
                   "not played, its games would be the base's", err=True)
    return [k for k in range(len(loaded)) if k not in same]


def failure_error(entry: dict[str, Any]) -> MeepleError:
    """The error of a ruleset in a comparison's `failed`, to report it as the command reports any error."""
    def problem(d: dict[str, Any]) -> Problem:
        span = Span(d["file"], d["line"], d["column"], d["end_line"], d["end_column"]) if d["file"] else None
        return Problem(d["code"], d["message"], span, d["severity"], d["hint"])

    cls = getattr(E, entry["error"], MeepleError)
    return cls([problem(d) for d in entry["problems"]])


def _fmt(x: float | None) -> str:
    if x is None:
        return "-"
    return f"{x:.3f}" if abs(x) < 1 else f"{x:.2f}"


PLOT_FORMATS = (".png", ".svg", ".pdf", ".jpg", ".jpeg", ".eps", ".ps", ".tif", ".tiff", ".webp")


def check_plot_path(path: str) -> None:
    """A file matplotlib can write (its format named by the suffix) in a folder that exists."""
    p = Path(path)
    if p.is_dir():
        raise usage(f"--plot {path} is a folder; give a file name such as {p / 'compare.png'}", code="U032")
    if p.suffix.lower() not in PLOT_FORMATS:
        raise usage(f"--plot {path}: the file name must end in one of {', '.join(PLOT_FORMATS)}", code="U032")
    parent = p.parent if str(p.parent) else Path(".")
    if not parent.is_dir():
        raise usage(f"--plot {path}: there is no folder {parent}", code="U032")
    if not os.access(parent, os.W_OK):
        raise usage(f"--plot {path}: the folder {parent} is not writable", code="U032")


def _need_matplotlib() -> None:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise usage("--plot needs matplotlib, which is not installed",
                    "install it with: pip install 'meeple[plot]'  (or: pip install matplotlib)",
                    code="U031") from None


# The progress line shows by default from this many games (its option's help says so too).
PROGRESS_FROM = 100


@click.command()
@click.argument("rulesets", nargs=-1, required=True)
@click.option("--players", "-p", type=int, default=None, help="Number of players (default: 4, or the nearest "
              "count the base supports).")
@click.option("--games", "-n", type=int, default=200, show_default=True, help="Games per ruleset.")
@click.option("--seed", type=int, default=0, show_default=True, help="Master seed; game i of every ruleset "
              "uses the seed derived from (seed, i).")
@click.option("--agents", default="random", show_default=True, help=f"Bots, comma-separated and cycled over "
              f"the seats: {AGENT_SPECS} (BUDGET: iterations such as 400, or time such as 1s; see docs/agents.md).")
@workers_option
@backend_options
@click.option("--coverage/--no-coverage", default=True, show_default=True,
              help="Report the effects, events, phases, steps and options that never ran.")
@progress_option(PROGRESS_FROM)
@click.option("--plot", "plot_file", default=None, metavar="FILE.png",
              help="Draw score distributions and seat win rates (needs: pip install 'meeple[plot]').")
@format_option
def compare(rulesets: tuple[str, ...], players: int | None, games: int, seed: int, agents: str,
            workers: int | None, backend: str, address: str | None, coverage: bool, progress: bool | None,
            plot_file: str | None, fmt: str) -> None:
    """Play BASE and each VARIANT on the same seeds and compare them side by side.

    RULESETS are BASE VARIANT [VARIANT...]: paths or bundled names."""
    from meeple.cli.common import load, print_error, resolve_players
    from meeple.tools.compare import compare as run

    if len(rulesets) < 2:
        raise usage("give a base ruleset and at least one variant", "meeple compare BASE VARIANT [VARIANT...]")
    check_games(games)
    if workers is not None:
        check_workers(workers)
    if plot_file:
        # Before playing: a bad path found after minutes of games would throw the games away.
        check_plot_path(plot_file)
        _need_matplotlib()
    loaded = [load(r) for r in rulesets]
    n = resolve_players(loaded[0], players)
    # Each variant diffed once (a semantic diff of two whole rulesets): to leave out those with the base's
    # rules, and for the list of what the others change.
    changes = changes_from_base(loaded)
    kept = _differing(rulesets, loaded, changes)  # the base, and the variants whose rules differ from it
    skipped = [{"position": k, "ruleset": rs.name, "path": rs.path} for k, rs in enumerate(loaded) if k not in kept]
    played = [loaded[k] for k in kept]
    total = games * len(played)
    res, stopped = play_runs(backend, address, workers, total, shows_progress(progress, fmt, total, PROGRESS_FROM),
                             lambda update, be: run(played, n, games, seed, agents, coverage=coverage,
                                                    progress=update, backend=be, keep_going=True))
    # A variant whose games a rules error stopped is left out; the others are compared all the same.
    failed = {f["position"] for f in res.get("failed", [])}
    ran = [k for i, k in enumerate(kept) if i not in failed]  # positions among the arguments
    res["changes"] = [changes_of(loaded[0], loaded[k], s, changes[k]) for k, s in zip(ran[1:], res["rulesets"][1:])]
    for f in res.get("failed", []):
        f["position"] = kept[f["position"]]  # among the arguments
    res["skipped"] = skipped
    # The report first: nothing after the games may lose it (a plot that fails to draw).
    if fmt == "json":
        click.echo(json.dumps(run_json({k: v for k, v in res.items() if k != "score_samples"}, games, stopped),
                              indent=2))
    else:
        click.echo(render(res))
    if plot_file:
        from meeple.tools.plot import plot

        try:
            plot(res, plot_file)
        except (OSError, ValueError) as e:
            raise usage(f"the report is above, but the plot could not be written to {plot_file}: {e}",
                        code="IO01") from None
        if fmt != "json":
            click.echo(f"\nplot written to {plot_file}")
    for s in res["rulesets"]:
        warn_about_play(s["ruleset"], s["games"], s["games_without_decisions"], s["games_all_tied"])
    for f in res.get("failed", []):
        click.echo(f"{f['path']} ({f['ruleset']}) was not compared: a rules error stopped its games", err=True)
        print_error(failure_error(f))
    if stopped:
        click.get_current_context().exit(INTERRUPTED)
    if failed:
        click.get_current_context().exit(1)  # invalid input: a variant's rules broke, and CI should notice
