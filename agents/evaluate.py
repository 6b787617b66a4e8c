"""Play many games with one agent in every seat and report how the team does, or seat
different agents against each other (``--agents``, competitive rulesets).

    python -m labyrinth_env.agents.evaluate --env team_edition_v2 --agent heuristic --games 300 \\
        --players 2 --variant introductory --seed 0 [--json out.json]
    python -m labyrinth_env.agents.evaluate --env paths_of_destiny_3e_v3 --agents heuristic,random \\
        --games 300 --players 2
    python -m labyrinth_env.agents.evaluate --env team_edition_v2 --agent ppo:model.zip \\
        --option lookahead=true --games 500   # any env option: --option NAME=VALUE

Game ``i`` uses env seed ``seed + i`` (and reseeds the agent with it), so a run is
reproducible and two agents evaluated with the same seed meet the same shuffles. In a
match (``evaluate_match``) the seating turns by one seat every game, so each agent plays
every seat equally often.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
from tqdm import tqdm

import labyrinth_env
from labyrinth_env.agents import list_agents, make_agent, parse_agent_spec, split_agent_specs
from labyrinth_env.compile import prepare
from labyrinth_env.options import option_assignment
from labyrinth_env.registry import check_output_file
from labyrinth_env.stats import wilson_interval


def game_outcome(log: list[dict[str, Any]]) -> tuple[str, int | None]:
    """(outcome, winning seat) from a decoded log: a ``game_end`` event (cooperative
    rulesets), or a ``win`` / ``truncated`` event (competitive ones)."""
    for e in reversed(log):
        if e["type"] == "game_end":
            return e["outcome"], None
        if e["type"] == "win":
            return "won", int(e["seat"])
        if e["type"] == "truncated":
            return "truncated", None
    return "unknown", None


def play_game(env: Any, agent: Any, seed: int, agent_seeds: Sequence[int] | None = None) -> dict[str, Any]:
    """One game with ``agent`` in every seat, or ``agent`` a sequence of agents, one per
    seat, each decision asked with the acting seat's ``SeatView`` (never the env); its
    outcome (and the winning seat, if any) read from the decoded log, each
    seat's return and the actions played. Agents are reseeded with ``agent_seeds`` (one
    per seat, or one for a lone agent); by default with seeds made from ``seed``."""
    seats = list(agent) if isinstance(agent, Sequence) else None
    env.reset(seed=seed)
    if seats is None:
        agent.reset(seed if agent_seeds is None else agent_seeds[0])
    else:
        if agent_seeds is None:
            agent_seeds = [seed * len(seats) + p for p in range(len(seats))]
        for a, s in zip(seats, agent_seeds, strict=True):
            a.reset(s)
    raw = env.unwrapped
    names = raw.agent_name_mapping
    returns = [0.0] * len(names)
    steps = 0
    for name in env.agent_iter():
        observation, reward, termination, truncation, _ = env.last()
        actor = agent if seats is None else seats[names[name]]
        if termination or truncation:
            returns[names[name]] = float(reward)
        # agents get what their seat may see, never the env (see labyrinth_env.seat_view)
        if termination or truncation:
            action = None
        else:
            action = actor.act(observation, raw.seat_view(name, model=getattr(actor, "uses_model", True)))
        env.step(action)
        steps += action is not None
    log = env.unwrapped.game_log
    outcome, winner = game_outcome(log)
    if env.unwrapped.illegal_action is not None:
        outcome = "illegal"
    return {
        "outcome": outcome,
        "winner": winner,
        "treasures": sum(1 for e in log if e["type"] == "collect"),
        "turns": sum(1 for e in log if e["type"] == "start_turn"),
        "steps": steps,
        "returns": returns,
        "actions": list(env.unwrapped.actions_taken),
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
        # game by game, so two agents run with the same seed can be compared pair by pair
        "per_game": [
            {"seed": seed + i, "outcome": r["outcome"], "treasures": r["treasures"], "turns": r["turns"]}
            for i, r in enumerate(results)
        ],
    }


def evaluate_match(
    env_id: str,
    agent_specs: Sequence[str],
    games: int,
    seed: int = 0,
    *,
    progress: bool = False,
    **options: Any,
) -> dict[str, Any]:
    """Play ``games`` games with a different agent per seat (``agent_specs``, one per seat;
    ``num_players`` defaults to their number). The seating turns every game: in game ``i``
    seat ``p`` plays ``agent_specs[(p + i) % n]``. Returns, per agent name, its wins, win
    rate (wins / games, summed over its seats) with the Wilson 95% interval and its fair
    share (its seats / n), plus truncations and turns. In a cooperative ruleset a team's
    win is a win of every agent in it."""
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise ValueError(f"games must be an int >= 1, got {games!r}")
    specs = [str(x).strip() for x in agent_specs]  # ppo:<path> keeps its case
    if len(specs) < 2:
        raise ValueError(f"a match needs an agent spec per seat (at least 2), got {list(agent_specs)!r}")
    options.setdefault("num_players", len(specs))
    if options["num_players"] != len(specs):
        raise ValueError(f"num_players={options['num_players']} but {len(specs)} agent specs were given (one per seat)")
    env = labyrinth_env.make(env_id, **options)
    n = len(specs)
    agents = [make_agent(spec, seed + p) for p, spec in enumerate(specs)]
    names = sorted(set(specs))
    wins = dict.fromkeys(names, 0)
    outcomes: dict[str, int] = {}
    turns = []
    start = time.perf_counter()
    bar = tqdm(range(games), desc=f"{env_id} {','.join(specs)}", unit="game", disable=not progress, file=sys.stderr)
    for i in bar:
        order = [(p + i) % n for p in range(n)]
        r = play_game(env, [agents[k] for k in order], seed + i)
        outcomes[r["outcome"]] = outcomes.get(r["outcome"], 0) + 1
        turns.append(r["turns"])
        if r["winner"] is not None:
            wins[specs[order[r["winner"]]]] += 1
        elif r["outcome"] == "won":  # a cooperative game: every seat's agent shares the team's win
            for name in names:
                wins[name] += 1
        bar.set_postfix({name: f"{wins[name] / (i + 1):.3f}" for name in names})
    seconds = time.perf_counter() - start
    return {
        "env_id": env_id,
        "agents": specs,
        "options": dict(options),
        "games": games,
        "seed": seed,
        "wins": wins,
        "win_rate": {name: wins[name] / games for name in names},
        "win_rate_ci95": {name: list(wilson_interval(wins[name], games)) for name in names},
        "fair_share": {name: specs.count(name) / n for name in names},
        "outcomes": outcomes,
        "mean_turns": float(np.mean(turns)),
        "seconds": seconds,
    }


def env_heading(result: dict[str, Any]) -> str:
    """``env_id (k=v, ...)``, or ``env_id (default options)``: never an empty ``()``."""
    opts = ", ".join(f"{k}={v}" for k, v in result["options"].items())
    return f"{result['env_id']} ({opts or 'default options'})"


def format_match(result: dict[str, Any]) -> str:
    lines = [
        f"{env_heading(result)}, seats {','.join(result['agents'])} (rotating), {result['games']} games, "
        f"seed {result['seed']}"
    ]
    for name, rate in result["win_rate"].items():
        lo, hi = result["win_rate_ci95"][name]
        lines.append(
            f"  {name:<12} win rate {rate:.3f}  (Wilson 95% CI {lo:.3f} - {hi:.3f}; {result['wins'][name]} wins; "
            f"fair share {result['fair_share'][name]:.3f})"
        )
    lines.append(f"  outcomes        {result['outcomes']}")
    lines.append(f"  mean turns      {result['mean_turns']:.2f}")
    lines.append(f"  time            {result['seconds']:.1f} s")
    return "\n".join(lines)


def format_result(result: dict[str, Any]) -> str:
    lo, hi = result["win_rate_ci95"]
    return "\n".join(
        [
            f"{env_heading(result)}, agent {result['agent']}, {result['games']} games, seed {result['seed']}",
            f"  win rate        {result['win_rate']:.3f}  (Wilson 95% CI {lo:.3f} - {hi:.3f}; {result['wins']} wins)",
            f"  outcomes        {result['outcomes']}",
            f"  mean treasures  {result['mean_treasures']:.2f}  (sd {result['std_treasures']:.2f})",
            f"  mean turns      {result['mean_turns']:.2f}",
            f"  time            {result['seconds']:.1f} s",
        ]
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="labyrinth evaluate", description=__doc__.split("\n\n")[0].replace("``", ""))
    parser.add_argument("--env", default="team_edition_v2", choices=labyrinth_env.list_envs())
    parser.add_argument(
        "--agent", default="heuristic", help=f"agent spec ({', '.join(list_agents())}; e.g. mcts:simulations=100)"
    )
    parser.add_argument(
        "--agents", default=None, help="a match: one agent per seat, comma-separated (e.g. heuristic,random)"
    )
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--players", type=int, default=None, help="num_players (default: the env's)")
    parser.add_argument("--variant", default=None, help="rules variant (default: the env's)")
    parser.add_argument("--max-turns", type=int, default=None)
    parser.add_argument(
        "--option", action="append", default=[], metavar="NAME=VALUE", help="any env option (repeatable)"
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", type=Path, default=None, help="write the result here")
    parser.add_argument("--no-progress", action="store_true")
    args = parser.parse_args(argv)
    options: dict[str, Any] = {}
    if args.players is not None:
        options["num_players"] = args.players
    if args.variant is not None:
        options["variant"] = args.variant
    if args.max_turns is not None:
        options["max_turns"] = args.max_turns
    try:
        if args.json is not None:
            check_output_file(args.json, "--json")  # before the games, not after them
        options.update(option_assignment(text) for text in args.option)
        if args.agents is not None:
            specs = split_agent_specs(args.agents)
            for spec in specs:
                parse_agent_spec(spec)  # a clear error before any game
            prepare(args.env, specs)  # compiled before the first game, not in the middle of one
            result = evaluate_match(args.env, specs, args.games, args.seed, progress=not args.no_progress, **options)
        else:
            parse_agent_spec(args.agent)
            prepare(args.env, [args.agent])  # compiled before the first game, not in the middle of one
            result = evaluate(args.env, args.agent, args.games, args.seed, progress=not args.no_progress, **options)
    except ValueError as exc:
        print(f"{parser.prog}: error: {' '.join(str(exc).split())}", file=sys.stderr)
        return 2
    print(format_match(result) if args.agents is not None else format_result(result))
    if args.json is not None:
        try:
            args.json.write_text(json.dumps(result, indent=1))
        except OSError as exc:
            print(f"{parser.prog}: error: cannot write {str(args.json)!r}: {exc.strerror}", file=sys.stderr)
            return 2
        print(f"  written to      {args.json}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
