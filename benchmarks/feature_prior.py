"""What the self-play learner's action features are worth before any training.

The network of ``agents/alphazero_net.py`` with every weight 0 except the feature weights,
set to ``--prior`` (the ``net.feature_prior`` of the alphazero configs), plays the masked
argmax of ``prior . features`` over the legal actions: greedy on its own progress (each
kernel's ``progress``), against its best rival's, and on ending the game. It plays
``--games`` 2-player games, seats rotating, against the random agent and against the
heuristic, with the trainer's own evaluation (``alphazero_template.play_match``, the same
seeds as the trainer's evaluations). This is where self-play starts from with the prior.
With ``--simulations N`` the prior guides the learner's search instead (``--leaf-mix``: the
share of a leaf's value taken from progress, ``selfplay.leaf_mix``; the untrained value
head gives the rest), which is the expert self-play starts from.

    python benchmarks/feature_prior.py --games 100
    python benchmarks/feature_prior.py --env paths_of_destiny_3e_v3 --games 40 --out results/bench/prior.json
    python benchmarks/feature_prior.py --env paths_of_destiny_3e_v3 --games 40 --simulations 128 --leaf-mix 1
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np

import labyrinth_env
from labyrinth_env.agents import alphazero_net as N
from labyrinth_env.agents.evaluate import wilson_interval
from labyrinth_env.agents.train_alphazero import EVAL_SEED

DEFAULT_PRIOR = (10.0, -3.0, 10.0, 0.0)  # the alphazero configs' net.feature_prior


def greedy_net(env_id: str, prior: tuple[float, ...]) -> tuple:
    """Zero weights, the feature weights at ``prior``: logits = prior . features."""
    K = labyrinth_env.get_spec(env_id).kernel
    net = [np.zeros_like(a) for a in N.init_weights(K.OBS_SIZE, K.NUM_ACTIONS, K.NUM_SEATS, (8, 8), seed=0)]
    net[9][:] = np.asarray(prior, dtype=np.float32)
    return tuple(net)


def measure(
    env_id: str, games: int, prior: tuple[float, ...], simulations: int = 0, leaf_mix: float = 1.0
) -> list[dict[str, Any]]:
    from labyrinth_env.agents import alphazero_template
    from labyrinth_env.core.templates import bind
    from labyrinth_env.progress import first_use

    spec = labyrinth_env.get_spec(env_id)
    module = bind(alphazero_template, spec)
    options = labyrinth_env.raw_env(env_id, num_players=2).options_vector()
    params = np.zeros(module.NUM_PARAMS)
    params[module.P_MAX_DECISIONS] = 20_000
    params[module.P_SIMULATIONS], params[module.P_C] = simulations, 1.5
    params[module.P_TARGET], params[module.P_LEAF_MIX] = module.TARGET_COMPLETED_Q, leaf_mix
    params[module.P_COOPERATIVE] = 1.0 if spec.cooperative else 0.0
    seeds = (EVAL_SEED + np.arange(games)).astype(np.uint64)
    seats = np.arange(games, dtype=np.int64) % 2
    net = greedy_net(env_id, prior)
    rows = []
    for name, kind in (("random", module.OPPONENT_RANDOM), ("heuristic", module.OPPONENT_HEURISTIC)):
        if kind == module.OPPONENT_HEURISTIC and spec.heuristic_module is None:
            continue
        returns = np.zeros((games, spec.kernel.NUM_SEATS))
        start = time.perf_counter()
        with first_use(("alphazero", env_id), f"the {spec.title} self-play learner"):
            module.play_match(seeds, options, net, params, seats, kind, returns)
        wins = int((returns[np.arange(games), seats] > 0).sum())
        lo, hi = wilson_interval(wins, games)
        rows.append(
            {
                "env_id": env_id,
                "opponent": name,
                "games": games,
                "simulations": simulations,
                "leaf_mix": leaf_mix if simulations else None,
                "wins": wins,
                "win_rate": wins / games,
                "ci95": [lo, hi],
                "seconds": time.perf_counter() - start,
            }
        )
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--env", action="append", help="env id (repeatable; default: every ruleset)")
    parser.add_argument("--games", type=int, default=100, help="2-player games per opponent (default 100)")
    parser.add_argument("--prior", default=",".join(str(v) for v in DEFAULT_PRIOR), help="four feature weights")
    parser.add_argument("--simulations", type=int, default=0, help="search iterations a move (0: the prior alone)")
    parser.add_argument("--leaf-mix", type=float, default=1.0, help="share of a leaf's value from progress (default 1)")
    parser.add_argument("--out", default="results/bench/feature_prior.json", help="JSON output")
    args = parser.parse_args(argv)
    envs = args.env or labyrinth_env.list_envs()
    try:
        prior = tuple(float(v) for v in args.prior.split(","))
        if len(prior) != N.NUM_FEATURES:
            raise ValueError
    except ValueError:
        print(
            f"feature_prior.py: --prior must be {N.NUM_FEATURES} comma-separated numbers, got {args.prior!r}",
            file=sys.stderr,
        )
        return 2
    for env_id in envs:
        if env_id not in labyrinth_env.list_envs():
            print(
                f"feature_prior.py: unknown env id {env_id!r}; available: {labyrinth_env.list_envs()}", file=sys.stderr
            )
            return 2
    if args.games < 1:
        print(f"feature_prior.py: --games must be >= 1, got {args.games}", file=sys.stderr)
        return 2
    if args.simulations < 0 or not 0.0 <= args.leaf_mix <= 1.0:
        print(
            f"feature_prior.py: --simulations must be >= 0 and --leaf-mix in [0, 1], got {args.simulations} "
            f"and {args.leaf_mix}",
            file=sys.stderr,
        )
        return 2
    rows: list[dict[str, Any]] = []
    print(f"{'env id':<26} {'opponent':<10} {'games':>6} {'win rate':>9} {'95% interval':>14}")
    for env_id in envs:
        for row in measure(env_id, args.games, prior, args.simulations, args.leaf_mix):
            rows.append(row)
            lo, hi = row["ci95"]
            print(f"{env_id:<26} {row['opponent']:<10} {row['games']:>6} {row['win_rate']:>9.3f} {lo:>6.2f}-{hi:.2f}")
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({"prior": prior, "rows": rows}, indent=2))
    print(f"written {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
