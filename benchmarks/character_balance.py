"""Character balance of a ruleset with character cards (Paths of Destiny, 3rd edition and
2011): each character's win rate in games of the heuristic against itself, seats rotated,
with 95% Wilson intervals, against the fair share (issues 20 and 21: a character outside
[0.5x, 2x] of it is rebalanced, or the rules doc says why).

The cards come from the env's table (its ``character_table``, a ``core.characters.
CharacterTable``), so one tool serves every edition. Each block draws n different
characters among those the set-up allows for n players and plays n games on one seed, the
characters rotated one seat further each game: every character of the block plays from
every seat on the same dice. Truncated games (``--max-turns``) are nobody's: the fair
share is the share of decided games over n (1/n when every game is decided). A character
is flagged ``!`` outside [0.5x, 2x] of it, ``~`` when its interval misses it.

    python benchmarks/character_balance.py --env paths_of_destiny_3e --players 2 3 4 5 6 \\
        --blocks 200 --out docs/rules/paths_of_destiny_3e_balance.md
    python benchmarks/character_balance.py --env paths_of_destiny_2011 --players 2 3 4 5 6 \\
        --blocks 600 --out docs/rules/paths_of_destiny_2011_balance.md --json balance.json
    python benchmarks/character_balance.py --env paths_of_destiny_2011 --players 3 --blocks 5  # a quick look
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from labyrinth_env.agents.evaluate import wilson_interval as wilson

OUTSIDE, OFF_FAIR = "!", "~"  # outside [0.5x, 2x]; the interval misses the fair share


def resolve_env(name: str) -> str:
    """An env id, or a ruleset name (``paths_of_destiny_2011``) for its registered id."""
    import labyrinth_env

    ids = labyrinth_env.list_envs()
    if name in ids:
        return name
    found = [i for i in ids if i.rsplit("_v", 1)[0] == name]
    if not found:
        raise SystemExit(f"unknown env {name!r}; registered: {', '.join(ids)}")
    return found[-1]


def character_table(env_id: str) -> Any:
    import labyrinth_env

    table = getattr(type(labyrinth_env.raw_env(env_id)), "character_table", None)
    if table is None:
        raise SystemExit(f"{env_id} has no character cards (its env declares no character_table)")
    return table


def summarise(n: int, games: int, decided: int, seat_wins: list[int], played: dict, won: dict, table: Any) -> dict:
    """One player count: per character its games, wins, rate, interval, ratio to the fair
    share and flag."""
    fair = decided / games / n if games else 0.0
    rows = []
    for c, name in enumerate(table.names):
        g, w = played.get(name, 0), won.get(name, 0)
        if not g:
            continue
        rate = w / g
        lo, hi = wilson(w, g)
        ratio = rate / fair if fair > 0 else float("nan")
        flag = OUTSIDE if not 0.5 <= ratio <= 2.0 else (OFF_FAIR if lo > fair or hi < fair else "")
        source = table.sources[c] if table.sources else ""
        rows.append(
            {"character": name, "source": source, "games": g, "wins": w, "rate": rate, "low": lo, "high": hi}
            | {"ratio": ratio, "flag": flag}
        )
    rows.sort(key=lambda r: -r["rate"])
    return {"players": n, "games": games, "decided": decided, "fair_share": fair, "seat_wins": seat_wins} | {
        "characters": rows
    }


def run(env_id: str, players: list[int], blocks: int, max_turns: int, seed: int, progress: bool = False) -> dict:
    """Play the blocks of every player count; the figures per player count."""
    from tqdm import tqdm

    import labyrinth_env
    from labyrinth_env import get_spec
    from labyrinth_env.core.contract import new_states

    table = character_table(env_id)
    loops = get_spec(env_id).loops
    states = new_states(labyrinth_env.raw_env(env_id).kernel, 1)
    out = np.zeros((1, 4), dtype=np.int64)
    rng = np.random.default_rng(seed)
    bar = tqdm(total=blocks * sum(players), desc=env_id, unit="game", disable=not progress, file=sys.stderr)
    results = []
    for n in players:
        dealable = set(table.dealable(n))
        pool = [c for c, name in enumerate(table.names) if name in dealable]
        played: dict[str, int] = {}
        won: dict[str, int] = {}
        seat_wins = [0] * n
        decided = 0
        for b in range(blocks):
            deal = [table.names[int(c)] for c in rng.choice(pool, size=n, replace=False)]
            game_seed = np.array([seed * 1_000_003 + n * 10_007 + b], dtype=np.uint64)
            for r in range(n):
                by_seat = deal[r:] + deal[:r]
                env = labyrinth_env.raw_env(env_id, num_players=n, max_turns=max_turns, characters=by_seat)
                loops.play_games(states, env.options_vector(), game_seed, (1 << n) - 1, 0, out)
                for name in by_seat:
                    played[name] = played.get(name, 0) + 1
                w = int(out[0, 0])
                if w >= 0:
                    decided += 1
                    won[by_seat[w]] = won.get(by_seat[w], 0) + 1
                    seat_wins[w] += 1
                bar.update(1)
        results.append(summarise(n, blocks * n, decided, seat_wins, played, won, table))
    bar.close()
    return {"env": env_id, "blocks": blocks, "max_turns": max_turns, "seed": seed, "characters": list(table.names)} | {
        "players": results
    }


def markdown(result: dict) -> str:
    """The report: a summary row per player count, then a table per player count."""
    lines = [
        f"# Character balance: `{result['env']}`",
        "",
        "Written by `benchmarks/character_balance.py` (heuristic against heuristic in every seat; each block",
        "deals n different characters and plays n games on one seed, the characters rotated one seat each",
        f"game). {result['blocks']} blocks per player count, max_turns {result['max_turns']}, seed "
        f"{result['seed']}, {result.get('seconds', 0):.0f} s. Win rate with a 95% Wilson interval; *x fair* is "
        "the rate over the fair share (the decided games' share / n). A character outside [0.5x, 2x] is "
        f"marked `{OUTSIDE}`, one whose interval misses the fair share `{OFF_FAIR}`.",
        "",
        *([f"Command: `{result['command']}`", ""] if result.get("command") else []),
    ]
    names = result["characters"]  # the table's order
    lines += ["| players | games | " + " | ".join(names) + " |", "|---|---|" + "---|" * len(names)]
    for p in result["players"]:
        by_name = {r["character"]: r for r in p["characters"]}
        cells = []
        for name in names:
            r = by_name.get(name)
            cells.append(f"{r['rate']:.3f} ({r['ratio']:.2f}x){r['flag']}" if r else "-")
        lines.append(f"| {p['players']} | {p['games']} | " + " | ".join(cells) + " |")
    lines.append("")
    for p in result["players"]:
        lines += [
            f"## {p['players']} players ({p['games']} games, {p['decided']} won, fair share {p['fair_share']:.3f}, "
            f"wins by seat {p['seat_wins']})",
            "",
            "| character | source | games | wins | win rate | 95% interval | x fair |",
            "|---|---|---|---|---|---|---|",
        ]
        for r in p["characters"]:
            lines.append(
                f"| {r['character']} | {r['source']} | {r['games']} | {r['wins']} | {r['rate']:.3f} | "
                f"{r['low']:.3f}-{r['high']:.3f} | {r['ratio']:.2f}{' ' + r['flag'] if r['flag'] else ''} |"
            )
        lines.append("")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--env", required=True, help="env id or ruleset name (paths_of_destiny_3e, paths_of_destiny_2011)")
    ap.add_argument("--players", type=int, nargs="+", help="player counts (default: every one the env allows)")
    ap.add_argument("--blocks", type=int, default=100, help="deals per player count (n games each)")
    ap.add_argument("--max-turns", type=int, default=400)
    ap.add_argument("--seed", type=int, default=20)
    ap.add_argument("--out", type=Path, help="markdown report (default: print it)")
    ap.add_argument("--json", type=Path, help="also write the figures as JSON")
    ap.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    args = ap.parse_args(argv)
    env_id = resolve_env(args.env)
    if args.players is None:
        from labyrinth_env.registry import player_range

        lo, hi = player_range(env_id)
        args.players = list(range(lo, hi + 1))
    t0 = time.time()
    result = run(env_id, args.players, args.blocks, args.max_turns, args.seed, progress=not args.no_progress)
    result["seconds"] = round(time.time() - t0, 1)
    result["command"] = "python benchmarks/character_balance.py " + " ".join(sys.argv[1:] if argv is None else argv)
    text = markdown(result)
    if args.out:
        args.out.write_text(text + "\n")
        print(f"wrote {args.out}")
    else:
        print(text)
    if args.json:
        args.json.write_text(json.dumps(result, indent=1) + "\n")
        print(f"wrote {args.json}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
