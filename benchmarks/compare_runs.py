"""Learning curves of several training runs in one picture: what each aid buys.

Reads the ``eval.jsonl`` that ``labyrinth train`` writes in a run's folder (a win rate with
its Wilson interval at each evaluation: by training step for MaskablePPO, by iteration for
the self-play learner and ``algo: distill``) for every ``LABEL=FOLDER`` given, draws each run's
curve against one ``--opponent`` with its 95% band, and prints a table: the first step at
which the run reached ``--goal``, its best and its last win rate. Writes the picture
(``--out``) and the table as JSON beside it.

    python benchmarks/compare_runs.py "both aids=results/train/a" "features only=results/train/b" \\
        --opponent random --goal 0.9 --out docs/img/ppo_aids.png
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any


class RunError(ValueError):
    """A run folder or its ``eval.jsonl`` that cannot be read."""


def read_curve(folder: Path, opponent: str) -> list[dict[str, Any]]:
    """The evaluations of ``folder/eval.jsonl`` against ``opponent``, by training step."""
    path = folder / "eval.jsonl"
    if not path.is_file():
        raise RunError(f"{path}: no such file (a folder `labyrinth train` wrote holds one)")
    rows = []
    for number, line in enumerate(path.read_text().splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            if "eval" in row:  # an iteration's evaluations (self-play, distill): x is the iteration
                found = [{**r, "timesteps": row["iteration"], "unit": "iterations"} for r in row["eval"]]
            else:
                found = [{**row, "unit": "steps"}]
            found = [{k: r[k] for k in ("opponent", "timesteps", "win_rate", "ci95", "games", "unit")} for r in found]
        except (json.JSONDecodeError, KeyError, TypeError) as exc:
            raise RunError(f"{path}, line {number}: not an evaluation of `labyrinth train` ({exc})") from None
        rows += [r for r in found if r["opponent"] == opponent]
    if not rows:
        raise RunError(f"{path}: no evaluation against {opponent!r}")
    return sorted(rows, key=lambda r: r["timesteps"])


def summarize(rows: list[dict[str, Any]], goal: float) -> dict[str, Any]:
    """First step at ``goal`` or above (None if never), best and last win rate."""
    reached = next((r["timesteps"] for r in rows if r["win_rate"] >= goal), None)
    best = max(rows, key=lambda r: r["win_rate"])
    return {
        "goal_step": reached,
        "best": best["win_rate"],
        "best_step": best["timesteps"],
        "last": rows[-1]["win_rate"],
        "last_step": rows[-1]["timesteps"],
        "games": rows[-1]["games"],
    }


def plot(curves: dict[str, list[dict[str, Any]]], goal: float, opponent: str, title: str, out: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import matplotlib.ticker

    fig, ax = plt.subplots(figsize=(9, 4.5))
    for label, rows in curves.items():
        steps = [r["timesteps"] for r in rows]
        (line,) = ax.plot(steps, [r["win_rate"] for r in rows], marker="o", label=label)
        ax.fill_between(
            steps, [r["ci95"][0] for r in rows], [r["ci95"][1] for r in rows], alpha=0.15, color=line.get_color()
        )
    ax.axhline(goal, linestyle="--", color="grey", label=f"goal {goal:g}")
    if next(iter(curves.values()))[0]["unit"] == "iterations":
        ax.set_xlabel("training iterations")
    else:
        ax.set_xlabel("training steps (learner decisions)")
        # 400000 and its neighbours ran into each other; 400k does not
        ax.xaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda x, _: f"{x / 1000:,.0f}k" if x else "0"))
    ax.set_ylabel(f"win rate vs {opponent} (95% Wilson CI)")
    ax.set_ylim(-0.02, 1.02)
    ax.grid(alpha=0.3)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize="small")
    fig.suptitle(title, fontsize="medium", wrap=True)
    fig.tight_layout()
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out, dpi=120)
    plt.close(fig)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "runs", nargs="+", metavar="LABEL=FOLDER", help="a run's label and its `labyrinth train` folder"
    )
    parser.add_argument("--opponent", default="random", help="whose evaluations to draw (default random)")
    parser.add_argument("--goal", type=float, default=0.9, help="the win rate the table times (default 0.9)")
    parser.add_argument("--title", default="", help="the picture's title")
    parser.add_argument("--out", default="results/bench/compare_runs.png", help="the picture (PNG); JSON beside it")
    args = parser.parse_args(argv)
    curves: dict[str, list[dict[str, Any]]] = {}
    try:
        if not 0.0 <= args.goal <= 1.0:
            raise RunError(f"--goal must be a win rate in [0, 1], got {args.goal}")
        for item in args.runs:
            label, sep, folder = item.partition("=")
            if not sep or not label or not folder:
                raise RunError(f"{item!r}: give each run as LABEL=FOLDER")
            if label in curves:
                raise RunError(f"{label!r}: two runs with one label")
            curves[label] = read_curve(Path(folder), args.opponent)
            if curves[label][0]["unit"] != next(iter(curves.values()))[0]["unit"]:
                raise RunError(f"{folder}: its evaluations are by {curves[label][0]['unit']}, the first run's are not")
    except RunError as exc:
        print(f"compare_runs.py: {exc}", file=sys.stderr)
        return 2
    table = {label: summarize(rows, args.goal) for label, rows in curves.items()}
    print(f"{'run':<36} {'first at goal':>14} {'best (step)':>20} {'last (step)':>20}")
    for label, row in table.items():
        first = "never" if row["goal_step"] is None else f"{row['goal_step']:,}"
        best = f"{row['best']:.3f} ({row['best_step']:,})"
        last = f"{row['last']:.3f} ({row['last_step']:,})"
        print(f"{label:<36} {first:>14} {best:>20} {last:>20}")
    out = Path(args.out)
    plot(curves, args.goal, args.opponent, args.title or f"win rate vs {args.opponent}", out)
    out.with_suffix(".json").write_text(
        json.dumps({"goal": args.goal, "opponent": args.opponent, "runs": table}, indent=1)
    )
    print(f"written {out} and {out.with_suffix('.json')}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
