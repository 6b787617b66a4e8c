"""Agents that play labyrinth_env games, made from a spec string:
``make_agent("random" | "heuristic" | "mcts:simulations=400,c=2" | "ppo:path/model.zip" |
"learned" | "learned:path/net.npz", seed)``.

A spec is ``name`` or ``name:key=value,key=value``; an agent with a main argument (the
model path of ``ppo``) also takes ``name:value``. Unknown agents, unknown keys and bad
values raise ``ValueError`` saying what is allowed (``describe_agents()`` lists it all).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from labyrinth_env.agents.base import Agent, Param, check_params
from labyrinth_env.agents.heuristic import HeuristicAgent
from labyrinth_env.agents.mcts import MCTS_PARAMS, MCTSAgent
from labyrinth_env.agents.random_agent import RandomAgent


def _learned(seed: int | None, **params: Any) -> Agent:
    from labyrinth_env.agents.learned import LearnedAgent

    return LearnedAgent(seed, **params)


def _ppo(seed: int | None, path: str, deterministic: bool) -> Agent:
    del seed  # the policy is deterministic unless asked otherwise; kept for a uniform signature
    from labyrinth_env.agents.ppo_agent import PPOAgent

    return PPOAgent(path, deterministic=deterministic)


def _learned_params() -> dict[str, Param]:
    from labyrinth_env.agents.learned import LEARNED_PARAMS

    return LEARNED_PARAMS


@dataclass(frozen=True)
class AgentSpec:
    """A registry entry: ``factory(seed, **params)`` builds the agent; ``main`` is the
    parameter that ``name:value`` sets (if any). Calling the entry builds an agent with
    checked parameters: ``AGENTS["mcts"](seed, simulations=100)``."""

    name: str
    factory: Callable[..., Agent]
    help: str
    params: dict[str, Param] = field(default_factory=dict)
    main: str | None = None
    main_optional: bool = False  # ``name`` alone is allowed too (``learned``: the shipped network)

    def __call__(self, seed: int | None = None, **params: Any) -> Agent:
        checked = check_params(self.name, self.params, params)
        if self.main is not None and not self.main_optional and not checked[self.main]:
            raise ValueError(f"agent {self.name!r} needs {self.main}: write {self.name}:<{self.main}>")
        return self.factory(seed, **checked)

    def usage(self) -> str:
        if self.main is not None:
            return f"{self.name}[:<{self.main}>]" if self.main_optional else f"{self.name}:<{self.main}>"
        return f"{self.name}[:key=value,...]" if self.params else self.name


AGENTS: dict[str, AgentSpec] = {
    "random": AgentSpec("random", lambda seed: RandomAgent(seed), "uniformly random legal actions"),
    "heuristic": AgentSpec("heuristic", lambda seed: HeuristicAgent(seed), "the ruleset's rule-based player"),
    "mcts": AgentSpec(
        "mcts",
        lambda seed, **p: MCTSAgent(seed, **p),
        "information-set MCTS over the kernel (determinized search, heuristic rollouts)",
        MCTS_PARAMS,
    ),
    "learned": AgentSpec(
        "learned",
        _learned,
        "the self-play learner's network (learned: the env's shipped one; learned:PATH a net.npz from labyrinth train)",
        _learned_params(),
        main="path",
        main_optional=True,
    ),
    "ppo": AgentSpec(
        "ppo",
        _ppo,
        "a trained MaskablePPO policy (needs the train extra)",
        {
            "path": Param(str, "", "the model .zip"),
            "deterministic": Param(bool, True, "play the most likely action (false: sample)"),
        },
        main="path",
    ),
}


def list_agents() -> list[str]:
    """The agent names a spec may start with."""
    return sorted(AGENTS)


def _available() -> str:
    plain = [AGENTS[n].usage() for n in list_agents() if not AGENTS[n].params]
    with_params = [AGENTS[n].usage() for n in list_agents() if AGENTS[n].params]
    return ", ".join(plain + with_params)


def parse_agent_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """``"mcts:simulations=400,c=2"`` -> ``("mcts", {"simulations": 400, "c": 2.0})``, every
    value checked (the defaults are not filled in). ``ValueError`` for an unknown agent,
    an unknown key or a bad value."""
    if not isinstance(spec, str) or not spec.strip():
        raise ValueError(
            f"an agent spec must be a non-empty string like 'heuristic' or 'mcts:simulations=400', got {spec!r}"
        )
    head, sep, rest = spec.strip().partition(":")
    name = head.strip().lower()
    if name not in AGENTS:
        raise ValueError(f"unknown agent spec {spec!r}; available agents: {_available()}")
    entry = AGENTS[name]
    params: dict[str, Any] = {}
    if not sep:
        return name, params
    rest = rest.strip()
    if not rest:
        raise ValueError(f"agent spec {spec!r}: nothing after ':'; write {entry.usage()}")
    if entry.main is not None and "=" not in rest:
        return name, {entry.main: entry.params[entry.main].parse(f"agent {name!r} {entry.main}", rest)}
    if not entry.params:
        raise ValueError(f"agent spec {spec!r}: agent {name!r} takes no parameters")
    for item in rest.split(","):
        key, eq, value = item.partition("=")
        key = key.strip().lower()
        if not eq or not key:
            raise ValueError(f"agent spec {spec!r}: {item.strip()!r} is not key=value; write {entry.usage()}")
        if key not in entry.params:
            raise ValueError(
                f"agent spec {spec!r}: unknown parameter {key!r} for agent {name!r}; "
                f"allowed: {', '.join(sorted(entry.params))}"
            )
        if key in params:
            raise ValueError(f"agent spec {spec!r}: parameter {key!r} given twice")
        params[key] = entry.params[key].parse(f"agent spec {spec!r} parameter {key}", value)
    return name, params


def split_agent_specs(text: str) -> list[str]:
    """A comma-separated list of specs, with the commas inside a spec's ``key=value`` list
    kept: ``"random,mcts:simulations=400,c=2,heuristic"`` ->
    ``["random", "mcts:simulations=400,c=2", "heuristic"]`` (an item with ``=`` and no
    ``:`` continues the spec before it)."""
    specs: list[str] = []
    for item in str(text).split(","):
        item = item.strip()
        if not item:
            continue
        if specs and "=" in item and ":" not in item and ":" in specs[-1]:
            specs[-1] += "," + item
        else:
            specs.append(item)
    return specs


def make_agent(spec: str, seed: int | None = None) -> Agent:
    """A new agent from its spec (see the module docstring); ``seed`` seeds agents that use
    randomness, so the same spec and seed play the same moves."""
    name, params = parse_agent_spec(spec)
    return AGENTS[name](seed, **params)


def describe_agents() -> str:
    """Every agent spec with its parameters, defaults and allowed values, for ``--help``."""
    lines = []
    for name in list_agents():
        entry = AGENTS[name]
        lines.append(f"{entry.usage()}: {entry.help}")
        for key, p in entry.params.items():
            if key == entry.main:
                continue
            lines.append(f"    {key}={p.default} ({p.allowed()}): {p.help}")
    return "\n".join(lines)


__all__ = [
    "AGENTS",
    "Agent",
    "AgentSpec",
    "HeuristicAgent",
    "MCTSAgent",
    "RandomAgent",
    "describe_agents",
    "list_agents",
    "make_agent",
    "parse_agent_spec",
    "split_agent_specs",
]
