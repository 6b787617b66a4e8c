"""Statistics of a tournament from its game records: win rates with Wilson intervals,
per-seat breakdown, game lengths, OpenSkill (Plackett-Luce) ratings for any number of
players, Elo for 2-player games, and a head-to-head matrix; as a dict (JSON), a rich
table, markdown and a PNG.

A record is one line of a tournament's ``games.jsonl`` (see ``agents.tournament``); the
fields used here are ``index``, ``agents`` (the spec in each seat), ``returns`` (per
seat), ``winner`` (seat or None), ``outcome``, ``length`` (actions) and ``turns``.

Within a game, a seat's rank is one plus the number of seats with a strictly higher
return (the winner 1, everyone else 2; a truncated game ties all). An agent that holds
several seats of one game (fewer agents than seats) takes its best seat's rank, and wins
the game if any of its seats won; its fair share of wins is then its seats / players.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from labyrinth_env.agents.evaluate import wilson_interval

ELO_BASE = 1500.0
OPENSKILL_ORDERS = 8


def seat_ranks(returns: Sequence[float]) -> list[int]:
    """1 + the number of seats with a strictly higher return, per seat."""
    return [1 + sum(other > r for other in returns) for r in returns]


def agent_ranks(agents: Sequence[str], returns: Sequence[float]) -> dict[str, int]:
    """Each distinct agent of a game with its best seat's rank."""
    ranks: dict[str, int] = {}
    for spec, rank in zip(agents, seat_ranks(returns), strict=True):
        ranks[spec] = min(rank, ranks.get(spec, rank))
    return ranks


