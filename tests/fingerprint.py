"""Fingerprints of whole games, through the public API only: what a change that must not
alter any game is checked against (``tests/test_fingerprints.py``), and what a change that
does alter a game must record again, with the env id's version bumped.

For every env id, every player count and the option variants below, a few games are played
with seeded random legal actions through the raw AEC env, and every step's acting agent,
mask, every seat's observation, the rewards and the decoded log go into one SHA-256; the
heuristic agent plays one game per setting the same way; ``VectorEnv`` is stepped with
random learner actions against random and heuristic opponents (observations, masks,
rewards, ends, final observations); and the MCTS agent makes a few decisions.

``python -m tests.fingerprint --write`` records ``tests/golden/fingerprints.json``;
``python -m tests.fingerprint`` compares with it and lists what differs.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np

import labyrinth_env

GOLDEN = Path(__file__).parent / "golden" / "fingerprints.json"

# option variants beyond the defaults, per env id (each played at every player count)
VARIANTS: dict[str, list[dict[str, Any]]] = {
    "labyrinthos": [{}, {"monster": "medusa"}, {"monster": "cerberus", "use_empty_key_slot": False}],
    "labyrinx": [{}, {"character_powers": True, "table_size": 7}],
    "paths_of_destiny_2011": [{}, {"ask_crystal": False}],
    # v1: two players play the page-15 setup by default; the standard board is the variant
    "paths_of_destiny_3e": [{}, {"two_player_variant": False}, {"ask_crystal": False}],
    "team_edition": [
        {},
        {"variant": "standard"},
        {"variant": "expert", "public_memory": False},
        {"lookahead": True, "max_turns": 30},
    ],
}


def _name(env_id: str) -> str:
    return env_id.rsplit("_v", 1)[0]


def _player_counts(env_id: str, options: dict[str, Any]) -> list[int]:
    from labyrinth_env.registry import player_range

    lo, hi = player_range(env_id)
    counts = list(range(lo, hi + 1))
    if "two_player_variant" in options:
        counts = [2]
    return counts


def _update(h: Any, *arrays: Any) -> None:
    for a in arrays:
        if isinstance(a, np.ndarray):
            h.update(str(a.dtype).encode())
            h.update(np.ascontiguousarray(a).tobytes())
        else:
            h.update(repr(a).encode())


def aec_games(env_id: str, options: dict[str, Any], games: int, seed: int, agent: str = "random") -> str:
    """Games through the raw AEC env; the digest of everything every seat saw."""
    h = hashlib.sha256()
    for g in range(games):
        env = labyrinth_env.raw_env(env_id, **options)
        env.reset(seed=seed + g)
        rng = np.random.default_rng(seed + g)
        player = None
        if agent != "random":
            from labyrinth_env.agents import make_agent

            player = make_agent(agent, seed=seed + g)
        steps = 0
        while env.agents and steps < 3000:
            agent_name = env.agent_selection
            if env.terminations[agent_name] or env.truncations[agent_name]:
                break
            obs = env.observe(agent_name)
            others = [env.observe(a)["observation"] for a in env.possible_agents]
            _update(h, agent_name, obs["action_mask"], *others)
            if player is None:
                action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            else:
                action = int(player.act(obs, env))
            env.step(action)
            _update(h, action, sorted(env.rewards.items()))
            steps += 1
        _update(h, steps, sorted(env._cumulative_rewards.items()), env.log_digest())
    return h.hexdigest()


def vector_steps(env_id: str, opponents: str, num_envs: int, steps: int, seed: int, **options: Any) -> str:
    from labyrinth_env.vector import VectorEnv

    h = hashlib.sha256()
    venv = VectorEnv(env_id, num_envs, opponents=opponents, seed=seed, **options)
    obs, _ = venv.reset(seed=seed)
    rng = np.random.default_rng(seed)
    _update(h, obs, venv.action_masks())
    for _ in range(steps):
        masks = venv.action_masks()
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks], dtype=np.int64)
        obs, rewards, term, trunc, info = venv.step(actions)
        _update(h, obs, rewards, term, trunc, venv.action_masks())
        if "final_obs" in info:
            # the rows as one float array, zeros where no game ended: the digests taken
            # while final_obs was that array stay valid
            final = np.zeros_like(obs)
            ended = info["_final_obs"]
            final[ended] = np.stack(info["final_obs"][ended])
            _update(h, final, info["final_return"])
    return h.hexdigest()


def mcts_decisions(env_id: str, decisions: int, seed: int, **options: Any) -> str:
    from labyrinth_env.agents import make_agent

    h = hashlib.sha256()
    env = labyrinth_env.raw_env(env_id, **options)
    env.reset(seed=seed)
    agent = make_agent("mcts:simulations=24,rollout_steps=40", seed=seed)
    for _ in range(decisions):
        if not env.agents or env.terminations[env.agent_selection]:
            break
        obs = env.observe(env.agent_selection)
        action = agent.act(obs, env)
        _update(h, action, agent.last_visits)
        env.step(action)
    return h.hexdigest()


def fingerprints(quick: bool = False, only: str | None = None) -> dict[str, str]:
    out: dict[str, str] = {}
    games = 1 if quick else 3
    for env_id in labyrinth_env.list_envs():
        name = _name(env_id)
        if name not in VARIANTS or (only and name != only):
            continue  # the built-in rulesets only (the tests also register a toy one)
        for k, options in enumerate(VARIANTS.get(name, [{}])):
            for n in _player_counts(env_id, options):
                opts = {**options, "num_players": n}
                out[f"{env_id}/v{k}/p{n}/random"] = aec_games(env_id, opts, games, seed=1000 * n + k)
                if not options.get("lookahead"):
                    out[f"{env_id}/v{k}/p{n}/heuristic"] = aec_games(env_id, opts, 1, seed=7 + n + k, agent="heuristic")
        for opponents in ("random", "heuristic"):
            out[f"{env_id}/vector/{opponents}"] = vector_steps(env_id, opponents, 8, 150, seed=5)
        out[f"{env_id}/mcts"] = mcts_decisions(env_id, 4 if quick else 8, seed=3)
        print(f"  {env_id}: done", file=sys.stderr, flush=True)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--write", action="store_true", help="record the fingerprints")
    parser.add_argument("--out", type=Path, default=GOLDEN)
    parser.add_argument("--only", metavar="NAME", help="one ruleset (e.g. labyrinx): compare its fingerprints only")
    args = parser.parse_args(argv)
    if args.write and args.only:
        parser.error("--write records every ruleset; drop --only")
    now = fingerprints(only=args.only)
    if args.write:
        args.out.write_text(json.dumps(now, indent=1, sort_keys=True) + "\n")
        print(f"wrote {len(now)} fingerprints to {args.out}")
        return 0
    before = json.loads(args.out.read_text())
    if args.only:
        before = {k: v for k, v in before.items() if _name(k.split("/")[0]) == args.only}
    differ = sorted(k for k in set(before) | set(now) if before.get(k) != now.get(k))
    for k in differ:
        print(f"differs: {k}")
    print(f"{len(now) - len(differ)} of {len(now)} fingerprints equal")
    return 1 if differ else 0


if __name__ == "__main__":
    raise SystemExit(main())
