"""The ``labyrinth`` command line: ``demo``, ``envs``, ``bench``, ``evaluate``, ``train``, ``replay``."""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence

import numpy as np
from rich.console import Console
from rich.table import Table

import labyrinth_env
from labyrinth_env.registry import player_range

console = Console()


def play_random_game(env_id: str, seed: int, **options) -> tuple[dict, int, float]:
    """One game with uniformly random legal actions: (last log event, steps, seconds)."""
    env = labyrinth_env.make(env_id, **options)
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    steps = 0
    start = time.perf_counter()
    for agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[rng.integers(len(legal))]))
        steps += 1
        del agent
    return env.unwrapped.game_log[-1], steps, time.perf_counter() - start


def cmd_envs(_: argparse.Namespace) -> int:
    for env_id in labyrinth_env.list_envs():
        print(env_id)
    return 0


def cmd_demo(args: argparse.Namespace) -> int:
    console.rule("[bold]labyrinth-env demo")
    env_ids = labyrinth_env.list_envs()
    console.print(f"rulesets: {', '.join(env_ids)}  (first run compiles the numba kernels)")
    t0 = time.perf_counter()
    labyrinth_env.make(env_ids[0]).reset(seed=0)
    console.print(f"kernel load/compile: {time.perf_counter() - t0:.1f} s")

    for env_id in env_ids:  # warm up each env once so the throughput line measures steps only
        play_random_game(env_id, seed=args.seed)
    table = Table(title=f"{args.games} random games per ruleset")
    for col in ("env", "seed", "players", "outcome", "steps", "steps/s"):
        table.add_column(col)
    total_steps, total_time = 0, 0.0
    for env_id in env_ids:
        lo, hi = player_range(env_id)
        for g in range(args.games):
            players = lo + g % (hi - lo + 1)
            end, steps, secs = play_random_game(env_id, seed=args.seed + g, num_players=players)
            total_steps += steps
            total_time += secs
            outcome = end.get("outcome", end.get("type"))
            table.add_row(env_id, str(args.seed + g), str(players), str(outcome), str(steps), f"{steps / secs:,.0f}")
    console.print(table)
    console.print(f"throughput through env(): {total_steps / total_time:,.0f} AEC steps/s over {total_steps} steps")

    for env_id in env_ids:
        env = labyrinth_env.make(env_id, num_players=2, render_mode="ansi")
        env.reset(seed=args.seed)
        console.print(f"\n{env_id} at the start of a game:")
        print(env.render())

    if not args.no_agents:
        from agents.evaluate import evaluate

        agent_env = "team_edition_v0"
        agent_table = Table(title=f"agents on {agent_env} (2 players, {args.agent_games} games each)")
        for col in ("agent", "win rate", "95% CI", "mean collected"):
            agent_table.add_column(col)
        for spec in ("random", "heuristic"):
            res = evaluate(agent_env, spec, games=args.agent_games, seed=args.seed, num_players=2)
            lo, hi = res["win_rate_ci95"]
            agent_table.add_row(spec, f"{res['win_rate']:.3f}", f"[{lo:.3f}, {hi:.3f}]", f"{res['mean_treasures']:.2f}")
        console.print(agent_table)

    if not args.no_bench:
        from benchmarks.throughput import print_table, run

        result = run(env_ids, seconds=args.bench_seconds, repeats=1, quick=True)
        # The table has many columns: let it be wider than a non-terminal's 80 columns.
        print_table(result, console=Console(width=max(console.width, 150)))
    return 0


def cmd_bench(args: argparse.Namespace) -> int:
    from benchmarks.throughput import main as bench_main

    bench_main(args.rest)
    return 0


def cmd_evaluate(args: argparse.Namespace) -> int:
    from agents.evaluate import main as evaluate_main

    evaluate_main(args.rest)
    return 0


def cmd_train(args: argparse.Namespace) -> int:
    from agents.train_ppo import main as train_main

    return train_main(args.rest)


def cmd_replay(args: argparse.Namespace) -> int:
    env = labyrinth_env.load_replay(args.path)
    env.render_mode = "ansi"
    for event in env.game_log:
        print(event)
    print(env.render())
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="labyrinth", description="labyrinth-env command line")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("demo", help="a few random games, agents compared, and a throughput table")
    p.add_argument("--games", type=int, default=4, help="random games per ruleset")
    p.add_argument("--agent-games", type=int, default=40, help="games per agent in the comparison")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--bench-seconds", type=float, default=1.0, help="seconds per benchmark row")
    p.add_argument("--no-bench", action="store_true", help="skip the benchmark table")
    p.add_argument("--no-agents", action="store_true", help="skip the agent comparison")
    p.set_defaults(func=cmd_demo)
    p = sub.add_parser("envs", help="list the env ids")
    p.set_defaults(func=cmd_envs)
    p = sub.add_parser("bench", help="throughput benchmark (see benchmarks/throughput.py --help)", add_help=False)
    p.add_argument("rest", nargs=argparse.REMAINDER)
    p.set_defaults(func=cmd_bench)
    p = sub.add_parser("evaluate", help="win rate of an agent (see agents/evaluate.py --help)", add_help=False)
    p.add_argument("rest", nargs=argparse.REMAINDER)
    p.set_defaults(func=cmd_evaluate)
    p = sub.add_parser("train", help="MaskablePPO from a YAML config (see agents/train_ppo.py --help)", add_help=False)
    p.add_argument("rest", nargs=argparse.REMAINDER)
    p.set_defaults(func=cmd_train)
    p = sub.add_parser("replay", help="replay a saved game: print its log and final board")
    p.add_argument("path")
    p.set_defaults(func=cmd_replay)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except ValueError as exc:
        console.print(f"[red]error:[/red] {exc}")
        return 2


if __name__ == "__main__":
    sys.exit(main())
