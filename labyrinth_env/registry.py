"""Env ids, ``make``/``raw_env``, and loading replays."""

from __future__ import annotations

import importlib
import json
from pathlib import Path
from typing import Any

from labyrinth_env.aec import REPLAY_FORMAT, REPLAY_VERSION, LabyrinthAECEnv

# env id -> module that defines ``raw_env`` (the class) and ``env()``
_ENVS: dict[str, str] = {
    "team_edition_v0": "labyrinth_env.rulesets.team_edition.env",
    "paths_of_destiny_3e_v0": "labyrinth_env.rulesets.paths_of_destiny_3e.env",
    "paths_of_destiny_2011_v0": "labyrinth_env.rulesets.paths_of_destiny_2011.env",
    "labyrinthos_v0": "labyrinth_env.rulesets.labyrinthos.env",
    "labyrinx_v0": "labyrinth_env.rulesets.labyrinx.env",
}


def list_envs() -> list[str]:
    """The env ids that can be made."""
    return sorted(_ENVS)


def _check_id(env_id: str) -> None:
    if not isinstance(env_id, str) or env_id not in _ENVS:
        raise ValueError(f"unknown env id {env_id!r}; available: {', '.join(list_envs())}")


def _module(env_id: str):
    _check_id(env_id)
    return importlib.import_module(_ENVS[env_id])


def player_range(env_id: str) -> tuple[int, int]:
    """The smallest and largest ``num_players`` an env accepts."""
    import dataclasses

    options_cls = _module(env_id).raw_env.Options
    field = next(f for f in dataclasses.fields(options_cls) if f.name == "num_players")
    return field.metadata["option"].int_range


def raw_env(env_id: str, **options: Any) -> LabyrinthAECEnv:
    """The unwrapped AEC env: an illegal action raises ``ValueError``."""
    return _module(env_id).raw_env(**options)


def make(env_id: str, **options: Any) -> LabyrinthAECEnv:
    """The AEC env as PettingZoo users expect it (order enforcing, bounds, illegal actions
    end the game with -1 for the offender)."""
    return _module(env_id).env(**options)


NAMESPACE = "labyrinth_env"


def registered_id(env_id: str) -> str:
    """The id under which ``env_id`` is registered with Gymnasium and PettingZoo:
    ``paths_of_destiny_3e_v0`` -> ``labyrinth_env/paths_of_destiny_3e-v0`` (their
    ``namespace/name-vN`` form)."""
    _check_id(env_id)
    name, version = env_id.rsplit("_v", 1)
    return f"{NAMESPACE}/{name}-v{version}"


def register_envs() -> None:
    """Make every env reachable through the registries users already know, without
    importing a ruleset (entry points are strings):

    * ``gymnasium.make(id, ...)``: the single-agent env (``SingleAgentEnv``), and
      ``gymnasium.make_vec(id, num_envs, ...)``: the batched ``VectorEnv``;
    * ``pettingzoo.make("aec", id, ...)`` (PettingZoo versions that have a registry): the AEC
      env as ``make`` gives it.

    Called once on ``import labyrinth_env``; ids already registered are left as they are."""
    import gymnasium

    try:
        from pettingzoo import aec_registry
        from pettingzoo import register as pettingzoo_register
    except ImportError:  # PettingZoo before its registry (1.27)
        aec_registry = pettingzoo_register = None
    for env_id, module in _ENVS.items():
        rid = registered_id(env_id)
        if rid not in gymnasium.registry:
            gymnasium.register(
                id=rid,
                entry_point="labyrinth_env.single:SingleAgentEnv",
                vector_entry_point="labyrinth_env.vector:VectorEnv",
                kwargs={"env_id": env_id},
            )
        if pettingzoo_register is not None and rid not in aec_registry:
            pettingzoo_register("aec", rid, entry_point=f"{module}:env")


def _replay_error(path: Path, what: str) -> ValueError:
    return ValueError(f"malformed replay {str(path)!r}: {what}")


def read_replay(path: str | Path) -> dict[str, Any]:
    """Parse and check a replay file's structure (not yet its moves)."""
    p = Path(path)
    try:
        data = json.loads(p.read_text())
    except FileNotFoundError:
        raise ValueError(f"replay file {str(p)!r} does not exist") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise _replay_error(p, f"not JSON ({exc})") from None
    if not isinstance(data, dict):
        raise _replay_error(p, "expected a JSON object")
    if data.get("format") != REPLAY_FORMAT:
        raise _replay_error(p, f"'format' must be {REPLAY_FORMAT!r}, got {data.get('format')!r}")
    if data.get("version") != REPLAY_VERSION:
        raise _replay_error(p, f"'version' must be {REPLAY_VERSION}, got {data.get('version')!r}")
    required = {"env_id": str, "options": dict, "seed": int, "actions": list}
    for key, typ in required.items():
        if key not in data:
            raise _replay_error(p, f"missing key {key!r} (needs {', '.join(required)})")
        if not isinstance(data[key], typ) or isinstance(data[key], bool):
            raise _replay_error(p, f"{key!r} must be {typ.__name__}, got {type(data[key]).__name__}")
    for i, a in enumerate(data["actions"]):
        if not isinstance(a, int) or isinstance(a, bool):
            raise _replay_error(p, f"action #{i} is {a!r}, not an int")
    if data["env_id"] not in _ENVS:
        raise _replay_error(p, f"unknown env id {data['env_id']!r}; available: {', '.join(list_envs())}")
    return data


def load_replay(path: str | Path) -> LabyrinthAECEnv:
    """An env (as ``make`` gives) that has replayed the file; its ``game_log`` equals the
    original's. Bad files raise ``ValueError`` saying what is wrong."""
    p = Path(path)
    data = read_replay(p)
    try:
        env = raw_env(data["env_id"], **data["options"])
    except ValueError as exc:
        raise _replay_error(p, str(exc)) from None
    env.reset(seed=data["seed"])
    for i, action in enumerate(data["actions"]):
        if env.agent_selection is None or not env.agents or env.terminations[env.agent_selection]:
            raise _replay_error(p, f"action #{i} ({action}) comes after the game ended")
        try:
            env.step(action)
        except ValueError as exc:
            raise _replay_error(p, f"action #{i}: {exc}") from None
    digest = data.get("log_sha256")
    if digest is not None and digest != env.log_digest():
        raise _replay_error(p, "the replayed game log differs from the recorded one (other rules or version?)")
    env.checked = True
    return env
