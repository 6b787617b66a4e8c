"""The checks both training configs share (MaskablePPO's and the self-play learner's): every
key known, every value of its type, sections merged over their defaults; one ``ValueError``
naming the config, the key and what is allowed."""

from __future__ import annotations

from typing import Any


def check_type(where: str, value: Any, typ: type | tuple[type, ...]) -> None:
    """``value`` is one of ``typ`` (a bool is no int, an int is a float), or ``ValueError``."""
    types = typ if isinstance(typ, tuple) else (typ,)
    ok = isinstance(value, types) and not (isinstance(value, bool) and bool not in types)
    if float in types and isinstance(value, int) and not isinstance(value, bool):
        ok = True
    if not ok:
        names = " or ".join(t.__name__ for t in types)
        raise ValueError(f"training config {where}: expected {names}, got {type(value).__name__} {value!r}")


def check_schema(data: Any, top: dict[str, Any], sections: dict[str, dict[str, Any]], where: str) -> dict[str, Any]:
    """``data`` (the YAML) checked against ``top`` (key -> type; a section's type is dict) and
    ``sections`` (section -> key -> type); returns the top-level keys that are not sections.
    ``env_id`` is required."""
    if not isinstance(data, dict):
        raise ValueError(f"{where}: expected a mapping of {sorted(top)}")
    unknown = sorted(set(data) - set(top), key=repr)  # keys of any type (YAML allows 1: or null:)
    if unknown:
        raise ValueError(f"{where}: unknown key(s) {unknown}; allowed: {sorted(top)}")
    if "env_id" not in data:
        raise ValueError(f"{where}: 'env_id' is required")
    for key, value in data.items():
        check_type(key, value, top[key])
    for section, keys in sections.items():
        for key, value in data.get(section, {}).items():
            if key not in keys:
                raise ValueError(f"{where}: unknown key {section}.{key}; allowed: {sorted(keys)}")
            check_type(f"{section}.{key}", value, keys[key])
    return {k: v for k, v in data.items() if k not in sections}


def merge_sections(cfg: Any, data: dict[str, Any], sections: dict[str, dict[str, Any]]) -> None:
    """Each section of ``cfg`` becomes its defaults updated with what ``data`` gives."""
    for section in sections:
        merged = dict(getattr(cfg, section))
        merged.update(data.get(section, {}))
        setattr(cfg, section, merged)