def openskill_ratings(
    records: Iterable[dict[str, Any]], agents: Sequence[str], orders: int = OPENSKILL_ORDERS
) -> dict[str, dict[str, float]]:
    """Plackett-Luce ratings (openskill's defaults: mu 25, sigma 25/3): each distinct
    agent of a game is a one-player team ranked by ``agent_ranks``. Online updates depend
    on the order of the games (a run of late losses outweighs many early wins), which
    means nothing for fixed agents, so mu and sigma are averaged over ``orders`` orders:
    the records' own and seeded shuffles of it. ``ordinal`` is mu - 3 sigma, the
    conservative value to sort by."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    games = []
    for rec in records:
        ranks = agent_ranks(rec["agents"], rec["returns"])
        if len(ranks) >= 2:
            games.append((list(ranks), [float(r) for r in ranks.values()]))
    rng = random.Random(0)
    sums = {spec: [0.0, 0.0] for spec in agents}
    for k in range(orders):
        order = list(games)
        if k:
            rng.shuffle(order)
        ratings = {spec: model.rating(name=spec) for spec in agents}
        for names, ranks in order:
            new = model.rate([[ratings[n]] for n in names], ranks=ranks)
            for n, team in zip(names, new, strict=True):
                ratings[n] = team[0]
        for spec, r in ratings.items():
            sums[spec][0] += r.mu / orders
            sums[spec][1] += r.sigma / orders
    return {spec: {"mu": mu, "sigma": sigma, "ordinal": mu - 3 * sigma} for spec, (mu, sigma) in sums.items()}


def elo_ratings(records: Iterable[dict[str, Any]], agents: Sequence[str]) -> dict[str, float] | None:
    """Elo of the Bradley-Terry maximum-likelihood fit to the 2-player games (a draw is
    half a win each way), so the order of the games does not matter; one virtual drawn
    game per pair that met keeps the fit finite when one side won every game. Mean
    ``ELO_BASE``. None unless every record is a 2-player game between two agents."""
    index = {spec: i for i, spec in enumerate(agents)}
    k = len(agents)
    wins = [[0.0] * k for _ in range(k)]
    any_game = False
    for rec in records:
        seats = rec["agents"]
        if len(seats) != 2 or seats[0] == seats[1]:
            return None
        a, b = index[seats[0]], index[seats[1]]
        ra, rb = seat_ranks(rec["returns"])
        wins[a][b] += 1.0 if ra < rb else 0.5 if ra == rb else 0.0
        wins[b][a] += 1.0 if rb < ra else 0.5 if ra == rb else 0.0
        any_game = True
    if not any_game:
        return None
    for i in range(k):
        for j in range(k):
            if i != j and wins[i][j] + wins[j][i] > 0:
                wins[i][j] += 0.5
    games = [[wins[i][j] + wins[j][i] for j in range(k)] for i in range(k)]
    gamma = [1.0] * k
    for _ in range(10_000):
        # Hunter's MM update for Bradley-Terry: gamma_i = W_i / sum_j n_ij / (gamma_i + gamma_j)
        new = []
        for i in range(k):
            denom = sum(games[i][j] / (gamma[i] + gamma[j]) for j in range(k) if j != i and games[i][j] > 0)
            new.append(sum(wins[i]) / denom if denom > 0 else gamma[i])
        mean_log = sum(math.log(g) for g in new) / k
        new = [g / math.exp(mean_log) for g in new]
        done = max(abs(math.log(x / y)) for x, y in zip(new, gamma, strict=True)) < 1e-12
        gamma = new
        if done:
            break
    return {spec: ELO_BASE + 400.0 * math.log10(gamma[index[spec]]) for spec in agents}


def _rate(successes: int, trials: int) -> dict[str, Any]:
    lo, hi = wilson_interval(successes, trials)
    return {"games": trials, "wins": successes, "win_rate": successes / trials if trials else 0.0, "ci95": [lo, hi]}


def _mean(values: Sequence[float]) -> float:
    return float(sum(values) / len(values)) if values else 0.0


def tournament_report(
    records: Sequence[dict[str, Any]],
    agents: Sequence[str] | None = None,
    *,
    cooperative: bool = False,
    meta: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """All statistics of ``records`` (sorted by ``index`` here). ``agents`` fixes the
    order of rows (default: sorted specs). In a cooperative tournament every record has
    one agent in all seats and the rate is the team's success (outcome ``"won"``)."""
    records = sorted(records, key=lambda r: r["index"])
    if agents is None:
        agents = sorted({spec for rec in records for spec in rec["agents"]})
    agents = list(agents)
    unknown = sorted({spec for rec in records for spec in rec["agents"]} - set(agents))
    if unknown:
        raise ValueError(f"records name agents {unknown} that are not in the tournament's agents {agents}")
    outcomes = Counter(rec["outcome"] for rec in records)
    report: dict[str, Any] = {
        **(meta or {}),
        "agents": agents,
        "cooperative": cooperative,
        "games": len(records),
        "outcomes": dict(sorted(outcomes.items())),
        "mean_length": _mean([rec["length"] for rec in records]),
        "mean_turns": _mean([rec["turns"] for rec in records]),
    }
    if cooperative:
        rows = {}
        for spec in agents:
            mine = [rec for rec in records if rec["agents"][0] == spec]
            won = sum(rec["outcome"] == "won" for rec in mine)
            rows[spec] = {
                **_rate(won, len(mine)),
                "outcomes": dict(sorted(Counter(rec["outcome"] for rec in mine).items())),
                "mean_length": _mean([rec["length"] for rec in mine]),
                "mean_turns": _mean([rec["turns"] for rec in mine]),
                "mean_treasures": _mean([rec.get("treasures", 0) for rec in mine]),
            }
        report["per_agent"] = rows
        return report

    players = max((len(rec["agents"]) for rec in records), default=0)
    rows = {}
    for spec in agents:
        mine = [rec for rec in records if spec in rec["agents"]]
        won = sum(rec["winner"] is not None and rec["agents"][rec["winner"]] == spec for rec in mine)
        per_seat = {}
        for seat in range(players):
            at = [rec for rec in mine if seat < len(rec["agents"]) and rec["agents"][seat] == spec]
            per_seat[str(seat)] = _rate(sum(rec["winner"] == seat for rec in at), len(at))
        rows[spec] = {
            **_rate(won, len(mine)),
            "seats": sum(rec["agents"].count(spec) for rec in mine),
            "fair_share": _mean([rec["agents"].count(spec) / len(rec["agents"]) for rec in mine]),
            "no_winner": sum(rec["winner"] is None for rec in mine),
            "mean_length": _mean([rec["length"] for rec in mine]),
            "per_seat": per_seat,
        }
    report["per_agent"] = rows
    report["per_seat"] = {
        str(seat): _rate(sum(rec["winner"] == seat for rec in records), len(records)) for seat in range(players)
    }
    report["openskill"] = openskill_ratings(records, agents)
    report["elo"] = elo_ratings(records, agents)
    h2h: dict[str, dict[str, dict[str, Any]]] = {a: {} for a in agents}
    for a in agents:
        for b in agents:
            if a == b:
                continue
            together = ahead = ties = 0
            for rec in records:
                if a in rec["agents"] and b in rec["agents"]:
                    ranks = agent_ranks(rec["agents"], rec["returns"])
                    together += 1
                    ahead += ranks[a] < ranks[b]
                    ties += ranks[a] == ranks[b]
            h2h[a][b] = {
                "games": together,
                "ahead": ahead,
                "ties": ties,
                "score": (ahead + 0.5 * ties) / together if together else None,
            }
    report["head_to_head"] = h2h
    return report


