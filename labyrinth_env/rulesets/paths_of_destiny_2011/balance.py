"""Balance report of the Paths of Destiny 2011 characters: the heuristic in every seat, each
character's win rate with a 95% Wilson interval, per player count and against the fair share.

Each block of games draws ``n`` different characters and plays them ``n`` times, the
assignment rotated one seat each time (so every character of the block sits in every seat
once), on new seeds. The fair share of a player count is the share of decided games
divided by ``n`` (truncated games are nobody's); a character is flagged when its rate is
outside [0.5x, 2x] of it, or when its interval lies wholly above or below it.

    python -m labyrinth_env.rulesets.paths_of_destiny_2011.balance --games 3000 --players 2 3 4 5 6
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

import numpy as np


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of ``wins`` in ``n``."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return max(0.0, centre - half), min(1.0, centre + half)


def play(num_players: int, games: int, seed: int, max_turns: int) -> dict:
    """``games`` heuristic games (rounded up to whole blocks of ``num_players``)."""
    from labyrinth_env import get_spec, raw_env
    from labyrinth_env.core.contract import new_states
    from labyrinth_env.rulesets.paths_of_destiny_2011 import SPEC
    from labyrinth_env.rulesets.paths_of_destiny_2011 import components as C
    from labyrinth_env.rulesets.paths_of_destiny_2011 import kernel as K

    loops = get_spec(SPEC.env_id).loops
    states = new_states(K, 1)
    out = np.zeros((1, 4), dtype=np.int64)
    rng = np.random.default_rng(seed)
    played = np.zeros(C.NUM_CHARACTERS, dtype=np.int64)
    won = np.zeros(C.NUM_CHARACTERS, dtype=np.int64)
    seat_wins = np.zeros(num_players, dtype=np.int64)
    decided = 0
    total = 0
    all_seats = (1 << num_players) - 1
    while total < games:
        chars = rng.choice(C.NUM_CHARACTERS, size=num_players, replace=False)
        for r in range(num_players):
            by_seat = [C.CHARACTERS[int(chars[(p + r) % num_players])] for p in range(num_players)]
            opts = raw_env(SPEC.env_id, num_players=num_players, characters=by_seat, max_turns=max_turns)
            game_seed = np.array([rng.integers(1 << 62)], dtype=np.uint64)
            loops.play_games(states, opts.options_vector(), game_seed, all_seats, int(game_seed[0]) % 1000, out)
            total += 1
            winner = int(out[0, 0])
            for p in range(num_players):
                played[chars[(p + r) % num_players]] += 1
            if winner >= 0:
                decided += 1
                won[chars[(winner + r) % num_players]] += 1
                seat_wins[winner] += 1
    fair = decided / total / num_players
    rows = []
    for c in range(C.NUM_CHARACTERS):
        n, w = int(played[c]), int(won[c])
        rate = w / n if n else 0.0
        lo, hi = wilson(w, n)
        ratio = rate / fair if fair > 0 else float("nan")
        flag = ""
        if n and (ratio < 0.5 or ratio > 2.0):
            flag = "outside [0.5x, 2x]"
        elif n and (lo > fair or hi < fair):
            flag = "interval off the fair share"
        rows.append(
            {"character": C.CHARACTERS[c], "games": n, "wins": w, "rate": rate, "low": lo, "high": hi}
            | {"ratio": ratio, "flag": flag}
        )
    return {
        "players": num_players,
        "games": total,
        "decided": decided,
        "fair_share": fair,
        "seat_wins": seat_wins.tolist(),
        "characters": rows,
    }


def report(result: dict) -> str:
    lines = [
        f"{result['players']} players: {result['games']} games, {result['decided']} decided, "
        f"fair share {result['fair_share']:.3f}; wins by seat {result['seat_wins']}",
        f"  {'character':<20}{'games':>7}{'wins':>6}{'rate':>7}  {'95% interval':<15}{'x fair':>7}",
    ]
    for r in result["characters"]:
        lines.append(
            f"  {r['character']:<20}{r['games']:>7}{r['wins']:>6}{r['rate']:>7.3f}  "
            f"[{r['low']:.3f}, {r['high']:.3f}]{r['ratio']:>8.2f}  {r['flag']}"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=600, help="games per player count (whole blocks)")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4, 5, 6])
    parser.add_argument("--max-turns", type=int, default=300)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, help="also write the figures as JSON")
    args = parser.parse_args(argv)
    results = []
    for n in args.players:
        t = time.perf_counter()
        res = play(n, args.games, args.seed + 1000 * n, args.max_turns)
        res["seconds"] = round(time.perf_counter() - t, 1)
        results.append(res)
        print(report(res), flush=True)
        print(f"  ({res['seconds']} s)", file=sys.stderr, flush=True)
    if args.out:
        args.out.write_text(json.dumps(results, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
