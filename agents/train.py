"""``labyrinth train --config FILE``: the trainer the config names. A config with
``algo: alphazero`` runs the self-play learner (``agents/train_alphazero.py``), ``algo:
distill`` expert iteration on a PPO network (``agents/train_distill.py``); any other config is
MaskablePPO's (``agents/train_ppo.py``)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any


def algo_of(path: str | Path) -> str:
    """``"alphazero"`` or ``"ppo"``: the trainer of the config file at ``path``."""
    from labyrinth_env.registry import parse_yaml_file

    data = parse_yaml_file(Path(path), "training config")
    algo = data.get("algo", "ppo") if isinstance(data, dict) else "ppo"
    if algo not in ("alphazero", "distill", "ppo"):
        raise ValueError(
            f"training config {str(path)!r}: unknown algo {algo!r}; use alphazero, distill, or leave algo out for PPO"
        )
    return algo


def load_any_config(path: str | Path) -> Any:
    """The checked config of either trainer (``ValueError`` says what is wrong)."""
    if algo_of(path) == "alphazero":
        from labyrinth_env.agents.train_alphazero import load_config

        return load_config(path)
    if algo_of(path) == "distill":
        from labyrinth_env.agents.train_distill import load_config as load_distill

        return load_distill(path)
    from labyrinth_env.agents.train_ppo import load_train_config

    return load_train_config(path)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--config")
    known, _ = parser.parse_known_args(argv)
    if known.config and algo_of(known.config) == "alphazero":
        from labyrinth_env.agents import train_alphazero

        return train_alphazero.main(argv)
    if known.config and algo_of(known.config) == "distill":
        from labyrinth_env.agents import train_distill

        return train_distill.main(argv)
    from labyrinth_env.agents import train_ppo

    return train_ppo.main(argv)