# --- output ---------------------------------------------------------------------------------------
def _ci(row: dict[str, Any]) -> str:
    lo, hi = row["ci95"]
    return f"[{lo:.3f}, {hi:.3f}]"


def _ranked(report: dict[str, Any]) -> list[str]:
    """Agents best first: by OpenSkill ordinal, else by win rate."""
    if report.get("openskill"):
        return sorted(report["agents"], key=lambda a: -report["openskill"][a]["ordinal"])
    return sorted(report["agents"], key=lambda a: -report["per_agent"][a]["win_rate"])


def _title(report: dict[str, Any]) -> str:
    opts = ", ".join(f"{k}={v}" for k, v in report.get("options", {}).items())
    head = report.get("env_id", "tournament")
    return f"{head} ({opts}), {report['games']} games, seed {report.get('seed', '?')}"


def agent_rows(report: dict[str, Any]) -> tuple[list[str], list[list[str]]]:
    """The main table (header, rows), shared by the rich and markdown output."""
    per = report["per_agent"]
    if report["cooperative"]:
        header = ["agent", "games", "successes", "success rate", "95% CI", "mean length", "mean collected"]
        rows = [
            [
                a,
                str(per[a]["games"]),
                str(per[a]["wins"]),
                f"{per[a]['win_rate']:.3f}",
                _ci(per[a]),
                f"{per[a]['mean_length']:.1f}",
                f"{per[a]['mean_treasures']:.2f}",
            ]
            for a in _ranked(report)
        ]
        return header, rows
    header = ["agent", "games", "wins", "win rate", "95% CI", "fair share", "mean length", "OpenSkill mu ± sigma"]
    header.append("ordinal")
    if report["elo"] is not None:
        header.append("Elo")
    rows = []
    for a in _ranked(report):
        row = per[a]
        skill = report["openskill"][a]
        cells = [
            a,
            str(row["games"]),
            str(row["wins"]),
            f"{row['win_rate']:.3f}",
            _ci(row),
            f"{row['fair_share']:.3f}",
            f"{row['mean_length']:.1f}",
            f"{skill['mu']:.2f} ± {skill['sigma']:.2f}",
            f"{skill['ordinal']:.2f}",
        ]
        if report["elo"] is not None:
            cells.append(f"{report['elo'][a]:.0f}")
        rows.append(cells)
    return header, rows


def seat_rows(report: dict[str, Any]) -> tuple[list[str], list[list[str]]]:
    seats = list(report["per_seat"])
    header = ["agent", *[f"seat {s}" for s in seats]]
    rows = []
    for a in _ranked(report):
        cells = [a]
        for s in seats:
            r = report["per_agent"][a]["per_seat"][s]
            cells.append(f"{r['win_rate']:.3f} ({r['wins']}/{r['games']})" if r["games"] else "-")
        rows.append(cells)
    overall = ["all seats"]
    for s in seats:
        r = report["per_seat"][s]
        overall.append(f"{r['win_rate']:.3f} ({r['wins']}/{r['games']})")
    rows.append(overall)
    return header, rows


def h2h_rows(report: dict[str, Any]) -> tuple[list[str], list[list[str]]]:
    order = _ranked(report)
    header = ["row ahead of column", *order]
    rows = []
    for a in order:
        cells = [a]
        for b in order:
            cell = report["head_to_head"][a].get(b)
            cells.append("-" if cell is None or cell["score"] is None else f"{cell['score']:.3f} ({cell['games']})")
        rows.append(cells)
    return header, rows


