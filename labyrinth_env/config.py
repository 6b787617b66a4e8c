"""YAML configs: an env id and exactly the options ``make()`` takes.

```yaml
env_id: team_edition_v1
options:
  num_players: 2
  variant: standard
```
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from labyrinth_env.aec import LabyrinthAECEnv
from labyrinth_env.registry import list_envs, make

_KEYS = {"env_id", "options"}


def load_config(path: str | Path) -> tuple[str, dict[str, Any]]:
    """Read a config file: ``(env_id, options)``; a malformed file raises ``ValueError``."""
    p = Path(path)
    try:
        data = yaml.safe_load(p.read_text())
    except FileNotFoundError:
        raise ValueError(f"config file {str(p)!r} does not exist") from None
    except yaml.YAMLError as exc:
        raise ValueError(f"malformed config {str(p)!r}: not YAML ({exc})") from None
    if not isinstance(data, dict):
        raise ValueError(f"malformed config {str(p)!r}: expected a mapping with keys {sorted(_KEYS)}")
    unknown = sorted(set(data) - _KEYS)
    if unknown:
        raise ValueError(f"malformed config {str(p)!r}: unknown key(s) {unknown}; allowed: {sorted(_KEYS)}")
    env_id = data.get("env_id")
    if env_id not in list_envs():
        raise ValueError(f"malformed config {str(p)!r}: env_id {env_id!r} is not one of {list_envs()}")
    options = data.get("options") or {}
    if not isinstance(options, dict):
        raise ValueError(f"malformed config {str(p)!r}: 'options' must be a mapping, got {type(options).__name__}")
    return env_id, options


def make_from_config(path: str | Path, **overrides: Any) -> LabyrinthAECEnv:
    """``make()`` from a config file; keyword overrides replace the file's options."""
    env_id, options = load_config(path)
    try:
        return make(env_id, **{**options, **overrides})
    except ValueError as exc:
        raise ValueError(f"config {str(path)!r}: {exc}") from None
