"""Play many games with one agent in every seat and report how the team does.

    python -m agents.evaluate --env team_edition_v0 --agent heuristic --games 300 \\
        --players 2 --variant introductory --seed 0 [--json out.json]

Game ``i`` uses env seed ``seed + i`` (and reseeds the agent with it), so a run is
reproducible and two agents evaluated with the same seed meet the same shuffles.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
from tqdm import tqdm

import labyrinth_env
from agents import list_agents, make_agent


def wilson_interval(successes: int, trials: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score interval for a binomial rate (sensible at 0 or all successes too,
    where the normal approximation collapses to a zero-width interval)."""
    if trials <= 0:
        return 0.0, 1.0
    p = successes / trials
    denom = 1.0 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def play_game(env: Any, agent: Any, seed: int) -> dict[str, Any]:
    """One game with ``agent`` in every seat; its outcome read from the decoded log."""
    env.reset(seed=seed)
    agent.reset(seed)
    steps = 0
    for _ in env.agent_iter():
        observation, _, termination, truncation, _ = env.last()
        action = None if termination or truncation else agent.act(observation, env)
        env.step(action)
        steps += action is not None
    log = env.unwrapped.game_log
    end = next((e for e in reversed(log) if e["type"] == "game_end"), None)
    outcome = end["outcome"] if end is not None else "unknown"
    if any(e.get("illegal_move") for e in env.infos.values()):
        outcome = "illegal"
    return {
        "outcome": outcome,
        "treasures": sum(1 for e in log if e["type"] == "collect"),
        "turns": sum(1 for e in log if e["type"] == "start_turn"),
        "steps": steps,
    }


def evaluate(
    env_id: str, agent_spec: str, games: int, seed: int = 0, *, progress: bool = False, **options: Any
) -> dict[str, Any]:
    """Play ``games`` games of ``env_id`` (made with ``options``) with the agent
    ``agent_spec`` in every seat; returns win rate with its Wilson 95% interval, mean
    treasures collected and mean turns."""
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise ValueError(f"games must be an int >= 1, got {games!r}")
    agent = make_agent(agent_spec, seed)
    env = labyrinth_env.make(env_id, **options)
    results = []
    start = time.perf_counter()
    bar = tqdm(range(games), desc=f"{env_id} {agent_spec}", unit="game", disable=not progress, file=sys.stderr)
    wins = 0
    for i in bar:
        r = play_game(env, agent, seed + i)
        results.append(r)
        wins += r["outcome"] == "won"
        bar.set_postfix(win=f"{wins / (i + 1):.3f}", treasures=f"{np.mean([x['treasures'] for x in results]):.2f}")
    seconds = time.perf_counter() - start
    treasures = np.array([r["treasures"] for r in results], dtype=np.float64)
    turns = np.array([r["turns"] for r in results], dtype=np.float64)
    outcomes: dict[str, int] = {}
    for r in results:
        outcomes[r["outcome"]] = outcomes.get(r["outcome"], 0) + 1
    lo, hi = wilson_interval(wins, games)
    return {
        "env_id": env_id,
        "agent": agent_spec,
        "options": dict(options),
        "games": games,
        "seed": seed,
        "wins": wins,
        "win_rate": wins / games,
        "win_rate_ci95": [lo, hi],
        "outcomes": outcomes,
        "mean_treasures": float(treasures.mean()),
        "std_treasures": float(treasures.std()),
        "mean_turns": float(turns.mean()),
        "mean_steps": float(np.mean([r["steps"] for r in results])),
        "seconds": seconds,
    }


def format_result(result: dict[str, Any]) -> str:
    lo, hi = result["win_rate_ci95"]
    opts = ", ".join(f"{k}={v}" for k, v in result["options"].items())
    return "\n".join(
        [
            f"{result['env_id']} ({opts}), agent {result['agent']}, {result['games']} games, seed {result['seed']}",
            f"  win rate        {result['win_rate']:.3f}  (Wilson 95% CI {lo:.3f} - {hi:.3f}; {result['wins']} wins)",
            f"  outcomes        {result['outcomes']}",
            f"  mean treasures  {result['mean_treasures']:.2f}  (sd {result['std_treasures']:.2f})",
            f"  mean turns      {result['mean_turns']:.2f}",
            f"  time            {result['seconds']:.1f} s",
        ]
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m agents.evaluate", description=__doc__.split("\n\n")[0])
    parser.add_argument("--env", default="team_edition_v0", choices=labyrinth_env.list_envs())
    parser.add_argument("--agent", default="heuristic", choices=list_agents())
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--players", type=int, default=None, help="num_players (default: the env's)")
    parser.add_argument("--variant", default=None, help="rules variant (default: the env's)")
    parser.add_argument("--public-memory", action="store_true", help="public_memory=True")
    parser.add_argument("--max-turns", type=int, default=None)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", type=Path, default=None, help="write the result here")
    parser.add_argument("--no-progress", action="store_true")
    args = parser.parse_args(argv)
    options: dict[str, Any] = {}
    if args.players is not None:
        options["num_players"] = args.players
    if args.variant is not None:
        options["variant"] = args.variant
    if args.public_memory:
        options["public_memory"] = True
    if args.max_turns is not None:
        options["max_turns"] = args.max_turns
    try:
        result = evaluate(args.env, args.agent, args.games, args.seed, progress=not args.no_progress, **options)
    except ValueError as exc:
        parser.error(str(exc))
    print(format_result(result))
    if args.json is not None:
        args.json.write_text(json.dumps(result, indent=1))
        print(f"  written to      {args.json}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
