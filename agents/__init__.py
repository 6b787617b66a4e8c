"""Agents that play labyrinth_env games: ``make_agent("random" | "heuristic" | "ppo:path.zip")``."""

from __future__ import annotations

from collections.abc import Callable

from agents.base import Agent
from agents.heuristic import HeuristicAgent
from agents.random_agent import RandomAgent

AGENTS: dict[str, Callable[[int | None], Agent]] = {
    "random": RandomAgent,
    "heuristic": HeuristicAgent,
}


def list_agents() -> list[str]:
    return sorted(AGENTS)


def make_agent(spec: str, seed: int | None = None) -> Agent:
    """A new agent by name; ``seed`` seeds agents that use randomness. ``"ppo:<path>"``
    loads a trained MaskablePPO policy (needs the ``train`` extra)."""
    if isinstance(spec, str) and spec.strip().lower().startswith("ppo:"):
        from agents.ppo_agent import PPOAgent

        return PPOAgent(spec.strip()[4:])
    if not isinstance(spec, str) or spec.strip().lower() not in AGENTS:
        raise ValueError(f"unknown agent spec {spec!r}; available agents: {', '.join(list_agents())}, ppo:<model.zip>")
    return AGENTS[spec.strip().lower()](seed)


__all__ = ["AGENTS", "Agent", "HeuristicAgent", "RandomAgent", "list_agents", "make_agent"]
