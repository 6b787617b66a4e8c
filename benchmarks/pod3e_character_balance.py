"""Character balance of Paths of Destiny, 3rd edition: each character's win rate in games
of the heuristic against itself, seats rotated, with 95% Wilson intervals, against the
fair share 1/n (issue 20: a reconstructed character outside [0.5x, 2x] of it is
rebalanced, or the rules doc says why).

Each block draws n different characters (those the set-up allows for n players) and
plays n games with the same seed, the characters rotated one seat further each game, so
every character of the block plays from every seat on the same deal of the dice.
Truncated games (``--max-turns``) count as games without a winner.

    python benchmarks/pod3e_character_balance.py --players 2 3 4 5 6 --blocks 200 \
        --out docs/rules/paths_of_destiny_3e_balance.md
    python benchmarks/pod3e_character_balance.py --players 3 --blocks 5   # a quick look
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

import numpy as np

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

ENV_ID = "paths_of_destiny_3e_v2"


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate."""
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    d = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / d
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / d
    return max(0.0, centre - half), min(1.0, centre + half)


def run(players: list[int], blocks: int, max_turns: int, seed: int) -> dict:
    import labyrinth_env
    from labyrinth_env import get_spec
    from labyrinth_env.core.contract import new_states
    from labyrinth_env.rulesets.paths_of_destiny_3e import components as C
    from labyrinth_env.rulesets.paths_of_destiny_3e import kernel as K

    loops = get_spec(ENV_ID).loops
    states = new_states(K, 1)
    out = np.zeros((1, 4), dtype=np.int64)
    rng = np.random.default_rng(seed)
    results: dict = {}
    for n in players:
        allowed = K.DEALABLE_2P if n == 2 else K.DEALABLE
        pool = [c for c in range(C.NUM_CHARACTERS) if (allowed >> c) & 1]
        games = np.zeros(C.NUM_CHARACTERS, dtype=np.int64)
        wins = np.zeros(C.NUM_CHARACTERS, dtype=np.int64)
        seat_wins = np.zeros(n, dtype=np.int64)
        decided = 0
        total = 0
        for b in range(blocks):
            deal = [int(c) for c in rng.choice(pool, size=n, replace=False)]
            game_seed = np.array([seed * 1_000_003 + n * 10_007 + b], dtype=np.uint64)
            for r in range(n):
                chars = deal[r:] + deal[:r]
                env = labyrinth_env.raw_env(
                    ENV_ID,
                    num_players=n,
                    max_turns=max_turns,
                    characters=[C.CHARACTER_NAMES[c] for c in chars],
                )
                opts = env.options_vector()
                loops.play_games(states, opts, game_seed, (1 << n) - 1, 0, out)
                total += 1
                for c in chars:
                    games[c] += 1
                w = int(out[0, 0])
                if w >= 0:
                    decided += 1
                    wins[chars[w]] += 1
                    seat_wins[w] += 1
        results[n] = {
            "games": total,
            "decided": decided,
            "seat_wins": seat_wins.tolist(),
            "characters": {
                C.CHARACTER_NAMES[c]: (int(wins[c]), int(games[c])) for c in range(C.NUM_CHARACTERS) if games[c]
            },
        }
    return results


def report(results: dict, blocks: int, max_turns: int, seconds: float, command: str = "") -> str:
    from labyrinth_env.rulesets.paths_of_destiny_3e import components as C

    lines = [
        "# Paths of Destiny, 3rd edition: character balance",
        "",
        "Written by `benchmarks/pod3e_character_balance.py` (heuristic against heuristic, every seat the",
        "heuristic; each block deals n different characters and plays n games on one seed, the characters",
        f"rotated one seat each game). {blocks} blocks per player count, max_turns {max_turns}, "
        f"{seconds:.0f} s. Win rate with a 95% Wilson interval; *x fair* is the rate over the fair share 1/n.",
        "A character outside [0.5x, 2x] is marked `!`.",
        "",
        *([f"Command: `{command}`", ""] if command else []),
    ]
    for n, r in results.items():
        lines += [
            f"## {n} players ({r['games']} games, {r['decided']} won, wins by seat {r['seat_wins']})",
            "",
            "| character | source | games | wins | win rate | 95% interval | x fair |",
            "|---|---|---|---|---|---|---|",
        ]
        for name, (w, g) in sorted(r["characters"].items(), key=lambda kv: -kv[1][0] / kv[1][1]):
            lo, hi = wilson(w, g)
            x = (w / g) * n
            flag = " !" if not 0.5 <= x <= 2.0 else ""
            src = C.CHARACTER_SOURCES[C.CHARACTER_NAMES.index(name)]
            lines.append(f"| {name} | {src} | {g} | {w} | {w / g:.3f} | {lo:.3f}-{hi:.3f} | {x:.2f}{flag} |")
        lines.append("")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, nargs="+", default=[2, 3, 4])
    ap.add_argument("--blocks", type=int, default=300, help="deals per player count (n games each)")
    ap.add_argument("--max-turns", type=int, default=400)
    ap.add_argument("--seed", type=int, default=20)
    ap.add_argument("--out", type=Path, default=None, help="markdown report (default: print it)")
    args = ap.parse_args(argv)
    t0 = time.time()
    results = run(args.players, args.blocks, args.max_turns, args.seed)
    command = "python benchmarks/pod3e_character_balance.py " + " ".join(sys.argv[1:] if argv is None else argv)
    text = report(results, args.blocks, args.max_turns, time.time() - t0, command)
    if args.out:
        args.out.write_text(text + "\n")
        print(f"wrote {args.out}")
    else:
        print(text)


if __name__ == "__main__":
    main()
