"""YAML configs: an env id and exactly the options ``make()`` takes.

```yaml
env_id: team_edition_v2
options:
  num_players: 2
  variant: standard
```
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from labyrinth_env.aec import LabyrinthAECEnv
from labyrinth_env.registry import list_envs, make, parse_yaml_file

_KEYS = {"env_id", "options"}


def load_config(path: str | Path) -> tuple[str, dict[str, Any]]:
    """Read a config file: ``(env_id, options)``; a malformed file raises ``ValueError``."""
    p = Path(path)
    data = parse_yaml_file(p, "config file")
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
    bad = [k for k in options if not isinstance(k, str)]
    if bad:
        raise ValueError(f"malformed config {str(p)!r}: option names must be words, got {bad[0]!r}")
    return env_id, options


def make_from_config(path: str | Path, **overrides: Any) -> LabyrinthAECEnv:
    """``make()`` from a config file; keyword overrides replace the file's options."""
    env_id, options = load_config(path)
    try:
        return make(env_id, **{**options, **overrides})
    except ValueError as exc:
        raise ValueError(f"config {str(path)!r}: {exc}") from None