def _notes(report: dict[str, Any]) -> list[str]:
    notes = [
        f"outcomes: {report['outcomes']}; mean length {report['mean_length']:.1f} actions, "
        f"{report['mean_turns']:.1f} turns"
    ]
    cycle = report.get("cycle")
    if cycle and report["games"] % cycle:
        notes.append(
            f"seatings are balanced over whole cycles of {cycle} games; {report['games']} games is not a multiple"
        )
    if not report["cooperative"]:
        notes.append(
            "win rate: games won by one of the agent's seats / games played, Wilson 95% CI; fair share: its seats / "
            "players; head-to-head: share of shared games the row agent finished ahead of the column agent "
            "(ties count half), games in brackets"
        )
    return notes


def print_report(report: dict[str, Any], console: Any = None) -> None:
    """The report as rich tables."""
    from rich.console import Console
    from rich.table import Table

    # Wide tables: let them be wider than a pipe's 80 columns rather than wrap headers.
    console = console or Console(width=max(Console().width, 150))
    header, rows = agent_rows(report)
    tables = [(_title(report), header, rows)]
    if not report["cooperative"]:
        tables.append(("win rate by seat (wins/games)", *seat_rows(report)))
        tables.append(("head-to-head", *h2h_rows(report)))
    for title, head, body in tables:
        table = Table(title=title)
        for col in head:
            table.add_column(col)
        for row in body:
            table.add_row(*row)
        console.print(table)
    for note in _notes(report):
        console.print(note)


def _md_table(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def report_markdown(report: dict[str, Any]) -> str:
    parts = [f"# Tournament: {_title(report)}", "", _md_table(*agent_rows(report)), ""]
    if not report["cooperative"]:
        parts += ["## Win rate by seat", "", _md_table(*seat_rows(report)), ""]
        parts += ["## Head-to-head", "", _md_table(*h2h_rows(report)), ""]
    parts += [f"- {note}" for note in _notes(report)]
    return "\n".join(parts) + "\n"


def plot_report(report: dict[str, Any], path: str | Path) -> Path | None:
    """Win rates with their intervals (and the head-to-head matrix) as a PNG; None when
    matplotlib is not installed."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    order = _ranked(report)
    per = report["per_agent"]
    with_h2h = not report["cooperative"] and len(order) > 1
    fig, axes = plt.subplots(1, 2 if with_h2h else 1, figsize=(11 if with_h2h else 6, 4.5), squeeze=False)
    ax = axes[0][0]
    rates = [per[a]["win_rate"] for a in order]
    err = [[r - per[a]["ci95"][0] for a, r in zip(order, rates)], [per[a]["ci95"][1] - r for a, r in zip(order, rates)]]
    ax.bar(range(len(order)), rates, yerr=err, capsize=4, color="tab:blue")
    if not report["cooperative"]:
        ax.scatter(range(len(order)), [per[a]["fair_share"] for a in order], color="k", marker="_", s=400, zorder=3)
    ax.set_xticks(range(len(order)), order, rotation=20)
    ax.set_ylim(0, 1)
    ax.set_ylabel("success rate" if report["cooperative"] else "win rate (black mark: fair share)")
    ax.set_title(f"{report.get('env_id', '')}: {report['games']} games, Wilson 95% CI")
    if with_h2h:
        ax = axes[0][1]
        h2h = report["head_to_head"]
        grid = [
            [h2h[a][b]["score"] if a != b and h2h[a][b]["score"] is not None else math.nan for b in order]
            for a in order
        ]
        im = ax.imshow(grid, vmin=0, vmax=1, cmap="RdBu")
        ax.set_xticks(range(len(order)), order, rotation=20)
        ax.set_yticks(range(len(order)), order)
        for i in range(len(order)):
            for j in range(len(order)):
                if not math.isnan(grid[i][j]):
                    colour = "white" if abs(grid[i][j] - 0.5) > 0.3 else "black"
                    ax.text(j, i, f"{grid[i][j]:.2f}", ha="center", va="center", color=colour)
        ax.set_title("head-to-head: row ahead of column")
        fig.colorbar(im, ax=ax)
    fig.tight_layout()
    out = Path(path)
    fig.savefig(out, dpi=100)
    plt.close(fig)
    return out
